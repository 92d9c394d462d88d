// The sinusoidal position code of the original transformer (Vaswani et al., 2017, section 3.5):
// PE(pos, 2i) = sin(pos·ω_i), PE(pos, 2i+1) = cos(pos·ω_i), ω_i = base^(−2i/d). The whole table, its
// concatenated layout, the dot product of two rows, and sampled rows for the charts. Additive
// absolute codes (learned tables aside) belong here.
#pragma once

#include <cstdint>

#include "positional/limits.hpp"  // kDefaultBase and the other defaults
#include "positional/types.hpp"

namespace positional {

// The (n × d) table of position codes: column 2i holds sin(pos·ω_i), column
// 2i+1 holds cos(pos·ω_i), with ω_i = base^(−2i/d) radians per position.
// Throws InputError when n < 0, d is odd or ≤ 0, base is not finite, ≤ 0 or 1,
// n·d exceeds kMaxOutputDoubles, or base is so small that an angle pos·ω_i overflows.
Matrix sinusoidal_encoding(std::int64_t n, std::int64_t d, double base = kDefaultBase);

// The same table with each pair's sines in the first half of the columns and
// cosines in the second (the "concatenated" layout some libraries use).
Matrix sinusoidal_encoding_concatenated(std::int64_t n, std::int64_t d, double base = kDefaultBase);

// Dot product of two rows of the table, PE(a)·PE(b), computed without building it.
double sinusoidal_dot(double position_a, double position_b, std::int64_t d, double base = kDefaultBase);

// ---- sampled rows (only the positions a chart shows) --------------------------------------------

// The rows of sinusoidal_encoding(n, d, base) for the given whole positions, in the order given
// (repeats allowed): row r holds sin(p·ω_i) in column 2i and cos(p·ω_i) in column 2i+1 for
// p = positions[r], ω_i = base^(−2i/d). Rows follow from the row before by angle addition (every
// 16th afresh from sin and cos), so each entry is within about 1e−14 plus a few ulps of p·ω_0
// of the full table's. Costs about (rows / 16 + distinct steps) · d/2 sin/cos pairs.
// Throws InputError when a position is not a finite whole number ≥ 0, d is odd or ≤ 0, base is
// not finite, ≤ 0 or 1, an angle p·ω_i overflows, or rows × d exceeds kMaxOutputDoubles.
Matrix sinusoidal_encoding_rows(const Eigen::Ref<const Vector>& positions, std::int64_t d,
                                double base = kDefaultBase);

}  // namespace positional
