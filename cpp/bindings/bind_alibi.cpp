// Embind adapters for ALiBi (positional/alibi.hpp): head slopes and bias, and RoPE's long-term
// decay beside it.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/alibi.hpp"

namespace positional::js {
namespace {

val slopes_js(double n_heads) {
  return guarded([&] { return to_float64_array(alibi_slopes(whole(n_heads))); });
}

val bias_js(double slope, double length) {
  return guarded([&] { return matrix_to_js(alibi_bias(slope, whole(length))); });
}

val decay_curve_js(double d, double base, double max_distance) {
  return guarded([&] { return to_float64_array(rope_decay_curve(whole(d), base, whole(max_distance))); });
}

val ones_scores_js(double d, double base, double max_distance) {
  return guarded([&] { return to_float64_array(rope_ones_scores(whole(d), base, whole(max_distance))); });
}

}  // namespace

POSITIONAL_TOPIC(alibi) {
  constexpr Param max_distance = integer("maxDistance", 0, kMaxDecayDistance);
  topic.function("alibiSlopes", &slopes_js, "ALiBi's head slopes", {integer("nHeads", 1, kMaxAlibiHeads)},
                 "[8]");
  topic.function("alibiBias", &bias_js, "the (length × length) causal bias of a head; length² ≤ 2^24",
                 {number("slope"), integer("length", 1, kMaxOutputDoubles)}, "[0.5, 4]");
  topic.function(
      "ropeDecayCurve", &decay_curve_js,
      "RoPE's long-term decay bound over distances 0…maxDistance; d/2 × (maxDistance + 1) × 2 ≤ 2^22 steps",
      {kDimension, kBase, max_distance}, "[8, 10000, 16]");
  topic.function(
      "ropeOnesScores", &ones_scores_js,
      "the RoPE score of all-ones q and k over distances 0…maxDistance, divided by d; as ropeDecayCurve",
      {kDimension, kBase, max_distance}, "[8, 10000, 16]");
}

}  // namespace positional::js
