// Embind adapters that leave their result in the module's memory: the zero-copy path for the two
// largest tables (the sinusoidal table and RoPE over a sequence).
//
// Ownership rule (differs from js_interop.hpp's): the result matrix is held here, in one slot,
// until the next view call or viewRelease(). JavaScript receives { rows, cols, data } where data is
// a Float64Array *view* of that matrix inside the WebAssembly memory, not a copy. The view is valid
// until the next call into the engine: a later view call overwrites or frees the slot, and any call
// that grows the memory detaches every view (its length becomes 0). The facade
// (engine-facade.mjs, `engine.views`) enforces this on access; callers copy with .slice() to keep.
#include <emscripten/val.h>

#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/rope.hpp"
#include "positional/sinusoidal.hpp"

namespace positional::js {
namespace {

// The one result the views point into. Freed before the next kernel runs, so a call of the same
// size reuses the same block (no growth, no first-touch cost after the first call).
Matrix& view_slot() {
  static Matrix slot;
  return slot;
}

val hold_and_view(Matrix&& result) {
  Matrix& slot = view_slot();
  slot = std::move(result);
  val out = val::object();
  out.set("rows", static_cast<double>(slot.rows()));
  out.set("cols", static_cast<double>(slot.cols()));
  out.set("data", val(emscripten::typed_memory_view(static_cast<std::size_t>(slot.size()), slot.data())));
  return out;
}

// Reads { rows, cols, data: Float64Array } with one copy (TypedArray.prototype.set into the
// matrix's own memory) instead of js_interop.hpp's three (array → std::vector → Vector → Matrix).
// The facade has already turned data into a Float64Array of rows × cols numbers.
Matrix matrix_from_float64(const std::string& name, const val& object) {
  const auto [rows, cols] = matrix_shape_from_js(name, object);
  const val data = object["data"];
  if (!data.instanceof (val::global("Float64Array"))) throw InputError(name + ".data must be a Float64Array");
  Matrix m(rows, cols);  // may grow the memory, which detaches a view passed in as data
  const double length = data["length"].as<double>();
  if (length != static_cast<double>(rows * cols)) {
    throw InputError(name + ".data must hold rows × cols = " + std::to_string(rows * cols) +
                     " numbers, got " + format_number(length) +
                     " (an engine view expires at the next call: pass a copy, view.data.slice())");
  }
  val(emscripten::typed_memory_view(static_cast<std::size_t>(m.size()), m.data())).call<void>("set", data);
  return m;
}

}  // namespace

val view_sinusoidal_encoding_js(val n, val d, val base) {
  return guarded([&] {
    const std::int64_t rows = integer_arg("n", n, -kMaxOutputDoubles, kMaxOutputDoubles);
    const std::int64_t cols = integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles);
    const double b = number_arg("base", base);
    view_slot() = Matrix();  // free the previous result first: the new one can take its place
    return hold_and_view(sinusoidal_encoding(rows, cols, b));
  });
}

val view_apply_rope_sequence_js(val x, val positions, val base) {
  return guarded([&] {
    const Matrix input = matrix_from_float64("x", x);
    const double b = number_arg("base", base);
    view_slot() = Matrix();
    if (positions.isNull()) return hold_and_view(apply_rope_sequence(input, b));
    return hold_and_view(apply_rope(input, vector_from_js("positions", positions), b));
  });
}

val view_release_js() {
  view_slot() = Matrix();
  return val::undefined();
}

}  // namespace positional::js
