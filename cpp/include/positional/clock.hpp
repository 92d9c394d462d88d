// One RoPE pair as a clock: q and k (2-vectors) turned by m·θ and n·θ, the angle between the
// hands, and the score, which depends only on n − m.
#pragma once

#include "positional/types.hpp"

namespace positional {

struct RopeClock {
  Eigen::Vector2d q_rotated;  // R(m·θ) q
  Eigen::Vector2d k_rotated;  // R(n·θ) k
  double q_angle = 0;         // direction of the rotated q, radians in (−π, π]
  double k_angle = 0;         // direction of the rotated k, radians in (−π, π]
  double angle_between = 0;   // from q to k, wrapped to (−π, π]
  double score = 0;           // ⟨R(mθ) q, R(nθ) k⟩
  double relative_score = 0;  // ⟨q, R((n − m)θ) k⟩: equal to score up to rounding
};

// Throws InputError when q or k is not finite, m or n is not finite, or theta is not finite or ≤ 0.
RopeClock rope_clock(const Eigen::Vector2d& q, const Eigen::Vector2d& k, double m, double n,
                     double theta = 1.0);

}  // namespace positional
