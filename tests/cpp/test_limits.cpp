// The caps of limits.hpp: every function refuses, before working, a request over its cap on output
// or on work, with a message naming what and the cap; at the cap it still answers.
#include <gtest/gtest.h>

#include <cfloat>  // FLT_MAX
#include <chrono>

#include "expect_error.hpp"
#include "positional/alibi.hpp"
#include "positional/attention.hpp"
#include "positional/conventions.hpp"
#include "positional/demo_layer.hpp"
#include "positional/limits.hpp"
#include "positional/numpy_random.hpp"
#include "positional/precision.hpp"
#include "positional/rope.hpp"
#include "positional/rope_scaling.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {

using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

TEST(Limits, SharedConstants) {
  EXPECT_EQ(kMaxOutputDoubles, 16777216);
  EXPECT_EQ(kDefaultBase, 10000.0);
  // π as a double: the nearest double to π, whose sine is the error of the rounding (about 1.2e-16).
  EXPECT_NEAR(std::sin(kPi), 1.2246467991473532e-16, 1e-30);
}

TEST(Limits, RequireWorkNamesTheFactorsAndTheCap) {
  EXPECT_EQ(error_of([] {
              require_work("the table", {2048, 2049}, kMaxWorkSteps);
            }),
            "the table would take 2048 × 2049 steps, more than the cap of 4194304");
  EXPECT_EQ(error_of([] { require_work("the table", {2048, 2048}, kMaxWorkSteps); }), "no error");
  // A product that would overflow 64 bits is still refused, and a zero factor means no work.
  EXPECT_NE(error_of([] {
              require_work("x", {std::int64_t{1} << 40, std::int64_t{1} << 40}, kMaxWorkSteps);
            }),
            "no error");
  EXPECT_EQ(error_of([] {
              require_work("x", {0, std::int64_t{1} << 62, std::int64_t{1} << 62}, kMaxWorkSteps);
            }),
            "no error");
}

TEST(Limits, ExtensionInverseFrequenciesOutput) {
  EXPECT_EQ(error_of([] { extension_inverse_frequencies(16777216, 10000, 4096, 32768); }),
            "the frequency table would hold 5 × 8388608 numbers, more than the cap of 16777216 (2^24)");
}

TEST(Limits, InterpolatedPositionsAndWavelengthsInput) {
  const Vector too_many = Vector::Ones(kMaxOutputDoubles + 1);
  EXPECT_EQ(
      error_of([&] { interpolate_positions(too_many, 4096, 32768); }),
      "the interpolated positions would hold 1 × 16777217 numbers, more than the cap of 16777216 (2^24)");
  EXPECT_EQ(error_of([&] { pair_wavelengths(too_many); }),
            "the wavelengths would hold 1 × 16777217 numbers, more than the cap of 16777216 (2^24)");
}

TEST(Limits, ConventionsWork) {
  const Vector q = Vector::Ones(64);
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of([&] { compare_rope_conventions(q, q, 0, std::int64_t{1} << 20); }),
            "the comparison would take 1048577 × 96 steps, more than the cap of 4194304");
  // Refused before any rotation: far below the seconds the work itself would take.
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(500));
  const Vector pair = Vector::Ones(2);
  // d = 2: (maxDistance + 1) × 34 ≤ 2^22 up to maxDistance 123360.
  EXPECT_EQ(error_of([&] { compare_rope_conventions(pair, pair, 0, 123360); }), "no error");
  EXPECT_EQ(error_of([&] { compare_rope_conventions(pair, pair, 0, 123361); }),
            "the comparison would take 123362 × 34 steps, more than the cap of 4194304");
}

TEST(Limits, AttentionWork) {
  // n × m × (d_k + d_v) = 512 × 512 × 1025, just over 2^28.
  const Matrix q = Matrix::Zero(512, 1024);
  const Matrix v = Matrix::Zero(512, 1);
  EXPECT_EQ(error_of([&] { scaled_dot_product_attention(q, q, v); }),
            "attention would take 512 × 512 × 1025 steps, more than the cap of 268435456");
  EXPECT_EQ(error_of([] { require_work("attention", {512, 512, 1024}, kMaxAttentionWork); }), "no error");
}

