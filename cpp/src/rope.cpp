// Rotary position embeddings: frequencies, rotation of vectors and sequences, figure data, and one
// pair as a clock face.
#include "positional/rope.hpp"

#include <algorithm>  // std::min
#include <cmath>
#include <string>

#include "angle_addition.hpp"
#include "pair_frequency.hpp"
#include "positional/limits.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {

// The largest entry magnitude RoPE turns: a pair no longer than √2 · 2^1022 < DBL_MAX cannot
// overflow when rotated (the rotation keeps its length; rounding adds a few ulps).
constexpr double kMaxRotatable = 0x1p1022;

// Finite entries (require_all_finite's message names the first that is not) no larger than kMaxRotatable.
void require_rotatable(const std::string& name, const Eigen::Ref<const Matrix>& x) {
  bool in_range = true;
  for (Eigen::Index r = 0; r < x.rows(); ++r)
    for (Eigen::Index c = 0; c < x.cols(); ++c) in_range &= std::abs(x(r, c)) <= kMaxRotatable;
  if (in_range) return;
  require_all_finite(name, x);
  for (Eigen::Index r = 0; r < x.rows(); ++r)
    for (Eigen::Index c = 0; c < x.cols(); ++c)
      if (std::abs(x(r, c)) > kMaxRotatable) {
        fail(name + "[" + std::to_string(r) + "][" + std::to_string(c) + "]",
             "at most 2^1022 in magnitude (a larger pair overflows when turned)", x(r, c));
      }
}

void require_rotatable(const std::string& name, const Eigen::Ref<const Vector>& x) {
  require_all_finite(name, x);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (std::abs(x[i]) > kMaxRotatable) {
      fail(name + "[" + std::to_string(i) + "]",
           "at most 2^1022 in magnitude (a larger pair overflows when turned)", x[i]);
    }
}

void check_vector(const std::string& name, const Eigen::Ref<const Vector>& x) {
  if (x.size() == 0) throw InputError(name + " must not be empty");
  if (x.size() % 2 != 0) fail(name + " length", "even (RoPE rotates pairs)", static_cast<double>(x.size()));
  require_work("rotating " + name, {x.size()}, kMaxWorkSteps);
  require_rotatable(name, x);
}

[[noreturn]] void angle_overflow(double position, double theta) {
  throw InputError("the angle position · θ overflows (" + format_number(position) + " × " +
                   format_number(theta) + "): sin and cos of an infinite angle are undefined");
}

// The width and base every frequency table checks before computing an entry.
void check_frequency_arguments(std::int64_t d, double base) {
  require_even_dimension("d", d);
  require_base("base", base);
}

// A base far below 1 makes the last pair infinitely fast.
void require_finite_slowest(double slowest, double base) {
  if (!std::isfinite(slowest)) fail("base", "large enough that base^(−(d−2)/d) is finite", base);
}

// Rotates the pairs of `in` by angle·θ_i into `out` (both length d, may alias).
void rotate_pairs(const double* in, double* out, double position, const Vector& theta) {
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    const double angle = position * theta[i];
    if (!std::isfinite(angle)) angle_overflow(position, theta[i]);
    const auto [s, c] = detail::sin_and_cos(angle);
    detail::store_pair(out + 2 * i,
                       detail::turned_pair(detail::load_pair(in + 2 * i), detail::pair_of(s, c)));
  }
}

}  // namespace

// [snippet:rope_frequencies]
Vector rope_frequencies(std::int64_t d, double base) {
  check_frequency_arguments(d, base);
  Vector theta(d / 2);
  for (std::int64_t i = 0; i < d / 2; ++i) {
    theta[i] = detail::pair_frequency(i, d, base);  // θ_i = base^(−2i/d)
  }
  require_finite_slowest(theta[d / 2 - 1], base);
  return theta;
}
// [/snippet]

double rope_slowest_frequency(std::int64_t d, double base) {
  check_frequency_arguments(d, base);
  const double slowest = detail::pair_frequency(d / 2 - 1, d, base);
  require_finite_slowest(slowest, base);
  return slowest;
}

// [snippet:apply_rope]
Vector apply_rope(const Eigen::Ref<const Vector>& x, double position, double base) {
  check_vector("x", x);
  require_finite("position", position);
  const Vector theta = rope_frequencies(x.size(), base);
  Vector out(x.size());
  // The 2 × 2 rotation [[cos, −sin], [sin, cos]] applied to every (even, odd) pair.
  rotate_pairs(x.data(), out.data(), position, theta);
  return out;
}
// [/snippet]

