// Attention against the lesson's hand-worked example, its permutation equivariance, the causal
// mask, cosine similarity, the permutation helpers, and bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>  // std::memcmp
#include <limits>
#include <random>
#include <string>

#include "positional/attention.hpp"
#include "positional/validate.hpp"

#include "expect_error.hpp"
#include "test_inputs.hpp"

namespace positional {
namespace {

using ::testing::HasSubstr;
using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

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

// Entry (i, j) of a·bᵀ (b_transposed = false: of a·b) summed over k in order, from zero, each
// product and sum rounded once: the WebAssembly build's matrix products (cpp/src/matrix_product.hpp).
// Also returns Σ|a(i,k)·b(k,j)| for the rounding bound of the native build's own order.
struct OrderedSum {
  double sum;
  double magnitude;
};

OrderedSum ordered_sum(const Matrix& a, const Matrix& b, Eigen::Index i, Eigen::Index j, bool b_transposed) {
  OrderedSum out{0.0, 0.0};
  for (Eigen::Index k = 0; k < a.cols(); ++k) {
    const double term = a(i, k) * (b_transposed ? b(j, k) : b(k, j));
    out.sum += term;
    out.magnitude += std::abs(term);
  }
  return out;
}

// Compares every entry of product with the ordered sums. In WebAssembly the engine's product is
// that sum, so the bits must agree (memcmp, so signed zeros count). Natively the product is
// Eigen's, which may add in another order (blocks, vector lanes); each order is within
// γ_d·Σ|a·b| of the exact sum, γ_d = d·u / (1 − d·u) with u = 2^−53, so the two differ by at
// most 2·γ_d·Σ|a·b|.
void expect_ordered_sums(const Matrix& product, const Matrix& a, const Matrix& b, bool b_transposed) {
  const double d_u = static_cast<double>(a.cols()) * std::ldexp(1.0, -53);
  const double gamma = d_u / (1 - d_u);
  for (Eigen::Index i = 0; i < product.rows(); ++i) {
    for (Eigen::Index j = 0; j < product.cols(); ++j) {
      const OrderedSum expected = ordered_sum(a, b, i, j, b_transposed);
#if defined(__wasm_simd128__)
      ASSERT_EQ(std::memcmp(&product(i, j), &expected.sum, sizeof(double)), 0)
          << "entry (" << i << ", " << j << "): " << product(i, j) << " vs " << expected.sum;
#else
      ASSERT_LE(std::abs(product(i, j) - expected.sum), 2 * gamma * expected.magnitude)
          << "entry (" << i << ", " << j << ")";
#endif
    }
  }
}

TEST(Attention, ScoresAndOutputAreTheSumsOverKInOrder) {
  std::mt19937_64 rng(24);
  // Shapes that leave every remainder of the 4 × 4 blocks (rows and columns mod 4 of 0–3), a
  // causal case, and the benchmark's depth.
  struct Case {
    Eigen::Index n, m, d, dv;
    bool causal;
  };
  for (const Case c : {Case{9, 11, 7, 5, false}, Case{13, 13, 10, 6, true}, Case{4, 4, 1, 4, false},
                       Case{1, 3, 2, 1, false}, Case{37, 46, 64, 9, false}, Case{42, 42, 33, 64, true}}) {
    SCOPED_TRACE("n " + std::to_string(c.n) + ", m " + std::to_string(c.m) + ", d " + std::to_string(c.d));
    const Matrix q = random_matrix(rng, c.n, c.d), k = random_matrix(rng, c.m, c.d),
                 v = random_matrix(rng, c.m, c.dv);
    const AttentionResult result = scaled_dot_product_attention(q, k, v, c.causal);
    expect_ordered_sums(result.scores, q, k, true);
    expect_ordered_sums(result.output, result.weights, v, false);
  }
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

// ---- permutations ------------------------------------------------------------------------

TEST(Permutation, InterleavedToHalves) {
  const Permutation p = interleaved_to_half_permutation(8);
  const Permutation expected = {0, 2, 4, 6, 1, 3, 5, 7};
  EXPECT_EQ(p, expected);
  EXPECT_THAT(error_of([&] { interleaved_to_half_permutation(7); }),
              names_field_and_rule("d", "must be even"));
  const Permutation r = reversal_permutation(3);
  EXPECT_EQ(r, (Permutation{2, 1, 0}));
}

TEST(Permutation, PermuteChecksItsInput) {
  Vector x(3);
  x << 10, 20, 30;
  const Vector y = permute(x, {2, 0, 1});
  EXPECT_EQ(y[0], 30);
  EXPECT_EQ(y[1], 10);
  EXPECT_THAT(error_of([&] {
                permute(x, {0, 0, 1});
              }),
              names_field_and_rule("perm[1]", "must be a distinct index from 0 to 2"));
  EXPECT_THAT(error_of([&] {
                permute(x, {0, 1});
              }),
              names_field_and_rule("perm length", "must be equal to 3"));
  EXPECT_THAT(error_of([&] {
                permute(x, {0, 1, 3});
              }),
              names_field_and_rule("perm[2]", "must be a distinct index from 0 to 2"));
}

TEST(Permutation, MaxPermutedDifference) {
  Matrix a(3, 3);
  a << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  Matrix b(3, 3);  // a with rows and columns reversed
  b << 9, 8, 7, 6, 5, 4, 3, 2, 1;
  EXPECT_EQ(max_permuted_difference(a, b, reversal_permutation(3)), 0.0);
  EXPECT_EQ(max_permuted_difference(a, b, {0, 1, 2}), 8.0);
  EXPECT_THAT(error_of([&] {
                max_permuted_difference(a, Matrix::Zero(2, 2), {0, 1, 2});
              }),
              names_field_and_rule("b", "must have the shape of a (3 × 3)"));
}

}  // namespace
}  // namespace positional
