// Embind adapter for sampled sinusoidal rows: sinusoidalEncodingRows(positions, d, base) returns
// only the rows a chart shows, as { rows, cols, data: Float64Array } (JavaScript-owned, nothing
// to .delete()); the heatmap asks for one row per screen pixel instead of the whole table.
#include <emscripten/bind.h>

#include "js_interop.hpp"
#include "positional/sampling.hpp"

namespace positional::js {
namespace {

val sinusoidal_encoding_rows_js(val positions, val d, val base) {
  return guarded([&] {
    return matrix_to_js(sinusoidal_encoding_rows(vector_from_js("positions", positions),
                                                 integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles),
                                                 number_arg("base", base)));
  });
}

}  // namespace

// Bound once with every argument; the facade (engine-facade.mjs) supplies base 10,000 when omitted.
EMSCRIPTEN_BINDINGS(positional_sampling) {
  using emscripten::function;

  function("sinusoidalEncodingRows", &sinusoidal_encoding_rows_js);
}

}  // namespace positional::js
