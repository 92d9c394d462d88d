// The Embind adapters of the engine-core module, declared here so that engine_core_exports.cpp can
// bind them all in one place; each is defined in the binding file of its engine module, named below.
//
// Every adapter takes its arguments as JavaScript values, in the order of the facade's `signatures`
// (engine-facade.mjs has checked them and filled in the defaults), and returns its result as a
// JavaScript value, or an Error object in its place (guarded(), js_interop.hpp) that the facade
// rethrows. Results are copies owned by JavaScript, except those of bind_views.cpp and the scratch
// block of bind_scratch.cpp.
#pragma once

#include <emscripten/val.h>

#include <string>

namespace positional::js {

using emscripten::val;

// bind_sinusoidal.cpp
val sinusoidal_encoding_js(val n, val d, val base);
val sinusoidal_encoding_concatenated_js(val n, val d, val base);
val sinusoidal_dot_js(val a, val b, val d, val base);
val sinusoidal_encoding_rows_js(val positions, val d, val base);

// bind_rope.cpp
val rope_frequencies_js(val d, val base);
val apply_rope_js(val x, val position, val base);
val apply_rope_sequence_js(val x, val positions, val base);
val rope_scores_over_distance_js(val q, val k, val starts, val max_distance, val base);
val rope_pair_angles_js(val positions, val pairs, val d, val base, val wrapped);
val rope_clock_js(val q, val k, val m, val n, val theta);

// bind_attention.cpp
val attention_js(val q, val k, val v, val causal);
val cosine_similarity_js(val a, val b);
val half_permutation_js(val d);
val max_permuted_difference_js(val a, val b, val perm);
val reversal_permutation_js(val n);

// bind_rope_scaling.cpp
val interpolate_positions_js(val positions, val trained_len, val new_len);
val ntk_scaled_base_js(val base, val scale, val d);
val yarn_inverse_frequencies_js(val d, val base, val scale, val trained_len, val beta_fast, val beta_slow);
val yarn_extrapolation_weights_js(val d, val base, val trained_len, val beta_fast, val beta_slow);
val yarn_correction_range_js(val d, val base, val trained_len, val beta_fast, val beta_slow);
val yarn_attention_factor_js(val scale);
val dynamic_ntk_base_js(val base, val scale, val d, val seq_len, val trained_len);
val pair_wavelengths_js(val inv_freq);
val extension_inverse_frequencies_js(val d, val base, val trained_len, val new_len, val beta_fast,
                                     val beta_slow);

// bind_scratch.cpp: the scratch block the curves cross through (their kernels are plain WebAssembly
// exports, declared there)
val scratch_block_js(double size);
std::string scratch_error_js();

// bind_alibi.cpp
val alibi_slopes_js(val n_heads);
val alibi_bias_js(val slope, val length);
val rope_decay_curve_js(val d, val base, val max_distance);
val rope_ones_scores_js(val d, val base, val max_distance);

// bind_conventions.cpp
val apply_rope_half_js(val x, val position, val base);
val compare_rope_conventions_js(val q, val k, val start, val max_distance, val base);

// bind_precision.cpp
val float32_angle_errors_js(val positions, val pairs, val d, val base);

// bind_demo_layer.cpp
val word_vector_js(val word, val d);
val encode_sentence_js(val sentence, val scheme, val causal);
val demo_attention_js(val sentence, val scheme, val causal);
val order_similarity_js(val a, val b, val scheme, val causal);
val order_similarities_js(val a, val b);

// bind_numpy_random.cpp
val md5_hex_js(val text);
val seed_sequence_state_js(val seed);
val pcg64_raw_js(val seed, val count);
val standard_normal_js(val seed, val count, val sample);

// bind_length_lab.cpp
val train_length_lab_js(val options, val on_progress);

// bind_limits.cpp
val heap_bytes_js();

// bind_views.cpp: results held in the module's memory (that file says for how long)
val view_sinusoidal_encoding_js(val n, val d, val base);
val view_apply_rope_sequence_js(val x, val positions, val base);
val view_attention_js(val q, val k, val v, val causal);
val view_release_js();

}  // namespace positional::js
