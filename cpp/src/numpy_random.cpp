// numpy's SeedSequence (numpy/random/bit_generator.pyx), PCG64 (numpy/random/src/pcg64)
// and the double-precision ziggurat of random_standard_normal (distributions.c),
// reimplemented so the engine draws the same numbers as numpy.random.default_rng; and MD5
// (four rounds of 16 operations on 64-byte blocks) for the word seeds.
#include "positional/numpy_random.hpp"

#include <algorithm>  // std::min
#include <cmath>      // std::exp, std::log1p; std::sin, std::fabs for MD5's round constants

#include "positional/validate.hpp"

namespace positional {
namespace {

#include "ziggurat_tables.inc"  // kZigguratR, kZigguratInvR, kZigguratKi/Wi/Fi (generated)

// SeedSequence's hashing constants (bit_generator.pyx).
constexpr std::uint32_t kInitA = 0x43b0d7e5U;
constexpr std::uint32_t kMultA = 0x931e8875U;
constexpr std::uint32_t kInitB = 0x8b51f9ddU;
constexpr std::uint32_t kMultB = 0x58f38dedU;
constexpr std::uint32_t kMixMultL = 0xca01f9ddU;
constexpr std::uint32_t kMixMultR = 0x4973f715U;
constexpr std::uint32_t kXShift = 16;  // half the bits of a 32-bit word

std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= kMultA;
  value *= hash_const;
  value ^= value >> kXShift;
  return value;
}

std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
  std::uint32_t result = kMixMultL * x - kMixMultR * y;
  result ^= result >> kXShift;
  return result;
}

// PCG's default 128-bit multiplier, as numpy's pcg64.h spells it.
constexpr UInt128 kPcgMultiplier{2549297995355413924ULL, 4865540595714422341ULL};

// The full 128-bit product of two 64-bit words, from 32-bit halves.
UInt128 multiply_64x64(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t a_lo = a & 0xFFFFFFFFULL, a_hi = a >> 32;
  const std::uint64_t b_lo = b & 0xFFFFFFFFULL, b_hi = b >> 32;
  const std::uint64_t lo_lo = a_lo * b_lo;
  const std::uint64_t hi_lo = a_hi * b_lo;
  const std::uint64_t lo_hi = a_lo * b_hi;
  const std::uint64_t hi_hi = a_hi * b_hi;
  const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFULL) + lo_hi;
  return UInt128{hi_hi + (hi_lo >> 32) + (cross >> 32), (cross << 32) | (lo_lo & 0xFFFFFFFFULL)};
}

UInt128 add_portable(const UInt128& a, const UInt128& b) {
  const std::uint64_t low = a.low + b.low;
  return UInt128{a.high + b.high + (low < a.low ? 1U : 0U), low};
}

UInt128 multiply_add(const UInt128& a, const UInt128& b, const UInt128& c) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 u128;  // GCC/Clang (and em++) extension
  const u128 x = (static_cast<u128>(a.high) << 64) | a.low;
  const u128 y = (static_cast<u128>(b.high) << 64) | b.low;
  const u128 z = (static_cast<u128>(c.high) << 64) | c.low;
  const u128 r = x * y + z;
  return UInt128{static_cast<std::uint64_t>(r >> 64), static_cast<std::uint64_t>(r)};
#else
  return multiply_add_portable(a, b, c);
#endif
}

std::uint64_t rotate_right(std::uint64_t value, unsigned rot) {
  return (value >> rot) | (value << ((64U - rot) & 63U));
}

}  // namespace

// ---- SeedSequence ------------------------------------------------------------------------

std::vector<std::uint32_t> decimal_to_words(const std::string& digits, const std::string& name) {
  if (digits.empty())
    throw InputError(name + " must be a non-negative integer in decimal digits, got an empty string");
  if (digits.size() > SeedSequence::kMaxSeedDigits) {
    throw InputError(name + " must have at most " + std::to_string(SeedSequence::kMaxSeedDigits) +
                     " digits, got " + std::to_string(digits.size()));
  }
  std::vector<std::uint32_t> words{0};
  for (std::size_t i = 0; i < digits.size(); ++i) {
    const char ch = digits[i];
    if (ch < '0' || ch > '9') {
      throw InputError(name + " must be a non-negative integer in decimal digits, got a '" +
                       std::string(1, ch) + "' at index " + std::to_string(i));
    }
    // words = words · 10 + digit, in base 2^32.
    std::uint64_t carry = static_cast<std::uint64_t>(ch - '0');
    for (std::uint32_t& word : words) {
      const std::uint64_t value = static_cast<std::uint64_t>(word) * 10U + carry;
      word = static_cast<std::uint32_t>(value);
      carry = value >> 32;
    }
    if (carry != 0) words.push_back(static_cast<std::uint32_t>(carry));
  }
  return words;
}

