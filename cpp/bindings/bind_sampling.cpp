// Embind adapter for sampled sinusoidal rows: sinusoidalEncodingRows(positions, d, base?) returns
// only the rows a chart shows, as { rows, cols, data: Float64Array } (JavaScript-owned, nothing
// to .delete()); the heatmap asks for one row per screen pixel instead of the whole table.
#include <emscripten/bind.h>

#include "js_interop.hpp"
#include "positional/sampling.hpp"

namespace positional::js {
namespace {

constexpr double kDefaultBase = 10000.0;

val sinusoidal_encoding_rows_js(val positions, val d, val base) {
  return guarded([&] {
    return matrix_to_js(sinusoidal_encoding_rows(vector_from_js("positions", positions),
                                                 integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles),
                                                 number_arg("base", base, kDefaultBase)));
  });
}

}  // namespace

// Embind tells overloads apart by argument count only: the two-argument form takes base 10,000.
EMSCRIPTEN_BINDINGS(positional_sampling) {
  using emscripten::function;
  using emscripten::optional_override;

  function("sinusoidalEncodingRows", &sinusoidal_encoding_rows_js);
  function("sinusoidalEncodingRows", optional_override([](val positions, val d) {
             return sinusoidal_encoding_rows_js(positions, d, val::undefined());
           }));
}

}  // namespace positional::js
