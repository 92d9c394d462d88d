// Rotary position embeddings (RoPE; Su et al., 2021): each (even, odd) pair of a query or key is
// turned by position · θ_i, θ_i = base^(−2i/d), so q·k depends only on the distance. The frequencies,
// rotation of vectors and sequences, the figures' scores and angles, and one pair as a clock.
// Rotary variants with their own maths (xPos's decaying rotation, say) belong here; recipes that
// only change θ_i after training belong in rope_scaling.hpp.
#pragma once

#include <cstdint>

#include "positional/limits.hpp"  // kDefaultBase and the other defaults
#include "positional/types.hpp"

namespace positional {

// θ_i = base^(−2i/d) for the d/2 pairs, in radians per position; pair 0 turns fastest (θ_0 = 1).
// Throws InputError when d is odd or ≤ 0, or base is not finite, ≤ 0 or 1, or so small that θ overflows.
// Every rotating function below also throws when an entry to rotate is not finite or exceeds 2^1022 in
// magnitude (a larger pair could overflow when turned), or when an angle position·θ_i overflows.
Vector rope_frequencies(std::int64_t d, double base = kDefaultBase);

// θ_(d/2−1) = base^(−(d−2)/d), the slowest pair's speed: rope_frequencies(d, base)[d/2 − 1] to the
// bit, with the same checks, for one pow instead of d/2.
double rope_slowest_frequency(std::int64_t d, double base = kDefaultBase);

// Rotates one vector x (length d, even) as if it sat at `position` (any finite
// real: interpolation gives fractional positions).
Vector apply_rope(const Eigen::Ref<const Vector>& x, double position, double base = kDefaultBase);

// Rotates every row of a (seq × d) matrix; row r sits at positions[r].
// Throws InputError when positions.size() != seq or any position is not finite.
Matrix apply_rope(const Eigen::Ref<const Matrix>& x, const Eigen::Ref<const Vector>& positions,
                  double base = kDefaultBase);

// Rotates every row of a (seq × d) matrix, row r at position r (0, 1, …, seq − 1).
Matrix apply_rope_sequence(const Eigen::Ref<const Matrix>& x, double base = kDefaultBase);

// Rotates with explicit per-pair frequencies (a scaled RoPE: PI, NTK, YaRN …).
// inv_freq has d/2 entries.
Matrix apply_rope_with_frequencies(const Eigen::Ref<const Matrix>& x,
                                   const Eigen::Ref<const Vector>& positions,
                                   const Eigen::Ref<const Vector>& inv_freq);

// The score ⟨R_m q, R_{m+δ} k⟩ for every start m in `starts` (rows) and every
// distance δ = 0, 1, …, max_distance (columns): the lesson's rope_relative figure.
// Throws InputError also when starts × (max_distance + 1) × d/2 exceeds kMaxWorkSteps.
// Every rotation throws when it would rotate more than kMaxWorkSteps entries; rope_pair_angles
// when pairs × positions exceeds kMaxWorkSteps.
Matrix rope_scores_over_distance(const Eigen::Ref<const Vector>& q, const Eigen::Ref<const Vector>& k,
                                 const Eigen::Ref<const Vector>& starts, std::int64_t max_distance,
                                 double base = kDefaultBase);

// The angle position·θ_i of pair `pairs[j]` (rows) at each of `positions` (columns),
// reduced to [0, 2π) when `wrapped`: the lesson's rope_frequencies figure.
Matrix rope_pair_angles(const Eigen::Ref<const Vector>& positions, const Eigen::Ref<const Vector>& pairs,
                        std::int64_t d, double base = kDefaultBase, bool wrapped = true);

// ---- one pair as a clock ------------------------------------------------------------------------

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
                     double theta = kDefaultClockTheta);

}  // namespace positional
