// ALiBi head slopes and bias matrices, and RoPE's long-term decay curves for comparison.
#include "positional/alibi.hpp"

#include <cmath>
#include <complex>

#include "positional/rope.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {

// slope_h = 2^(−8h/n), h = 1..n, for n a power of 2.
void append_power_of_two_slopes(std::int64_t n, Vector& out, Eigen::Index& at, std::int64_t stride,
                                std::int64_t count) {
  for (std::int64_t h = 1; h <= n && count > 0; h += stride, --count) {
    out[at++] = std::exp2(-8.0 * static_cast<double>(h) / static_cast<double>(n));
  }
}

void check_decay_arguments(std::int64_t d, double base, std::int64_t max_distance) {
  require_even_dimension("d", d);
  require_base("base", base);
  if (max_distance < 0 || max_distance > kMaxDecayDistance) {
    fail("max_distance", "a whole number from 0 to " + format_number(static_cast<double>(kMaxDecayDistance)),
         static_cast<double>(max_distance));
  }
  require_work("the decay curve", {d / 2, max_distance + 1, 2}, kMaxWorkSteps);
}

}  // namespace

Vector alibi_slopes(std::int64_t n_heads) {
  if (n_heads < 1 || n_heads > kMaxAlibiHeads) {
    fail("n_heads", "a whole number from 1 to " + format_number(static_cast<double>(kMaxAlibiHeads)),
         static_cast<double>(n_heads));
  }
  std::int64_t closest = 1;  // the largest power of 2 ≤ n_heads
  while (closest * 2 <= n_heads) closest *= 2;
  Vector slopes(n_heads);
  Eigen::Index at = 0;
  append_power_of_two_slopes(closest, slopes, at, 1, closest);
  // The remaining heads interleave between the first ones: every other slope of 2·closest heads.
  append_power_of_two_slopes(2 * closest, slopes, at, 2, n_heads - closest);
  return slopes;
}

Matrix alibi_bias(double slope, std::int64_t length) {
  if (!std::isfinite(slope) || slope < 0) fail("slope", "a finite number ≥ 0", slope);
  if (length < 1) fail("length", "at least 1", static_cast<double>(length));
  require_output_size("the bias matrix", length, length);
  if (length > 1 && !std::isfinite(slope * static_cast<double>(length - 1))) {
    fail("slope", "small enough that slope · (length − 1) is finite", slope);
  }
  Matrix bias = Matrix::Zero(length, length);
  for (std::int64_t i = 0; i < length; ++i) {
    for (std::int64_t j = 0; j <= i; ++j) {
      bias(i, j) = slope * static_cast<double>(j - i);  // −slope·(i − j), and +0 on the diagonal
    }
  }
  return bias;
}

Vector rope_decay_curve(std::int64_t d, double base, std::int64_t max_distance) {
  check_decay_arguments(d, base, max_distance);
  const Vector theta = rope_frequencies(d, base);
  const Eigen::Index pairs = theta.size();
  Vector curve(max_distance + 1);
  for (std::int64_t m = 0; m <= max_distance; ++m) {
    std::complex<double> partial(0.0, 0.0);  // S_j = Σ_{k<j} e^{i m θ_k}
    double total = 0.0;
    for (Eigen::Index k = 0; k < pairs; ++k) {
      partial += std::polar(1.0, static_cast<double>(m) * theta[k]);
      total += std::abs(partial);
    }
    curve[m] = total / static_cast<double>(pairs);
  }
  return curve;
}

Vector rope_ones_scores(std::int64_t d, double base, std::int64_t max_distance) {
  check_decay_arguments(d, base, max_distance);
  const Vector theta = rope_frequencies(d, base);
  Vector scores(max_distance + 1);
  for (std::int64_t m = 0; m <= max_distance; ++m) {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < theta.size(); ++i) sum += std::cos(static_cast<double>(m) * theta[i]);
    scores[m] = 2.0 * sum / static_cast<double>(d);
  }
  return scores;
}

}  // namespace positional
