// RoPE against the lesson's worked numbers, properties on random inputs, the sequence rotation's
// angle-addition path held to its bound (angle_addition_bound.hpp), the clock, and bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>  // std::memcmp
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "positional/rope.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"

#include "angle_addition_bound.hpp"
#include "expect_error.hpp"
#include "test_inputs.hpp"

namespace positional {
namespace {

using ::testing::HasSubstr;
using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

// ---- RoPE ----------------------------------------------------------------------------------

TEST(Rope, FastestPairTurnsOneRadian) {
  const Vector theta = rope_frequencies(2);
  ASSERT_EQ(theta.size(), 1);
  EXPECT_EQ(theta[0], 1.0);  // 10000^0 is exactly 1
  const Vector theta64 = rope_frequencies(64);
  EXPECT_EQ(theta64.size(), 32);
  EXPECT_EQ(theta64[0], 1.0);
  for (Eigen::Index i = 1; i < theta64.size(); ++i) EXPECT_LT(theta64[i], theta64[i - 1]);
}

// The one-pow shortcut must be the table's last entry to the bit (the context-extension curves use
// it in place of the table), and refuse what the table refuses with the same words.
TEST(Rope, SlowestFrequencyIsTheTablesLastEntry) {
  for (const std::int64_t d : {2, 4, 16, 64, 128, 130, 4096}) {
    for (const double base : {10000.0, 500000.0, 2.5, 0.5, 1e-3}) {
      const Vector theta = rope_frequencies(d, base);
      EXPECT_EQ(rope_slowest_frequency(d, base), theta[d / 2 - 1]) << "d " << d << ", base " << base;
    }
  }
  struct Refused {
    std::int64_t d;
    double base;
  };
  for (const Refused bad : {Refused{7, 10000.0}, Refused{-2, 10000.0}, Refused{8, 1.0}, Refused{8, kNaN},
                            Refused{8, -3.0}, Refused{4096, 5e-324}}) {
    const std::string expected = error_of([&] { rope_frequencies(bad.d, bad.base); });
    EXPECT_NE(expected, "no error") << "d " << bad.d << ", base " << bad.base;
    EXPECT_EQ(error_of([&] { rope_slowest_frequency(bad.d, bad.base); }), expected);
  }
}

TEST(Rope, LessonWalkThroughAtThreeAndSeven) {
  const Vector q = (Vector(2) << 1, 0).finished();
  const Vector q3 = apply_rope(q, 3);
  EXPECT_NEAR(q3[0], -0.990, kPrinted3);
  EXPECT_NEAR(q3[1], 0.141, kPrinted3);
  const Vector k7 = apply_rope(q, 7);
  EXPECT_NEAR(k7[0], 0.754, kPrinted3);
  EXPECT_NEAR(k7[1], 0.657, kPrinted3);
  EXPECT_NEAR(q3.dot(k7), -0.654, kPrinted3);
  EXPECT_NEAR(q3.dot(k7), std::cos(4.0), kIdentity);
  EXPECT_NEAR(apply_rope(q, 103).dot(apply_rope(q, 107)), std::cos(4.0), kIdentity);
  EXPECT_NEAR(apply_rope(q, 3).dot(apply_rope(q, 8)), 0.284, kPrinted3);
}

TEST(Rope, RotationKeepsNorms) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const Vector x = random_vector(rng, 64);
    const double position = std::uniform_real_distribution<double>(-5000, 5000)(rng);
    EXPECT_NEAR(apply_rope(x, position).norm(), x.norm(), kIdentity * x.norm());
  }
}

TEST(Rope, ScoreDependsOnlyOnDistance) {
  // ⟨R_m q, R_n k⟩ = ⟨q, R_{n−m} k⟩ for random q, k and positions.
  std::mt19937_64 rng(12);
  std::uniform_int_distribution<int> pos(0, 4096);
  for (int trial = 0; trial < 50; ++trial) {
    const Vector q = random_vector(rng, 32);
    const Vector k = random_vector(rng, 32);
    const double m = pos(rng);
    const double n = pos(rng);
    EXPECT_NEAR(apply_rope(q, m).dot(apply_rope(k, n)), q.dot(apply_rope(k, n - m)), kIdentity * 100)
        << "m=" << m << " n=" << n;  // angles up to 4096 rad lose ~1e-13 each in cos/sin
  }
}

