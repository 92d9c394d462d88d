// Embind adapters for contextual position (positional/contextual_position.hpp): the sentence-end
// gates of a text and CoPE's gated counts.
// Every result is a Float64Array: nothing for the caller to .delete().
#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/contextual_position.hpp"

namespace positional::js {
namespace {

val sentence_end_gates_js(std::string text) {
  return guarded([&] { return to_float64_array(sentence_end_gates(text)); });
}

val contextual_positions_js(val gates, double query) {
  return guarded(
      [&] { return to_float64_array(contextual_positions(vector_from_js("gates", gates), whole(query))); });
}

}  // namespace

POSITIONAL_TOPIC(contextual_position) {
  topic.function("sentenceEndGates", &sentence_end_gates_js,
                 "1 for each space-separated word ending in . ! or ?, else 0",
                 {text("text", kMaxSentenceBytes)}, "[\"The cat sat. A dog ran.\"]");
  topic.function("contextualPositions", &contextual_positions_js,
                 "CoPE's position of keys 0…query: the gates from each key to the query, both included",
                 {vector("gates"), integer("query", 0, kMaxOutputDoubles - 1)}, "[[0, 0, 1, 0, 1], 4]");
}

}  // namespace positional::js
