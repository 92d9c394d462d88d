// float32 against float64 RoPE angles.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "positional/precision.hpp"
#include "positional/rope.hpp"
#include "positional/validate.hpp"

#include "expect_error.hpp"

namespace positional {
namespace {

using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

TEST(Float32Angles, ExactWhereFloatIsExact) {
  Vector positions(3);
  positions << 0, 1, 1024;
  Vector pairs(1);
  pairs << 0;  // θ_0 = 1: float(m)·1 is exact for m < 2^24
  const Float32AngleErrors e = float32_angle_errors(positions, pairs, 64, 10000);
  EXPECT_EQ(e.angle_error(0, 0), 0.0);
  EXPECT_EQ(e.angle_error(0, 1), 0.0);
  EXPECT_EQ(e.angle_error(0, 2), 0.0);
  // sin/cos in float still round: about one float ulp of a number ≤ 1 (2^-24 ≈ 6e-8).
  EXPECT_LT(e.rotation_error(0, 2), 2e-7);
}

// At m = 1M the fast pair's angle is about 1e6 rad, where one float ulp is 2^-4 = 0.0625 rad:
// the rotation error reaches the order of that ulp, while the slowest pair's angle (~100 rad)
// keeps the float error near 1e-5.
TEST(Float32Angles, FastPairsDegradeAtLongPositions) {
  Vector positions(2);
  positions << 1000, 1000000;
  Vector pairs(2);
  pairs << 1, 31;
  const Float32AngleErrors e = float32_angle_errors(positions, pairs, 64, 10000);
  EXPECT_NEAR(e.theta[0], rope_frequencies(64, 10000)[1], 0);
  EXPECT_LT(e.angle_error(0, 0), 1e-4);
  EXPECT_GT(e.angle_error(0, 1), 1e-3);
  EXPECT_LT(e.angle_error(0, 1), 0.0625);
  EXPECT_GT(e.rotation_error(0, 1), e.rotation_error(0, 0));
  EXPECT_LT(e.angle_error(1, 1), 1e-4);
  // The error of the rotation can never exceed the angle error by more than float rounding.
  for (int r = 0; r < 2; ++r) {
    for (int j = 0; j < 2; ++j) EXPECT_LE(e.rotation_error(r, j), e.angle_error(r, j) + 2e-7);
  }
}

TEST(Float32Angles, RejectsBadArguments) {
  Vector positions(1);
  positions << -1;
  Vector pairs(1);
  pairs << 0;
  EXPECT_THAT(error_of([&] { float32_angle_errors(positions, pairs, 64); }),
              names_field_and_rule("positions[0]", "must be a finite number from 0 to 2^31"));
  positions << 10;
  pairs << 32;
  EXPECT_THAT(error_of([&] { float32_angle_errors(positions, pairs, 64); }),
              names_field_and_rule("pairs[0]", "must be a whole number from 0 to 31"));
  pairs << 0.5;
  EXPECT_THAT(error_of([&] { float32_angle_errors(positions, pairs, 64); }),
              names_field_and_rule("pairs[0]", "must be a whole number from 0 to 31"));
  pairs << 0;
  EXPECT_THAT(error_of([&] { float32_angle_errors(positions, pairs, 63); }),
              names_field_and_rule("d", "must be even"));
}

}  // namespace
}  // namespace positional
