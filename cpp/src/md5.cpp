// MD5 (RFC 1321) over a byte string: four rounds of 16 operations on 64-byte blocks,
// little-endian words, the message padded with 0x80, zeros and its bit length.
#include "positional/md5.hpp"

#include <cmath>  // std::sin, std::fabs for the round constants

namespace positional {
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
