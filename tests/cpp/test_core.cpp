// The core engine against the lesson's worked numbers, properties on random inputs, and bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "positional/attention.hpp"
#include "positional/extension.hpp"
#include "positional/rope.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"

#include "expect_error.hpp"

namespace positional {
namespace {

using ::testing::HasSubstr;

// The lesson prints three decimals; 5e-4 is half a unit in that last place.
constexpr double kPrinted3 = 5e-4;
// Identities that hold exactly in real arithmetic differ only by rounding in a
// handful of operations on values of order 1: 1e-12 leaves room for ~10^3 ulps.
constexpr double kIdentity = 1e-12;
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

using testing_support::error_of;

Vector random_vector(std::mt19937_64& rng, Eigen::Index n) {
  std::normal_distribution<double> normal;
  Vector v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = normal(rng);
  return v;
}

Matrix random_matrix(std::mt19937_64& rng, Eigen::Index rows, Eigen::Index cols) {
  std::normal_distribution<double> normal;
  Matrix m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = normal(rng);
  return m;
}

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

TEST(Sinusoidal, ConcatenatedIsAColumnPermutation) {
  const Matrix interleaved = sinusoidal_encoding(20, 8);
  const Matrix concatenated = sinusoidal_encoding_concatenated(20, 8);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(concatenated.col(i), interleaved.col(2 * i));
    EXPECT_EQ(concatenated.col(4 + i), interleaved.col(2 * i + 1));
  }
}

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

// ---- attention -----------------------------------------------------------------------------

TEST(Attention, LessonHandWorkedExample) {
  // dog = (1, 0), bites = (0, 1), man = (1, 1); q = k = v = the word vector.
  const Matrix x = (Matrix(3, 2) << 1, 0, 0, 1, 1, 1).finished();
  const AttentionResult result = scaled_dot_product_attention(x, x, x);
  EXPECT_EQ(result.scores(0, 0), 1);
  EXPECT_EQ(result.scores(0, 1), 0);
  EXPECT_EQ(result.scores(0, 2), 1);
  EXPECT_NEAR(result.scaled_scores(0, 0), 0.707, kPrinted3);
  EXPECT_NEAR(result.weights(0, 0), 0.401, kPrinted3);
  EXPECT_NEAR(result.weights(0, 1), 0.198, kPrinted3);
  EXPECT_NEAR(result.weights(0, 2), 0.401, kPrinted3);
  const double expected[3][2] = {{0.802, 0.599}, {0.599, 0.802}, {0.752, 0.752}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 2; ++c) EXPECT_NEAR(result.output(r, c), expected[r][c], kPrinted3);
}

TEST(Attention, WithoutPositionsIsPermutationEquivariant) {
  std::mt19937_64 rng(21);
  const Matrix x = random_matrix(rng, 6, 8);
  const Matrix wq = random_matrix(rng, 8, 8), wk = random_matrix(rng, 8, 8), wv = random_matrix(rng, 8, 8);
  Eigen::PermutationMatrix<Eigen::Dynamic> p(6);
  p.indices() << 5, 2, 0, 4, 1, 3;
  const Matrix px = p * x;
  const Matrix out = scaled_dot_product_attention(x * wq, x * wk, x * wv).output;
  const Matrix out_p = scaled_dot_product_attention(px * wq, px * wk, px * wv).output;
  const Matrix p_out = p * out;
  EXPECT_TRUE(out_p.isApprox(p_out, 1e-13));
}

TEST(Attention, CausalMaskExcludesTheFuture) {
  std::mt19937_64 rng(22);
  const Matrix x = random_matrix(rng, 4, 6);
  const AttentionResult masked = scaled_dot_product_attention(x, x, x, true);
  for (Eigen::Index i = 0; i < 4; ++i) {
    EXPECT_NEAR(masked.weights.row(i).sum(), 1.0, 1e-15);
    for (Eigen::Index j = i + 1; j < 4; ++j) EXPECT_EQ(masked.weights(i, j), 0.0);
  }
  EXPECT_EQ(masked.weights(0, 0), 1.0);  // the first token sees only itself
  EXPECT_TRUE(masked.output.row(0).isApprox(x.row(0)));
}

TEST(Attention, StableForHugeScores) {
  const Matrix x = (Matrix(2, 1) << 1e3, -1e3).finished();  // scores of ±1e6 would overflow exp
  const AttentionResult result = scaled_dot_product_attention(x, x, x);
  EXPECT_TRUE(result.output.allFinite());
  EXPECT_EQ(result.weights(0, 0), 1.0);
}

TEST(Attention, RejectsBadShapesAndValues) {
  const Matrix a = Matrix::Ones(3, 4);
  EXPECT_EQ(error_of([&] { scaled_dot_product_attention(a, Matrix::Ones(3, 5), a); }),
            "k must have as many columns as q (4), got 5");
  EXPECT_EQ(error_of([&] { scaled_dot_product_attention(a, a, Matrix::Ones(2, 4)); }),
            "v must have one row per key (3), got 2");
  EXPECT_EQ(error_of([&] { scaled_dot_product_attention(Matrix(0, 4), a, a); }), "q must not be empty");
  Matrix bad = a;
  bad(1, 2) = kInf;
  EXPECT_EQ(error_of([&] { scaled_dot_product_attention(a, bad, a); }), "k[1][2] must be finite, got inf");
  EXPECT_EQ(error_of([&] { scaled_dot_product_attention(a, Matrix::Ones(2, 4), Matrix::Ones(2, 4), true); }),
            "a causal mask needs as many keys as queries (3), got 2");
}

TEST(Cosine, KnownValuesAndErrors) {
  EXPECT_NEAR(cosine_similarity((Vector(2) << 1, 0).finished(), (Vector(2) << 0, 3).finished()), 0, 0);
  EXPECT_NEAR(cosine_similarity((Vector(2) << 1, 1).finished(), (Vector(2) << 2, 2).finished()), 1, 1e-15);
  EXPECT_EQ(error_of([] { cosine_similarity(Vector::Zero(3), Vector::Ones(3)); }),
            "a and b must be non-zero vectors (a zero vector has no direction)");
  EXPECT_EQ(error_of([] { cosine_similarity(Vector::Ones(3), Vector::Ones(2)); }),
            "a and b must have the same length, got 3 and 2");
}

// ---- context extension ---------------------------------------------------------------------

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

TEST(Validate, CheckedIntegerNamesTheRule) {
  EXPECT_EQ(checked_integer("n", 12, 0, 100), 12);
  EXPECT_EQ(error_of([] { checked_integer("n", 3.7, 0, 100); }),
            "n must be a whole number from 0 to 100, got 3.7");
  EXPECT_EQ(error_of([] { checked_integer("n", kNaN, 0, 100); }),
            "n must be a whole number from 0 to 100, got nan");
  EXPECT_EQ(error_of([] { checked_integer("n", 101, 0, 100); }),
            "n must be a whole number from 0 to 100, got 101");
}

}  // namespace
}  // namespace positional
