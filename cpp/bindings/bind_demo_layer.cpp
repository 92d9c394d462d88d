// Embind adapters for the lesson's order-blindness demo (positional/demo_layer.hpp): word vectors,
// the demo attention layer, order similarities.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include <string>

#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/demo_layer.hpp"

namespace positional::js {
namespace {

val word_vector_js(std::string word, double d) {
  return guarded([&] { return to_float64_array(word_vector(word, whole(d))); });
}

val encode_sentence_js(std::string sentence, std::string scheme, bool causal) {
  return guarded([&] { return matrix_to_js(encode_sentence(sentence, scheme, causal)); });
}

val demo_attention_js(std::string sentence, std::string scheme, bool causal) {
  return guarded([&] {
    const AttentionResult result = demo_attention(sentence, scheme, causal);
    return js_object({{"output", matrix_to_js(result.output)}, {"weights", matrix_to_js(result.weights)}});
  });
}

val order_similarity_js(std::string a, std::string b, std::string scheme, bool causal) {
  return guarded([&] { return order_similarity(a, b, scheme, causal); });
}

val order_similarities_js(std::string a, std::string b) {
  return guarded([&] {
    const OrderSimilarities sims = order_similarities(a, b);
    return js_object(
        {{"none", sims.none}, {"sinusoidal", sims.sinusoidal}, {"rope", sims.rope}, {"causal", sims.causal}});
  });
}

}  // namespace

POSITIONAL_TOPIC(demo_layer) {
  constexpr Param scheme = text("scheme", kMaxSchemeBytes, kDefaultDemoScheme);
  constexpr Param causal = boolean("causal", false);
  constexpr Param sentence = text("sentence", kMaxSentenceBytes);
  topic.function("wordVector", &word_vector_js, "a demo word's embedding, drawn as numpy draws it",
                 {text("word", kMaxWordBytes), integer("d", 1, kMaxWordDimension, kDemoDimension)},
                 R"(["cat"])");
  topic.function("encodeSentence", &encode_sentence_js,
                 "the demo layer's (words × 16) outputs; scheme none, sinusoidal or rope; at most 512 words",
                 {sentence, scheme, causal}, R"(["the cat sat on the mat", "rope"])");
  topic.function("demoAttention", &demo_attention_js,
                 "the demo layer's { output, weights }; as encodeSentence", {sentence, scheme, causal},
                 R"(["the cat sat on the mat", "sinusoidal"])");
  topic.function("orderSimilarity", &order_similarity_js,
                 "cosine similarity of two sentences' pooled encodings under one scheme",
                 {text("a", kMaxSentenceBytes), text("b", kMaxSentenceBytes), scheme, causal},
                 R"(["the cat sat on the mat", "mat the on sat cat the", "rope"])");
  topic.function("orderSimilarities", &order_similarities_js,
                 "the lesson's four cases { none, sinusoidal, rope, causal }",
                 {text("a", kMaxSentenceBytes), text("b", kMaxSentenceBytes)},
                 R"(["the cat sat on the mat", "mat the on sat cat the"])");
}

}  // namespace positional::js
