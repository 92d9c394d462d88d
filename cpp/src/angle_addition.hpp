// Sines and cosines of pos·ω for whole positions without calling sin and cos for every one:
// the angle-addition step shared by the sinusoidal table and RoPE's sequence rotation.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "positional/validate.hpp"

namespace positional::detail {

// Throws InputError unless every angle position·speed with |position| ≤ |largest_position| and
// speed ≤ largest_speed is finite: an infinite angle has no sine or cosine (sin(inf) is NaN).
// A base far below 1 makes pair speeds enormous (base^(−2i/d) ≈ 1/base for the last pair).
inline void require_finite_angles(const std::string& position_name, double largest_position,
                                  double largest_speed) {
  const double angle = std::abs(largest_position) * largest_speed;
  if (!std::isfinite(largest_speed) || !std::isfinite(angle)) {
    throw InputError("the angle " + position_name + " · speed overflows (" + format_number(largest_position) +
                     " × " + format_number(largest_speed) + "): use a base closer to 1 or smaller positions");
  }
}

// Positions are handled in blocks of this many rows: sin and cos are called for the first
// block (the offsets k·ω, k < kAngleBlock) and for the first row of every later block; the
// rest come from add_angles. The choice trades the size of the offset rows (kAngleBlock · d
// doubles, kept in cache) against the share of rows that still call sin and cos (1/kAngleBlock).
inline constexpr std::int64_t kAngleBlock = 32;

// row = the (sin, cos) pairs of a + b, from start = (sin a_i, cos a_i) and offset = (sin b_i, cos b_i),
// each interleaved over `pairs` pairs:
//   sin(a + b) = sin a · cos b + cos a · sin b,   cos(a + b) = cos a · cos b − sin a · sin b.
// Error: with sin and cos of a and b within one ulp, the result is within 6·2^−53 of sin(a + b),
// cos(a + b); nothing accumulates, since every row starts again from sin and cos calls.
inline void add_angles(const double* start, const double* offset, double* row, std::int64_t pairs) {
  for (std::int64_t i = 0; i < pairs; ++i) {
    const double sin_a = start[2 * i];
    const double cos_a = start[2 * i + 1];
    const double sin_b = offset[2 * i];
    const double cos_b = offset[2 * i + 1];
    row[2 * i] = sin_a * cos_b + cos_a * sin_b;
    row[2 * i + 1] = cos_a * cos_b - sin_a * sin_b;
  }
}

}  // namespace positional::detail
