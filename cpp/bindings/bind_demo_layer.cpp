// Embind adapters for the lesson's order-blindness demo (positional/demo_layer.hpp): word vectors,
// the demo attention layer, order similarities.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include <string>

#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/demo_layer.hpp"

namespace positional::js {
namespace {

// The scheme argument (the engine rejects unknown names; the facade supplies "none" when omitted).
std::string scheme_arg(const val& scheme) { return string_arg("scheme", scheme, kMaxSchemeBytes); }

}  // namespace

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

}  // namespace positional::js