SeedSequence::SeedSequence(std::vector<std::uint32_t> entropy_words) {
  // An integer's words carry no high zero words; numpy writes 0 as the single word 0.
  while (entropy_words.size() > 1 && entropy_words.back() == 0) entropy_words.pop_back();
  if (entropy_words.empty()) entropy_words.push_back(0);
  if (entropy_words.size() > kMaxEntropyWords) {
    throw InputError("seed must have at most " + std::to_string(kMaxEntropyWords) + " 32-bit words, got " +
                     std::to_string(entropy_words.size()));
  }
  // mix_entropy: hash each word into the pool, cross-mix the pool, then fold in the rest.
  std::uint32_t hash_const = kInitA;
  const std::size_t pool_size = pool_.size();
  for (std::size_t i = 0; i < pool_size; ++i) {
    pool_[i] = hashmix(i < entropy_words.size() ? entropy_words[i] : 0U, hash_const);
  }
  for (std::size_t src = 0; src < pool_size; ++src) {
    for (std::size_t dst = 0; dst < pool_size; ++dst) {
      if (src != dst) pool_[dst] = mix(pool_[dst], hashmix(pool_[src], hash_const));
    }
  }
  for (std::size_t src = pool_size; src < entropy_words.size(); ++src) {
    for (std::size_t dst = 0; dst < pool_size; ++dst) {
      pool_[dst] = mix(pool_[dst], hashmix(entropy_words[src], hash_const));
    }
  }
}

SeedSequence SeedSequence::from_integer(std::uint64_t seed) {
  return SeedSequence({static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
}

SeedSequence SeedSequence::from_decimal(const std::string& digits, const std::string& name) {
  return SeedSequence(decimal_to_words(digits, name));
}

std::vector<std::uint32_t> SeedSequence::generate_state32(std::size_t n_words) const {
  std::vector<std::uint32_t> state(n_words);
  std::uint32_t hash_const = kInitB;
  for (std::size_t i = 0; i < n_words; ++i) {
    std::uint32_t value = pool_[i % pool_.size()];
    value ^= hash_const;
    hash_const *= kMultB;
    value *= hash_const;
    value ^= value >> kXShift;
    state[i] = value;
  }
  return state;
}

std::vector<std::uint64_t> SeedSequence::generate_state64(std::size_t n_words) const {
  const std::vector<std::uint32_t> words = generate_state32(2 * n_words);
  std::vector<std::uint64_t> state(n_words);
  for (std::size_t i = 0; i < n_words; ++i) {
    state[i] =
        static_cast<std::uint64_t>(words[2 * i]) | (static_cast<std::uint64_t>(words[2 * i + 1]) << 32);
  }
  return state;
}

// ---- PCG64 -------------------------------------------------------------------------------

UInt128 multiply_add_portable(const UInt128& a, const UInt128& b, const UInt128& c) {
  UInt128 product = multiply_64x64(a.low, b.low);
  product.high += a.high * b.low + a.low * b.high;  // the cross terms' low halves land in the high word
  return add_portable(product, c);
}

Pcg64::Pcg64(const SeedSequence& seed_sequence) {
  const std::vector<std::uint64_t> words = seed_sequence.generate_state64(4);
  *this = Pcg64(UInt128{words[0], words[1]}, UInt128{words[2], words[3]});
}

Pcg64::Pcg64(const UInt128& initstate, const UInt128& initseq) {
  // pcg_setseq_128_srandom_r: inc = (initseq << 1) | 1; step; state += initstate; step.
  increment_ = UInt128{(initseq.high << 1) | (initseq.low >> 63), (initseq.low << 1) | 1U};
  state_ = UInt128{0, 0};
  step();
  state_ = add_portable(state_, initstate);
  step();
}

void Pcg64::step() { state_ = multiply_add(state_, kPcgMultiplier, increment_); }

std::uint64_t Pcg64::next_uint64() {
  step();
  // XSL-RR: fold the halves together, rotate by the top six bits of the state.
  return rotate_right(state_.high ^ state_.low, static_cast<unsigned>(state_.high >> 58));
}

double Pcg64::next_double() { return static_cast<double>(next_uint64() >> 11) * (1.0 / 9007199254740992.0); }

// ---- Generator ---------------------------------------------------------------------------

double Generator::standard_normal() {
  for (;;) {
    // One 64-bit draw: bits 0-7 pick the layer, bit 8 the sign, bits 9-60 the magnitude.
    std::uint64_t r = bits_.next_uint64();
    const unsigned idx = static_cast<unsigned>(r & 0xFFU);
    r >>= 8;
    const bool negative = (r & 1U) != 0;
    const std::uint64_t rabs = (r >> 1) & 0x000FFFFFFFFFFFFFULL;
    double x = static_cast<double>(rabs) * kZigguratWi[idx];
    if (negative) x = -x;
    if (rabs < kZigguratKi[idx]) return x;  // inside the layer above: about 99.3% of draws
    if (idx == 0) {
      // The tail beyond r (Marsaglia 1964), drawn with 1 − U so log never sees 0.
      for (;;) {
        const double xx = -kZigguratInvR * std::log1p(-bits_.next_double());
        const double yy = -std::log1p(-bits_.next_double());
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1U) != 0 ? -(kZigguratR + xx) : kZigguratR + xx;
      }
    }
    // The wedge between layer idx and the curve: accept when a uniform height lies under f(x).
    const double height = (kZigguratFi[idx - 1] - kZigguratFi[idx]) * bits_.next_double() + kZigguratFi[idx];
    if (height < std::exp(-0.5 * x * x)) return x;
  }
}

Vector Generator::standard_normal(std::int64_t count) {
  require_non_negative("count", count);
  require_output_size("standard_normal", count, 1);
  Vector out(count);
  for (std::int64_t i = 0; i < count; ++i) out[i] = standard_normal();
  return out;
}

Vector Generator::standard_normal_compact(std::int64_t count) {
  checked_integer("count", static_cast<double>(count), 0, kMaxNormalDraws);
  std::vector<double> kept;
  kept.reserve(static_cast<std::size_t>(std::min(count, kCompactHead) + count / kCompactStride + 1));
  std::vector<double> strided;
  double last = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    const double value = standard_normal();
    if (i < kCompactHead) kept.push_back(value);
    if ((i + 1) % kCompactStride == 0) strided.push_back(value);
    last = value;
  }
  kept.insert(kept.end(), strided.begin(), strided.end());
  if (count > 0) kept.push_back(last);
  return Eigen::Map<const Vector>(kept.data(), static_cast<Eigen::Index>(kept.size()));
}

