// Embind adapters for RoPE (positional/rope.hpp): frequencies, rotation of vectors and sequences,
// the figures' scores and angles, and one pair as a clock.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/rope.hpp"

namespace positional::js {

val rope_frequencies_js(val d, val base) {
  return guarded([&] {
    return to_float64_array(rope_frequencies(integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles),
                                             number_arg("base", base)));
  });
}

val apply_rope_js(val x, val position, val base) {
  return guarded([&] {
    return to_float64_array(
        apply_rope(vector_from_js("x", x), number_arg("position", position), number_arg("base", base)));
  });
}

val apply_rope_sequence_js(val x, val positions, val base) {
  return guarded([&] {
    const Matrix input = matrix_from_js("x", x);
    const double b = number_arg("base", base);
    if (positions.isNull()) return matrix_to_js(apply_rope_sequence(input, b));
    return matrix_to_js(apply_rope(input, vector_from_js("positions", positions), b));
  });
}

val rope_scores_over_distance_js(val q, val k, val starts, val max_distance, val base) {
  return guarded([&] {
    return matrix_to_js(rope_scores_over_distance(
        vector_from_js("q", q), vector_from_js("k", k), vector_from_js("starts", starts),
        integer_arg("maxDistance", max_distance, -kMaxOutputDoubles, kMaxOutputDoubles),
        number_arg("base", base)));
  });
}

val rope_pair_angles_js(val positions, val pairs, val d, val base, val wrapped) {
  return guarded([&] {
    const bool wrap = bool_arg("wrapped", wrapped);
    return matrix_to_js(rope_pair_angles(
        vector_from_js("positions", positions), vector_from_js("pairs", pairs),
        integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles), number_arg("base", base), wrap));
  });
}

val rope_clock_js(val q, val k, val m, val n, val theta) {
  return guarded([&] {
    const Vector qv = vector_from_js("q", q);
    const Vector kv = vector_from_js("k", k);
    if (qv.size() != 2) fail("q length", "2", static_cast<double>(qv.size()));
    if (kv.size() != 2) fail("k length", "2", static_cast<double>(kv.size()));
    const RopeClock c = rope_clock(Eigen::Vector2d(qv[0], qv[1]), Eigen::Vector2d(kv[0], kv[1]),
                                   number_arg("m", m), number_arg("n", n), number_arg("theta", theta));
    val out = val::object();
    out.set("qRotated", to_float64_array(c.q_rotated.data(), 2));
    out.set("kRotated", to_float64_array(c.k_rotated.data(), 2));
    out.set("qAngle", c.q_angle);
    out.set("kAngle", c.k_angle);
    out.set("angleBetween", c.angle_between);
    out.set("score", c.score);
    out.set("relativeScore", c.relative_score);
    return out;
  });
}

}  // namespace positional::js
