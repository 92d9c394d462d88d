// Embind adapters that leave their result in the module's memory: the zero-copy path for the
// largest results (the sinusoidal table, RoPE over a sequence, and attention's four matrices).
//
// Ownership rule (differs from js_interop.hpp's): the result is held here, in the slots below,
// until the next view call or viewRelease(). JavaScript receives { rows, cols, data } (attention: four
// of them) where data is a Float64Array *view* of a matrix inside the WebAssembly memory, not a copy.
// The view is valid until the next call into the engine: a later view call overwrites or frees the
// slots, and any call that grows the memory detaches every view (its length becomes 0). The facade
// (engine-facade.mjs, `engine.views`) enforces this on access; callers copy with .slice() to keep.
#include <emscripten/val.h>

#include <array>

#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/attention.hpp"
#include "positional/rope.hpp"
#include "positional/sinusoidal.hpp"

namespace positional::js {
namespace {

// The one result the views point into: a table in the first slot, or attention's four matrices.
// Freed before the next kernel runs, so a call of the same size reuses the same blocks (no growth,
// no first-touch cost after the first call).
std::array<Matrix, 4>& view_slots() {
  static std::array<Matrix, 4> slots;
  return slots;
}

void release_views() {
  for (Matrix& slot : view_slots()) slot = Matrix();
}

val view_of(const Matrix& held) {
  return js_object(
      {{"rows", static_cast<double>(held.rows())},
       {"cols", static_cast<double>(held.cols())},
       {"data", val(emscripten::typed_memory_view(static_cast<std::size_t>(held.size()), held.data()))}});
}

val hold_and_view(Matrix&& result) {
  Matrix& slot = view_slots()[0];
  slot = std::move(result);
  return view_of(slot);
}

val view_sinusoidal_encoding_js(double n, double d, double base) {
  return guarded([&] {
    release_views();  // free the previous result first: the new one can take its place
    return hold_and_view(sinusoidal_encoding(whole(n), whole(d), base));
  });
}

val view_apply_rope_sequence_js(val x, val positions, double base) {
  return guarded([&] {
    const Matrix input = matrix_from_js("x", x);  // read before the slots are freed: x may be a view
    if (positions.isNull()) {
      release_views();
      return hold_and_view(apply_rope_sequence(input, base));
    }
    const Vector at = vector_from_js("positions", positions);
    release_views();
    return hold_and_view(apply_rope(input, at, base));
  });
}

val view_attention_js(val q, val k, val v, bool causal) {
  return guarded([&] {
    const Matrix q_in = matrix_from_js("q", q);
    const Matrix k_in = matrix_from_js("k", k);
    const Matrix v_in = matrix_from_js("v", v);
    release_views();
    AttentionResult result = scaled_dot_product_attention(q_in, k_in, v_in, causal);
    std::array<Matrix, 4>& slots = view_slots();
    slots[0] = std::move(result.output);
    slots[1] = std::move(result.weights);
    slots[2] = std::move(result.scores);
    slots[3] = std::move(result.scaled_scores);
    return js_object({{"output", view_of(slots[0])},
                      {"weights", view_of(slots[1])},
                      {"scores", view_of(slots[2])},
                      {"scaledScores", view_of(slots[3])}});
  });
}

val view_release_js() {
  release_views();
  return val::undefined();
}

}  // namespace

POSITIONAL_TOPIC(views) {
  topic.view("sinusoidalEncoding", "viewSinusoidalEncoding", &view_sinusoidal_encoding_js);
  topic.view("applyRopeSequence", "viewApplyRopeSequence", &view_apply_rope_sequence_js);
  topic.view("attention", "viewAttention", &view_attention_js);
  topic.internal("viewRelease", &view_release_js);
}

}  // namespace positional::js
