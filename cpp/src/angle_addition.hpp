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
//   turned x = (x_even·cos − x_odd·sin, x_even·sin + x_odd·cos).
// A Pair is two doubles: in WebAssembly one 128-bit vector, elsewhere a plain struct. The vector
// path has the same products and the same sums (a difference as the sum with the negated product,
// and x_odd·cos + x_even·sin in that order), which IEEE 754 rounds identically: the same bits.
#if defined(__wasm_simd128__)
using Pair = v128_t;
inline Pair pair_of(double first, double second) { return wasm_f64x2_make(first, second); }
inline Pair load_pair(const double* p) { return wasm_v128_load(p); }
inline void store_pair(double* p, Pair value) { wasm_v128_store(p, value); }

inline Pair turned_angle(Pair a, Pair b) {                       // a = (sin a, cos a), b likewise
  const v128_t negate_cos_lane = wasm_i64x2_make(0, INT64_MIN);  // flips the sign of lane 1 only
  const v128_t cos_b = wasm_i64x2_shuffle(b, b, 1, 1);
  const v128_t sin_b = wasm_i64x2_shuffle(b, b, 0, 0);
  const v128_t a_swapped = wasm_i64x2_shuffle(a, a, 1, 0);  // (cos a, sin a)
  const v128_t first = wasm_f64x2_mul(a, cos_b);            // (sin a·cos b, cos a·cos b)
  const v128_t second = wasm_v128_xor(wasm_f64x2_mul(a_swapped, sin_b), negate_cos_lane);
  return wasm_f64x2_add(first, second);  // plus (cos a·sin b, −sin a·sin b)
}

inline Pair turned_pair(Pair x, Pair angle) {                    // x = (even, odd), angle = (sin, cos)
  const v128_t negate_sin_lane = wasm_i64x2_make(INT64_MIN, 0);  // flips the sign of lane 0 only
  const v128_t cosines = wasm_i64x2_shuffle(angle, angle, 1, 1);
  const v128_t sines = wasm_i64x2_shuffle(angle, angle, 0, 0);
  const v128_t x_swapped = wasm_i64x2_shuffle(x, x, 1, 0);  // (odd, even)
  const v128_t first = wasm_f64x2_mul(x, cosines);          // (even·cos, odd·cos)
  const v128_t second = wasm_v128_xor(wasm_f64x2_mul(x_swapped, sines), negate_sin_lane);
  return wasm_f64x2_add(first, second);  // plus (−odd·sin, even·sin)
}
#else
struct Pair {
  double first;
  double second;
};
inline Pair pair_of(double first, double second) { return {first, second}; }
inline Pair load_pair(const double* p) { return {p[0], p[1]}; }
inline void store_pair(double* p, Pair value) {
  p[0] = value.first;
  p[1] = value.second;
}

inline Pair turned_angle(Pair a, Pair b) {
  const double sin_a = a.first, cos_a = a.second, sin_b = b.first, cos_b = b.second;
  return {sin_a * cos_b + cos_a * sin_b, cos_a * cos_b - sin_a * sin_b};
}

inline Pair turned_pair(Pair x, Pair angle) {
  const double even = x.first, odd = x.second, s = angle.first, c = angle.second;
  return {even * c - odd * s, even * s + odd * c};
}
#endif

// row = the (sin, cos) pairs of a + b, from start = (sin a_i, cos a_i) and offset = (sin b_i, cos b_i),
// each interleaved over `pairs` pairs.
// Error: with sin and cos of a and b within one ulp, the result is within 6·2^−53 of sin(a + b),
// cos(a + b); nothing accumulates, since every row starts again from sin and cos calls.
// In SIMD128 it is quicker than the scalar loop as Clang compiles it (BENCHMARKS.md, Measurements
// behind the code).
inline void add_angles(const double* start, const double* offset, double* row, std::int64_t pairs) {
  for (std::int64_t i = 0; i < pairs; ++i)
    store_pair(row + 2 * i, turned_angle(load_pair(start + 2 * i), load_pair(offset + 2 * i)));
}

