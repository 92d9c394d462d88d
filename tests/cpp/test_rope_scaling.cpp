// RoPE scaling: the lesson's two methods (position interpolation, the NTK base), then the recipes
// beyond it (YaRN, dynamic NTK, Llama 3, LongRoPE, linear), pair wavelengths and the
// five-treatment extension curves.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "expect_error.hpp"
#include "positional/limits.hpp"
#include "positional/rope.hpp"
#include "positional/rope_scaling.hpp"
#include "positional/validate.hpp"
#include "test_inputs.hpp"

namespace positional {
namespace {

using ::testing::HasSubstr;
using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

// Reference values below were computed with Hugging Face's _compute_yarn_parameters and
// _compute_dynamic_ntk_parameters re-typed in numpy (float64); the engine must agree to
// a few ulps (1e-12 relative), the only difference being the order of floating-point operations.
TEST(Yarn, CorrectionRangeMatchesHuggingFace) {
  const YarnCorrectionRange llama = yarn_correction_range(128, 10000, 4096, 32, 1);
  EXPECT_EQ(llama.low, 20);
  EXPECT_EQ(llama.high, 46);
  const YarnCorrectionRange small = yarn_correction_range(64, 500000, 8192, 32, 1);
  EXPECT_EQ(small.low, 9);
  EXPECT_EQ(small.high, 18);
}

TEST(Yarn, InverseFrequenciesMatchHuggingFace) {
  const Vector f = yarn_inverse_frequencies(128, 10000, 8, 4096, 32, 1);
  ASSERT_EQ(f.size(), 64);
  EXPECT_NEAR(f[0], 1.0, 1e-15);
  EXPECT_NEAR(f[30] / 0.008847401809545132, 1.0, 1e-12);
  EXPECT_NEAR(f[63] / 1.4434774808618228e-05, 1.0, 1e-12);
  const Vector g = yarn_inverse_frequencies(64, 500000, 4, 8192, 32, 1);
  EXPECT_NEAR(g[10] / 0.015180403407578242, 1.0, 1e-12);
  EXPECT_NEAR(g[20] / 6.856204391905182e-05, 1.0, 1e-12);
}

TEST(Yarn, FastPairsKeptSlowPairsInterpolated) {
  const double scale = 8;
  const Vector theta = rope_frequencies(128, 10000);
  const Vector f = yarn_inverse_frequencies(128, 10000, scale, 4096, 32, 1);
  const Vector w = yarn_extrapolation_weights(128, 10000, 4096, 32, 1);
  for (int i = 0; i <= 20; ++i) {
    EXPECT_EQ(w[i], 1.0) << i;
    EXPECT_DOUBLE_EQ(f[i], theta[i]) << i;  // below the ramp: extrapolation, untouched
  }
  for (int i = 46; i < 64; ++i) {
    EXPECT_EQ(w[i], 0.0) << i;
    EXPECT_NEAR(f[i], theta[i] / scale, 1e-15 * theta[i]) << i;  // above: position interpolation
  }
  for (int i = 21; i < 46; ++i) {
    EXPECT_GT(w[i], 0.0);
    EXPECT_LT(w[i], 1.0);
    EXPECT_LT(w[i], w[i - 1]);  // the ramp falls monotonically
    EXPECT_LT(f[i], theta[i]);
    EXPECT_GT(f[i], theta[i] / scale);
  }
}

TEST(Yarn, ScaleOneIsPlainRope) {
  const Vector theta = rope_frequencies(64, 10000);
  const Vector f = yarn_inverse_frequencies(64, 10000, 1, 2048);
  EXPECT_LT((f - theta).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(Yarn, AttentionFactor) {
  EXPECT_EQ(yarn_attention_factor(1), 1.0);
  EXPECT_EQ(yarn_attention_factor(0.5), 1.0);
  EXPECT_NEAR(yarn_attention_factor(8), 0.1 * std::log(8.0) + 1.0, 1e-15);
  EXPECT_NEAR(yarn_attention_factor(16), 1.2772588722239781, 1e-15);
  EXPECT_THAT(error_of([&] { yarn_attention_factor(0); }),
              names_field_and_rule("scale", "must be a finite number > 0"));
  EXPECT_THAT(error_of([&] { yarn_attention_factor(std::nan("")); }),
              names_field_and_rule("scale", "must be a finite number > 0"));
}

TEST(Yarn, RejectsBadArguments) {
  EXPECT_THAT(error_of([&] { yarn_inverse_frequencies(7, 10000, 8, 4096); }),
              names_field_and_rule("d", "must be even"));
  EXPECT_THAT(
      error_of([&] { yarn_inverse_frequencies(64, 1, 8, 4096); }),
      names_field_and_rule("base", "must be different from 1 (every pair would turn at the same speed)"));
  EXPECT_THAT(error_of([&] { yarn_inverse_frequencies(64, 10000, 0.5, 4096); }),
              names_field_and_rule("scale", "must be a finite number ≥ 1"));
  EXPECT_THAT(error_of([&] { yarn_inverse_frequencies(64, 10000, 8, 0); }),
              names_field_and_rule("trained_len", "must be a finite number > 0"));
  EXPECT_THAT(error_of([&] { yarn_inverse_frequencies(64, 10000, 8, 4096, 1, 32); }),
              names_field_and_rule("beta_fast", "must be greater than beta_slow (32)"));
}

TEST(DynamicNtk, MatchesHuggingFace) {
  EXPECT_NEAR(dynamic_ntk_base(10000, 8, 128, 32768, 4096) / 607779.2727297307, 1.0, 1e-12);
  EXPECT_NEAR(dynamic_ntk_base(10000, 2, 64, 10000, 4096) / 40564.96842633863, 1.0, 1e-12);
}

TEST(DynamicNtk, UnchangedInsideTrainedLength) {
  EXPECT_EQ(dynamic_ntk_base(10000, 8, 128, 100, 4096), 10000.0);
  EXPECT_EQ(dynamic_ntk_base(10000, 8, 128, 4096, 4096), 10000.0);
  EXPECT_GT(dynamic_ntk_base(10000, 8, 128, 4097, 4096), 10000.0);
}

TEST(DynamicNtk, AtScaleTimesTrainedEqualsStaticNtkWithGrownScale) {
  // At seq_len = s·L the stretch is s² − s + 1; dynamic NTK then equals static NTK at that scale.
  const double s = 4;
  EXPECT_NEAR(dynamic_ntk_base(10000, s, 64, s * 2048, 2048) / ntk_scaled_base(10000, s * s - s + 1, 64), 1.0,
              1e-12);
  EXPECT_THAT(error_of([&] { dynamic_ntk_base(10000, 8, 2, 5000, 4096); }),
              names_field_and_rule("d", "must be at least 4 (d/(d−2) needs a slow pair)"));
  EXPECT_THAT(error_of([&] { dynamic_ntk_base(10000, 0.5, 64, 5000, 4096); }),
              names_field_and_rule("scale", "must be a finite number ≥ 1"));
  EXPECT_THAT(error_of([&] { dynamic_ntk_base(10000, 8, 64, -1, 4096); }),
              names_field_and_rule("seq_len", "must be a finite number > 0"));
  // Its overflow is named by the caller's seq_len and scale, not by the stretch NTK's formula was given.
  EXPECT_THAT(error_of([&] { dynamic_ntk_base(1e300, 8, 4, 1e10, 4096); }),
              testing::StartsWith("the dynamic NTK base overflows for seq_len 1"));
}

TEST(PairWavelengths, TwoPiOverTheta) {
  const Vector theta = rope_frequencies(128, 10000);
  const Vector w = pair_wavelengths(theta);
  EXPECT_NEAR(w[0], kTwoPi, 1e-15);
  EXPECT_NEAR(w[63] / (kTwoPi * std::pow(10000.0, 126.0 / 128.0)), 1.0, 1e-14);
  Vector bad = theta;
  bad[3] = 0;
  EXPECT_THAT(error_of([&] { pair_wavelengths(bad); }),
              names_field_and_rule("inv_freq[3]", "must be a finite number > 0"));
}

TEST(ExtensionInverseFrequencies, RowsAreTheFiveMethods) {
  const Matrix f = extension_inverse_frequencies(128, 10000, 4096, 32768);
  ASSERT_EQ(f.rows(), 5);
  ASSERT_EQ(f.cols(), 64);
  const Vector theta = rope_frequencies(128, 10000);
  EXPECT_LT((f.row(0).transpose() - theta).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((f.row(1).transpose() - theta / 8).cwiseAbs().maxCoeff(), 1e-15);
  // NTK: fastest pair untouched, slowest exactly 8× slower (the lesson's numbers).
  EXPECT_DOUBLE_EQ(f(2, 0), 1.0);
  EXPECT_NEAR(theta[63] / f(2, 63), 8.0, 1e-9);
  EXPECT_LT((f.row(3).transpose() - yarn_inverse_frequencies(128, 10000, 8, 4096)).cwiseAbs().maxCoeff(),
            1e-15);
  EXPECT_NEAR(f(4, 63), rope_frequencies(128, dynamic_ntk_base(10000, 8, 128, 32768, 4096))[63], 1e-18);
  EXPECT_THAT(error_of([&] { extension_inverse_frequencies(128, 10000, 4096, 2048); }),
              names_field_and_rule("new_len", "must be at least trained_len (4096)"));
}

TEST(ExtensionCurves, FirstThreeRowsMatchTheLessonCurves) {
  Vector positions(512);
  for (int j = 0; j < 512; ++j) positions[j] = 64.0 * j;  // np.arange(0, 32768, 64)
  const ExtensionCurves ours = extension_curves(positions, 4096, 32768, 128, 10000);
  const ContextExtensionCurves lesson = context_extension_curves(positions, 4096, 32768, 128, 10000);
  ASSERT_EQ(ours.angles.rows(), 5);
  for (int r = 0; r < 3; ++r) {
    EXPECT_LT((ours.angles.row(r) - lesson.angles.row(r)).cwiseAbs().maxCoeff(), 1e-12) << r;
  }
  EXPECT_NEAR(ours.trained_max, lesson.trained_max, 1e-15);
  EXPECT_NEAR(ours.ntk_base, 82685.0, 0.5);  // the lesson's "≈ 82,685"
  EXPECT_NEAR(ours.attention_factor, 0.1 * std::log(8.0) + 1, 1e-15);
  EXPECT_EQ(ours.yarn_range.low, 20);
  EXPECT_EQ(ours.yarn_range.high, 46);
}

TEST(ExtensionCurves, DynamicRowRecomputesTheBasePerPosition) {
  Vector positions(4);
  positions << 0, 1000, 4095, 20000;
  const ExtensionCurves c = extension_curves(positions, 4096, 32768, 128, 10000);
  const double theta_raw = rope_frequencies(128, 10000)[63];
  EXPECT_DOUBLE_EQ(c.angles(4, 1), 1000 * theta_raw);  // inside the trained length: raw RoPE
  EXPECT_DOUBLE_EQ(c.angles(4, 2), 4095 * theta_raw);
  const double theta_dyn = rope_frequencies(128, dynamic_ntk_base(10000, 8, 128, 20001, 4096))[63];
  EXPECT_NEAR(c.angles(4, 3) / (20000 * theta_dyn), 1.0, 1e-12);
  // Everything YaRN and dynamic NTK produce for the slowest pair stays in the trained band at 32K.
  EXPECT_LE(c.angles(3, 3), c.trained_max);
}

TEST(ExtensionCurves, RejectsNegativePositions) {
  Vector positions(2);
  positions << 0, -1;
  EXPECT_THAT(error_of([&] { extension_curves(positions, 4096, 32768, 128, 10000); }),
              names_field_and_rule("positions[1]", "must be a finite number ≥ 0"));
}

TEST(Extension, InterpolationMapsThirtyTwoThousandToFourThousand) {
  const Vector positions = (Vector(3) << 0, 32000, 32768).finished();
  const Vector squeezed = interpolate_positions(positions, 4096, 32768);
  EXPECT_EQ(squeezed[1], 4000);  // 1/8 is exact in binary
  EXPECT_EQ(squeezed[2], 4096);
  EXPECT_EQ(4096.0 / 32768.0, 0.125);
}

TEST(Extension, NtkBaseForAStretchOfEight) {
  const double power = std::pow(8.0, 128.0 / 126.0);
  EXPECT_NEAR(power, 8.27, 5e-3);  // printed to two decimals
  const double base = ntk_scaled_base(10000, 8, 128);
  EXPECT_EQ(std::round(base), 82685);
  const double slow = rope_frequencies(128)[63];
  const double slow_ntk = rope_frequencies(128, base)[63];
  EXPECT_NEAR(slow, 1.15e-4, 5e-7);      // printed as 1.15e-04
  EXPECT_NEAR(slow_ntk, 1.44e-5, 5e-8);  // printed as 1.44e-05
  EXPECT_NEAR(slow / slow_ntk, 8.0, 1e-12);
  EXPECT_EQ(rope_frequencies(128, base)[0], 1.0);  // the fastest pair is untouched
}

TEST(Extension, CurvesStayInsideTheTrainedBand) {
  const Vector positions = Vector::LinSpaced(512, 0, 511 * 64);
  const ContextExtensionCurves curves = context_extension_curves(positions, 4096, 32768, 128);
  const double top = curves.trained_max;
  EXPECT_NEAR(top, 4096 * rope_frequencies(128)[63], kIdentity);
  EXPECT_GT(curves.angles(0, 511), 7.9 * top);  // raw: about 8× the band's top by 32K
  EXPECT_LE(curves.angles(1, 511), top);
  EXPECT_LE(curves.angles(2, 511), top * (1 + 1e-12));
}

// The curves are computed in one pass, with one overflow check of the largest |position|. Tolerance 0:
// they must equal, bit for bit, the steps the lesson describes (interpolate the positions, then
// multiply by the slowest pair's speed), and the version that writes into a caller's matrix.
TEST(Extension, CurvesEqualTheLessonsStepsExactly) {
  Vector positions = Vector::LinSpaced(777, -3000, 70000);
  positions[5] = 12345.678;
  const ContextExtensionCurves curves = context_extension_curves(positions, 4096, 32768, 128, 10000);
  const double slow = rope_slowest_frequency(128, 10000);
  const double slow_ntk = rope_slowest_frequency(128, ntk_scaled_base(10000, 8, 128));
  const Vector interpolated = interpolate_positions(positions, 4096, 32768);
  for (Eigen::Index j = 0; j < positions.size(); ++j) {
    ASSERT_EQ(curves.angles(0, j), positions[j] * slow) << j;
    ASSERT_EQ(curves.angles(1, j), interpolated[j] * slow) << j;
    ASSERT_EQ(curves.angles(2, j), positions[j] * slow_ntk) << j;
  }
  EXPECT_EQ(curves.trained_max, 4096 * slow);
  Matrix into(3, positions.size());
  EXPECT_EQ(context_extension_curves_into(positions, 4096, 32768, 128, 10000, into), curves.trained_max);
  EXPECT_EQ(into, curves.angles);
}

TEST(Extension, CurvesFindAnOverflowAnywhere) {
  // The one position that overflows is neither first nor last, and negative: the check of the largest
  // |position| must still see it.
  EXPECT_THAT(
      error_of([] { context_extension_curves((Vector(3) << 1, -1e300, 2).finished(), 1, 2, 4, 1e-100); }),
      HasSubstr("the angles position · θ overflow"));
  EXPECT_THAT(
      error_of([] { context_extension_curves((Vector(3) << 1, -1e308, 2).finished(), 10, 1, 128, 10000); }),
      HasSubstr("positions × trained_len / new_len overflows (ratio 10)"));
  // A non-finite position is named before any overflow, as interpolate_positions names it.
  EXPECT_EQ(
      error_of([] { context_extension_curves((Vector(3) << 1e308, 1, kNaN).finished(), 10, 1, 128, 10000); }),
      "positions[2] must be finite, got nan");
  // Just below the overflow: every angle finite, the largest exactly p · θ.
  const ContextExtensionCurves edge =
      context_extension_curves((Vector(2) << 0, 1e250).finished(), 1, 2, 4, 1e-100);
  EXPECT_TRUE(edge.angles.allFinite());
  EXPECT_EQ(edge.angles(0, 1), 1e250 * rope_slowest_frequency(4, 1e-100));
}

TEST(Extension, CurvesIntoAMatrixOfTheWrongShapeIsAnError) {
  Matrix wrong(2, 3);
  EXPECT_EQ(error_of([&] {
              context_extension_curves_into((Vector(3) << 1, 2, 3).finished(), 4096, 32768, 128, 10000,
                                            wrong);
            }),
            "the curves' output must be 3 × 3, got 2 × 3");
}

TEST(Extension, RejectsBadArguments) {
  const Vector p = Vector::Ones(2);
  EXPECT_EQ(error_of([&] { interpolate_positions(p, 0, 10); }),
            "trained_len must be a finite number > 0, got 0");
  EXPECT_EQ(error_of([&] { interpolate_positions(p, 10, -1); }),
            "new_len must be a finite number > 0, got -1");
  EXPECT_EQ(error_of([&] { interpolate_positions((Vector(1) << kNaN).finished(), 10, 20); }),
            "positions[0] must be finite, got nan");
  EXPECT_EQ(error_of([] { ntk_scaled_base(10000, 8, 2); }),
            "d must be at least 4 (d/(d−2) needs a slow pair), got 2");
  EXPECT_EQ(error_of([] { ntk_scaled_base(10000, 8, 7); }), "d must be even, got 7");
  EXPECT_EQ(error_of([] { ntk_scaled_base(1, 8, 128); }),
            "base must be different from 1 (every pair would turn at the same speed), got 1");
  EXPECT_EQ(error_of([] { ntk_scaled_base(10000, 0, 128); }), "scale must be a finite number > 0, got 0");
  EXPECT_THAT(error_of([] { ntk_scaled_base(1e300, 1e200, 4); }), HasSubstr("overflows"));
}

// ---- the recipes the config reader and the charts share --------------------------------

TEST(Recipes, YarnMscaleIsGetMscale) {
  EXPECT_EQ(yarn_mscale(1.0, 0.707), 1.0) << "no stretch, no temperature";
  EXPECT_NEAR(yarn_mscale(40.0, 0.707), 0.1 * 0.707 * std::log(40.0) + 1.0, 1e-15);
  EXPECT_EQ(yarn_mscale(40.0, 1.0), yarn_attention_factor(40.0));
  EXPECT_EQ(yarn_mscale(40.0, 0.0), 1.0) << "vLLM's mscale_all_dim default 0 gives 1";
  EXPECT_EQ(error_of([] { yarn_mscale(4.0, -1.0); }), "mscale must be a finite number ≥ 0, got -1");
}

TEST(Recipes, Llama3KeepsFastPairsDividesSlowPairsAndBlendsBetween) {
  const Vector theta = rope_frequencies(128, 500000);
  const Vector out = llama3_scaled_frequencies(theta, 8, 1, 4, 8192);
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    const double wavelen = kTwoPi / theta[i];
    if (wavelen < 8192.0 / 4) {
      EXPECT_EQ(out[i], theta[i]) << "pair " << i;
    } else if (wavelen > 8192.0) {
      EXPECT_NEAR(out[i], theta[i] / 8, 1e-15 * theta[i]) << "pair " << i;
    } else {
      const double smooth = (8192.0 / wavelen - 1) / 3;
      EXPECT_NEAR(out[i], (1 - smooth) * theta[i] / 8 + smooth * theta[i], 1e-15 * theta[i]) << "pair " << i;
    }
  }
  EXPECT_EQ(error_of([&] { llama3_scaled_frequencies(theta, 8, 4, 2, 8192); }),
            "high_freq_factor must be at least low_freq_factor (4), got 2");
}

// Llama 4 Scout Instruct's factors (16, low = high = 1, 8192): transformers' _compute_llama3_parameters
// has no medium band then (is_medium_freq needs wavelen ≥ 8192 / high and ≤ 8192 / low), so each pair
// is kept (wavelength below 8192) or divided by 16 (above). Written from that function's torch.where steps.
TEST(Recipes, Llama3WithEqualFactorsKeepsOrDividesEveryPair) {
  const Vector theta = rope_frequencies(128, 500000);
  const Vector out = llama3_scaled_frequencies(theta, 16, 1, 1, 8192);
  int kept = 0;
  int divided = 0;
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    const double wavelen = kTwoPi / theta[i];
    ASSERT_NE(wavelen, 8192.0) << "pair " << i << " sits on the boundary, where transformers gives NaN";
    const double expected = wavelen > 8192.0 ? theta[i] / 16 : theta[i];
    (wavelen > 8192.0 ? divided : kept) += 1;
    // 1e-12 relative: one division each way, far inside double rounding.
    EXPECT_NEAR(out[i], expected, 1e-12 * theta[i]) << "pair " << i;
  }
  EXPECT_GT(kept, 0);
  EXPECT_GT(divided, 0);
}

TEST(Recipes, LongropeDividesEachPairAndItsAttentionFactor) {
  const Vector theta = rope_frequencies(8, 10000);
  Vector divisors(4);
  divisors << 1, 2, 4, 8;
  const Vector out = longrope_scaled_frequencies(theta, divisors);
  for (Eigen::Index i = 0; i < 4; ++i) EXPECT_EQ(out[i], theta[i] / divisors[i]);
  EXPECT_NEAR(longrope_attention_factor(32, 4096), std::sqrt(1 + std::log(32.0) / std::log(4096.0)), 1e-15);
  EXPECT_EQ(longrope_attention_factor(1, 4096), 1.0);
  EXPECT_EQ(error_of([&] { longrope_scaled_frequencies(theta, Vector::Ones(3)); }),
            "divisors must hold one number per pair (4), got 3");
  EXPECT_EQ(error_of([&] { longrope_scaled_frequencies(theta, (Vector(4) << 1, 2, 0, 8).finished()); }),
            "divisors[2] must be a finite number > 0, got 0");
  EXPECT_EQ(error_of([&] { longrope_scaled_frequencies(theta, (Vector(4) << 1, kNaN, 4, 8).finished()); }),
            "divisors[1] must be a finite number > 0, got nan");
}

TEST(Recipes, DynamicStretchIsOneUntilTheTrainedLength) {
  EXPECT_EQ(dynamic_ntk_stretch(4, 100, 4096), 1.0);
  EXPECT_EQ(dynamic_ntk_stretch(4, 4096, 4096), 1.0);
  EXPECT_EQ(dynamic_ntk_stretch(4, 8192, 4096), 5.0) << "4 · 2 − 3";
  EXPECT_EQ(dynamic_ntk_base(10000, 4, 128, 8192, 4096), 10000 * std::pow(5.0, 128.0 / 126.0));
}

TEST(Recipes, YarnWithoutTruncationKeepsTheFractionalRamp) {
  const YarnCorrectionRange rounded = yarn_ramp_range(64, 150000, 4096, 32, 1, true);
  const YarnCorrectionRange exact = yarn_ramp_range(64, 150000, 4096, 32, 1, false);
  const auto pair = [](double r) { return 64 * std::log(4096 / (r * kTwoPi)) / (2 * std::log(150000.0)); };
  EXPECT_NEAR(exact.low, pair(32), 1e-13);
  EXPECT_NEAR(exact.high, pair(1), 1e-13);
  EXPECT_EQ(rounded.low, std::floor(pair(32)));
  EXPECT_EQ(rounded.high, std::ceil(pair(1)));
  const Vector truncated = yarn_scaled_frequencies(64, 150000, 32, 4096, 32, 1, true);
  const Vector same = yarn_inverse_frequencies(64, 150000, 32, 4096, 32, 1);
  for (Eigen::Index i = 0; i < same.size(); ++i) EXPECT_EQ(truncated[i], same[i]);
}

TEST(Recipes, LinearDividesEveryPair) {
  const Vector theta = rope_frequencies(16, 10000);
  const Vector out = linear_scaled_frequencies(theta, 4);
  for (Eigen::Index i = 0; i < theta.size(); ++i) EXPECT_EQ(out[i], theta[i] / 4);
  EXPECT_EQ(error_of([&] { linear_scaled_frequencies(theta, 0); }),
            "factor must be a finite number > 0, got 0");
}

// Proportional RoPE, written out from transformers 5's _compute_proportional_rope_parameters:
// rope_angles = int(0.25 * 512 // 2) = 64; inv_freq_rotated = 1 / base^(arange(0, 128, 2) / 512);
// 192 zeros after them; everything / factor.
TEST(Proportional, GemmaFourFullLayersSpaceTheirPairsOverTheWholeHead) {
  const Vector f = proportional_rope_frequencies(512, 1e6, 0.25);
  ASSERT_EQ(f.size(), 256);
  EXPECT_EQ(proportional_rotating_pairs(512, 0.25), 64);
  for (int i = 0; i < 64; ++i) {
    const double expected = 1.0 / std::pow(1e6, (2.0 * i) / 512.0);
    EXPECT_NEAR(f[i], expected, 1e-12 * expected) << i;
  }
  for (int i = 64; i < 256; ++i) EXPECT_EQ(f[i], 0.0) << i;
  // Not the usual partial RoPE, which spaces the 64 pairs over the rotating 128 dimensions.
  const Vector partial = rope_frequencies(128, 1e6);
  EXPECT_LT(partial[63], f[63] / 100) << "the rotating pairs' slowest is much faster than partial RoPE's";
  const Vector stretched = proportional_rope_frequencies(512, 1e6, 0.25, 8);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(stretched[i], f[i] / 8) << i;
}

TEST(Proportional, FullFactorIsPlainRopeAndOddFloorsRoundDown) {
  const Vector full = proportional_rope_frequencies(64, 10000, 1.0);
  const Vector plain = rope_frequencies(64, 10000);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(full[i], plain[i]) << i;
  EXPECT_EQ(proportional_rotating_pairs(10, 0.5), 2) << "int(0.5 * 10 // 2) = int(2.0)";
  EXPECT_EQ(proportional_rotating_pairs(256, 0.3), 38) << "int(76.8 // 2) = 38";
}

TEST(Proportional, BadArgumentsNameTheirRule) {
  EXPECT_THAT(error_of([] { proportional_rope_frequencies(511, 1e6, 0.25); }),
              names_field_and_rule("head_dim", "even"));
  EXPECT_EQ(error_of([] { proportional_rope_frequencies(512, 1e6, 0); }),
            "partial_rotary_factor must be a finite number in (0, 1], got 0");
  EXPECT_EQ(error_of([] { proportional_rope_frequencies(512, 1e6, 1.5); }),
            "partial_rotary_factor must be a finite number in (0, 1], got 1.5");
  EXPECT_THAT(error_of([] { proportional_rope_frequencies(512, 1e6, 0.25, -1); }),
              names_field_and_rule("factor", "> 0"));
  // The smallest double is > 0, yet 1 / factor overflows: refused, never an infinite frequency.
  EXPECT_EQ(error_of([] { proportional_rope_frequencies(512, 1e6, 0.25, 5e-324); }),
            "factor must be large enough that every frequency (base^(-2i/head_dim) / factor) is finite, "
            "got 5e-324");
}

TEST(NopeTemperature, AFloorScaleOrAttnScaleThatOverflowsIsRefused) {
  // (0 + 1) / 5e-324 is infinite: the temperature would be infinite, or NaN with attn_scale 0.
  EXPECT_EQ(error_of([] { nope_query_temperature(0, 5e-324, 0.1); }),
            "floor_scale must be large enough that (position + 1) / floor_scale is finite at position 0, "
            "got 5e-324");
  EXPECT_THAT(error_of([] { nope_query_temperature(0, 5e-324, 0); }),
              names_field_and_rule("floor_scale", "finite"));
  EXPECT_THAT(error_of([] { nope_query_temperature(1e300, 1, 1.7e308); }),
              names_field_and_rule("attn_scale", "temperature is finite"));
  EXPECT_TRUE(std::isfinite(nope_query_temperature(1e300, 1, 0.1)));
}

// Qwen2-VL's [16, 24, 24]: transformers' apply_multimodal_rotary_pos_emb splits the 64 pairs in order.
TEST(Mrope, SectionsInOrderGiveTimeHeightWidth) {
  const std::vector<std::uint8_t> axes = mrope_pair_axes({16, 24, 24}, 64, false);
  ASSERT_EQ(axes.size(), 64u);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(axes[i], 0) << i;
  for (int i = 16; i < 40; ++i) EXPECT_EQ(axes[i], 1) << i;
  for (int i = 40; i < 64; ++i) EXPECT_EQ(axes[i], 2) << i;
}

// Qwen3-VL's [24, 20, 20] interleaved (apply_interleaved_mrope): t h w t h w … for 60 pairs, then time.
TEST(Mrope, InterleavedSectionsCycleThroughTheAxes) {
  const std::vector<std::uint8_t> axes = mrope_pair_axes({24, 20, 20}, 64, true);
  for (int i = 0; i < 60; ++i) EXPECT_EQ(axes[i], i % 3) << i;
  for (int i = 60; i < 64; ++i) EXPECT_EQ(axes[i], 0) << i;
  int counts[3] = {0, 0, 0};
  for (const std::uint8_t a : axes) ++counts[a];
  EXPECT_EQ(counts[0], 24);
  EXPECT_EQ(counts[1], 20);
  EXPECT_EQ(counts[2], 20);
}

TEST(Mrope, SectionsMustCoverThePairsExactly) {
  EXPECT_EQ(error_of([] {
              mrope_pair_axes({16, 24, 16}, 64, false);
            }),
            "mrope_section must sum to the rotary pairs (64), got 56");
  EXPECT_EQ(error_of([] {
              mrope_pair_axes({32, 32}, 64, false);
            }),
            "mrope_section must hold 3 numbers (time, height, width), got 2");
  EXPECT_THAT(error_of([] {
                mrope_pair_axes({-8, 40, 32}, 64, false);
              }),
              names_field_and_rule("mrope_section[0]", "≥ 0"));
}

// Llama 4: 1 + 0.1 · ln(1 + floor((p + 1) / 8192)).
TEST(NopeTemperature, GrowsWithTheLogOfTheChunksPassed) {
  EXPECT_EQ(nope_query_temperature(0, 8192, 0.1), 1.0);
  EXPECT_EQ(nope_query_temperature(8190, 8192, 0.1), 1.0);
  EXPECT_NEAR(nope_query_temperature(8191, 8192, 0.1), 1.0 + 0.1 * std::log(2.0), 1e-15);
  EXPECT_NEAR(nope_query_temperature(131071, 8192, 0.1), 1.0 + 0.1 * std::log(17.0), 1e-15);
  EXPECT_THAT(error_of([] { nope_query_temperature(-1, 8192, 0.1); }),
              names_field_and_rule("position", "≥ 0"));
  EXPECT_THAT(error_of([] { nope_query_temperature(5, 0, 0.1); }),
              names_field_and_rule("floor_scale", "> 0"));
}

}  // namespace
}  // namespace positional
