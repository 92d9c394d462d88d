// Sines and cosines of pos·ω for whole positions without calling sin and cos for every one:
// the angle-addition step shared by the sinusoidal table and RoPE's sequence rotation.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

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

// sin(angle) and cos(angle). In WebAssembly, musl's sincos reduces the angle once for both and
// computes each with the kernels sin and cos use, so the bits are theirs (the suites' bit-for-bit
// table tests hold it in the wasm32 build); in Node it took 17–25 ns an angle where sin and cos
// took 31 ns together. The native build calls sin and cos.
struct SinCos {
  double sin;
  double cos;
};

inline SinCos sin_and_cos(double angle) {
#if defined(__EMSCRIPTEN__)
  SinCos out{};
  ::sincos(angle, &out.sin, &out.cos);
  return out;
#else
  return {std::sin(angle), std::cos(angle)};
#endif
}

// Positions are handled in blocks of this many rows: sin and cos are called for the first
// block (the offsets k·ω, k < kAngleBlock) and for the first row of every later block; the
// rest come from add_angles. The choice trades the size of the offset rows (kAngleBlock · d
// doubles, kept in cache) against the share of rows that still call sin and cos (1/kAngleBlock).
inline constexpr std::int64_t kAngleBlock = 32;

// One pair at a time, the two steps below: the (sin, cos) of a + b from those of a and b, and a
// pair (x_even, x_odd) turned by an angle given as its (sin, cos).
//   sin(a + b) = sin a · cos b + cos a · sin b,   cos(a + b) = cos a · cos b − sin a · sin b;
//   turned x = (x_even·cos − x_odd·sin, x_even·sin + x_odd·cos), rope.cpp's rotate_pairs.
// In WebAssembly one pair is one 128-bit vector: the same products and the same sums (a difference
// as the sum with the negated product, and x_odd·cos + x_even·sin in that order), which IEEE 754
// rounds identically, so both paths give the same bits.
#if defined(__wasm_simd128__)
inline v128_t turned_angle(v128_t a, v128_t b) {                 // a = (sin a, cos a), b likewise
  const v128_t negate_cos_lane = wasm_i64x2_make(0, INT64_MIN);  // flips the sign of lane 1 only
  const v128_t cos_b = wasm_i64x2_shuffle(b, b, 1, 1);
  const v128_t sin_b = wasm_i64x2_shuffle(b, b, 0, 0);
  const v128_t a_swapped = wasm_i64x2_shuffle(a, a, 1, 0);  // (cos a, sin a)
  const v128_t first = wasm_f64x2_mul(a, cos_b);            // (sin a·cos b, cos a·cos b)
  const v128_t second = wasm_v128_xor(wasm_f64x2_mul(a_swapped, sin_b), negate_cos_lane);
  return wasm_f64x2_add(first, second);  // plus (cos a·sin b, −sin a·sin b)
}

inline v128_t turned_pair(v128_t x, v128_t angle) {              // x = (even, odd), angle = (sin, cos)
  const v128_t negate_sin_lane = wasm_i64x2_make(INT64_MIN, 0);  // flips the sign of lane 0 only
  const v128_t cosines = wasm_i64x2_shuffle(angle, angle, 1, 1);
  const v128_t sines = wasm_i64x2_shuffle(angle, angle, 0, 0);
  const v128_t x_swapped = wasm_i64x2_shuffle(x, x, 1, 0);  // (odd, even)
  const v128_t first = wasm_f64x2_mul(x, cosines);          // (even·cos, odd·cos)
  const v128_t second = wasm_v128_xor(wasm_f64x2_mul(x_swapped, sines), negate_sin_lane);
  return wasm_f64x2_add(first, second);  // plus (−odd·sin, even·sin)
}
#else
inline void turned_angle(const double* a, const double* b, double* out) {
  const double sin_a = a[0], cos_a = a[1], sin_b = b[0], cos_b = b[1];
  out[0] = sin_a * cos_b + cos_a * sin_b;
  out[1] = cos_a * cos_b - sin_a * sin_b;
}

inline void turned_pair(const double* x, const double* angle, double* out) {
  const double s = angle[0], c = angle[1], even = x[0], odd = x[1];
  out[0] = even * c - odd * s;
  out[1] = even * s + odd * c;
}
#endif

// row = the (sin, cos) pairs of a + b, from start = (sin a_i, cos a_i) and offset = (sin b_i, cos b_i),
// each interleaved over `pairs` pairs.
// Error: with sin and cos of a and b within one ulp, the result is within 6·2^−53 of sin(a + b),
// cos(a + b); nothing accumulates, since every row starts again from sin and cos calls.
// In SIMD128 the 4,096 × 512 table took 2.78 instead of 3.38 ms in Node against the scalar loop as
// Clang compiles it (medians of 40 interleaved calls).
inline void add_angles(const double* start, const double* offset, double* row, std::int64_t pairs) {
  for (std::int64_t i = 0; i < pairs; ++i) {
#if defined(__wasm_simd128__)
    wasm_v128_store(row + 2 * i, turned_angle(wasm_v128_load(start + 2 * i), wasm_v128_load(offset + 2 * i)));
#else
    turned_angle(start + 2 * i, offset + 2 * i, row + 2 * i);
#endif
  }
}

// out = each pair of `in` turned by the angle whose (sin, cos) pair is in `sin_cos`, over `pairs` pairs.
inline void rotate_by(const double* in, const double* sin_cos, double* out, std::int64_t pairs) {
  for (std::int64_t i = 0; i < pairs; ++i) {
#if defined(__wasm_simd128__)
    wasm_v128_store(out + 2 * i, turned_pair(wasm_v128_load(in + 2 * i), wasm_v128_load(sin_cos + 2 * i)));
#else
    turned_pair(in + 2 * i, sin_cos + 2 * i, out + 2 * i);
#endif
  }
}

// rotate_by with the angles a + b of add_angles(start, offset), each used as it is computed instead
// of going through a row of its own: the same operations, so the same bits.
inline void rotate_by_sum(const double* in, const double* start, const double* offset, double* out,
                          std::int64_t pairs) {
  for (std::int64_t i = 0; i < pairs; ++i) {
#if defined(__wasm_simd128__)
    const v128_t angle = turned_angle(wasm_v128_load(start + 2 * i), wasm_v128_load(offset + 2 * i));
    wasm_v128_store(out + 2 * i, turned_pair(wasm_v128_load(in + 2 * i), angle));
#else
    double angle[2];
    turned_angle(start + 2 * i, offset + 2 * i, angle);
    turned_pair(in + 2 * i, angle, out + 2 * i);
#endif
  }
}

}  // namespace positional::detail
