// Embind adapters for the lesson page's widgets: YaRN and dynamic NTK scaling, ALiBi, RoPE's
// long-term decay, the interleaved vs split-halves layouts, the RoPE clock, float32 angles, and
// permutation checks. Every result is a number, a Float64Array or a plain object; nothing needs .delete().
#include <emscripten/bind.h>

#include <cstdint>

#include "js_interop.hpp"
#include "positional/alibi.hpp"
#include "positional/clock.hpp"
#include "positional/conventions.hpp"
#include "positional/permutation.hpp"
#include "positional/precision.hpp"
#include "positional/scaling.hpp"

namespace positional::js {
namespace {

std::int64_t dimension_arg(const val& d) {
  return integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles);
}

val permutation_to_js(const Permutation& perm) {
  Vector values(static_cast<Eigen::Index>(perm.size()));
  for (std::size_t j = 0; j < perm.size(); ++j)
    values[static_cast<Eigen::Index>(j)] = static_cast<double>(perm[j]);
  return to_float64_array(values);
}

Permutation permutation_from_js(const std::string& name, const val& array) {
  const Vector values = vector_from_js(name, array);
  Permutation perm(static_cast<std::size_t>(values.size()));
  for (Eigen::Index j = 0; j < values.size(); ++j) {
    perm[static_cast<std::size_t>(j)] =
        checked_integer(name + "[" + std::to_string(j) + "]", values[j], 0, kMaxOutputDoubles);
  }
  return perm;
}

val range_to_js(const YarnCorrectionRange& range) {
  val out = val::object();
  out.set("low", range.low);
  out.set("high", range.high);
  return out;
}

// ---- context extension ------------------------------------------------------------------

val yarn_inverse_frequencies_js(val d, val base, val scale, val trained_len, val beta_fast, val beta_slow) {
  return guarded([&] {
    return to_float64_array(
        yarn_inverse_frequencies(dimension_arg(d), number_arg("base", base), number_arg("scale", scale),
                                 number_arg("trainedLen", trained_len), number_arg("betaFast", beta_fast),
                                 number_arg("betaSlow", beta_slow)));
  });
}

val yarn_extrapolation_weights_js(val d, val base, val trained_len, val beta_fast, val beta_slow) {
  return guarded([&] {
    return to_float64_array(yarn_extrapolation_weights(
        dimension_arg(d), number_arg("base", base), number_arg("trainedLen", trained_len),
        number_arg("betaFast", beta_fast), number_arg("betaSlow", beta_slow)));
  });
}

val yarn_correction_range_js(val d, val base, val trained_len, val beta_fast, val beta_slow) {
  return guarded([&] {
    return range_to_js(yarn_correction_range(
        dimension_arg(d), number_arg("base", base), number_arg("trainedLen", trained_len),
        number_arg("betaFast", beta_fast), number_arg("betaSlow", beta_slow)));
  });
}

val yarn_attention_factor_js(val scale) {
  return guarded([&] { return yarn_attention_factor(number_arg("scale", scale)); });
}

val dynamic_ntk_base_js(val base, val scale, val d, val seq_len, val trained_len) {
  return guarded([&] {
    return dynamic_ntk_base(number_arg("base", base), number_arg("scale", scale), dimension_arg(d),
                            number_arg("seqLen", seq_len), number_arg("trainedLen", trained_len));
  });
}

val pair_wavelengths_js(val inv_freq) {
  return guarded([&] { return to_float64_array(pair_wavelengths(vector_from_js("invFreq", inv_freq))); });
}

val extension_inverse_frequencies_js(val d, val base, val trained_len, val new_len, val beta_fast,
                                     val beta_slow) {
  return guarded([&] {
    return matrix_to_js(extension_inverse_frequencies(
        dimension_arg(d), number_arg("base", base), number_arg("trainedLen", trained_len),
        number_arg("newLen", new_len), number_arg("betaFast", beta_fast), number_arg("betaSlow", beta_slow)));
  });
}

val extension_curves_js(val positions, val trained_len, val new_len, val d, val base, val beta_fast,
                        val beta_slow) {
  return guarded([&] {
    const ExtensionCurves curves =
        extension_curves(vector_from_js("positions", positions), number_arg("trainedLen", trained_len),
                         number_arg("newLen", new_len), dimension_arg(d), number_arg("base", base),
                         number_arg("betaFast", beta_fast), number_arg("betaSlow", beta_slow));
    val out = val::object();
    out.set("angles", matrix_to_js(curves.angles));
    out.set("trainedMax", curves.trained_max);
    out.set("ntkBase", curves.ntk_base);
    out.set("attentionFactor", curves.attention_factor);
    out.set("yarnRange", range_to_js(curves.yarn_range));
    return out;
  });
}

// ---- ALiBi and RoPE decay -----------------------------------------------------------------

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

// ---- layouts, permutations, the clock -------------------------------------------------------

val apply_rope_half_js(val x, val position, val base) {
  return guarded([&] {
    return to_float64_array(
        apply_rope_half(vector_from_js("x", x), number_arg("position", position), number_arg("base", base)));
  });
}

val half_permutation_js(val d) {
  return guarded([&] { return permutation_to_js(interleaved_to_half_permutation(dimension_arg(d))); });
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

val max_permuted_difference_js(val a, val b, val perm) {
  return guarded([&] {
    return max_permuted_difference(matrix_from_js("a", a), matrix_from_js("b", b),
                                   permutation_from_js("perm", perm));
  });
}

val reversal_permutation_js(val n) {
  return guarded(
      [&] { return permutation_to_js(reversal_permutation(integer_arg("n", n, 0, kMaxOutputDoubles))); });
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

// ---- precision ---------------------------------------------------------------------------

val float32_angle_errors_js(val positions, val pairs, val d, val base) {
  return guarded([&] {
    const Float32AngleErrors e =
        float32_angle_errors(vector_from_js("positions", positions), vector_from_js("pairs", pairs),
                             dimension_arg(d), number_arg("base", base));
    val out = val::object();
    out.set("angleError", matrix_to_js(e.angle_error));
    out.set("rotationError", matrix_to_js(e.rotation_error));
    out.set("theta", to_float64_array(e.theta));
    return out;
  });
}

}  // namespace

// Each function is bound once with every argument; the defaults (base 10,000, betaFast 32,
// betaSlow 1, θ = 1) live in the JavaScript facade, engine-facade.mjs.
EMSCRIPTEN_BINDINGS(positional_widgets) {
  using emscripten::function;

  function("yarnInverseFrequencies", &yarn_inverse_frequencies_js);
  function("yarnExtrapolationWeights", &yarn_extrapolation_weights_js);
  function("yarnCorrectionRange", &yarn_correction_range_js);
  function("yarnAttentionFactor", &yarn_attention_factor_js);
  function("dynamicNtkBase", &dynamic_ntk_base_js);
  function("pairWavelengths", &pair_wavelengths_js);
  function("extensionInverseFrequencies", &extension_inverse_frequencies_js);
  function("extensionCurves", &extension_curves_js);
  function("alibiSlopes", &alibi_slopes_js);
  function("alibiBias", &alibi_bias_js);
  function("ropeDecayCurve", &rope_decay_curve_js);
  function("ropeOnesScores", &rope_ones_scores_js);
  function("applyRopeHalf", &apply_rope_half_js);
  function("halfPermutation", &half_permutation_js);
  function("compareRopeConventions", &compare_rope_conventions_js);
  function("maxPermutedDifference", &max_permuted_difference_js);
  function("reversalPermutation", &reversal_permutation_js);
  function("ropeClock", &rope_clock_js);
  function("float32AngleErrors", &float32_angle_errors_js);
}

}  // namespace positional::js
