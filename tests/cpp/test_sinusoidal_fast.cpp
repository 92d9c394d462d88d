// The sinusoidal table and RoPE's sequence rotation build most rows by angle addition instead of
// calling sin and cos for every entry. These tests hold that path to a derived error bound.
//
// The bound. Row p = s + k (s its block's first row, k < kAngleBlock) is built from
// A = fl(s·ω) and B = fl(k·ω); the plain computation takes sin and cos of fl(p·ω). Each rounded
// product is within 2^−53 relative of the exact one, so the two angles differ by at most
// 2^−53·(s·ω + k·ω + p·ω) = 2^−52·p·ω, and |sin x − sin y| ≤ |x − y|. On top come the evaluation
// errors: sin and cos within one ulp (≤ 2^−53 for values of magnitude ≤ 1) for A, B and the plain
// angle, and the two products and the sum of add_angles — at most 8·2^−53 together. Hence
//     |fast − plain| ≤ 2^−52·p·ω + 8·2^−53.
// The first term is not an error of the fast path: both are that far from sin(p·ω) at worst,
// because neither can hold the angle p·ω exactly in a double (at p·ω ≈ 3·10^4 one ulp is
// 3.6·10^−12). Against sin(p·ω) in long double, both are within 2^−53·p·ω + 8·2^−53.
// Rows 0 … kAngleBlock − 1 and every block's first row call sin and cos: they are bit-identical.
#include <gtest/gtest.h>

#include <algorithm>  // std::max
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "positional/rope.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"  // InputError

namespace positional {
namespace {

constexpr double kUnitRoundoff = 0x1p-53;  // 2^−53, half an ulp of 1
constexpr std::int64_t kBlock = 32;        // kAngleBlock of cpp/src/angle_addition.hpp (a private header)

// The table as the lesson writes it: sin and cos of pos·ω_i for every entry.
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

double omega_of(std::int64_t i, std::int64_t d, double base) {
  return std::pow(base, -static_cast<double>(2 * i) / static_cast<double>(d));
}

// The bound above for one entry, against the plain table.
double bound_against_plain(std::int64_t pos, double omega) {
  return 2 * kUnitRoundoff * static_cast<double>(pos) * omega + 8 * kUnitRoundoff;
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
  const Matrix interleaved = sinusoidal_encoding(200, 12);
  const Matrix concatenated = sinusoidal_encoding_concatenated(200, 12);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(concatenated.col(i), interleaved.col(2 * i));
    EXPECT_EQ(concatenated.col(6 + i), interleaved.col(2 * i + 1));
  }
}

TEST(RopeSequenceFast, MatchesRowByRowRotationWithinTheBound) {
  // Rotating row r by the angle-addition (sin, cos) instead of sin(r·θ), cos(r·θ): each rotated
  // entry moves by at most (|x_even| + |x_odd|) times the (sin, cos) bound above.
  std::mt19937_64 rng(99);
  std::normal_distribution<double> normal;
  const std::int64_t rows = 4096;
  const std::int64_t d = 128;
  Matrix x(rows, d);
  for (Eigen::Index r = 0; r < x.rows(); ++r)
    for (Eigen::Index c = 0; c < x.cols(); ++c) x(r, c) = normal(rng);
  const Matrix fast = apply_rope_sequence(x, 10000.0);
  const Vector positions = Vector::LinSpaced(rows, 0.0, static_cast<double>(rows - 1));
  const Matrix plain = apply_rope(x, positions, 10000.0);  // sin and cos for every entry
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t i = 0; i < d / 2; ++i) {
      const double weight = std::abs(x(r, 2 * i)) + std::abs(x(r, 2 * i + 1));
      const double bound =
          weight * bound_against_plain(r, omega_of(i, d, 10000.0)) + 4 * kUnitRoundoff * weight;
      ASSERT_LE(std::abs(fast(r, 2 * i) - plain(r, 2 * i)), bound) << "row " << r << " pair " << i;
      ASSERT_LE(std::abs(fast(r, 2 * i + 1) - plain(r, 2 * i + 1)), bound) << "row " << r << " pair " << i;
    }
  // The first block calls sin and cos itself: identical to the row-by-row rotation.
  EXPECT_EQ(fast.topRows(kBlock), plain.topRows(kBlock));
}

TEST(RopeSequenceFast, KeepsTheArgumentChecks) {
  const Matrix odd = Matrix::Ones(3, 5);
  EXPECT_THROW(apply_rope_sequence(odd), InputError);
  Matrix with_nan = Matrix::Ones(40, 4);
  with_nan(35, 1) = std::nan("");
  EXPECT_THROW(apply_rope_sequence(with_nan), InputError);
  EXPECT_THROW(apply_rope_sequence(Matrix::Ones(2, 4), 1.0), InputError);
  EXPECT_EQ(apply_rope_sequence(Matrix(0, 4)).rows(), 0);
}

}  // namespace
}  // namespace positional
