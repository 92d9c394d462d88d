// Interleaved vs split-halves RoPE, sinusoidal layouts, permutation helpers, and the RoPE clock.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "positional/clock.hpp"
#include "positional/conventions.hpp"
#include "positional/permutation.hpp"
#include "positional/rope.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {

Vector random_vector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  Vector v(n);
  for (int i = 0; i < n; ++i) v[i] = normal(rng);
  return v;
}

TEST(Permutation, InterleavedToHalves) {
  const Permutation p = interleaved_to_half_permutation(8);
  const Permutation expected = {0, 2, 4, 6, 1, 3, 5, 7};
  EXPECT_EQ(p, expected);
  EXPECT_THROW(interleaved_to_half_permutation(7), InputError);
  const Permutation r = reversal_permutation(3);
  EXPECT_EQ(r, (Permutation{2, 1, 0}));
}

TEST(Permutation, PermuteChecksItsInput) {
  Vector x(3);
  x << 10, 20, 30;
  const Vector y = permute(x, {2, 0, 1});
  EXPECT_EQ(y[0], 30);
  EXPECT_EQ(y[1], 10);
  EXPECT_THROW(permute(x, {0, 0, 1}), InputError);
  EXPECT_THROW(permute(x, {0, 1}), InputError);
  EXPECT_THROW(permute(x, {0, 1, 3}), InputError);
}

TEST(Permutation, MaxPermutedDifference) {
  Matrix a(3, 3);
  a << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  Matrix b(3, 3);  // a with rows and columns reversed
  b << 9, 8, 7, 6, 5, 4, 3, 2, 1;
  EXPECT_EQ(max_permuted_difference(a, b, reversal_permutation(3)), 0.0);
  EXPECT_EQ(max_permuted_difference(a, b, {0, 1, 2}), 8.0);
  EXPECT_THROW(max_permuted_difference(a, Matrix::Zero(2, 2), {0, 1, 2}), InputError);
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
  EXPECT_THROW(apply_rope_half(Vector::Zero(3), 1), InputError);
  EXPECT_THROW(apply_rope_half(x, std::nan("")), InputError);
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
  EXPECT_THROW(compare_rope_conventions(q, random_vector(32, 4), 0, 10), InputError);
  EXPECT_THROW(compare_rope_conventions(q, k, 0, -1), InputError);
}

TEST(RopeClock, TheLessonsWorkedExample) {
  const Eigen::Vector2d one(1, 0);
  const RopeClock a = rope_clock(one, one, 3, 7);
  EXPECT_NEAR(a.q_rotated[0], -0.98999249660044542, 1e-15);  // cos 3
  EXPECT_NEAR(a.q_rotated[1], 0.14112000805986721, 1e-15);   // sin 3
  EXPECT_NEAR(a.score, std::cos(4.0), 1e-15);                // −0.654
  EXPECT_NEAR(a.angle_between, 4.0 - 2 * M_PI, 1e-14);       // 4 rad, wrapped to (−π, π]
  const RopeClock b = rope_clock(one, one, 103, 107);
  EXPECT_NEAR(b.score, a.score, 1e-13);
  EXPECT_NEAR(b.relative_score, b.score, 1e-13);
  const RopeClock c = rope_clock(one, one, 3, 8);
  EXPECT_NEAR(c.score, std::cos(5.0), 1e-15);
  EXPECT_THROW(rope_clock(one, one, 3, 7, 0), InputError);
  EXPECT_THROW(rope_clock(Eigen::Vector2d(std::nan(""), 0), one, 3, 7), InputError);
}

}  // namespace
}  // namespace positional
