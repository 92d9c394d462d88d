// Embind adapters for the two RoPE layouts (positional/conventions.hpp): split-halves rotation and
// the comparison of interleaved and split-halves scores.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/conventions.hpp"

namespace positional::js {
namespace {

val apply_rope_half_js(val x, double position, double base) {
  return guarded([&] { return to_float64_array(apply_rope_half(vector_from_js("x", x), position, base)); });
}

val compare_js(val q, val k, double start, double max_distance, double base) {
  return guarded([&] {
    const ConventionComparison c = compare_rope_conventions(vector_from_js("q", q), vector_from_js("k", k),
                                                            start, whole(max_distance), base);
    return js_object({{"interleavedScores", to_float64_array(c.interleaved_scores)},
                      {"halfScores", to_float64_array(c.half_scores)},
                      {"unpermutedHalfScores", to_float64_array(c.unpermuted_half_scores)},
                      {"permutation", permutation_to_js(c.permutation)},
                      {"maxScoreDifference", c.max_score_difference},
                      {"maxUnpermutedDifference", c.max_unpermuted_difference},
                      {"sinusoidalMaxDifference", c.sinusoidal_max_difference}});
  });
}

}  // namespace

POSITIONAL_TOPIC(conventions) {
  topic.function("applyRopeHalf", &apply_rope_half_js,
                 "one vector rotated in the split-halves layout (rotate_half); x ≤ 2^22 entries",
                 {vector("x"), number("position"), kBase}, "[[1, 0, 0, 1], 3]");
  topic.function(
      "compareRopeConventions", &compare_js,
      "the conventions chart's scores, interleaved against split halves: { interleavedScores, halfScores, "
      "unpermutedHalfScores, permutation, maxScoreDifference, maxUnpermutedDifference, "
      "sinusoidalMaxDifference }; (maxDistance + 1) × (d + 32) ≤ 2^22 steps",
      {vector("q"), vector("k"), number("start"), integer("maxDistance", 0, kMaxConventionsDistance), kBase},
      "[[1, 0, 0, 1], [0, 1, 1, 0], 2, 8]");
}

}  // namespace positional::js
