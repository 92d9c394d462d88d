// Sinusoidal position codes of the original transformer (Vaswani et al., 2017, section 3.5).
#pragma once

#include <cstdint>

#include "positional/types.hpp"

namespace positional {

// The (n × d) table of position codes: column 2i holds sin(pos·ω_i), column
// 2i+1 holds cos(pos·ω_i), with ω_i = base^(−2i/d) radians per position.
// Throws InputError when n < 0, d is odd or ≤ 0, base is not finite, ≤ 0 or 1,
// n·d exceeds kMaxOutputDoubles, or base is so small that an angle pos·ω_i overflows.
Matrix sinusoidal_encoding(std::int64_t n, std::int64_t d, double base = 10000.0);

// The same table with each pair's sines in the first half of the columns and
// cosines in the second (the "concatenated" layout some libraries use).
Matrix sinusoidal_encoding_concatenated(std::int64_t n, std::int64_t d, double base = 10000.0);

// Dot product of two rows of the table, PE(a)·PE(b), computed without building it.
double sinusoidal_dot(double position_a, double position_b, std::int64_t d, double base = 10000.0);

}  // namespace positional
