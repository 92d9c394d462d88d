// The split-halves (rotate_half) RoPE layout and its comparison with the interleaved one.
#include "positional/conventions.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "positional/rope.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {

void check_rope_vector(const std::string& name, const Eigen::Ref<const Vector>& x) {
  if (x.size() == 0) throw InputError(name + " must not be empty");
  if (x.size() % 2 != 0) fail(name + " length", "even (RoPE rotates pairs)", static_cast<double>(x.size()));
  require_all_finite(name, x);
}

}  // namespace

// [snippet:apply_rope_half]
Vector apply_rope_half(const Eigen::Ref<const Vector>& x, double position, double base) {
  check_rope_vector("x", x);
  require_work("rotating x", {x.size()}, kMaxWorkSteps);
  require_finite("position", position);
  const Eigen::Index half = x.size() / 2;
  const Vector theta = rope_frequencies(x.size(), base);
  Vector out(x.size());
  for (Eigen::Index i = 0; i < half; ++i) {
    const double angle = position * theta[i];
    const double c = std::cos(angle);
    const double s = std::sin(angle);
    // x·cos + rotate_half(x)·sin, rotate_half(x) = (−x[d/2:], x[:d/2]).
    out[i] = x[i] * c - x[i + half] * s;
    out[i + half] = x[i + half] * c + x[i] * s;
  }
  if (!out.allFinite()) {
    throw InputError(
        "the rotation overflows: the angle position · θ or an entry of x is too large for a double");
  }
  return out;
}
// [/snippet]

ConventionComparison compare_rope_conventions(const Eigen::Ref<const Vector>& q,
                                              const Eigen::Ref<const Vector>& k, double start,
                                              std::int64_t max_distance, double base) {
  check_rope_vector("q", q);
  check_rope_vector("k", k);
  if (k.size() != q.size()) {
    fail("k length", "equal to q's (" + std::to_string(q.size()) + ")", static_cast<double>(k.size()));
  }
  require_finite("start", start);
  if (max_distance < 0 || max_distance > kMaxConventionsDistance) {
    fail("max_distance",
         "a whole number from 0 to " + format_number(static_cast<double>(kMaxConventionsDistance)),
         static_cast<double>(max_distance));
  }
  require_base("base", base);
  const std::int64_t d = q.size();
  // Three rotations of k per distance (d entries each) and their allocations: measured at about
  // d + 32 steps per distance.
  require_work("the comparison", {max_distance + 1, d + 32}, kMaxWorkSteps);
  ConventionComparison result;
  result.permutation = interleaved_to_half_permutation(d);
  const Vector q_half = permute(q, result.permutation);
  const Vector k_half = permute(k, result.permutation);
  const Vector q_rot = apply_rope(q, start, base);
  const Vector q_half_rot = apply_rope_half(q_half, start, base);
  const Vector q_plain_rot = apply_rope_half(q, start, base);
  result.interleaved_scores.resize(max_distance + 1);
  result.half_scores.resize(max_distance + 1);
  result.unpermuted_half_scores.resize(max_distance + 1);
  for (std::int64_t delta = 0; delta <= max_distance; ++delta) {
    const double n = start + static_cast<double>(delta);
    result.interleaved_scores[delta] = q_rot.dot(apply_rope(k, n, base));
    result.half_scores[delta] = q_half_rot.dot(apply_rope_half(k_half, n, base));
    result.unpermuted_half_scores[delta] = q_plain_rot.dot(apply_rope_half(k, n, base));
  }
  result.max_score_difference = (result.interleaved_scores - result.half_scores).cwiseAbs().maxCoeff();
  result.max_unpermuted_difference =
      (result.interleaved_scores - result.unpermuted_half_scores).cwiseAbs().maxCoeff();
  // The sinusoidal tables over the same positions: interleaved columns permuted vs concatenated.
  const std::int64_t rows = std::min<std::int64_t>(max_distance + 1, 4096);
  const Matrix interleaved = permute_columns(sinusoidal_encoding(rows, d, base), result.permutation);
  const Matrix concatenated = sinusoidal_encoding_concatenated(rows, d, base);
  result.sinusoidal_max_difference = (interleaved - concatenated).cwiseAbs().maxCoeff();
  if (!result.interleaved_scores.allFinite() || !result.half_scores.allFinite() ||
      !result.unpermuted_half_scores.allFinite() || !std::isfinite(result.max_score_difference) ||
      !std::isfinite(result.max_unpermuted_difference) || !std::isfinite(result.sinusoidal_max_difference)) {
    throw InputError("the scores overflow: q, k or the positions are too large for a double");
  }
  return result;
}

}  // namespace positional
