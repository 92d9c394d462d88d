// One pair's turning speed, shared by the sinusoidal code (ω_i) and RoPE (θ_i): the same formula.
#pragma once

#include <cmath>
#include <cstdint>

namespace positional::detail {

// base^(−2i/d) in radians per position, computed as the lesson does: pow(base, −(2i)/d).
inline double pair_frequency(std::int64_t i, std::int64_t d, double base) {
  return std::pow(base, -static_cast<double>(2 * i) / static_cast<double>(d));
}

}  // namespace positional::detail