Matrix apply_rope_with_frequencies(const Eigen::Ref<const Matrix>& x,
                                   const Eigen::Ref<const Vector>& positions,
                                   const Eigen::Ref<const Vector>& inv_freq) {
  if (x.cols() == 0 || x.cols() % 2 != 0) {
    fail("x columns", "positive and even (RoPE rotates pairs)", static_cast<double>(x.cols()));
  }
  if (positions.size() != x.rows()) {
    throw InputError("positions must have one entry per row of x (" + std::to_string(x.rows()) + "), got " +
                     std::to_string(positions.size()));
  }
  if (inv_freq.size() * 2 != x.cols()) {
    throw InputError("inv_freq must have x columns / 2 = " + std::to_string(x.cols() / 2) + " entries, got " +
                     std::to_string(inv_freq.size()));
  }
  require_work("rotating x", {x.rows(), x.cols()}, kMaxWorkSteps);
  require_rotatable("x", x);
  require_all_finite("positions", positions);
  require_all_finite("inv_freq", inv_freq);
  const Vector theta = inv_freq;
  Matrix out(x.rows(), x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    rotate_pairs(x.row(r).data(), out.row(r).data(), positions[r], theta);
  }
  return out;
}

Matrix apply_rope(const Eigen::Ref<const Matrix>& x, const Eigen::Ref<const Vector>& positions, double base) {
  if (x.cols() == 0 || x.cols() % 2 != 0) {
    fail("x columns", "positive and even (RoPE rotates pairs)", static_cast<double>(x.cols()));
  }
  return apply_rope_with_frequencies(x, positions, rope_frequencies(x.cols(), base));
}

Matrix apply_rope_sequence(const Eigen::Ref<const Matrix>& x, double base) {
  if (x.cols() == 0 || x.cols() % 2 != 0) {
    fail("x columns", "positive and even (RoPE rotates pairs)", static_cast<double>(x.cols()));
  }
  require_work("rotating x", {x.rows(), x.cols()}, kMaxWorkSteps);
  const Vector theta = rope_frequencies(x.cols(), base);
  require_rotatable("x", x);
  if (x.rows() > 0)
    detail::require_finite_angles("(rows − 1)", static_cast<double>(x.rows() - 1), theta.maxCoeff());
  // Row r turns by r·θ_i. The (sin, cos) of those angles are the sinusoidal table's rows for
  // ω = θ (the same formula), built as that table is: sin and cos for rows 0..kAngleBlock−1 and
  // each block's first row, angle addition for the rest, each pair's (sin, cos) used as it is
  // computed (rotate_by_sum), so no table as large as x is built.
  const std::int64_t rows = x.rows();
  const std::int64_t pairs = theta.size();
  const Matrix offsets = sinusoidal_encoding(std::min(rows, detail::kAngleBlock), x.cols(), base);
  Vector block_start(x.cols());
  Matrix out(rows, x.cols());
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t k = r % detail::kAngleBlock;
    const double* in = x.row(r).data();
    double* rotated = out.row(r).data();
    // The same products and sums as rotate_pairs, so rows agree with apply_rope.
    if (r < detail::kAngleBlock) {
      detail::rotate_by(in, offsets.row(k).data(), rotated, pairs);  // rows of the first block: as computed
    } else if (k == 0) {
      detail::sin_cos_row(static_cast<double>(r), theta.data(), block_start.data(), pairs);
      detail::rotate_by(in, block_start.data(), rotated, pairs);
    } else {
      detail::rotate_by_sum(in, block_start.data(), offsets.row(k).data(), rotated, pairs);
    }
  }
  return out;
}

