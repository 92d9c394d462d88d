// numpy-compatible randomness, as the lesson's positional.py draws it: MD5 (RFC 1321, for the word
// seeds hashlib.md5(word.encode()) gives; not for security), SeedSequence, the PCG64 bit generator
// and Generator.standard_normal / normal, reproducing numpy.random.default_rng(seed) digit for
// digit (numpy 1.17 and later, checked against numpy 1.24).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "positional/types.hpp"

namespace positional {

// numpy.random.SeedSequence for an integer entropy and no spawn key, with numpy's pool
// of four 32-bit words. The integer is given as its little-endian 32-bit words (numpy
// splits a Python int that way; 0 is the single word 0), as a uint64, or as decimal digits.
class SeedSequence {
 public:
  // `entropy_words`: the integer's 32-bit words, least significant first. An empty list
  // means 0. Throws InputError when there are more than kMaxEntropyWords words.
  explicit SeedSequence(std::vector<std::uint32_t> entropy_words);

  // A non-negative integer seed below 2^64.
  static SeedSequence from_integer(std::uint64_t seed);

  // A non-negative integer of any size (up to kMaxSeedDigits digits) written in decimal,
  // e.g. "18446744073709551621". Throws InputError naming `name` for an empty string,
  // a non-digit character or too many digits.
  static SeedSequence from_decimal(const std::string& digits, const std::string& name = "seed");

  // The mixed entropy pool (numpy's SeedSequence.pool).
  const std::array<std::uint32_t, 4>& pool() const { return pool_; }

  // generate_state(n_words, np.uint32).
  std::vector<std::uint32_t> generate_state32(std::size_t n_words) const;

  // generate_state(n_words, np.uint64): 2·n_words 32-bit words paired little-endian.
  std::vector<std::uint64_t> generate_state64(std::size_t n_words) const;

  static constexpr std::size_t kMaxSeedDigits = 4096;
  static constexpr std::size_t kMaxEntropyWords = 512;  // 4096 decimal digits fit in 427 words

 private:
  std::array<std::uint32_t, 4> pool_{};
};

// Splits a decimal integer into little-endian 32-bit words, as numpy does with a Python int.
// Throws InputError naming `name` on an empty string, a non-digit or more than kMaxSeedDigits digits.
std::vector<std::uint32_t> decimal_to_words(const std::string& digits, const std::string& name = "seed");

// An unsigned 128-bit integer as two 64-bit halves (the portable representation of PCG64's state).
struct UInt128 {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  friend bool operator==(const UInt128& a, const UInt128& b) { return a.high == b.high && a.low == b.low; }
};

// a·b + c mod 2^128 with 64-bit arithmetic only: the fallback where unsigned __int128 is
// missing, and the reference the native path is tested against.
UInt128 multiply_add_portable(const UInt128& a, const UInt128& b, const UInt128& c);

// The PCG64 bit generator (PCG-XSL-RR 128/64: a 128-bit LCG with numpy's multiplier
// 2549297995355413924·2^64 + 4865540595714422341, output xor-folded and rotated).
class Pcg64 {
 public:
  // Seeded as numpy.random.PCG64(seed_sequence): generate_state(4, uint64) gives
  // (state high, state low, increment seed high, low); inc = 2·seq + 1.
  explicit Pcg64(const SeedSequence& seed_sequence);

  // Seeded directly from (initstate, initseq), as pcg64_set_seed does.
  Pcg64(const UInt128& initstate, const UInt128& initseq);

  // The current state and increment (numpy's bit_generator.state['state']).
  UInt128 state() const { return state_; }
  UInt128 increment() const { return increment_; }

  // Advances the LCG and returns the 64-bit output (numpy's random_raw()).
  std::uint64_t next_uint64();

  // A double in [0, 1): (next_uint64() >> 11) · 2^-53, numpy's next_double.
  double next_double();

 private:
  void step();
  UInt128 state_;
  UInt128 increment_;
};

// numpy.random.Generator(PCG64(seed)) for the distributions the lesson uses.
class Generator {
 public:
  explicit Generator(const SeedSequence& seed_sequence) : bits_(seed_sequence) {}

  // default_rng(seed) for a seed below 2^64.
  static Generator from_seed(std::uint64_t seed) { return Generator(SeedSequence::from_integer(seed)); }

  // One standard normal by numpy's 256-layer ziggurat (random_standard_normal).
  double standard_normal();

  // standard_normal(count). Throws InputError when count < 0 or count > kMaxOutputDoubles.
  Vector standard_normal(std::int64_t count);

  // A compact sample of standard_normal(count) for checking long streams: every draw is made
  // (the stream stays in step), and kept are the first kCompactHead values, every
  // kCompactStride-th value (1-based positions kCompactStride, 2·kCompactStride, …), and the last.
  // Throws InputError when count < 0 or count > kMaxNormalDraws.
  static constexpr std::int64_t kCompactHead = 1000;
  static constexpr std::int64_t kCompactStride = 997;
  Vector standard_normal_compact(std::int64_t count);

  // normal(loc, scale, count): loc + scale·z for each draw z, as numpy computes it.
  // Throws InputError when loc or scale is not finite, scale < 0, or count is out of range.
  Vector normal(double loc, double scale, std::int64_t count);

  // The underlying bit generator (for raw draws and its state).
  Pcg64& bit_generator() { return bits_; }

 private:
  Pcg64 bits_;
};

// ---- MD5 (RFC 1321) -----------------------------------------------------------------------------

// The 16-byte MD5 digest of `bytes` (any bytes; a std::string holds UTF-8 text as its bytes).
std::array<std::uint8_t, 16> md5_digest(std::string_view bytes);

// The digest as 32 lowercase hexadecimal digits, like hashlib's hexdigest().
std::string md5_hex(std::string_view bytes);

}  // namespace positional