TEST(Rope, SequenceRowsMatchSingleVectors) {
  std::mt19937_64 rng(13);
  const Matrix x = random_matrix(rng, 5, 8);
  const Vector positions = (Vector(5) << 0, 1.5, 2, 10.25, -3).finished();
  const Matrix rotated = apply_rope(x, positions, 500.0);
  for (Eigen::Index r = 0; r < 5; ++r) {
    const Vector row = x.row(r).transpose();
    EXPECT_TRUE(rotated.row(r).transpose().isApprox(apply_rope(row, positions[r], 500.0), 1e-15));
  }
  const Matrix default_positions = apply_rope_sequence(x);
  EXPECT_TRUE(default_positions.row(3).transpose().isApprox(apply_rope(Vector(x.row(3).transpose()), 3.0)));
}

TEST(Rope, FigureDataLiesOnOneCurve) {
  std::mt19937_64 rng(14);
  const Vector q = random_vector(rng, 64);
  const Vector k = random_vector(rng, 64);
  const Vector starts = (Vector(3) << 0, 100, 1000).finished();
  const Matrix scores = rope_scores_over_distance(q, k, starts, 59);
  ASSERT_EQ(scores.rows(), 3);
  ASSERT_EQ(scores.cols(), 60);
  for (Eigen::Index c = 0; c < 60; ++c) {
    EXPECT_NEAR(scores(1, c), scores(0, c), 1e-10);
    EXPECT_NEAR(scores(2, c), scores(0, c), 1e-10);
  }
  EXPECT_NEAR(scores(0, 0), q.dot(k), kIdentity);
}

TEST(Rope, PairAnglesWrapIntoOneTurn) {
  const Vector positions = Vector::LinSpaced(200, 0, 199);
  const Vector pairs = (Vector(4) << 0, 4, 12, 31).finished();
  const Matrix wrapped = rope_pair_angles(positions, pairs, 64);
  const Matrix raw = rope_pair_angles(positions, pairs, 64, 10000.0, false);
  const double two_pi = 2 * std::acos(-1.0);
  EXPECT_NEAR(raw(0, 7), 7.0, 0);
  EXPECT_NEAR(wrapped(0, 7), 7.0 - two_pi, kIdentity);
  for (Eigen::Index j = 0; j < wrapped.rows(); ++j)
    for (Eigen::Index p = 0; p < wrapped.cols(); ++p) {
      EXPECT_GE(wrapped(j, p), 0);
      EXPECT_LT(wrapped(j, p), two_pi);
    }
  EXPECT_THAT(error_of([&] { rope_pair_angles(positions, (Vector(1) << 32).finished(), 64); }),
              HasSubstr("pairs[0] must be a whole number from 0 to 31, got 32"));
  // An element after good ones is named by its own index, whatever makes it fail.
  EXPECT_THAT(error_of([&] { rope_pair_angles(positions, (Vector(3) << 0, 31, 1.5).finished(), 64); }),
              HasSubstr("pairs[2] must be a whole number from 0 to 31, got 1.5"));
  EXPECT_THAT(error_of([&] { rope_pair_angles(positions, (Vector(2) << 3, -1).finished(), 64); }),
              HasSubstr("pairs[1] must be a whole number from 0 to 31, got -1"));
}

TEST(Rope, RejectsBadArguments) {
  const Vector odd = Vector::Ones(3);
  EXPECT_EQ(error_of([&] { apply_rope(odd, 1.0); }), "x length must be even (RoPE rotates pairs), got 3");
  EXPECT_EQ(error_of([] { apply_rope(Vector(), 1.0); }), "x must not be empty");
  EXPECT_EQ(error_of([] { apply_rope(Vector::Ones(2), kNaN); }), "position must be finite, got nan");
  EXPECT_EQ(error_of([] { apply_rope(Vector::Ones(2), kInf); }), "position must be finite, got inf");
  EXPECT_EQ(error_of([] { apply_rope(Vector::Ones(2), 1.0, 1.0); }),
            "base must be different from 1 (every pair would turn at the same speed), got 1");
  Vector with_nan = Vector::Ones(4);
  with_nan[2] = kNaN;
  EXPECT_EQ(error_of([&] { apply_rope(with_nan, 1.0); }), "x[2] must be finite, got nan");
  const Matrix x = Matrix::Ones(3, 4);
  EXPECT_EQ(error_of([&] { apply_rope(x, (Vector(2) << 0, 1).finished()); }),
            "positions must have one entry per row of x (3), got 2");
  EXPECT_EQ(error_of([&] { apply_rope(x, (Vector(3) << 0, kNaN, 1).finished()); }),
            "positions[1] must be finite, got nan");
  EXPECT_EQ(error_of([] { rope_frequencies(7); }), "d must be even, got 7");
  EXPECT_EQ(error_of([] { rope_frequencies(-2); }), "d must be positive, got -2");
}

