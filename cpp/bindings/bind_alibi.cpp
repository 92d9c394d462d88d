// Embind adapters for ALiBi (positional/alibi.hpp): head slopes and bias, and RoPE's long-term
// decay beside it.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/alibi.hpp"

namespace positional::js {

val alibi_slopes_js(val n_heads) {
  return guarded(
      [&] { return to_float64_array(alibi_slopes(integer_arg("nHeads", n_heads, 1, kMaxAlibiHeads))); });
}

val alibi_bias_js(val slope, val length) {
  return guarded([&] {
    return matrix_to_js(
        alibi_bias(number_arg("slope", slope), integer_arg("length", length, 1, kMaxOutputDoubles)));
  });
}

val rope_decay_curve_js(val d, val base, val max_distance) {
  return guarded([&] {
    return to_float64_array(rope_decay_curve(dimension_arg(d), number_arg("base", base),
                                             integer_arg("maxDistance", max_distance, 0, kMaxOutputDoubles)));
  });
}

val rope_ones_scores_js(val d, val base, val max_distance) {
  return guarded([&] {
    return to_float64_array(rope_ones_scores(dimension_arg(d), number_arg("base", base),
                                             integer_arg("maxDistance", max_distance, 0, kMaxOutputDoubles)));
  });
}

}  // namespace positional::js
