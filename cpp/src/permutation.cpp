// Permutations of positions and dimensions, and the distance between a matrix and a permuted copy.
#include "positional/permutation.hpp"

#include <cmath>
#include <string>

#include "positional/validate.hpp"

namespace positional {
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
