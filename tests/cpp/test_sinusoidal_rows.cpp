// sinusoidal_encoding_rows: the sampled rows equal the matching rows of sinusoidal_encoding,
// in any order and with repeats, and bad input throws InputError naming the argument.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "positional/sampling.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"

#include "expect_error.hpp"

namespace positional {
namespace {

using ::testing::HasSubstr;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Both the full table and the sampled rows build rows by angle addition (sin(a + b) from sin and
// cos of a and b), along different chains: the sampled rows take up to 15 steps from a row
// computed afresh, each adding at most 6·2^−53, and the angle p·ω rounds differently along
// each chain, by up to an ulp of p·ω_0 (ω_0 = 1) per step. Allow 8 ulps of the largest angle
// (8 · 2^−53 · (p + 1)) plus 128·2^−53 (≈ 1.4e−14) for the steps.
double tolerance_at(double position) { return std::ldexp(1.0, -53) * (8.0 * (position + 1.0) + 128.0); }

using testing_support::error_of;

Vector positions_of(const std::vector<double>& values) {
  return Eigen::Map<const Vector>(values.data(), static_cast<Eigen::Index>(values.size()));
}

void expect_rows_match(const Matrix& sampled, const Matrix& full, const std::vector<double>& positions) {
  ASSERT_EQ(sampled.rows(), static_cast<Eigen::Index>(positions.size()));
  ASSERT_EQ(sampled.cols(), full.cols());
  for (std::size_t r = 0; r < positions.size(); ++r) {
    const auto p = static_cast<Eigen::Index>(positions[r]);
    for (Eigen::Index c = 0; c < full.cols(); ++c) {
      EXPECT_NEAR(sampled(static_cast<Eigen::Index>(r), c), full(p, c), tolerance_at(positions[r]))
          << "position " << p << ", dimension " << c;
    }
  }
}

TEST(SinusoidalRows, EqualTheMatchingRowsOfTheFullTable) {
  const Matrix full = sinusoidal_encoding(4096, 512);
  // A heatmap's sample: every 9th position, then the last one, as a 455-pixel-high plot takes them.
  std::vector<double> positions;
  for (int p = 0; p < 4096; p += 9) positions.push_back(p);
  positions.push_back(4095);
  expect_rows_match(sinusoidal_encoding_rows(positions_of(positions), 512), full, positions);
}

TEST(SinusoidalRows, AnyOrderRepeatsAndOtherBases) {
  const std::vector<double> positions{7, 0, 199, 7, 31, 32, 33, 64, 1};
  for (const double base : {10000.0, 500000.0, 2.0, 0.5}) {
    const Matrix full = sinusoidal_encoding(200, 16, base);
    expect_rows_match(sinusoidal_encoding_rows(positions_of(positions), 16, base), full, positions);
  }
}

TEST(SinusoidalRows, ManyDifferentStepsAndLongRuns) {
  // More distinct steps than the offset cache holds (rows then start afresh), and a long run of
  // equal steps (the chain restarts every 16 rows), at the largest table the chart draws.
  const Matrix full = sinusoidal_encoding(32768, 128);
  std::vector<double> positions;
  double p = 0;
  for (int k = 0; k < 40; ++k) positions.push_back(p += 1 + (k * k) % 37);
  for (int k = 0; k < 300; ++k) positions.push_back(p += 97);
  expect_rows_match(sinusoidal_encoding_rows(positions_of(positions), 128), full, positions);
}

TEST(SinusoidalRows, LessonNumbersAtDimensionFour) {
  // The lesson's PE(1) and PE(2) at d = 4, printed to three decimals.
  const Matrix rows = sinusoidal_encoding_rows(positions_of({1, 2}), 4);
  EXPECT_NEAR(rows(0, 0), 0.841, 5e-4);
  EXPECT_NEAR(rows(0, 1), 0.540, 5e-4);
  EXPECT_NEAR(rows(0, 2), 0.010, 5e-4);
  EXPECT_NEAR(rows(1, 0), 0.909, 5e-4);
  EXPECT_NEAR(rows(1, 1), -0.416, 5e-4);
  // Row 0 is exactly (0, 1, 0, 1, ...): sin 0 and cos 0.
  const Matrix zero = sinusoidal_encoding_rows(positions_of({0}), 8);
  for (Eigen::Index c = 0; c < 8; ++c) EXPECT_EQ(zero(0, c), c % 2 == 0 ? 0.0 : 1.0);
}

TEST(SinusoidalRows, EmptyListGivesNoRows) {
  const Matrix rows = sinusoidal_encoding_rows(Vector(0), 8);
  EXPECT_EQ(rows.rows(), 0);
  EXPECT_EQ(rows.cols(), 8);
}

TEST(SinusoidalRows, BadInputNamesTheArgument) {
  EXPECT_EQ(error_of([] { sinusoidal_encoding_rows(positions_of({0, 1}), 7); }), "d must be even, got 7");
  EXPECT_THAT(error_of([] { sinusoidal_encoding_rows(positions_of({0}), 0); }),
              HasSubstr("d must be positive"));
  EXPECT_THAT(error_of([] { sinusoidal_encoding_rows(positions_of({0}), 8, 1.0); }),
              HasSubstr("base must be different from 1"));
  EXPECT_THAT(error_of([] { sinusoidal_encoding_rows(positions_of({0}), 8, -2.0); }),
              HasSubstr("base must be a finite number > 0"));
  EXPECT_THAT(error_of([] { sinusoidal_encoding_rows(positions_of({0}), 8, kNaN); }),
              HasSubstr("base must be"));
  EXPECT_EQ(error_of([] {
              sinusoidal_encoding_rows(positions_of({0, 2.5}), 8);
            }),
            "positions[1] must be a whole number ≥ 0, got 2.5");
  EXPECT_EQ(error_of([] {
              sinusoidal_encoding_rows(positions_of({3, -1}), 8);
            }),
            "positions[1] must be a whole number ≥ 0, got -1");
  EXPECT_THAT(error_of([] { sinusoidal_encoding_rows(positions_of({kNaN}), 8); }),
              HasSubstr("positions[0] must be finite"));
  EXPECT_THAT(error_of([] {
                sinusoidal_encoding_rows(positions_of({1, kInf}), 8);
              }),
              HasSubstr("positions[1] must be finite"));
  // A base far below 1 makes the last pair's speed overflow: sin(inf) would be NaN.
  // (d = 4, base 1e−300: ω_1 = 1e150, so position 1e200 turns by 1e350.)
  EXPECT_THAT(error_of([] {
                sinusoidal_encoding_rows(positions_of({0, 1e200}), 4, 1e-300);
              }),
              HasSubstr("overflows"));
  // rows × d beyond the output cap.
  const Vector many = Vector::Zero(4097);
  EXPECT_THAT(error_of([&] { sinusoidal_encoding_rows(many, 4096); }),
              HasSubstr("the sampled position table"));
}

TEST(SinusoidalRows, EveryValueFiniteAtTheCap) {
  // The largest table the chart can ask for, at its largest position and widest d.
  const Matrix rows = sinusoidal_encoding_rows(positions_of({0, 32767}), 512, 10000.0);
  EXPECT_TRUE(rows.allFinite());
}

}  // namespace
}  // namespace positional
