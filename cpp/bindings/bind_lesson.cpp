// Embind adapters for the lesson's order-blindness demo (word vectors, the demo attention layer,
// order similarities) and for the numpy-compatible randomness behind it (MD5, SeedSequence,
// PCG64, standard normals), the latter exposed so the Node suite can check them against numpy.
// Every function validates its JavaScript arguments and returns plain values (nothing to .delete());
// each is bound once with every argument, and the facade (engine-facade.mjs) supplies the defaults.
#include <emscripten/bind.h>

#include <cstdio>  // std::snprintf for hexadecimal words
#include <string>

#include "js_interop.hpp"
#include "positional/demo_layer.hpp"
#include "positional/md5.hpp"
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

// The scheme argument (the engine rejects unknown names; the facade supplies "none" when omitted).
std::string scheme_arg(const val& scheme) { return string_arg("scheme", scheme, kMaxSchemeBytes); }

val word_vector_js(val word, val d) {
  return guarded([&] {
    const std::int64_t dimension = integer_arg("d", d, 1, kMaxWordDimension);
    return to_float64_array(word_vector(string_arg("word", word, kMaxWordBytes), dimension));
  });
}

val encode_sentence_js(val sentence, val scheme, val causal) {
  return guarded([&] {
    return matrix_to_js(encode_sentence(string_arg("sentence", sentence, kMaxSentenceBytes),
                                        scheme_arg(scheme), bool_arg("causal", causal)));
  });
}

val demo_attention_js(val sentence, val scheme, val causal) {
  return guarded([&] {
    const AttentionResult result = demo_attention(string_arg("sentence", sentence, kMaxSentenceBytes),
                                                  scheme_arg(scheme), bool_arg("causal", causal));
    val out = val::object();
    out.set("output", matrix_to_js(result.output));
    out.set("weights", matrix_to_js(result.weights));
    return out;
  });
}

val order_similarity_js(val a, val b, val scheme, val causal) {
  return guarded([&] {
    return order_similarity(string_arg("a", a, kMaxSentenceBytes), string_arg("b", b, kMaxSentenceBytes),
                            scheme_arg(scheme), bool_arg("causal", causal));
  });
}

val order_similarities_js(val a, val b) {
  return guarded([&] {
    const OrderSimilarities sims =
        order_similarities(string_arg("a", a, kMaxSentenceBytes), string_arg("b", b, kMaxSentenceBytes));
    val out = val::object();
    out.set("none", sims.none);
    out.set("sinusoidal", sims.sinusoidal);
    out.set("rope", sims.rope);
    out.set("causal", sims.causal);
    return out;
  });
}

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

}  // namespace
}  // namespace positional::js

EMSCRIPTEN_BINDINGS(positional_lesson) {
  using emscripten::function;
  using emscripten::val;
  using namespace positional::js;
  function("wordVector", &word_vector_js);
  function("encodeSentence", &encode_sentence_js);
  function("demoAttention", &demo_attention_js);
  function("orderSimilarity", &order_similarity_js);
  function("orderSimilarities", &order_similarities_js);
  function("md5Hex", &md5_hex_js);
  function("seedSequenceState", &seed_sequence_state_js);
  function("pcg64Raw", &pcg64_raw_js);
  function("standardNormal", &standard_normal_js);
}