// ---- the sequence rotation's fast path ------------------------------------------------------

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

TEST(Rope, RotationIsTheFormulaWithSinAndCosBitForBit) {
  // apply_rope at one position: (x_even·cos − x_odd·sin, x_even·sin + x_odd·cos) with std::sin and
  // std::cos of position·θ_i, to the bit (the WebAssembly build calls sincos). Positions from
  // tiny angles to large ones, negative and fractional.
  std::mt19937_64 rng(21);
  const Vector x = random_vector(rng, 32);
  const Vector theta = rope_frequencies(32, 10000.0);
  for (const double position : {0.0, 1e-12, 3e-5, 0.5, 1.0, -7.25, 1000.0, 65535.0, 1e7}) {
    const Vector rotated = apply_rope(x, position, 10000.0);
    std::vector<double> expected(32);
    for (std::int64_t i = 0; i < 16; ++i) {
      const double angle = position * theta[i];
      const double c = std::cos(angle), s = std::sin(angle);
      expected[static_cast<std::size_t>(2 * i)] = x[2 * i] * c - x[2 * i + 1] * s;
      expected[static_cast<std::size_t>(2 * i + 1)] = x[2 * i] * s + x[2 * i + 1] * c;
    }
    ASSERT_EQ(std::memcmp(rotated.data(), expected.data(), sizeof(double) * 32), 0)
        << "position " << position;
  }
}

TEST(RopeSequenceFast, EachRowIsTurnedByTheSinusoidalRowBitForBit) {
  // Row r turns by the (sin, cos) pairs of the sinusoidal table's row r (θ_i = ω_i), with
  // rotate_pairs' products and sums. The WebAssembly build computes the rotation with SIMD128
  // vectors (angle_addition.hpp), two pairs at a time where it can, which must give the same bits;
  // 17 pairs leave one pair over. A sign-carrying x tests zeros too.
  std::mt19937_64 rng(7);
  const std::int64_t rows = 3 * kBlock + 9;
  for (const std::int64_t d : {32, 34}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    Matrix x = random_matrix(rng, rows, d);
    x(40, 0) = -0.0;
    x(40, 1) = 0.0;
    x(41, 2) = -0.0;
    x(41, 3) = -0.0;
    const Matrix rotated = apply_rope_sequence(x, 10000.0);
    const Matrix angles = sinusoidal_encoding(rows, d, 10000.0);
    for (std::int64_t r = 0; r < rows; ++r) {
      std::vector<double> expected(static_cast<std::size_t>(d));
      for (std::int64_t i = 0; i < d / 2; ++i) {
        const double s = angles(r, 2 * i), c = angles(r, 2 * i + 1);
        const double even = x(r, 2 * i), odd = x(r, 2 * i + 1);
        expected[static_cast<std::size_t>(2 * i)] = even * c - odd * s;
        expected[static_cast<std::size_t>(2 * i + 1)] = even * s + odd * c;
      }
      ASSERT_EQ(std::memcmp(rotated.row(r).data(), expected.data(), sizeof(double) * expected.size()), 0)
          << "row " << r;
    }
  }
}

TEST(RopeSequenceFast, KeepsTheArgumentChecks) {
  const Matrix odd = Matrix::Ones(3, 5);
  EXPECT_THAT(error_of([&] { apply_rope_sequence(odd); }),
              names_field_and_rule("x columns", "must be positive and even (RoPE rotates pairs)"));
  Matrix with_nan = Matrix::Ones(40, 4);
  with_nan(35, 1) = std::nan("");
  EXPECT_THAT(error_of([&] { apply_rope_sequence(with_nan); }),
              names_field_and_rule("x[35][1]", "must be finite"));
  EXPECT_THAT(
      error_of([&] { apply_rope_sequence(Matrix::Ones(2, 4), 1.0); }),
      names_field_and_rule("base", "must be different from 1 (every pair would turn at the same speed)"));
  EXPECT_EQ(apply_rope_sequence(Matrix(0, 4)).rows(), 0);
}

// ---- one pair as a clock -----------------------------------------------------------------

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
  EXPECT_THAT(error_of([&] { rope_clock(one, one, 3, 7, 0); }),
              names_field_and_rule("theta", "must be a finite number > 0"));
  EXPECT_THAT(error_of([&] { rope_clock(Eigen::Vector2d(std::nan(""), 0), one, 3, 7); }),
              names_field_and_rule("q[0]", "must be finite"));
}

}  // namespace
}  // namespace positional
