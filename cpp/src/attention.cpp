// Scaled dot-product attention with an optional causal mask, cosine similarity, and permutations
// with the distance between a matrix and a permuted copy.
#include "positional/attention.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "matrix_product.hpp"
#include "positional/validate.hpp"

namespace positional {

// [snippet:scaled_dot_product_attention]
AttentionResult scaled_dot_product_attention(const Eigen::Ref<const Matrix>& q,
                                             const Eigen::Ref<const Matrix>& k,
                                             const Eigen::Ref<const Matrix>& v, bool causal) {
  if (q.rows() == 0 || q.cols() == 0) throw InputError("q must not be empty");
  if (k.cols() != q.cols()) {
    throw InputError("k must have as many columns as q (" + std::to_string(q.cols()) + "), got " +
                     std::to_string(k.cols()));
  }
  if (k.rows() == 0) throw InputError("k must not be empty");
  if (v.rows() != k.rows()) {
    throw InputError("v must have one row per key (" + std::to_string(k.rows()) + "), got " +
                     std::to_string(v.rows()));
  }
  if (causal && k.rows() != q.rows()) {
    throw InputError("a causal mask needs as many keys as queries (" + std::to_string(q.rows()) + "), got " +
                     std::to_string(k.rows()));
  }
  require_output_size("the attention weights", q.rows(), k.rows());
  require_work("attention", {q.rows(), k.rows(), q.cols() + v.cols()}, kMaxAttentionWork);
  require_all_finite("q", q);
  require_all_finite("k", k);
  require_all_finite("v", v);

  AttentionResult result;
  result.scores = detail::product(q, k.transpose());  // q · kᵀ (matrix_product.hpp)
  if (!result.scores.allFinite()) {
    throw InputError("q · kᵀ overflows: the entries of q and k are too large (a score exceeds 1.8e308)");
  }
  result.scaled_scores = result.scores / std::sqrt(static_cast<double>(q.cols()));
  result.weights.resize(q.rows(), k.rows());
  for (Eigen::Index i = 0; i < q.rows(); ++i) {
    // Query i sees keys 0..i under the mask; masked keys get weight exactly 0.
    const Eigen::Index visible = causal ? i + 1 : k.rows();
    const double top = result.scaled_scores.row(i).head(visible).maxCoeff();  // so exp never overflows
    double total = 0;
    for (Eigen::Index j = 0; j < visible; ++j) {
      result.weights(i, j) = std::exp(result.scaled_scores(i, j) - top);
      total += result.weights(i, j);
    }
    result.weights.row(i).head(visible) /= total;
    result.weights.row(i).tail(k.rows() - visible).setZero();
  }
  result.output = detail::product(result.weights, v);
  if (!result.output.allFinite())
    throw InputError("the weighted sums of v overflow: the entries of v are too large");
  return result;
}
// [/snippet]

double cosine_similarity(const Eigen::Ref<const Vector>& a, const Eigen::Ref<const Vector>& b) {
  if (a.size() == 0) throw InputError("a must not be empty");
  if (a.size() != b.size()) {
    throw InputError("a and b must have the same length, got " + std::to_string(a.size()) + " and " +
                     std::to_string(b.size()));
  }
  require_all_finite("a", a);
  require_all_finite("b", b);
  // Each vector is first scaled by a power of two that brings its largest entry into [0.5, 1): the
  // cosine does not change, the products can no longer overflow or underflow, and — powers of
  // two being exact — the result is bit for bit a·b / (|a| |b|) wherever that neither overflows nor
  // underflows.
  const double a_max = a.cwiseAbs().maxCoeff();
  const double b_max = b.cwiseAbs().maxCoeff();
  if (a_max == 0 || b_max == 0) {
    throw InputError("a and b must be non-zero vectors (a zero vector has no direction)");
  }
  const int a_shift = -std::ilogb(a_max) - 1;  // up to 1073 for subnormals: scalbn, not a factor 2^shift
  const int b_shift = -std::ilogb(b_max) - 1;
  const Vector a_scaled = a.unaryExpr([a_shift](double x) { return std::scalbn(x, a_shift); });
  const Vector b_scaled = b.unaryExpr([b_shift](double x) { return std::scalbn(x, b_shift); });
  return a_scaled.dot(b_scaled) / (a_scaled.norm() * b_scaled.norm());
}

// ---- permutations -------------------------------------------------------------------------------

namespace {

void require_permutation(const Permutation& perm, std::int64_t n) {
  if (static_cast<std::int64_t>(perm.size()) != n) {
    fail("perm length", "equal to " + format_number(static_cast<double>(n)),
         static_cast<double>(perm.size()));
  }
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  for (std::size_t j = 0; j < perm.size(); ++j) {
    const std::int64_t p = perm[j];
    if (p < 0 || p >= n || seen[static_cast<std::size_t>(p)]) {
      fail("perm[" + std::to_string(j) + "]",
           "a distinct index from 0 to " + format_number(static_cast<double>(n - 1)), static_cast<double>(p));
    }
    seen[static_cast<std::size_t>(p)] = true;
  }
}

}  // namespace

Permutation reversal_permutation(std::int64_t n) {
  require_non_negative("n", n);
  require_output_size("the permutation", n, 1);
  require_work("the permutation", {n}, kMaxWorkSteps);
  Permutation perm(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) perm[static_cast<std::size_t>(j)] = n - 1 - j;
  return perm;
}

Permutation interleaved_to_half_permutation(std::int64_t d) {
  require_even_dimension("d", d);
  require_work("the permutation", {d}, kMaxWorkSteps);
  Permutation perm(static_cast<std::size_t>(d));
  for (std::int64_t i = 0; i < d / 2; ++i) {
    perm[static_cast<std::size_t>(i)] = 2 * i;
    perm[static_cast<std::size_t>(i + d / 2)] = 2 * i + 1;
  }
  return perm;
}

Vector permute(const Eigen::Ref<const Vector>& x, const Permutation& perm) {
  require_permutation(perm, x.size());
  require_all_finite("x", x);
  Vector out(x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) out[j] = x[perm[static_cast<std::size_t>(j)]];
  return out;
}

Matrix permute_columns(const Eigen::Ref<const Matrix>& m, const Permutation& perm) {
  require_permutation(perm, m.cols());
  require_all_finite("m", m);
  Matrix out(m.rows(), m.cols());
  if (m.rows() == 0) return out;  // no data to move (and .col(j) of an empty matrix offsets a null pointer)
  for (Eigen::Index j = 0; j < m.cols(); ++j) out.col(j) = m.col(perm[static_cast<std::size_t>(j)]);
  return out;
}

double max_permuted_difference(const Eigen::Ref<const Matrix>& a, const Eigen::Ref<const Matrix>& b,
                               const Permutation& perm) {
  if (a.rows() != a.cols())
    throw InputError("a must be square, got " + std::to_string(a.rows()) + " × " + std::to_string(a.cols()));
  if (b.rows() != a.rows() || b.cols() != a.cols()) {
    throw InputError("b must have the shape of a (" + std::to_string(a.rows()) + " × " +
                     std::to_string(a.cols()) + "), got " + std::to_string(b.rows()) + " × " +
                     std::to_string(b.cols()));
  }
  require_permutation(perm, a.rows());
  require_all_finite("a", a);
  require_all_finite("b", b);
  double worst = 0.0;
  for (Eigen::Index i = 0; i < b.rows(); ++i) {
    for (Eigen::Index j = 0; j < b.cols(); ++j) {
      worst = std::max(worst, std::fabs(b(i, j) - a(perm[static_cast<std::size_t>(i)],
                                                    perm[static_cast<std::size_t>(j)])));
    }
  }
  if (!std::isfinite(worst)) throw InputError("a and b differ by more than the largest double (1.8e308)");
  return worst;
}

}  // namespace positional
