// numpy-compatible randomness against numpy 1.24's own output (tests/fixtures/numpy, written by
// build-scripts/make-numpy-fixtures.py): MD5, SeedSequence, PCG64 and the ziggurat normals.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "positional/numpy_random.hpp"
#include "positional/validate.hpp"

#include "expect_error.hpp"
#include "numpy_fixtures.hpp"

namespace positional {
namespace {

using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp
using nlohmann::json;

std::string hex64(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

std::string hex128(const UInt128& value) { return hex64(value.high) + hex64(value.low); }

// |a − b| / |b| (absolute where b = 0): how far an engine value is from numpy's.
double relative_difference(double a, double b) {
  return b == 0 ? std::fabs(a) : std::fabs(a - b) / std::fabs(b);
}

TEST(Md5, Rfc1321TestSuite) {
  EXPECT_EQ(md5_hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(md5_hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(md5_hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(md5_hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(md5_hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(md5_hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(md5_hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(SeedSequence, DecimalDigitsBecomeLittleEndianWords) {
  EXPECT_EQ(decimal_to_words("0"), (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(decimal_to_words("4294967296"), (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(decimal_to_words("18446744073709551621"), (std::vector<std::uint32_t>{5, 0, 1}));
  EXPECT_EQ(decimal_to_words("000042"), (std::vector<std::uint32_t>{42}));
  EXPECT_EQ(SeedSequence::from_decimal("9223372036854775813").pool(),
            SeedSequence::from_integer(9223372036854775813ULL).pool());
}

TEST(SeedSequence, BadDecimalSeedsNameTheRule) {
  EXPECT_THAT(error_of([&] { SeedSequence::from_decimal(""); }),
              names_field_and_rule("seed", "must be a non-negative integer in decimal digits"));
  EXPECT_EQ(error_of([] { SeedSequence::from_decimal("12a4"); }),
            "seed must be a non-negative integer in decimal digits, got a 'a' at index 2");
  EXPECT_THAT(error_of([&] { SeedSequence::from_decimal("-1"); }),
              names_field_and_rule("seed", "must be a non-negative integer in decimal digits"));
  EXPECT_THAT(
      error_of([&] { SeedSequence::from_decimal(std::string(SeedSequence::kMaxSeedDigits + 1, '9')); }),
      names_field_and_rule("seed", "must have at most 4096 digits"));
  EXPECT_NO_THROW(SeedSequence::from_decimal(std::string(SeedSequence::kMaxSeedDigits, '9')));
}

// Pools, generated state and PCG64's seeded state must equal numpy's bit for bit.
TEST(SeedSequence, PoolAndGeneratedStateMatchNumpy) {
  const json fixture = load_numpy_fixture("seed_sequence.json");
  ASSERT_GE(fixture["seeds"].size(), 6U);
  for (const json& entry : fixture["seeds"]) {
    const std::string seed = entry["seed"];
    SCOPED_TRACE("seed " + seed);
    const SeedSequence ss = SeedSequence::from_decimal(seed);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(ss.pool()[i], entry["pool"][i].get<std::uint32_t>());
    const std::vector<std::uint32_t> state32 = ss.generate_state32(8);
    for (std::size_t i = 0; i < 8; ++i)
      EXPECT_EQ(state32[i], entry["generate_state_uint32"][i].get<std::uint32_t>());
    const std::vector<std::uint64_t> state64 = ss.generate_state64(4);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(hex64(state64[i]), entry["generate_state_uint64"][i]);
    const Pcg64 bits(ss);
    EXPECT_EQ(hex128(bits.state()), entry["pcg64_state"]);
    EXPECT_EQ(hex128(bits.increment()), entry["pcg64_inc"]);
  }
}

TEST(Pcg64, RawStreamsAndDoublesMatchNumpy) {
  const json fixture = load_numpy_fixture("seed_sequence.json");
  for (const json& entry : fixture["seeds"]) {
    const std::string seed = entry["seed"];
    SCOPED_TRACE("seed " + seed);
    Pcg64 bits(SeedSequence::from_decimal(seed));
    const json& raw = entry["raw"];
    ASSERT_EQ(raw.size(), fixture["draws"].get<std::size_t>());
    int mismatches = 0;
    for (const json& expected : raw) mismatches += hex64(bits.next_uint64()) != expected.get<std::string>();
    EXPECT_EQ(mismatches, 0);
    Pcg64 fresh(SeedSequence::from_decimal(seed));
    for (const json& expected : entry["doubles"]) EXPECT_EQ(fresh.next_double(), expected.get<double>());
  }
}

#if defined(__SIZEOF_INT128__)
// The 2×64-bit fallback must agree with the compiler's 128-bit arithmetic on arbitrary operands.
TEST(Pcg64, PortableMultiplyAddMatchesNative) {
  __extension__ typedef unsigned __int128 u128;
  Pcg64 source(SeedSequence::from_integer(2024));
  const auto to_native = [](const UInt128& x) { return (static_cast<u128>(x.high) << 64) | x.low; };
  for (int i = 0; i < 10000; ++i) {
    UInt128 a{source.next_uint64(), source.next_uint64()};
    UInt128 b{source.next_uint64(), source.next_uint64()};
    UInt128 c{source.next_uint64(), source.next_uint64()};
    if (i == 0) a = UInt128{~0ULL, ~0ULL}, b = UInt128{~0ULL, ~0ULL}, c = UInt128{~0ULL, ~0ULL};
    const u128 expected = to_native(a) * to_native(b) + to_native(c);
    const UInt128 got = multiply_add_portable(a, b, c);
    ASSERT_EQ(to_native(got), expected) << "at operand set " << i;
  }
}
#endif

// 10^6 normals per seed: numpy's first 1,000, every 997th and the last. Required within 1e-12
// relative (the tables are derived, not copied, so a few ulps are possible); the test reports the
// largest difference and how many compared values are bit-identical.
TEST(Generator, StandardNormalStreamsMatchNumpy) {
  const json fixture = load_numpy_fixture("standard_normal.json");
  const auto count = fixture["count"].get<std::int64_t>();
  const auto head = fixture["head_count"].get<std::size_t>();
  const auto stride = fixture["stride"].get<std::int64_t>();
  ASSERT_EQ(count, 1000000);
  ASSERT_GE(fixture["streams"].size(), 3U);
  double worst = 0;
  std::size_t compared = 0, identical = 0, tail = 0, tail_identical = 0;
  for (const json& stream : fixture["streams"]) {
    const std::string seed = stream["seed"];
    SCOPED_TRACE("seed " + seed + " (" + stream["label"].get<std::string>() + ")");
    Generator rng(SeedSequence::from_decimal(seed));
    const Vector values = rng.standard_normal(count);
    const auto check = [&](std::int64_t index, double expected) {
      const double diff = relative_difference(values[index], expected);
      EXPECT_LE(diff, 1e-12) << "draw " << index << ": " << values[index] << " vs numpy " << expected;
      worst = std::max(worst, diff);
      ++compared;
      identical += values[index] == expected;
      if (std::fabs(expected) >
          3.6541528853610088) {  // beyond r: drawn by the tail branch, no table involved
        ++tail;
        tail_identical += values[index] == expected;
      }
    };
    ASSERT_EQ(stream["head"].size(), head);
    for (std::size_t i = 0; i < head; ++i)
      check(static_cast<std::int64_t>(i), stream["head"][i].get<double>());
    ASSERT_EQ(stream["strided"].size(), static_cast<std::size_t>(count / stride));
    for (std::size_t k = 0; k < stream["strided"].size(); ++k) {
      check(static_cast<std::int64_t>(k + 1) * stride - 1, stream["strided"][k].get<double>());
    }
    check(count - 1, stream["last"].get<double>());  // the 10^6-th draw: the whole stream stayed in step
  }
  std::printf(
      "[ numpy    ] %zu normals compared, %zu bit-identical, largest relative difference %.3g; "
      "%zu of %zu tail draws (|x| > r) bit-identical\n",
      compared, identical, worst, tail_identical, tail);
  RecordProperty("largest_relative_difference", std::to_string(worst));
  RecordProperty("bit_identical", std::to_string(identical) + "/" + std::to_string(compared));
}

TEST(Generator, NormalShiftsAndScalesTheSameDraws) {
  Generator a = Generator::from_seed(11);
  Generator b = Generator::from_seed(11);
  const Vector z = a.standard_normal(64);
  const Vector y = b.normal(3.0, 0.5, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(y[i], 3.0 + 0.5 * z[i]);  // exact: numpy computes loc + scale·z
  Generator c = Generator::from_seed(11);
  EXPECT_EQ(c.normal(0.0, 0.0, 3), Vector::Zero(3));
}

TEST(Generator, BadArgumentsThrow) {
  Generator rng = Generator::from_seed(1);
  EXPECT_THAT(error_of([&] { rng.standard_normal(-1); }),
              names_field_and_rule("count", "must be non-negative"));
  EXPECT_THAT(error_of([&] { rng.standard_normal(kMaxOutputDoubles + 1); }),
              names_field_and_rule("standard_normal", "more than the cap of 16777216 (2^24)"));
  EXPECT_THAT(error_of([&] { rng.normal(0.0, -1.0, 3); }), names_field_and_rule("scale", "must be ≥ 0"));
  EXPECT_THAT(error_of([&] { rng.normal(std::nan(""), 1.0, 3); }),
              names_field_and_rule("loc", "must be finite"));
  EXPECT_THAT(error_of([&] { rng.normal(0.0, INFINITY, 3); }),
              names_field_and_rule("scale", "must be finite"));
  EXPECT_EQ(rng.standard_normal(0).size(), 0);
}

}  // namespace
}  // namespace positional