Vector Generator::normal(double loc, double scale, std::int64_t count) {
  require_finite("loc", loc);
  require_finite("scale", scale);
  if (scale < 0) fail("scale", "≥ 0", scale);
  require_non_negative("count", count);
  require_output_size("normal", count, 1);
  Vector out(count);
  for (std::int64_t i = 0; i < count; ++i) {
    // Two statements, so no compiler contracts them into one fused multiply-add (numpy does not).
    const double scaled = scale * standard_normal();
    out[i] = loc + scaled;
  }
  return out;
}

// ---- MD5 (RFC 1321) -----------------------------------------------------------------------------

namespace {

// Left-rotation amounts per operation (RFC 1321, section 3.4).
constexpr std::uint32_t kShifts[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                       5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                       4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                       6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};

// T[i] = floor(2^32 · |sin(i + 1)|), as RFC 1321 defines it. Computed once; the values are
// far from rounding boundaries, so double-precision sin gives the exact integers.
struct RoundConstants {
  std::uint32_t value[64];
  RoundConstants() {
    for (int i = 0; i < 64; ++i) {
      value[i] = static_cast<std::uint32_t>(
          std::floor(4294967296.0 * std::fabs(std::sin(static_cast<double>(i + 1)))));
    }
  }
};

std::uint32_t rotate_left(std::uint32_t x, std::uint32_t n) { return (x << n) | (x >> (32U - n)); }

void process_block(const std::uint8_t* block, std::uint32_t state[4], const std::uint32_t* table) {
  std::uint32_t words[16];
  for (int i = 0; i < 16; ++i) {
    words[i] = static_cast<std::uint32_t>(block[4 * i]) |
               (static_cast<std::uint32_t>(block[4 * i + 1]) << 8) |
               (static_cast<std::uint32_t>(block[4 * i + 2]) << 16) |
               (static_cast<std::uint32_t>(block[4 * i + 3]) << 24);
  }
  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  for (int i = 0; i < 64; ++i) {
    std::uint32_t f = 0;
    int g = 0;
    if (i < 16) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) % 16;
    } else if (i < 48) {
      f = b ^ c ^ d;
      g = (3 * i + 5) % 16;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) % 16;
    }
    const std::uint32_t next_d = c;
    c = b;
    b = b + rotate_left(a + f + table[i] + words[g], kShifts[i]);
    a = d;
    d = next_d;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
}

}  // namespace

std::array<std::uint8_t, 16> md5_digest(std::string_view bytes) {
  static const RoundConstants constants;
  std::uint32_t state[4] = {0x67452301U, 0xefcdab89U, 0x98badcfeU, 0x10325476U};
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  const std::size_t length = bytes.size();

  std::size_t offset = 0;
  for (; offset + 64 <= length; offset += 64) process_block(data + offset, state, constants.value);

  // The tail: remaining bytes, 0x80, zeros to 56 mod 64, then the length in bits (mod 2^64).
  std::uint8_t tail[128] = {};
  const std::size_t rest = length - offset;
  for (std::size_t i = 0; i < rest; ++i) tail[i] = data[offset + i];
  tail[rest] = 0x80;
  const std::size_t tail_size = rest < 56 ? 64 : 128;
  const std::uint64_t bit_length = static_cast<std::uint64_t>(length) * 8U;
  for (int i = 0; i < 8; ++i) tail[tail_size - 8 + i] = static_cast<std::uint8_t>(bit_length >> (8 * i));
  for (std::size_t block = 0; block < tail_size; block += 64)
    process_block(tail + block, state, constants.value);

  std::array<std::uint8_t, 16> digest{};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<std::uint8_t>(state[i] >> (8 * j));
  }
  return digest;
}

std::string md5_hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const std::array<std::uint8_t, 16> digest = md5_digest(bytes);
  std::string hex;
  hex.reserve(32);
  for (const std::uint8_t byte : digest) {
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 0x0F]);
  }
  return hex;
}

}  // namespace positional
