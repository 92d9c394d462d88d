// Regression tests for what the libFuzzer targets (tests/fuzz/) found: inputs for which an engine
// function returned NaN or infinity, overflowed a signed integer, offset a null pointer or tried a
// huge allocation. The engine's contract is finite results or InputError; each case pins that down.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "expect_error.hpp"
#include "positional/alibi.hpp"
#include "positional/attention.hpp"
#include "positional/conventions.hpp"
#include "positional/precision.hpp"
#include "positional/rope.hpp"
#include "positional/rope_scaling.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"
#include "test_inputs.hpp"

namespace positional {
namespace {

using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

constexpr double kSmallestSubnormal = std::numeric_limits<double>::denorm_min();

Vector vec(std::initializer_list<double> values) {
  Vector v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (const double x : values) v[i++] = x;
  return v;
}

Matrix row_matrix(std::initializer_list<double> values) {
  const Vector v = vec(values);
  return Matrix(v.transpose());
}

TEST(FuzzRegression, TinyBaseGivesAnErrorNotNaN) {
  // base^(−398/400) ≈ 2.8e308 overflows: the table's fast pair turned sin(inf) = NaN.
  EXPECT_THAT(error_of([&] { sinusoidal_encoding(2, 400, 1e-310); }),
              names_field_and_rule("the angle (n − 1) · speed", "overflows"));
  EXPECT_THAT(error_of([&] { rope_frequencies(400, 1e-310); }),
              names_field_and_rule("base", "must be large enough that base^(−(d−2)/d) is finite"));
  EXPECT_THAT(error_of([&] { sinusoidal_dot(1e305, 0, 4, 1e-10); }),
              names_field_and_rule("the angle position_a · speed", "overflows"));  // angle 1e305 · 1e5
  // Small but harmless bases still work.
  EXPECT_TRUE(sinusoidal_encoding(3, 4, 1e-10).allFinite());
}

TEST(FuzzRegression, RopeAnglesAndEntriesThatOverflowAreErrors) {
  EXPECT_THAT(error_of([&] {
                apply_rope(vec({1, 1, 1, 1}), 1e305, 1e-10);
              }),
              names_field_and_rule("the angle position · θ", "overflows"));  // 1e305 · θ_1 = 1e310
  // A pair of length ≥ DBL_MAX overflowed when turned by π/4.
  EXPECT_THAT(error_of([&] {
                apply_rope(vec({1.5e308, 1.5e308}), std::atan(1.0));
              }),
              names_field_and_rule(
                  "x[0]", "must be at most 2^1022 in magnitude (a larger pair overflows when turned)"));
  EXPECT_THAT(error_of([&] {
                apply_rope_sequence(row_matrix({1.5e308, 1.5e308}));
              }),
              names_field_and_rule(
                  "x[0][0]", "must be at most 2^1022 in magnitude (a larger pair overflows when turned)"));
  EXPECT_THAT(
      error_of([&] {
        apply_rope_half(vec({1, 1, 1, 1}), 1e305, 1e-10);
      }),
      names_field_and_rule("the rotation",
                           "overflows: the angle position · θ or an entry of x is too large for a double"));
  EXPECT_THAT(error_of([&] { rope_pair_angles(vec({1e305}), vec({1}), 4, 1e-10, false); }),
              names_field_and_rule("the angle position · θ", "overflows"));
  // 2^1022 itself is allowed and turns without overflow.
  EXPECT_TRUE(apply_rope(vec({0x1p1022, 0x1p1022}), std::atan(1.0)).allFinite());
}

TEST(FuzzRegression, ScoresThatOverflowAreErrors) {
  const Vector big = vec({1e200, 0});
  EXPECT_THAT(error_of([&] { rope_scores_over_distance(big, big, vec({0}), 3); }),
              names_field_and_rule("the score q · k",
                                   "overflows: q and k are too large (|q| · |k| must stay below 1.8e308)"));
  EXPECT_THAT(
      error_of([&] { compare_rope_conventions(big, big, 0, 3); }),
      names_field_and_rule("the scores", "overflow: q, k or the positions are too large for a double"));
  EXPECT_THAT(error_of([&] { rope_clock(Eigen::Vector2d(1e200, 0), Eigen::Vector2d(1e200, 0), 0, 0); }),
              names_field_and_rule(
                  "the clock", "overflows: an angle m·θ, n·θ or the score q·k is too large for a double"));
  const Matrix q = row_matrix({1e200, 0});
  const Matrix v = row_matrix({1});
  // q·kᵀ = 1e400 = inf, and inf − inf = NaN in the softmax.
  EXPECT_THAT(error_of([&] { scaled_dot_product_attention(q, q, v); }),
              names_field_and_rule(
                  "q · kᵀ", "overflows: the entries of q and k are too large (a score exceeds 1.8e308)"));
}

TEST(FuzzRegression, MaxDistanceAtTheInt64LimitIsAnError) {
  // max_distance + 1 overflowed (undefined behaviour) before the size check.
  EXPECT_THAT(error_of([&] {
                rope_scores_over_distance(vec({1, 0}), vec({0, 1}), vec({0}),
                                          std::numeric_limits<std::int64_t>::max());
              }),
              names_field_and_rule("max_distance", "must be less than 16777216"));
}

TEST(FuzzRegression, HugePermutationIsAnErrorNotAnAllocation) {
  EXPECT_THAT(error_of([&] { reversal_permutation(std::int64_t{1} << 40); }),
              names_field_and_rule("the permutation", "more than the cap of 16777216 (2^24)"));
}

TEST(FuzzRegression, PermutationsRejectNonFiniteEntriesAndHandleEmptyRows) {
  EXPECT_THAT(error_of([&] {
                permute(vec({kNaN, 1}), {1, 0});
              }),
              names_field_and_rule("x[0]", "must be finite"));
  EXPECT_THAT(error_of([&] {
                permute_columns(row_matrix({1, kNaN}), {1, 0});
              }),
              names_field_and_rule("m[0][1]", "must be finite"));
  const Matrix empty(0, 3);  // .col(j) of it offset a null pointer
  EXPECT_EQ(permute_columns(empty, {2, 1, 0}).cols(), 3);
  EXPECT_THAT(error_of([&] { max_permuted_difference(row_matrix({1e308}), row_matrix({-1e308}), {0}); }),
              names_field_and_rule("a and b", "differ by more than the largest double (1.8e308)"));
}

TEST(FuzzRegression, OverflowingProductsInTheWidgetsAreErrors) {
  EXPECT_THAT(error_of([&] { alibi_bias(1e308, 3); }),
              names_field_and_rule("slope", "must be small enough that slope · (length − 1) is finite"));
  EXPECT_THAT(error_of([&] { interpolate_positions(vec({1e300}), 1e10, 1e-5); }),
              names_field_and_rule("positions × trained_len / new_len", "overflows"));
  EXPECT_THAT(
      error_of([&] { context_extension_curves(vec({1e300}), 1, 2, 4, 1e-100); }),
      names_field_and_rule("the angles position · θ",
                           "overflow: the positions, trained_len or the base's speeds are too large"));
  EXPECT_THAT(error_of([&] { extension_curves(vec({1e300}), 1, 2, 4, 1e-100); }),
              names_field_and_rule("the angles position · θ",
                                   "overflow: the positions or trained_len are too large"));
  EXPECT_THAT(error_of([&] { float32_angle_errors(vec({2e9}), vec({1}), 4, 1e-60); }),
              names_field_and_rule(
                  "an angle m · θ_i",
                  "overflows in float32 or double: the positions or the base's speeds are too large"));
  EXPECT_THAT(error_of([&] { pair_wavelengths(vec({kSmallestSubnormal})); }),
              names_field_and_rule("inv_freq[0]", "must be large enough that 2π / inv_freq is finite"));
}

TEST(FuzzRegression, CosineSimilarityOfHugeAndTinyVectors) {
  // |a| overflowed to inf (huge) or underflowed to 0 (subnormal: wrongly "a zero vector").
  const double inv_sqrt2 = 1 / std::sqrt(2.0);
  EXPECT_NEAR(cosine_similarity(vec({1e300, 1e300}), vec({1e300, 0})), inv_sqrt2, 1e-15);
  EXPECT_NEAR(cosine_similarity(vec({kSmallestSubnormal, kSmallestSubnormal}), vec({kSmallestSubnormal, 0})),
              inv_sqrt2, 1e-15);
  // The power-of-two scaling is exact: ordinary vectors give the plain formula bit for bit.
  const Vector a = vec({1.5, -2.25, 3.1, 0.7});
  const Vector b = vec({4.2, 5.5, -6.3, 1e-3});
  EXPECT_EQ(cosine_similarity(a, b), a.dot(b) / (a.norm() * b.norm()));
  EXPECT_THAT(error_of([&] {
                cosine_similarity(vec({0, 0}), vec({1, 0}));
              }),
              names_field_and_rule("a and b", "must be non-zero vectors (a zero vector has no direction)"));
}

TEST(FuzzRegression, YarnWithATrainedLengthThatUnderflowsIsAnError) {
  // trained_len / (2π·β) underflowed to 0: the ramp sat at ±∞ and every θ came out NaN.
  const std::string message =
      testing_support::error_of([] { yarn_inverse_frequencies(4, 0.5, 1, kSmallestSubnormal, 32, 1); });
  EXPECT_NE(message.find("trained_len"), std::string::npos) << message;
  EXPECT_NE(message.find("correction range is finite"), std::string::npos) << message;
  // An ordinary tiny length still works and gives finite frequencies.
  const Vector theta = yarn_inverse_frequencies(4, 10000, 2, 1e-3, 32, 1);
  EXPECT_TRUE(theta.allFinite());
}

}  // namespace
}  // namespace positional
