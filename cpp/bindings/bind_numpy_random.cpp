// Embind adapters for the numpy-compatible randomness behind the demo (positional/numpy_random.hpp):
// MD5, SeedSequence, PCG64, standard normals, exposed so the Node suite can check them against numpy.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include <cstdio>  // std::snprintf for hexadecimal words
#include <string>

#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/numpy_random.hpp"

namespace positional::js {
namespace {

std::string hex64(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

// A seed: a decimal string of any size, or a whole JavaScript number up to 2^53 − 1.
SeedSequence seed_arg(const val& seed) {
  if (seed.isNumber()) {
    const std::int64_t value = checked_integer("seed", seed.as<double>(), 0, (std::int64_t{1} << 53) - 1);
    return SeedSequence::from_integer(static_cast<std::uint64_t>(value));
  }
  if (!seed.isString()) {
    throw InputError("seed must be a decimal string or a whole number, got " +
                     seed.typeOf().as<std::string>());
  }
  return SeedSequence::from_decimal(string_arg("seed", seed, kMaxSeedDigits));
}

}  // namespace

val md5_hex_js(val text) {
  return guarded([&] { return md5_hex(string_arg("text", text, kMaxDigestTextBytes)); });
}

val seed_sequence_state_js(val seed) {
  return guarded([&] {
    const std::vector<std::uint64_t> words = seed_arg(seed).generate_state64(4);
    val out = val::array();
    for (const std::uint64_t word : words) out.call<void>("push", hex64(word));
    return out;
  });
}

val pcg64_raw_js(val seed, val count) {
  return guarded([&] {
    Pcg64 bits(seed_arg(seed));
    const std::int64_t n = integer_arg("count", count, 0, kMaxRawDraws);
    val out = val::array();
    for (std::int64_t i = 0; i < n; ++i) out.call<void>("push", hex64(bits.next_uint64()));
    return out;
  });
}

// sample: "all" (every draw, at most kMaxOutputDoubles) or "compact" (Generator::standard_normal_compact).
val standard_normal_js(val seed, val count, val sample) {
  return guarded([&] {
    Generator rng(seed_arg(seed));
    const std::int64_t n = integer_arg("count", count, 0, kMaxNormalDraws);
    const std::string name = string_arg("options.sample", sample, kMaxSchemeBytes);
    if (name == "compact") return to_float64_array(rng.standard_normal_compact(n));
    if (name != "all")
      throw InputError("options.sample must be \"compact\" or \"all\", got \"" + name + "\"");
    if (n > kMaxOutputDoubles)
      fail("count", "at most 16777216 without { sample: 'compact' }", static_cast<double>(n));
    return to_float64_array(rng.standard_normal(n));
  });
}

}  // namespace positional::js
