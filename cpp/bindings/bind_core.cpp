// Embind adapters for the core engine: sinusoidal codes, RoPE, attention, context extension.
// Each function validates its JavaScript arguments, calls the engine inside guarded(), and
// returns numbers, Float64Arrays or plain objects (nothing for the caller to .delete()).
#include <emscripten/bind.h>
#include <emscripten/heap.h>  // emscripten_get_heap_size

#include <malloc.h>  // mallinfo: bytes in use, for leak tests

#include "js_interop.hpp"
#include "positional/attention.hpp"
#include "positional/extension.hpp"
#include "positional/rope.hpp"
#include "positional/sinusoidal.hpp"

namespace positional::js {
namespace {

val sinusoidal_encoding_js(val n, val d, val base) {
  return guarded([&] {
    return matrix_to_js(sinusoidal_encoding(integer_arg("n", n, -kMaxOutputDoubles, kMaxOutputDoubles),
                                            integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles),
                                            number_arg("base", base)));
  });
}

val sinusoidal_encoding_concatenated_js(val n, val d, val base) {
  return guarded([&] {
    return matrix_to_js(sinusoidal_encoding_concatenated(
        integer_arg("n", n, -kMaxOutputDoubles, kMaxOutputDoubles),
        integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles), number_arg("base", base)));
  });
}

val sinusoidal_dot_js(val a, val b, val d, val base) {
  return guarded([&] {
    return sinusoidal_dot(number_arg("a", a), number_arg("b", b),
                          integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles),
                          number_arg("base", base));
  });
}

val rope_frequencies_js(val d, val base) {
  return guarded([&] {
    return to_float64_array(rope_frequencies(integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles),
                                             number_arg("base", base)));
  });
}

val apply_rope_js(val x, val position, val base) {
  return guarded([&] {
    return to_float64_array(
        apply_rope(vector_from_js("x", x), number_arg("position", position), number_arg("base", base)));
  });
}

val apply_rope_sequence_js(val x, val positions, val base) {
  return guarded([&] {
    const Matrix input = matrix_from_js("x", x);
    const double b = number_arg("base", base);
    if (positions.isNull()) return matrix_to_js(apply_rope_sequence(input, b));
    return matrix_to_js(apply_rope(input, vector_from_js("positions", positions), b));
  });
}

val attention_js(val q, val k, val v, val causal) {
  return guarded([&] {
    const AttentionResult result = scaled_dot_product_attention(
        matrix_from_js("q", q), matrix_from_js("k", k), matrix_from_js("v", v), bool_arg("causal", causal));
    val out = val::object();
    out.set("output", matrix_to_js(result.output));
    out.set("weights", matrix_to_js(result.weights));
    out.set("scores", matrix_to_js(result.scores));
    out.set("scaledScores", matrix_to_js(result.scaled_scores));
    return out;
  });
}

val cosine_similarity_js(val a, val b) {
  return guarded([&] { return cosine_similarity(vector_from_js("a", a), vector_from_js("b", b)); });
}

val interpolate_positions_js(val positions, val trained_len, val new_len) {
  return guarded([&] {
    return to_float64_array(interpolate_positions(vector_from_js("positions", positions),
                                                  number_arg("trainedLen", trained_len),
                                                  number_arg("newLen", new_len)));
  });
}

val ntk_scaled_base_js(val base, val scale, val d) {
  return guarded([&] {
    return ntk_scaled_base(number_arg("base", base), number_arg("scale", scale),
                           integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles));
  });
}

val rope_scores_over_distance_js(val q, val k, val starts, val max_distance, val base) {
  return guarded([&] {
    return matrix_to_js(rope_scores_over_distance(
        vector_from_js("q", q), vector_from_js("k", k), vector_from_js("starts", starts),
        integer_arg("maxDistance", max_distance, -kMaxOutputDoubles, kMaxOutputDoubles),
        number_arg("base", base)));
  });
}

val rope_pair_angles_js(val positions, val pairs, val d, val base, val wrapped) {
  return guarded([&] {
    const bool wrap = bool_arg("wrapped", wrapped);
    return matrix_to_js(rope_pair_angles(
        vector_from_js("positions", positions), vector_from_js("pairs", pairs),
        integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles), number_arg("base", base), wrap));
  });
}

val context_extension_curves_js(val positions, val trained_len, val new_len, val d, val base) {
  return guarded([&] {
    const ContextExtensionCurves curves = context_extension_curves(
        vector_from_js("positions", positions), number_arg("trainedLen", trained_len),
        number_arg("newLen", new_len), integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles),
        number_arg("base", base));
    val out = val::object();
    out.set("angles", matrix_to_js(curves.angles));
    out.set("trainedMax", curves.trained_max);
    return out;
  });
}

// Bytes of the WASM heap in use by malloc, and the heap's total size: leak tests compare
// them before and after many calls.
val heap_bytes_js() {
  const struct mallinfo info = mallinfo();
  val out = val::object();
  out.set("inUse", static_cast<double>(info.uordblks));
  out.set("heapSize", static_cast<double>(emscripten_get_heap_size()));
  return out;
}

}  // namespace

// Each function is bound once with every argument; the defaults (base 10,000, causal false, wrapped
// true) live in the JavaScript facade, engine-facade.mjs, which always passes them all.
EMSCRIPTEN_BINDINGS(positional_core) {
  using emscripten::function;

  function("sinusoidalEncoding", &sinusoidal_encoding_js);
  function("sinusoidalEncodingConcatenated", &sinusoidal_encoding_concatenated_js);
  function("sinusoidalDot", &sinusoidal_dot_js);
  function("ropeFrequencies", &rope_frequencies_js);
  function("applyRope", &apply_rope_js);
  function("applyRopeSequence", &apply_rope_sequence_js);
  function("attention", &attention_js);
  function("cosineSimilarity", &cosine_similarity_js);
  function("interpolatePositions", &interpolate_positions_js);
  function("ntkScaledBase", &ntk_scaled_base_js);
  function("ropeScoresOverDistance", &rope_scores_over_distance_js);
  function("ropePairAngles", &rope_pair_angles_js);
  function("contextExtensionCurves", &context_extension_curves_js);
  function("heapBytes", &heap_bytes_js);
  emscripten::constant("maxOutputDoubles", static_cast<double>(kMaxOutputDoubles));
}

}  // namespace positional::js
