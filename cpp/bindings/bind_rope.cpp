// Embind adapters for RoPE (positional/rope.hpp): frequencies, rotation of vectors and sequences,
// the figures' scores and angles, and one pair as a clock.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/rope.hpp"

namespace positional::js {
namespace {

val frequencies_js(double d, double base) {
  return guarded([&] { return to_float64_array(rope_frequencies(whole(d), base)); });
}

val apply_js(val x, double position, double base) {
  return guarded([&] { return to_float64_array(apply_rope(vector_from_js("x", x), position, base)); });
}

val apply_sequence_js(val x, val positions, double base) {
  return guarded([&] {
    const Matrix input = matrix_from_js("x", x);
    if (positions.isNull()) return matrix_to_js(apply_rope_sequence(input, base));
    return matrix_to_js(apply_rope(input, vector_from_js("positions", positions), base));
  });
}

val scores_over_distance_js(val q, val k, val starts, double max_distance, double base) {
  return guarded([&] {
    return matrix_to_js(rope_scores_over_distance(vector_from_js("q", q), vector_from_js("k", k),
                                                  vector_from_js("starts", starts), whole(max_distance),
                                                  base));
  });
}

val pair_angles_js(val positions, val pairs, double d, double base, bool wrapped) {
  return guarded([&] {
    return matrix_to_js(rope_pair_angles(vector_from_js("positions", positions),
                                         vector_from_js("pairs", pairs), whole(d), base, wrapped));
  });
}

val clock_js(val q, val k, double m, double n, double theta) {
  return guarded([&] {
    const Vector qv = vector_from_js("q", q);
    const Vector kv = vector_from_js("k", k);
    if (qv.size() != 2) fail("q length", "2", static_cast<double>(qv.size()));
    if (kv.size() != 2) fail("k length", "2", static_cast<double>(kv.size()));
    const RopeClock c = rope_clock(Eigen::Vector2d(qv[0], qv[1]), Eigen::Vector2d(kv[0], kv[1]), m, n, theta);
    return js_object({{"qRotated", to_float64_array(c.q_rotated.data(), 2)},
                      {"kRotated", to_float64_array(c.k_rotated.data(), 2)},
                      {"qAngle", c.q_angle},
                      {"kAngle", c.k_angle},
                      {"angleBetween", c.angle_between},
                      {"score", c.score},
                      {"relativeScore", c.relative_score}});
  });
}

}  // namespace

POSITIONAL_TOPIC(rope) {
  topic.function("ropeFrequencies", &frequencies_js, "θ_i for the d/2 pairs", {kDimension, kBase}, "[8]");
  topic.function("applyRope", &apply_js,
                 "one vector rotated to `position` (any finite real); x ≤ 2^22 entries",
                 {vector("x"), number("position"), kBase}, "[[1, 0, 0, 1], 3]");
  topic.function("applyRopeSequence", &apply_sequence_js,
                 "every row of a matrix rotated, row r to positions[r] (null: r); x ≤ 2^22 entries",
                 {matrix("x"), optional_vector("positions"), kBase},
                 R"([{"rows": 2, "cols": 2, "data": [1, 0, 0, 1]}])");
  topic.function(
      "ropeScoresOverDistance", &scores_over_distance_js,
      "(starts × (maxDistance + 1)) scores q·k rotated to each start and start + distance; "
      "starts × (maxDistance + 1) × d/2 ≤ 2^22 steps",
      {vector("q"), vector("k"), vector("starts"), integer("maxDistance", 0, kMaxOutputDoubles - 1), kBase},
      "[[1, 0], [1, 0], [0, 5], 4]");
  topic.function("ropePairAngles", &pair_angles_js,
                 "(pairs × positions) angles, wrapped to (−π, π] or not; pairs × positions ≤ 2^22 steps",
                 {vector("positions"), vector("pairs"), kDimension, kBase, boolean("wrapped", true)},
                 "[[0, 10], [0, 1], 8]");
  topic.function(
      "ropeClock", &clock_js,
      "one RoPE pair by hand: { qRotated, kRotated, qAngle, kAngle, angleBetween, score, relativeScore }; "
      "q and k of length 2",
      {vector("q"), vector("k"), number("m"), number("n"), number("theta", kDefaultClockTheta)},
      "[[1, 0], [0, 1], 2, 5]");
}

}  // namespace positional::js
