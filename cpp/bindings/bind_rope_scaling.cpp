// Embind adapters for RoPE scaling (positional/rope_scaling.hpp): position interpolation and the
// NTK-aware base, then dynamic NTK, YaRN and pair wavelengths. The context-extension curves cross as
// numbers only, through the scratch block (bind_scratch.cpp).
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/rope_scaling.hpp"

namespace positional::js {
namespace {

val range_to_js(const YarnCorrectionRange& range) {
  val out = val::object();
  out.set("low", range.low);
  out.set("high", range.high);
  return out;
}

}  // namespace

val interpolate_positions_js(val positions, val trained_len, val new_len) {
  return guarded([&] {
    return to_float64_array(interpolate_positions(vector_from_js("positions", positions),
                                                  number_arg("trainedLen", trained_len),
                                                  number_arg("newLen", new_len)));
  });
}

val ntk_scaled_base_js(val base, val scale, val d) {
  return guarded([&] {
    return ntk_scaled_base(number_arg("base", base), number_arg("scale", scale),
                           integer_arg("d", d, -kMaxOutputDoubles, kMaxOutputDoubles));
  });
}

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

}  // namespace positional::js
