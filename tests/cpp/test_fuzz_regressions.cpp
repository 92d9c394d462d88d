// Regression tests for what the libFuzzer targets (tests/fuzz/) found: inputs for which an engine
// function returned NaN or infinity, overflowed a signed integer, offset a null pointer or tried a
// huge allocation. The engine's contract is finite results or InputError; each case pins that down.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "expect_error.hpp"
#include "positional/alibi.hpp"
#include "positional/attention.hpp"
#include "positional/clock.hpp"
#include "positional/conventions.hpp"
#include "positional/extension.hpp"
#include "positional/permutation.hpp"
#include "positional/precision.hpp"
#include "positional/rope.hpp"
#include "positional/scaling.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
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
  EXPECT_THROW(sinusoidal_encoding(2, 400, 1e-310), InputError);
  EXPECT_THROW(rope_frequencies(400, 1e-310), InputError);
  EXPECT_THROW(sinusoidal_dot(1e305, 0, 4, 1e-10), InputError);  // angle 1e305 · 1e5
  // Small but harmless bases still work.
  EXPECT_TRUE(sinusoidal_encoding(3, 4, 1e-10).allFinite());
}

TEST(FuzzRegression, RopeAnglesAndEntriesThatOverflowAreErrors) {
  EXPECT_THROW(apply_rope(vec({1, 1, 1, 1}), 1e305, 1e-10), InputError);  // 1e305 · θ_1 = 1e310
  // A pair of length ≥ DBL_MAX overflowed when turned by π/4.
  EXPECT_THROW(apply_rope(vec({1.5e308, 1.5e308}), std::atan(1.0)), InputError);
  EXPECT_THROW(apply_rope_sequence(row_matrix({1.5e308, 1.5e308})), InputError);
  EXPECT_THROW(apply_rope_half(vec({1, 1, 1, 1}), 1e305, 1e-10), InputError);
  EXPECT_THROW(rope_pair_angles(vec({1e305}), vec({1}), 4, 1e-10, false), InputError);
  // 2^1022 itself is allowed and turns without overflow.
  EXPECT_TRUE(apply_rope(vec({0x1p1022, 0x1p1022}), std::atan(1.0)).allFinite());
}

TEST(FuzzRegression, ScoresThatOverflowAreErrors) {
  const Vector big = vec({1e200, 0});
  EXPECT_THROW(rope_scores_over_distance(big, big, vec({0}), 3), InputError);
  EXPECT_THROW(compare_rope_conventions(big, big, 0, 3), InputError);
  EXPECT_THROW(rope_clock(Eigen::Vector2d(1e200, 0), Eigen::Vector2d(1e200, 0), 0, 0), InputError);
  const Matrix q = row_matrix({1e200, 0});
  const Matrix v = row_matrix({1});
  // q·kᵀ = 1e400 = inf, and inf − inf = NaN in the softmax.
  EXPECT_THROW(scaled_dot_product_attention(q, q, v), InputError);
}

TEST(FuzzRegression, MaxDistanceAtTheInt64LimitIsAnError) {
  // max_distance + 1 overflowed (undefined behaviour) before the size check.
  EXPECT_THROW(
      rope_scores_over_distance(vec({1, 0}), vec({0, 1}), vec({0}), std::numeric_limits<std::int64_t>::max()),
      InputError);
}

TEST(FuzzRegression, HugePermutationIsAnErrorNotAnAllocation) {
  EXPECT_THROW(reversal_permutation(std::int64_t{1} << 40), InputError);
}

TEST(FuzzRegression, PermutationsRejectNonFiniteEntriesAndHandleEmptyRows) {
  EXPECT_THROW(permute(vec({kNaN, 1}), {1, 0}), InputError);
  EXPECT_THROW(permute_columns(row_matrix({1, kNaN}), {1, 0}), InputError);
  const Matrix empty(0, 3);  // .col(j) of it offset a null pointer
  EXPECT_EQ(permute_columns(empty, {2, 1, 0}).cols(), 3);
  EXPECT_THROW(max_permuted_difference(row_matrix({1e308}), row_matrix({-1e308}), {0}), InputError);
}

TEST(FuzzRegression, OverflowingProductsInTheWidgetsAreErrors) {
  EXPECT_THROW(alibi_bias(1e308, 3), InputError);
  EXPECT_THROW(interpolate_positions(vec({1e300}), 1e10, 1e-5), InputError);
  EXPECT_THROW(context_extension_curves(vec({1e300}), 1, 2, 4, 1e-100), InputError);
  EXPECT_THROW(extension_curves(vec({1e300}), 1, 2, 4, 1e-100), InputError);
  EXPECT_THROW(float32_angle_errors(vec({2e9}), vec({1}), 4, 1e-60), InputError);
  EXPECT_THROW(pair_wavelengths(vec({kSmallestSubnormal})), InputError);
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
  EXPECT_THROW(cosine_similarity(vec({0, 0}), vec({1, 0})), InputError);
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