// [snippet:rope_scores_over_distance]
Matrix rope_scores_over_distance(const Eigen::Ref<const Vector>& q, const Eigen::Ref<const Vector>& k,
                                 const Eigen::Ref<const Vector>& starts, std::int64_t max_distance,
                                 double base) {
  check_vector("q", q);
  check_vector("k", k);
  if (q.size() != k.size()) {
    throw InputError("q and k must have the same length, got " + std::to_string(q.size()) + " and " +
                     std::to_string(k.size()));
  }
  require_all_finite("starts", starts);
  require_non_negative("max_distance", max_distance);
  if (max_distance >= kMaxOutputDoubles) {
    fail("max_distance", "less than " + format_number(static_cast<double>(kMaxOutputDoubles)),
         static_cast<double>(max_distance));
  }
  require_output_size("the score table", starts.size(), max_distance + 1);
  require_work("the score table", {starts.size(), max_distance + 1, q.size() / 2}, kMaxWorkSteps);
  const Vector theta = rope_frequencies(q.size(), base);
  Matrix scores(starts.size(), max_distance + 1);
  Vector q_rotated(q.size());
  Vector k_rotated(k.size());
  for (Eigen::Index s = 0; s < starts.size(); ++s) {
    rotate_pairs(q.data(), q_rotated.data(), starts[s], theta);
    for (std::int64_t delta = 0; delta <= max_distance; ++delta) {
      rotate_pairs(k.data(), k_rotated.data(), starts[s] + static_cast<double>(delta), theta);
      scores(s, delta) = q_rotated.dot(k_rotated);
      if (!std::isfinite(scores(s, delta))) {
        throw InputError(
            "the score q · k overflows: q and k are too large (|q| · |k| must stay below 1.8e308)");
      }
    }
  }
  return scores;
}
// [/snippet]

Matrix rope_pair_angles(const Eigen::Ref<const Vector>& positions, const Eigen::Ref<const Vector>& pairs,
                        std::int64_t d, double base, bool wrapped) {
  require_all_finite("positions", positions);
  const Vector theta = rope_frequencies(d, base);
  require_output_size("the angle table", pairs.size(), positions.size());
  require_work("the angle table", {pairs.size(), positions.size()}, kMaxWorkSteps);
  Matrix angles(pairs.size(), positions.size());
  for (Eigen::Index j = 0; j < pairs.size(); ++j) {
    const std::int64_t pair = checked_element("pairs", j, pairs[j], 0, d / 2 - 1);
    for (Eigen::Index p = 0; p < positions.size(); ++p) {
      double angle = positions[p] * theta[pair];
      if (!std::isfinite(angle)) angle_overflow(positions[p], theta[pair]);
      if (wrapped) {
        angle = std::fmod(angle, kTwoPi);
        if (angle < 0) angle += kTwoPi;  // numpy's mod: the result takes the divisor's sign
      }
      angles(j, p) = angle;
    }
  }
  return angles;
}

// ---- one pair as a clock face -------------------------------------------------------------------

namespace {

Eigen::Vector2d rotate(const Eigen::Vector2d& x, double angle) {
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  return Eigen::Vector2d(x[0] * c - x[1] * s, x[0] * s + x[1] * c);
}

// Wraps an angle to (−π, π].
double wrap(double angle) {
  double wrapped = std::remainder(angle, 2.0 * kPi);  // in [−π, π]
  if (wrapped <= -kPi) wrapped += 2.0 * kPi;
  return wrapped;
}

}  // namespace

RopeClock rope_clock(const Eigen::Vector2d& q, const Eigen::Vector2d& k, double m, double n, double theta) {
  require_finite("q[0]", q[0]);
  require_finite("q[1]", q[1]);
  require_finite("k[0]", k[0]);
  require_finite("k[1]", k[1]);
  require_finite("m", m);
  require_finite("n", n);
  require_positive("theta", theta);
  RopeClock clock;
  clock.q_rotated = rotate(q, m * theta);
  clock.k_rotated = rotate(k, n * theta);
  clock.q_angle = std::atan2(clock.q_rotated[1], clock.q_rotated[0]);
  clock.k_angle = std::atan2(clock.k_rotated[1], clock.k_rotated[0]);
  clock.angle_between = wrap(clock.k_angle - clock.q_angle);
  clock.score = clock.q_rotated.dot(clock.k_rotated);
  clock.relative_score = q.dot(rotate(k, (n - m) * theta));
  if (!clock.q_rotated.allFinite() || !clock.k_rotated.allFinite() || !std::isfinite(clock.score) ||
      !std::isfinite(clock.relative_score) || !std::isfinite(clock.angle_between)) {
    throw InputError("the clock overflows: an angle m·θ, n·θ or the score q·k is too large for a double");
  }
  return clock;
}

}  // namespace positional
