// Embind adapters for the sinusoidal code (positional/sinusoidal.hpp): the table, its concatenated
// layout, the dot product of two rows, and sampled rows (only the rows a chart shows; the heatmap asks
// for one row per screen pixel instead of the whole table).
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/sinusoidal.hpp"

namespace positional::js {
namespace {

val encoding_js(double n, double d, double base) {
  return guarded([&] { return matrix_to_js(sinusoidal_encoding(whole(n), whole(d), base)); });
}

val encoding_concatenated_js(double n, double d, double base) {
  return guarded([&] { return matrix_to_js(sinusoidal_encoding_concatenated(whole(n), whole(d), base)); });
}

val dot_js(double a, double b, double d, double base) {
  return guarded([&] { return sinusoidal_dot(a, b, whole(d), base); });
}

val encoding_rows_js(val positions, double d, double base) {
  return guarded([&] {
    return matrix_to_js(sinusoidal_encoding_rows(vector_from_js("positions", positions), whole(d), base));
  });
}

}  // namespace

POSITIONAL_TOPIC(sinusoidal) {
  topic.function("sinusoidalEncoding", &encoding_js, "the (n × d) table of position codes; n × d ≤ 2^24",
                 {integer("n", 0, kMaxOutputDoubles), kDimension, kBase}, "[8, 4]");
  topic.function("sinusoidalEncodingConcatenated", &encoding_concatenated_js,
                 "the same table with sines first, then cosines; n × d ≤ 2^24",
                 {integer("n", 0, kMaxOutputDoubles), kDimension, kBase}, "[8, 4]");
  topic.function("sinusoidalEncodingRows", &encoding_rows_js,
                 "only the given rows of the table (what a chart can show); rows × d ≤ 2^24",
                 {vector("positions"), kDimension, kBase}, "[[0, 3, 5], 4]");
  topic.function("sinusoidalDot", &dot_js, "PE(a)·PE(b), a number",
                 {number("a"), number("b"), kDimension, kBase}, "[10, 13, 32]");
}

}  // namespace positional::js