// out = each pair of `in` turned by the angle whose (sin, cos) pair is in `sin_cos`, over `pairs` pairs.
inline void rotate_by(const double* in, const double* sin_cos, double* out, std::int64_t pairs) {
  for (std::int64_t i = 0; i < pairs; ++i)
    store_pair(out + 2 * i, turned_pair(load_pair(in + 2 * i), load_pair(sin_cos + 2 * i)));
}

// One step of rotate_by_sum: the pair at in, turned by the angle a + b whose (sin, cos) pairs are
// at start (a) and offset (b).
inline void turn_pair_by_sum(const double* in, const double* start, const double* offset, double* out) {
  store_pair(out, turned_pair(load_pair(in), turned_angle(load_pair(start), load_pair(offset))));
}

// The same step for two neighbouring pairs (four doubles from each pointer). In SIMD128 each
// vector holds one quantity of both pairs (two sines, two cosines, two evens, two odds), so the
// scalar formulas of turned_angle and turned_pair apply lane by lane, without the broadcasts and
// sign flips one pair per vector needs: 28 instead of 36 operations for two pairs, the same
// products and sums, so the same bits.
#if defined(__wasm_simd128__)
inline void turn_two_pairs_by_sum(const double* in, const double* start, const double* offset, double* out) {
  const auto firsts = [](const double* p) {
    return wasm_i64x2_shuffle(wasm_v128_load(p), wasm_v128_load(p + 2), 0, 2);
  };
  const auto seconds = [](const double* p) {
    return wasm_i64x2_shuffle(wasm_v128_load(p), wasm_v128_load(p + 2), 1, 3);
  };
  const v128_t sin_a = firsts(start), cos_a = seconds(start), sin_b = firsts(offset), cos_b = seconds(offset);
  const v128_t sines = wasm_f64x2_add(wasm_f64x2_mul(sin_a, cos_b), wasm_f64x2_mul(cos_a, sin_b));
  const v128_t cosines = wasm_f64x2_sub(wasm_f64x2_mul(cos_a, cos_b), wasm_f64x2_mul(sin_a, sin_b));
  const v128_t evens = firsts(in), odds = seconds(in);
  const v128_t turned_evens = wasm_f64x2_sub(wasm_f64x2_mul(evens, cosines), wasm_f64x2_mul(odds, sines));
  const v128_t turned_odds = wasm_f64x2_add(wasm_f64x2_mul(evens, sines), wasm_f64x2_mul(odds, cosines));
  wasm_v128_store(out, wasm_i64x2_shuffle(turned_evens, turned_odds, 0, 2));
  wasm_v128_store(out + 2, wasm_i64x2_shuffle(turned_evens, turned_odds, 1, 3));
}
#else
inline void turn_two_pairs_by_sum(const double* in, const double* start, const double* offset, double* out) {
  turn_pair_by_sum(in, start, offset, out);
  turn_pair_by_sum(in + 2, start + 2, offset + 2, out + 2);
}
#endif

// rotate_by with the angles a + b of add_angles(start, offset), each used as it is computed instead
// of going through a row of its own: the same operations, so the same bits.
inline void rotate_by_sum(const double* in, const double* start, const double* offset, double* out,
                          std::int64_t pairs) {
  std::int64_t i = 0;
  for (; i + 2 <= pairs; i += 2)
    turn_two_pairs_by_sum(in + 2 * i, start + 2 * i, offset + 2 * i, out + 2 * i);
  if (i < pairs) turn_pair_by_sum(in + 2 * i, start + 2 * i, offset + 2 * i, out + 2 * i);
}

// row = (sin, cos) of position·speeds[i] for each of `pairs` pairs, interleaved: a row of the
// sinusoidal table (speeds ω_i) or of RoPE's angles (speeds θ_i), from sin and cos themselves.
inline void sin_cos_row(double position, const double* speeds, double* row, std::int64_t pairs) {
  for (std::int64_t i = 0; i < pairs; ++i) {
    const auto [sine, cosine] = sin_and_cos(position * speeds[i]);
    store_pair(row + 2 * i, pair_of(sine, cosine));
  }
}

}  // namespace positional::detail
