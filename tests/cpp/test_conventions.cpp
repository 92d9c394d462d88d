// Interleaved vs split-halves RoPE: the split-halves rotation, and identical scores (and sinusoidal
// layouts) once the dimensions are permuted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "positional/attention.hpp"
#include "positional/conventions.hpp"
#include "positional/rope.hpp"
#include "positional/validate.hpp"

#include "expect_error.hpp"
#include "test_inputs.hpp"

namespace positional {
namespace {

using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

Vector random_vector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  return testing_support::random_vector(rng, n);
}

TEST(RopeHalf, RotatesPairsIAndIPlusHalf) {
  Vector x(4);
  x << 1, 2, 3, 4;  // pairs (1, 3) at θ_0 = 1 and (2, 4) at θ_1 = 1/100
  const Vector y = apply_rope_half(x, 3, 10000);
  EXPECT_NEAR(y[0], std::cos(3.0) - 3 * std::sin(3.0), 1e-15);
  EXPECT_NEAR(y[2], 3 * std::cos(3.0) + std::sin(3.0), 1e-15);
  EXPECT_NEAR(y[1], 2 * std::cos(0.03) - 4 * std::sin(0.03), 1e-15);
  EXPECT_NEAR(y[3], 4 * std::cos(0.03) + 2 * std::sin(0.03), 1e-15);
  EXPECT_NEAR(y.norm(), x.norm(), 1e-13);  // a rotation keeps the length
  EXPECT_THAT(error_of([&] { apply_rope_half(Vector::Zero(3), 1); }),
              names_field_and_rule("x length", "must be even (RoPE rotates pairs)"));
  EXPECT_THAT(error_of([&] { apply_rope_half(x, std::nan("")); }),
              names_field_and_rule("position", "must be finite"));
}

TEST(RopeHalf, EqualsInterleavedAfterPermutation) {
  const Vector x = random_vector(64, 1);
  const Permutation p = interleaved_to_half_permutation(64);
  const Vector via_half = apply_rope_half(permute(x, p), 1234.5, 10000);
  const Vector via_interleaved = permute(apply_rope(x, 1234.5, 10000), p);
  EXPECT_LT((via_half - via_interleaved).cwiseAbs().maxCoeff(), 1e-12);
}

// Scores are sums of 64 products of O(1) numbers: both layouts add the same terms in a different
// order, so they agree to about 1e-13; without the permutation they differ by O(1).
TEST(Conventions, IdenticalScoresUpToAPermutation) {
  const Vector q = random_vector(64, 2);
  const Vector k = random_vector(64, 3);
  const ConventionComparison c = compare_rope_conventions(q, k, 100, 59, 10000);
  ASSERT_EQ(c.interleaved_scores.size(), 60);
  EXPECT_LT(c.max_score_difference, 1e-12);
  EXPECT_GT(c.max_unpermuted_difference, 0.1);
  EXPECT_EQ(c.sinusoidal_max_difference, 0.0);  // the same sin/cos values, only moved
  EXPECT_EQ(c.permutation, interleaved_to_half_permutation(64));
  EXPECT_NEAR(c.interleaved_scores[4], apply_rope(q, 100).dot(apply_rope(k, 104)), 1e-12);
  EXPECT_THAT(error_of([&] { compare_rope_conventions(q, random_vector(32, 4), 0, 10); }),
              names_field_and_rule("k length", "must be equal to q's (64)"));
  EXPECT_THAT(error_of([&] { compare_rope_conventions(q, k, 0, -1); }),
              names_field_and_rule("max_distance", "must be a whole number from 0 to 1048576"));
}

}  // namespace
}  // namespace positional
