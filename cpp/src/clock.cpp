// One RoPE pair as a clock face: rotated hands, the angle between them, and the score.
#include "positional/clock.hpp"

#include <cmath>

#include "positional/limits.hpp"
#include "positional/validate.hpp"

namespace positional {
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
