// ALiBi slopes and biases, and RoPE's long-term decay curves.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "positional/alibi.hpp"
#include "positional/validate.hpp"

#include "expect_error.hpp"

namespace positional {
namespace {

using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

TEST(AlibiSlopes, PowerOfTwoHeadsAreAGeometricSequence) {
  const Vector s = alibi_slopes(8);
  ASSERT_EQ(s.size(), 8);
  for (int h = 0; h < 8; ++h) EXPECT_DOUBLE_EQ(s[h], std::pow(0.5, h + 1)) << h;  // 1/2 … 1/256, the paper's
  const Vector s16 = alibi_slopes(16);
  EXPECT_DOUBLE_EQ(s16[0], std::pow(2.0, -0.5));
  EXPECT_DOUBLE_EQ(s16[15], std::pow(2.0, -8.0));
}

// The non-power-of-2 values were computed with the ALiBi repository's get_slopes (Python);
// they are exact powers of 2 and √2, so equality holds to the last bit.
TEST(AlibiSlopes, OtherCountsInterleaveAsInTheReferenceCode) {
  const double expected12[] = {0.5,
                               0.25,
                               0.125,
                               0.0625,
                               0.03125,
                               0.015625,
                               0.0078125,
                               0.00390625,
                               0.7071067811865476,
                               0.35355339059327384,
                               0.17677669529663692,
                               0.08838834764831849};
  const Vector s12 = alibi_slopes(12);
  ASSERT_EQ(s12.size(), 12);
  for (int h = 0; h < 12; ++h) EXPECT_DOUBLE_EQ(s12[h], expected12[h]) << h;
  const double expected6[] = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
  const Vector s6 = alibi_slopes(6);
  for (int h = 0; h < 6; ++h) EXPECT_DOUBLE_EQ(s6[h], expected6[h]) << h;
  EXPECT_DOUBLE_EQ(alibi_slopes(1)[0], 1.0 / 256);
}

TEST(AlibiSlopes, RejectsBadCounts) {
  EXPECT_THAT(error_of([&] { alibi_slopes(0); }),
              names_field_and_rule("n_heads", "must be a whole number from 1 to 1024"));
  EXPECT_THAT(error_of([&] { alibi_slopes(5000); }),
              names_field_and_rule("n_heads", "must be a whole number from 1 to 1024"));
}

TEST(AlibiBias, LinearInDistanceBelowTheDiagonal) {
  const Matrix b = alibi_bias(0.25, 5);
  ASSERT_EQ(b.rows(), 5);
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) {
      EXPECT_DOUBLE_EQ(b(i, j), j <= i ? -0.25 * (i - j) : 0.0) << i << "," << j;
    }
  }
  EXPECT_THAT(error_of([&] { alibi_bias(-1, 4); }),
              names_field_and_rule("slope", "must be a finite number ≥ 0"));
  EXPECT_THAT(error_of([&] { alibi_bias(0.5, 0); }), names_field_and_rule("length", "must be at least 1"));
  EXPECT_THAT(error_of([&] { alibi_bias(0.5, 5000); }),
              names_field_and_rule("the bias matrix",
                                   "more than the cap of 16777216 (2^24)"));  // 25M numbers: above the cap
}

// The RoFormer bound at distance 0 is the mean of 1..d/2 = (d/2 + 1)/2; the other values come
// from numpy (cumulative sum of e^{imθ}, mean of the magnitudes).
TEST(RopeDecay, RoFormerBound) {
  const Vector c = rope_decay_curve(128, 10000, 100);
  ASSERT_EQ(c.size(), 101);
  EXPECT_NEAR(c[0], 32.5, 1e-12);
  EXPECT_NEAR(c[10], 17.95413713708483, 1e-10);
  EXPECT_NEAR(c[100], 10.227329948505133, 1e-10);
  EXPECT_THAT(error_of([&] { rope_decay_curve(7, 10000, 10); }), names_field_and_rule("d", "must be even"));
  EXPECT_THAT(error_of([&] { rope_decay_curve(64, 10000, -1); }),
              names_field_and_rule("max_distance", "must be a whole number from 0 to 4194304"));
}

TEST(RopeDecay, OnesScoreStartsAtOneAndDecays) {
  const Vector s = rope_ones_scores(64, 10000, 2000);
  EXPECT_NEAR(s[0], 1.0, 1e-15);
  double early = 0;
  double late = 0;
  for (int m = 1; m <= 20; ++m) early += std::fabs(s[m]);
  for (int m = 1981; m <= 2000; ++m) late += std::fabs(s[m]);
  EXPECT_LT(late, early);  // long-term decay
  for (int m = 0; m <= 2000; ++m) EXPECT_LE(std::fabs(s[m]), 1.0 + 1e-15);
}

}  // namespace
}  // namespace positional