TEST(Limits, DecayWork) {
  EXPECT_EQ(error_of([] { rope_decay_curve(4096, 10000, std::int64_t{1} << 22); }),
            "the decay curve would take 2048 × 4194305 × 2 steps, more than the cap of 4194304");
  EXPECT_EQ(error_of([] { rope_ones_scores(512, 10000, 4096); }), "no error");  // the ALiBi chart's largest
}

TEST(Limits, ScoresOverDistanceWork) {
  const Vector q = Vector::Ones(64);
  const Vector starts = Vector::Zero(512);
  EXPECT_EQ(error_of([&] { rope_scores_over_distance(q, q, starts, 511, 10000); }),
            "the score table would take 512 × 512 × 32 steps, more than the cap of 4194304");
}

TEST(Limits, Float32ErrorsWork) {
  const Vector positions = Vector::Zero(std::int64_t{1} << 14);
  const Vector pairs = Vector::Zero(17);
  EXPECT_EQ(error_of([&] { float32_angle_errors(positions, pairs, 4096); }),
            "the error table would take 17 × 16384 × 16 steps, more than the cap of 4194304");
}

TEST(Limits, RotationsAnglesCurvesPermutationsWords) {
  const Vector x = Vector::Ones((std::int64_t{1} << 22) + 2);
  EXPECT_EQ(error_of([&] { apply_rope(x, 1.0); }),
            "rotating x would take 4194306 steps, more than the cap of 4194304");
  EXPECT_EQ(error_of([&] { apply_rope_half(x, 1.0); }),
            "rotating x would take 4194306 steps, more than the cap of 4194304");
  const Matrix rows = Matrix::Ones(2049, 2048);
  EXPECT_EQ(error_of([&] { apply_rope_sequence(rows); }),
            "rotating x would take 2049 × 2048 steps, more than the cap of 4194304");
  const Vector positions = Vector::Zero(4096);
  const Vector pairs = Vector::Zero(1025);
  EXPECT_EQ(error_of([&] { rope_pair_angles(positions, pairs, 4096); }),
            "the angle table would take 1025 × 4096 steps, more than the cap of 4194304");
  const Vector many = Vector::Zero((std::int64_t{1} << 20) + 1);
  EXPECT_EQ(error_of([&] { extension_curves(many, 4096, 32768, 128); }),
            "the curves would take 1048577 × 4 steps, more than the cap of 4194304");
  EXPECT_EQ(error_of([] { reversal_permutation((std::int64_t{1} << 22) + 1); }),
            "the permutation would take 4194305 steps, more than the cap of 4194304");
  EXPECT_EQ(error_of([] { word_vector("x", kMaxWordDimension + 1); }),
            "d must be a whole number from 1 to 1048576, got 1048577");
}

TEST(Limits, Float32ThetaAboveFltMaxIsRefused) {
  // base 1e-300, d = 4: θ_1 = base^(−1/2) = 1e150, above FLT_MAX; converting it would be undefined.
  Vector positions(1);
  positions << 1;
  Vector pairs(1);
  pairs << 1;
  const std::string message = error_of([&] { float32_angle_errors(positions, pairs, 4, 1e-300); });
  EXPECT_EQ(message.rfind("theta of pair 1 must be at most the largest float32 (3.4028235e38); the base is "
                          "too small, got 1e+150",
                          0),
            0u)
      << message;
  // θ exactly representable and below FLT_MAX still works.
  EXPECT_LT(rope_frequencies(4, 1e-60)[1], static_cast<double>(FLT_MAX));
  EXPECT_EQ(error_of([&] { float32_angle_errors(positions, pairs, 4, 1e-60); }), "no error");
}

TEST(Limits, CompactNormalSampleIsInTheEngine) {
  Generator all = Generator::from_seed(7);
  Generator compact = Generator::from_seed(7);
  const std::int64_t n = 5000;
  const Vector every = all.standard_normal(n);
  const Vector sample = compact.standard_normal_compact(n);
  // 1000 head values, every 997th (5 of them), and the last.
  ASSERT_EQ(sample.size(), 1000 + 5 + 1);
  EXPECT_EQ(sample[999], every[999]);
  EXPECT_EQ(sample[1000], every[996]);
  EXPECT_EQ(sample[1004], every[4984]);
  EXPECT_EQ(sample[1005], every[n - 1]);
  EXPECT_EQ(error_of([&] { compact.standard_normal_compact(kMaxNormalDraws + 1); }),
            "count must be a whole number from 0 to 4194304, got 4194305");
}

}  // namespace
}  // namespace positional
