// The sinusoidal code: the lesson's table and its properties, the angle-addition path held to its
// derived bound (angle_addition_bound.hpp), sampled rows against the full table, and bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>  // std::memcmp
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "positional/limits.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"

#include "angle_addition_bound.hpp"
#include "expect_error.hpp"
#include "test_inputs.hpp"

namespace positional {
namespace {

using ::testing::HasSubstr;
using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

// ---- sinusoidal codes ----------------------------------------------------------------------

TEST(Sinusoidal, LessonRowsAtDimensionFour) {
  const Matrix pe = sinusoidal_encoding(3, 4);
  ASSERT_EQ(pe.rows(), 3);
  ASSERT_EQ(pe.cols(), 4);
  const double expected[3][4] = {{0, 1, 0, 1}, {0.841, 0.540, 0.010, 1.000}, {0.909, -0.416, 0.020, 1.000}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(pe(r, c), expected[r][c], kPrinted3) << "row " << r << " col " << c;
}

TEST(Sinusoidal, SecondPairTurnsOneHundredthRadian) {
  // 10000^(2/4) = 100: the slow pair's speed is 1/100 radian per position.
  const Matrix pe = sinusoidal_encoding(2, 4);
  EXPECT_NEAR(std::asin(pe(1, 2)), 0.01, 1e-15);
  EXPECT_DOUBLE_EQ(std::pow(10000.0, 2.0 / 4.0), 100.0);
}

TEST(Sinusoidal, DotProductDependsOnlyOnDistance) {
  const Matrix pe = sinusoidal_encoding(100, 32);
  const double near = pe.row(10).dot(pe.row(13));
  const double far = pe.row(70).dot(pe.row(73));
  EXPECT_NEAR(near, 12.2724, 5e-5);  // printed to four decimals
  EXPECT_NEAR(far, 12.2724, 5e-5);
  EXPECT_NEAR(near, far, kIdentity);
  EXPECT_NEAR(sinusoidal_dot(10, 13, 32), near, kIdentity);
}

TEST(Sinusoidal, EveryPairHasUnitLength) {
  const Matrix pe = sinusoidal_encoding(50, 16, 500.0);
  for (Eigen::Index r = 0; r < pe.rows(); ++r)
    for (Eigen::Index i = 0; i < 8; ++i)
      EXPECT_NEAR(pe(r, 2 * i) * pe(r, 2 * i) + pe(r, 2 * i + 1) * pe(r, 2 * i + 1), 1.0, kIdentity);
}

// The concatenated layout is the interleaved table's sin columns, then its cos columns.
void expect_concatenated_is_column_permutation(std::int64_t n, std::int64_t d) {
  const Matrix interleaved = sinusoidal_encoding(n, d);
  const Matrix concatenated = sinusoidal_encoding_concatenated(n, d);
  const Eigen::Index pairs = interleaved.cols() / 2;
  for (Eigen::Index i = 0; i < pairs; ++i) {
    EXPECT_EQ(concatenated.col(i), interleaved.col(2 * i)) << "sin of pair " << i;
    EXPECT_EQ(concatenated.col(pairs + i), interleaved.col(2 * i + 1)) << "cos of pair " << i;
  }
}

TEST(Sinusoidal, ConcatenatedIsAColumnPermutation) { expect_concatenated_is_column_permutation(20, 8); }

TEST(Sinusoidal, EmptyTableForZeroPositions) { EXPECT_EQ(sinusoidal_encoding(0, 8).rows(), 0); }

TEST(Sinusoidal, RejectsBadArguments) {
  EXPECT_EQ(error_of([] { sinusoidal_encoding(3, 7); }), "d must be even, got 7");
  EXPECT_EQ(error_of([] { sinusoidal_encoding(3, 0); }), "d must be positive, got 0");
  EXPECT_EQ(error_of([] { sinusoidal_encoding(3, -4); }), "d must be positive, got -4");
  EXPECT_EQ(error_of([] { sinusoidal_encoding(-1, 4); }), "n must be non-negative, got -1");
  EXPECT_EQ(error_of([] { sinusoidal_encoding(3, 4, 1.0); }),
            "base must be different from 1 (every pair would turn at the same speed), got 1");
  EXPECT_EQ(error_of([] { sinusoidal_encoding(3, 4, 0.0); }), "base must be a finite number > 0, got 0");
  EXPECT_EQ(error_of([] { sinusoidal_encoding(3, 4, -5.0); }), "base must be a finite number > 0, got -5");
  EXPECT_EQ(error_of([] { sinusoidal_encoding(3, 4, kNaN); }), "base must be a finite number > 0, got nan");
  EXPECT_EQ(error_of([] { sinusoidal_encoding(3, 4, kInf); }), "base must be a finite number > 0, got inf");
  EXPECT_THAT(error_of([] { sinusoidal_encoding(32769, 512); }), HasSubstr("more than the cap of 16777216"));
  EXPECT_EQ(sinusoidal_encoding(32768, 512).size(), kMaxOutputDoubles);  // exactly at the cap is allowed
}

// ---- the angle-addition path against the plain table --------------------------------------

Matrix plain_table(std::int64_t n, std::int64_t d, double base) {
  Matrix table(n, d);
  for (std::int64_t pos = 0; pos < n; ++pos)
    for (std::int64_t i = 0; i < d / 2; ++i) {
      const double omega = std::pow(base, -static_cast<double>(2 * i) / static_cast<double>(d));
      const double angle = static_cast<double>(pos) * omega;
      table(pos, 2 * i) = std::sin(angle);
      table(pos, 2 * i + 1) = std::cos(angle);
    }
  return table;
}

struct Worst {
  double difference = 0;
  double bound_ratio = 0;  // max over entries of difference / bound
};

// Compares every entry of the engine's table with the plain one and checks the per-entry bound.
Worst compare_with_plain(std::int64_t n, std::int64_t d, double base) {
  const Matrix fast = sinusoidal_encoding(n, d, base);
  const Matrix plain = plain_table(n, d, base);
  Worst worst;
  for (std::int64_t pos = 0; pos < n; ++pos)
    for (std::int64_t i = 0; i < d / 2; ++i) {
      const double bound = bound_against_plain(pos, omega_of(i, d, base));
      for (std::int64_t c = 2 * i; c <= 2 * i + 1; ++c) {
        const double difference = std::abs(fast(pos, c) - plain(pos, c));
        if (difference > worst.difference) worst.difference = difference;
        if (difference / bound > worst.bound_ratio) worst.bound_ratio = difference / bound;
        if (difference > bound) {
          ADD_FAILURE() << "pos " << pos << " col " << c << ": |fast - plain| = " << difference << " > bound "
                        << bound;
          return worst;
        }
      }
    }
  return worst;
}

TEST(SinusoidalFast, LargeTableWithinTheDerivedBound) {
  const Worst worst = compare_with_plain(32768, 128, 10000.0);
  // The bound's largest value in this table: 2^−52 · 32767 · ω_1 + 8·2^−53 ≈ 6.3e-12.
  EXPECT_LE(worst.difference, 2 * kUnitRoundoff * 32767 * omega_of(1, 128, 10000.0) + 8 * kUnitRoundoff);
  EXPECT_LE(worst.bound_ratio, 1.0);
  RecordProperty("max_abs_difference", std::to_string(worst.difference));
}

TEST(SinusoidalFast, WideTableAndOtherBasesWithinTheBound) {
  EXPECT_LE(compare_with_plain(4096, 512, 10000.0).bound_ratio, 1.0);
  EXPECT_LE(compare_with_plain(3001, 64, 500.0).bound_ratio, 1.0);  // n not a multiple of the block
  EXPECT_LE(compare_with_plain(777, 6, 1.5).bound_ratio, 1.0);      // fast pairs only
  EXPECT_LE(compare_with_plain(200, 10, 0.25).bound_ratio, 1.0);    // base < 1: pairs speed up
}

TEST(SinusoidalFast, ShortTablesAreBitIdentical) {
  // Fewer rows than one block: every entry comes from sin and cos, as in the lesson's worked numbers.
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{3}, kBlock - 1, kBlock}) {
    EXPECT_EQ(sinusoidal_encoding(n, 16), plain_table(n, 16, 10000.0)) << "n = " << n;
  }
  const Matrix table = sinusoidal_encoding(3 * kBlock + 5, 32);
  const Matrix plain = plain_table(3 * kBlock + 5, 32, 10000.0);
  for (const std::int64_t pos : {std::int64_t{0}, kBlock, 2 * kBlock, 3 * kBlock}) {
    EXPECT_EQ(table.row(pos), plain.row(pos)) << "block start " << pos;
  }
}

TEST(SinusoidalFast, RowsFromSinAndCosAreExactlyThoseOfSinAndCos) {
  // The first block and every block's first row call sin and cos (the WebAssembly build calls
  // sincos, one argument reduction for both): bit for bit the values of std::sin and std::cos.
  // Bases: the lesson's; 2e10, whose slowest pairs turn by angles of 1e-9 to 3e-8, where the two
  // functions switch between returning the angle (or 1) and their polynomials; and 1.5 and 0.01,
  // whose fast pairs make large angles that need the full argument reduction.
  for (const double base : {10000.0, 2e10, 1.5, 0.01}) {
    const std::int64_t n = base < 1 ? 40 : 4 * kBlock + 1;
    const Matrix table = sinusoidal_encoding(n, 16, base);
    const Matrix plain = plain_table(n, 16, base);
    for (std::int64_t pos = 0; pos < n; ++pos) {
      if (pos >= kBlock && pos % kBlock != 0) continue;
      ASSERT_EQ(std::memcmp(table.row(pos).data(), plain.row(pos).data(), sizeof(double) * 16), 0)
          << "base " << base << " row " << pos;
    }
  }
  const Matrix long_table = sinusoidal_encoding(32768, 8);  // angles up to 32,767 radians
  const Matrix long_plain = plain_table(32768, 8, 10000.0);
  for (std::int64_t pos = 0; pos < 32768; pos += kBlock)
    ASSERT_EQ(std::memcmp(long_table.row(pos).data(), long_plain.row(pos).data(), sizeof(double) * 8), 0)
        << "row " << pos;
}

TEST(SinusoidalFast, EveryOtherRowIsItsBlockStartTurnedByItsOffsetBitForBit) {
  // The angle-addition formula exactly as written, in this order: the WebAssembly build computes it
  // with SIMD128 vectors (angle_addition.hpp), which must give the same bits, signed zeros included.
  const std::int64_t d = 64;
  const Matrix table = sinusoidal_encoding(5 * kBlock + 7, d);
  for (std::int64_t pos = kBlock; pos < table.rows(); ++pos) {
    const std::int64_t k = pos % kBlock;
    if (k == 0) continue;  // a block's first row comes from sin and cos
    std::vector<double> expected(static_cast<std::size_t>(d));
    for (std::int64_t i = 0; i < d / 2; ++i) {
      const double sin_a = table(pos - k, 2 * i), cos_a = table(pos - k, 2 * i + 1);
      const double sin_b = table(k, 2 * i), cos_b = table(k, 2 * i + 1);
      expected[static_cast<std::size_t>(2 * i)] = sin_a * cos_b + cos_a * sin_b;
      expected[static_cast<std::size_t>(2 * i + 1)] = cos_a * cos_b - sin_a * sin_b;
    }
    ASSERT_EQ(std::memcmp(table.row(pos).data(), expected.data(), sizeof(double) * expected.size()), 0)
        << "row " << pos;
  }
}

TEST(SinusoidalFast, AsAccurateAsThePlainTableAgainstLongDouble) {
  // Reference: sin(p·ω) in long double (64-bit significand: the product p·ω of a 16-bit whole
  // number and a 53-bit ω is off by at most 2^−64 relative, and sinl adds about 2^−64).
  const std::int64_t n = 32768;
  const std::int64_t d = 64;
  const Matrix fast = sinusoidal_encoding(n, d);
  const Matrix plain = plain_table(n, d, 10000.0);
  double worst_fast = 0;
  double worst_plain = 0;
  for (std::int64_t pos = 0; pos < n; pos += 7)
    for (std::int64_t i = 0; i < d / 2; ++i) {
      const double omega = omega_of(i, d, 10000.0);
      const long double angle = static_cast<long double>(pos) * static_cast<long double>(omega);
      const double exact_sin = static_cast<double>(std::sin(angle));
      const double exact_cos = static_cast<double>(std::cos(angle));
      const double bound =
          kUnitRoundoff * static_cast<double>(pos) * omega * (1 + 0x1p-10) + 8 * kUnitRoundoff;
      const double error_sin = std::abs(fast(pos, 2 * i) - exact_sin);
      const double error_cos = std::abs(fast(pos, 2 * i + 1) - exact_cos);
      ASSERT_LE(error_sin, bound) << "pos " << pos << " pair " << i;
      ASSERT_LE(error_cos, bound) << "pos " << pos << " pair " << i;
      // The plain table obeys the same bound: neither is more than the rounded angle away.
      ASSERT_LE(std::abs(plain(pos, 2 * i) - exact_sin), bound) << "plain, pos " << pos << " pair " << i;
      ASSERT_LE(std::abs(plain(pos, 2 * i + 1) - exact_cos), bound) << "plain, pos " << pos << " pair " << i;
      worst_fast = std::max({worst_fast, error_sin, error_cos});
      worst_plain = std::max({worst_plain, std::abs(plain(pos, 2 * i) - exact_sin),
                              std::abs(plain(pos, 2 * i + 1) - exact_cos)});
    }
  RecordProperty("worst_fast_error", std::to_string(worst_fast));
  RecordProperty("worst_plain_error", std::to_string(worst_plain));
}

TEST(SinusoidalFast, ConcatenatedLayoutStillAColumnPermutation) {
  expect_concatenated_is_column_permutation(200, 12);  // rows past the first block: angle addition
}

// ---- sampled rows ---------------------------------------------------------------------------

// Both the full table and the sampled rows build rows by angle addition (sin(a + b) from sin and
// cos of a and b), along different chains: the sampled rows take up to 15 steps from a row
// computed afresh, each adding at most 6·2^−53, and the angle p·ω rounds differently along
// each chain, by up to an ulp of p·ω_0 (ω_0 = 1) per step. Allow 8 ulps of the largest angle
// (8 · 2^−53 · (p + 1)) plus 128·2^−53 (≈ 1.4e−14) for the steps.
double tolerance_at(double position) { return std::ldexp(1.0, -53) * (8.0 * (position + 1.0) + 128.0); }

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
