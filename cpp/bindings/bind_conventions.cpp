// Embind adapters for the two RoPE layouts (positional/conventions.hpp): split-halves rotation and
// the comparison of interleaved and split-halves scores.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/conventions.hpp"

namespace positional::js {

val apply_rope_half_js(val x, val position, val base) {
  return guarded([&] {
    return to_float64_array(
        apply_rope_half(vector_from_js("x", x), number_arg("position", position), number_arg("base", base)));
  });
}

val compare_rope_conventions_js(val q, val k, val start, val max_distance, val base) {
  return guarded([&] {
    const ConventionComparison c = compare_rope_conventions(
        vector_from_js("q", q), vector_from_js("k", k), number_arg("start", start),
        integer_arg("maxDistance", max_distance, 0, kMaxOutputDoubles), number_arg("base", base));
    val out = val::object();
    out.set("interleavedScores", to_float64_array(c.interleaved_scores));
    out.set("halfScores", to_float64_array(c.half_scores));
    out.set("unpermutedHalfScores", to_float64_array(c.unpermuted_half_scores));
    out.set("permutation", permutation_to_js(c.permutation));
    out.set("maxScoreDifference", c.max_score_difference);
    out.set("maxUnpermutedDifference", c.max_unpermuted_difference);
    out.set("sinusoidalMaxDifference", c.sinusoidal_max_difference);
    return out;
  });
}

}  // namespace positional::js
