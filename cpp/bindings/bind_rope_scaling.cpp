// Embind adapters for RoPE scaling (positional/rope_scaling.hpp): position interpolation and the
// NTK-aware base, then dynamic NTK, YaRN and pair wavelengths. The context-extension curves cross as
// numbers only, through the scratch block (bind_scratch.cpp).
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/rope_scaling.hpp"

namespace positional::js {
namespace {

val interpolate_positions_js(val positions, double trained_len, double new_len) {
  return guarded([&] {
    return to_float64_array(
        interpolate_positions(vector_from_js("positions", positions), trained_len, new_len));
  });
}

val ntk_scaled_base_js(double base, double scale, double d) {
  return guarded([&] { return ntk_scaled_base(base, scale, whole(d)); });
}

val yarn_inverse_frequencies_js(double d, double base, double scale, double trained_len, double beta_fast,
                                double beta_slow) {
  return guarded([&] {
    return to_float64_array(
        yarn_inverse_frequencies(whole(d), base, scale, trained_len, beta_fast, beta_slow));
  });
}

val yarn_extrapolation_weights_js(double d, double base, double trained_len, double beta_fast,
                                  double beta_slow) {
  return guarded([&] {
    return to_float64_array(yarn_extrapolation_weights(whole(d), base, trained_len, beta_fast, beta_slow));
  });
}

val yarn_correction_range_js(double d, double base, double trained_len, double beta_fast, double beta_slow) {
  return guarded([&] {
    const YarnCorrectionRange range =
        yarn_correction_range(whole(d), base, trained_len, beta_fast, beta_slow);
    return js_object({{"low", range.low}, {"high", range.high}});
  });
}

val yarn_attention_factor_js(double scale) {
  return guarded([&] { return yarn_attention_factor(scale); });
}

val dynamic_ntk_base_js(double base, double scale, double d, double seq_len, double trained_len) {
  return guarded([&] { return dynamic_ntk_base(base, scale, whole(d), seq_len, trained_len); });
}

val pair_wavelengths_js(val inv_freq) {
  return guarded([&] { return to_float64_array(pair_wavelengths(vector_from_js("invFreq", inv_freq))); });
}

val extension_inverse_frequencies_js(double d, double base, double trained_len, double new_len,
                                     double beta_fast, double beta_slow) {
  return guarded([&] {
    return matrix_to_js(
        extension_inverse_frequencies(whole(d), base, trained_len, new_len, beta_fast, beta_slow));
  });
}

val proportional_rope_frequencies_js(double head_dim, double base, double partial_rotary_factor,
                                     double factor) {
  return guarded([&] {
    return to_float64_array(
        proportional_rope_frequencies(whole(head_dim), base, partial_rotary_factor, factor));
  });
}

val nope_query_temperature_js(double position, double floor_scale, double attn_scale) {
  return guarded([&] { return nope_query_temperature(position, floor_scale, attn_scale); });
}

}  // namespace

POSITIONAL_TOPIC(rope_scaling) {
  topic.function("interpolatePositions", &interpolate_positions_js,
                 "positions × trainedLen / newLen (position interpolation); positions ≤ 2^24",
                 {vector("positions"), number("trainedLen"), number("newLen")}, "[[0, 100], 4096, 32768]");
  topic.function("ntkScaledBase", &ntk_scaled_base_js, "the NTK-aware base, base · scale^(d/(d−2))",
                 {number("base"), number("scale"), kDimension}, "[10000, 8, 128]");
  topic.function("yarnInverseFrequencies", &yarn_inverse_frequencies_js, "YaRN's θ_i; d ≤ 2^24",
                 {kDimension, kBase, number("scale"), number("trainedLen"), kBetaFast, kBetaSlow},
                 "[8, 10000, 4, 4096]");
  topic.function("yarnExtrapolationWeights", &yarn_extrapolation_weights_js,
                 "YaRN's ramp: each pair's weight on its own speed; d ≤ 2^24",
                 {kDimension, kBase, number("trainedLen"), kBetaFast, kBetaSlow}, "[8, 10000, 4096]");
  topic.function("yarnCorrectionRange", &yarn_correction_range_js, "the ramp's pairs { low, high }",
                 {kDimension, kBase, number("trainedLen"), kBetaFast, kBetaSlow}, "[128, 10000, 4096]");
  topic.function("yarnAttentionFactor", &yarn_attention_factor_js, "YaRN's attention temperature, a number",
                 {number("scale")}, "[8]");
  topic.function("dynamicNtkBase", &dynamic_ntk_base_js, "dynamic NTK's base at seqLen, a number",
                 {number("base"), number("scale"), kDimension, number("seqLen"), number("trainedLen")},
                 "[10000, 8, 128, 8192, 4096]");
  topic.function("pairWavelengths", &pair_wavelengths_js, "2π / θ_i; invFreq ≤ 2^24", {vector("invFreq")},
                 "[[1, 0.1]]");
  topic.function("extensionInverseFrequencies", &extension_inverse_frequencies_js,
                 "(5 × d/2) θ for the five treatments (none, PI, NTK, YaRN, dynamic NTK); 5 × d/2 ≤ 2^24",
                 {kDimension, kBase, number("trainedLen"), number("newLen"), kBetaFast, kBetaSlow},
                 "[8, 10000, 4096, 32768]");
  topic.function(
      "proportionalRopeFrequencies", &proportional_rope_frequencies_js,
      "proportional RoPE's θ_i (Gemma 4): headDim/2 pairs, the rotating ones at "
      "base^(−2i/headDim) / factor, the rest 0; headDim ≤ 2^24",
      {integer("headDim", 2, kMaxOutputDoubles), kBase, number("partialRotaryFactor"), number("factor", 1.0)},
      "[16, 1000000, 0.25]");
  topic.function("nopeQueryTemperature", &nope_query_temperature_js,
                 "Llama 4's query scale on its layers without RoPE at a position (from 0): "
                 "1 + attnScale · ln(1 + ⌊(position + 1) / floorScale⌋), a number",
                 {number("position"), number("floorScale"), number("attnScale")}, "[1048575, 8192, 0.1]");
}

}  // namespace positional::js
