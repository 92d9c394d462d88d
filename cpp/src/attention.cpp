// Scaled dot-product attention with an optional causal mask, and cosine similarity.
#include "positional/attention.hpp"

#include <algorithm>
#include <cmath>
#include <string>

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
  result.scores = q * k.transpose();
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
  result.output = result.weights * v;
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

}  // namespace positional
