// Sampled rows of the sinusoidal position table: only the positions a chart actually shows,
// so a heatmap of a 4,096 × 512 table costs one row per screen pixel, not the whole table.
#pragma once

#include <cstdint>

#include "positional/types.hpp"

namespace positional {

// The rows of sinusoidal_encoding(n, d, base) for the given whole positions, in the order given
// (repeats allowed): row r holds sin(p·ω_i) in column 2i and cos(p·ω_i) in column 2i+1 for
// p = positions[r], ω_i = base^(−2i/d). Rows follow from the row before by angle addition (every
// 16th afresh from sin and cos), so each entry is within about 1e−14 plus a few ulps of p·ω_0
// of the full table's. Costs about (rows / 16 + distinct steps) · d/2 sin/cos pairs.
// Throws InputError when a position is not a finite whole number ≥ 0, d is odd or ≤ 0, base is
// not finite, ≤ 0 or 1, an angle p·ω_i overflows, or rows × d exceeds kMaxOutputDoubles.
Matrix sinusoidal_encoding_rows(const Eigen::Ref<const Vector>& positions, std::int64_t d,
                                double base = 10000.0);

}  // namespace positional
