// Embind adapters for the sinusoidal code (positional/sinusoidal.hpp): the table, its concatenated
// layout, the dot product of two rows, and sampled rows (only the rows a chart shows; the heatmap asks
// for one row per screen pixel instead of the whole table).
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/sinusoidal.hpp"

namespace positional::js {

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

val sinusoidal_encoding_rows_js(val positions, val d, val base) {
  return guarded([&] {
    return matrix_to_js(sinusoidal_encoding_rows(vector_from_js("positions", positions),
                                                 integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles),
                                                 number_arg("base", base)));
  });
}

}  // namespace positional::js
