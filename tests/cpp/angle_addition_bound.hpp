// Test support: the error bound of the engine's angle-addition path (cpp/src/angle_addition.hpp), which
// the sinusoidal table, its sampled rows and RoPE's sequence rotation use instead of calling sin and
// cos for every entry.
//
//
// The bound. Row p = s + k (s its block's first row, k < kAngleBlock) is built from
// A = fl(s·ω) and B = fl(k·ω); the plain computation takes sin and cos of fl(p·ω). Each rounded
// product is within 2^−53 relative of the exact one, so the two angles differ by at most
// 2^−53·(s·ω + k·ω + p·ω) = 2^−52·p·ω, and |sin x − sin y| ≤ |x − y|. On top come the evaluation
// errors: sin and cos within one ulp (≤ 2^−53 for values of magnitude ≤ 1) for A, B and the plain
// angle, and the two products and the sum of add_angles — at most 8·2^−53 together. Hence
//     |fast − plain| ≤ 2^−52·p·ω + 8·2^−53.
// The first term is not an error of the fast path: both are that far from sin(p·ω) at worst,
// because neither can hold the angle p·ω exactly in a double (at p·ω ≈ 3·10^4 one ulp is
// 3.6·10^−12). Against sin(p·ω) in long double, both are within 2^−53·p·ω + 8·2^−53.
#pragma once

#include <cmath>
#include <cstdint>

namespace positional::testing_support {

inline constexpr double kUnitRoundoff = 0x1p-53;  // 2^−53, half an ulp of 1
inline constexpr std::int64_t kBlock = 32;  // kAngleBlock of cpp/src/angle_addition.hpp (a private header)

// ω_i = base^(−2i/d), as the lesson computes it.
inline double omega_of(std::int64_t i, std::int64_t d, double base) {
  return std::pow(base, -static_cast<double>(2 * i) / static_cast<double>(d));
}

// The bound above for one entry, against the plain computation.
inline double bound_against_plain(std::int64_t pos, double omega) {
  return 2 * kUnitRoundoff * static_cast<double>(pos) * omega + 8 * kUnitRoundoff;
}

}  // namespace positional::testing_support
