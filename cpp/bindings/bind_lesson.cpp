// Embind adapters for the lesson's order-blindness demo (word vectors, the demo attention layer,
// order similarities) and for the numpy-compatible randomness behind it (MD5, SeedSequence,
// PCG64, standard normals), the latter exposed so the Node suite can check them against numpy.
// Every function validates its JavaScript arguments and returns plain values (nothing to .delete()).
#include <emscripten/bind.h>

#include <cstdio>  // std::snprintf for hexadecimal words

#include "js_interop.hpp"
#include "positional/demo_layer.hpp"
#include "positional/md5.hpp"
#include "positional/numpy_random.hpp"

namespace positional::js {
namespace {

// Raw draws and normals the test helpers will produce in one call.
constexpr std::int64_t kMaxDraws = 10'000'000;
// The compact sample of a long normal stream: the first kCompactHead values, every
// kCompactStride-th value (1-based positions kCompactStride, 2·kCompactStride, …), and the last.
constexpr std::int64_t kCompactHead = 1000;
constexpr std::int64_t kCompactStride = 997;

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
    throw InputError("seed must be a decimal string or a whole number, got " + seed.typeOf().as<std::string>());
  }
  return SeedSequence::from_decimal(seed.as<std::string>());
}

// A text argument. Emscripten's UTF-8 conversion would silently pair a lone UTF-16 surrogate with
// whatever follows it, so such strings are rejected here, before they reach the engine.
std::string text_arg(const std::string& name, const val& value) {
  std::string text = string_arg(name, value);
  if (value["isWellFormed"].typeOf().as<std::string>() == "function" && !value.call<bool>("isWellFormed")) {
    throw InputError(name + " must be valid Unicode text, got a lone UTF-16 surrogate");
  }
  return text;
}

// The scheme argument; undefined means "none" (the engine rejects unknown names).
std::string scheme_arg(const val& scheme) { return scheme.isUndefined() ? "none" : string_arg("scheme", scheme); }

val word_vector_js(val word, val d) {
  return guarded([&] {
    const std::int64_t dimension = d.isUndefined() ? kDemoDimension : integer_arg("d", d, 1, kMaxOutputDoubles);
    return to_float64_array(word_vector(text_arg("word", word), dimension));
  });
}

val encode_sentence_js(val sentence, val scheme, val causal) {
  return guarded([&] {
    return matrix_to_js(
        encode_sentence(text_arg("sentence", sentence), scheme_arg(scheme), bool_arg("causal", causal)));
  });
}

val demo_attention_js(val sentence, val scheme, val causal) {
  return guarded([&] {
    const AttentionResult result =
        demo_attention(text_arg("sentence", sentence), scheme_arg(scheme), bool_arg("causal", causal));
    val out = val::object();
    out.set("output", matrix_to_js(result.output));
    out.set("weights", matrix_to_js(result.weights));
    return out;
  });
}

val order_similarity_js(val a, val b, val scheme, val causal) {
  return guarded([&] {
    return order_similarity(text_arg("a", a), text_arg("b", b), scheme_arg(scheme), bool_arg("causal", causal));
  });
}

val order_similarities_js(val a, val b) {
  return guarded([&] {
    const OrderSimilarities sims = order_similarities(text_arg("a", a), text_arg("b", b));
    val out = val::object();
    out.set("none", sims.none);
    out.set("sinusoidal", sims.sinusoidal);
    out.set("rope", sims.rope);
    out.set("causal", sims.causal);
    return out;
  });
}

val md5_hex_js(val text) {
  return guarded([&] { return md5_hex(text_arg("text", text)); });
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
    const std::int64_t n = integer_arg("count", count, 0, kMaxDraws);
    val out = val::array();
    for (std::int64_t i = 0; i < n; ++i) out.call<void>("push", hex64(bits.next_uint64()));
    return out;
  });
}

val standard_normal_js(val seed, val count, val options) {
  return guarded([&] {
    Generator rng(seed_arg(seed));
    const std::int64_t n = integer_arg("count", count, 0, kMaxDraws);
    bool compact = false;
    if (!options.isUndefined()) {
      if (options.isNull() || options.typeOf().as<std::string>() != "object") {
        throw InputError("options must be an object such as { sample: 'compact' }");
      }
      const val sample = options["sample"];
      if (!sample.isUndefined()) {
        const std::string name = string_arg("options.sample", sample);
        if (name != "compact" && name != "all") {
          throw InputError("options.sample must be \"compact\" or \"all\", got \"" + name + "\"");
        }
        compact = name == "compact";
      }
    }
    if (!compact) {
      if (n > kMaxOutputDoubles) fail("count", "at most 16777216 without { sample: 'compact' }", static_cast<double>(n));
      return to_float64_array(rng.standard_normal(n));
    }
    // Every draw is made (the stream must stay in step); only the sampled positions are kept.
    std::vector<double> kept;
    kept.reserve(static_cast<std::size_t>(std::min(n, kCompactHead) + n / kCompactStride + 1));
    std::vector<double> strided;
    double last = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const double value = rng.standard_normal();
      if (i < kCompactHead) kept.push_back(value);
      if ((i + 1) % kCompactStride == 0) strided.push_back(value);
      last = value;
    }
    kept.insert(kept.end(), strided.begin(), strided.end());
    if (n > 0) kept.push_back(last);
    return to_float64_array(kept.data(), kept.size());
  });
}

}  // namespace
}  // namespace positional::js

EMSCRIPTEN_BINDINGS(positional_lesson) {
  using emscripten::function;
  using emscripten::optional_override;
  using emscripten::val;
  using namespace positional::js;
  function("wordVector", &word_vector_js);
  function("wordVector", optional_override([](val word) { return word_vector_js(word, val::undefined()); }));
  function("encodeSentence", &encode_sentence_js);
  function("encodeSentence", optional_override([](val sentence, val scheme) {
             return encode_sentence_js(sentence, scheme, val::undefined());
           }));
  function("encodeSentence", optional_override([](val sentence) {
             return encode_sentence_js(sentence, val::undefined(), val::undefined());
           }));
  function("demoAttention", &demo_attention_js);
  function("demoAttention", optional_override([](val sentence, val scheme) {
             return demo_attention_js(sentence, scheme, val::undefined());
           }));
  function("demoAttention", optional_override([](val sentence) {
             return demo_attention_js(sentence, val::undefined(), val::undefined());
           }));
  function("orderSimilarity", &order_similarity_js);
  function("orderSimilarity", optional_override([](val a, val b, val scheme) {
             return order_similarity_js(a, b, scheme, val::undefined());
           }));
  function("orderSimilarity", optional_override([](val a, val b) {
             return order_similarity_js(a, b, val::undefined(), val::undefined());
           }));
  function("orderSimilarities", &order_similarities_js);
  function("md5Hex", &md5_hex_js);
  function("seedSequenceState", &seed_sequence_state_js);
  function("pcg64Raw", &pcg64_raw_js);
  function("standardNormal", &standard_normal_js);
  function("standardNormal", optional_override([](val seed, val count) {
             return standard_normal_js(seed, count, val::undefined());
           }));
}
