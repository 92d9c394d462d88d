// ALiBi (Press et al., 2021): no position vectors, a per-head penalty proportional to distance
// subtracted from each causal attention score; beside it, RoPE's long-term decay for comparison.
#pragma once

#include <cstdint>

#include "positional/types.hpp"

namespace positional {

// The head slopes of the ALiBi paper's reference code (also BLOOM's): for n a power of 2,
// slope_h = 2^(−8h/n), h = 1..n; otherwise the n' = 2^⌊log2 n⌋ slopes for n' heads, then the
// first n − n' of every other slope of the 2n' sequence (odd h: 2^(−4h/n'), h = 1, 3, 5, …).
// Throws InputError when n_heads is not within 1..1024.
Vector alibi_slopes(std::int64_t n_heads);

// The (length × length) bias a head with `slope` adds to its causal scores: entry (i, j) is
// −slope · (i − j) for key j ≤ query i. Entries above the diagonal are keys the causal mask
// removes; they hold 0 here (never added: the mask drops them first).
// Throws InputError when slope is not finite or < 0, length < 1, or the result exceeds kMaxOutputDoubles.
Matrix alibi_bias(double slope, std::int64_t length);

// RoFormer's long-term decay bound (Su et al., 2021, section 3.4.3): for relative distance
// m = 0..max_distance, (1 / (d/2)) · Σ_{j=1..d/2} |Σ_{k<j} e^{i m θ_k}|. It falls as m grows,
// which is RoPE's built-in preference for nearby tokens.
// Throws InputError when d is odd or ≤ 0, base is invalid, max_distance is not within
// 0..kMaxDecayDistance (2^22), or d/2 × (max_distance + 1) × 2 exceeds kMaxWorkSteps.
Vector rope_decay_curve(std::int64_t d, double base, std::int64_t max_distance);

// The RoPE score of q = k = all ones at distance m = 0..max_distance, divided by d:
// (2/d) Σ_i cos(m θ_i). Starts at 1, then oscillates and decays towards 0.
// Throws InputError as rope_decay_curve.
Vector rope_ones_scores(std::int64_t d, double base, std::int64_t max_distance);

}  // namespace positional
