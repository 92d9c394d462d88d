// Embind adapters for the numpy-compatible randomness behind the demo (positional/numpy_random.hpp):
// MD5, SeedSequence, PCG64, standard normals, exposed so the Node suite can check them against numpy.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include <cstdio>  // std::snprintf for hexadecimal words
#include <string>

#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/numpy_random.hpp"

namespace positional::js {
namespace {

std::string hex64(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

// A seed (kSeed): a whole number up to 2^53 − 1, or a string the engine reads as decimal digits.
SeedSequence seed_from_js(const val& seed) {
  if (seed.isNumber()) return SeedSequence::from_integer(static_cast<std::uint64_t>(seed.as<double>()));
  return SeedSequence::from_decimal(seed.as<std::string>());
}

val md5_hex_js(std::string text) {
  return guarded([&] { return md5_hex(text); });
}

val seed_sequence_state_js(val seed) {
  return guarded([&] {
    const std::vector<std::uint64_t> words = seed_from_js(seed).generate_state64(4);
    val out = val::array();
    for (const std::uint64_t word : words) out.call<void>("push", hex64(word));
    return out;
  });
}

val pcg64_raw_js(val seed, double count) {
  return guarded([&] {
    Pcg64 bits(seed_from_js(seed));
    const std::int64_t n = whole(count);
    val out = val::array();
    for (std::int64_t i = 0; i < n; ++i) out.call<void>("push", hex64(bits.next_uint64()));
    return out;
  });
}

// options.sample: "all" (every draw, at most kMaxOutputDoubles) or "compact"
// (Generator::standard_normal_compact).
val standard_normal_js(val seed, double count, val options) {
  return guarded([&] {
    Generator rng(seed_from_js(seed));
    const std::int64_t n = whole(count);
    const std::string sample = options["sample"].as<std::string>();
    if (sample == "compact") return to_float64_array(rng.standard_normal_compact(n));
    if (sample != "all")
      throw InputError("options.sample must be \"compact\" or \"all\", got \"" + sample + "\"");
    if (n > kMaxOutputDoubles)
      fail("count", "at most 16777216 without { sample: 'compact' }", static_cast<double>(n));
    return to_float64_array(rng.standard_normal(n));
  });
}

constexpr Param kSampleOptions[] = {param::text("sample", kMaxSchemeBytes, "all")};

}  // namespace

POSITIONAL_TOPIC(numpy_random) {
  topic.function("md5Hex", &md5_hex_js, "MD5 of the text's UTF-8 bytes, in hex",
                 {text("text", kMaxDigestTextBytes)}, R"(["abc"])");
  topic.function("seedSequenceState", &seed_sequence_state_js,
                 "numpy's SeedSequence(seed).generate_state(4, uint64), as hex strings", {seed("seed")},
                 R"(["12345"])");
  topic.function("pcg64Raw", &pcg64_raw_js, "PCG64's first count 64-bit words, as hex strings",
                 {seed("seed"), integer("count", 0, kMaxRawDraws)}, R"(["7", 3])");
  topic.function(
      "standardNormal", &standard_normal_js,
      "default_rng(seed).standard_normal(count): every draw, or with { sample: 'compact' } a sample of "
      "them; at most 2^24 returned",
      {seed("seed"), integer("count", 0, kMaxNormalDraws), options("options", kSampleOptions)}, "[7, 5]");
}

}  // namespace positional::js
