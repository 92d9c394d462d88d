// The engine-core module's JavaScript API: every name it exports, bound to its adapter
// (engine_core_adapters.hpp), grouped by topic in the order of README's API table. readModelConfig
// is not here: the model-config reader is a module of its own, bound in bind_model_config.cpp.
#include <emscripten/bind.h>

#include "engine_core_adapters.hpp"
#include "positional/limits.hpp"  // kMaxOutputDoubles

namespace positional::js {

// Each function is bound once, with every argument: the defaults live in the JavaScript facade
// (engine-facade.mjs's `signatures`), which always passes them all.
EMSCRIPTEN_BINDINGS(positional_engine_core) {
  using emscripten::function;

  // sinusoidal codes
  function("sinusoidalEncoding", &sinusoidal_encoding_js);
  function("sinusoidalEncodingConcatenated", &sinusoidal_encoding_concatenated_js);
  function("sinusoidalEncodingRows", &sinusoidal_encoding_rows_js);
  function("sinusoidalDot", &sinusoidal_dot_js);

  // RoPE
  function("ropeFrequencies", &rope_frequencies_js);
  function("applyRope", &apply_rope_js);
  function("applyRopeSequence", &apply_rope_sequence_js);
  function("ropeScoresOverDistance", &rope_scores_over_distance_js);
  function("ropePairAngles", &rope_pair_angles_js);
  function("ropeDecayCurve", &rope_decay_curve_js);
  function("ropeOnesScores", &rope_ones_scores_js);
  function("ropeClock", &rope_clock_js);

  // attention
  function("attention", &attention_js);
  function("cosineSimilarity", &cosine_similarity_js);

  // context extension and RoPE scaling
  function("interpolatePositions", &interpolate_positions_js);
  function("ntkScaledBase", &ntk_scaled_base_js);
  function("yarnInverseFrequencies", &yarn_inverse_frequencies_js);
  function("yarnExtrapolationWeights", &yarn_extrapolation_weights_js);
  function("yarnCorrectionRange", &yarn_correction_range_js);
  function("yarnAttentionFactor", &yarn_attention_factor_js);
  function("dynamicNtkBase", &dynamic_ntk_base_js);
  function("pairWavelengths", &pair_wavelengths_js);
  function("extensionInverseFrequencies", &extension_inverse_frequencies_js);

  // ALiBi
  function("alibiSlopes", &alibi_slopes_js);
  function("alibiBias", &alibi_bias_js);

  // layouts and permutations
  function("applyRopeHalf", &apply_rope_half_js);
  function("halfPermutation", &half_permutation_js);
  function("maxPermutedDifference", &max_permuted_difference_js);
  function("reversalPermutation", &reversal_permutation_js);
  function("compareRopeConventions", &compare_rope_conventions_js);

  // precision
  function("float32AngleErrors", &float32_angle_errors_js);

  // the order-blindness demo and its numpy-compatible randomness
  function("wordVector", &word_vector_js);
  function("encodeSentence", &encode_sentence_js);
  function("demoAttention", &demo_attention_js);
  function("orderSimilarity", &order_similarity_js);
  function("orderSimilarities", &order_similarities_js);
  function("md5Hex", &md5_hex_js);
  function("seedSequenceState", &seed_sequence_state_js);
  function("pcg64Raw", &pcg64_raw_js);
  function("standardNormal", &standard_normal_js);

  // the length lab: train a small model, score it at 1×–8× its trained length
  function("trainLengthLab", &train_length_lab_js);

  // the heap, for leak tests, and the output cap the facade quotes
  function("heapBytes", &heap_bytes_js);
  emscripten::constant("maxOutputDoubles", static_cast<double>(kMaxOutputDoubles));

  // zero-copy views (engine.views in the facade)
  function("viewSinusoidalEncoding", &view_sinusoidal_encoding_js);
  function("viewApplyRopeSequence", &view_apply_rope_sequence_js);
  function("viewAttention", &view_attention_js);
  function("viewRelease", &view_release_js);

  // the scratch block the curves cross through (their kernels are plain exports: bind_scratch.cpp)
  function("scratchBlock", &scratch_block_js);
  function("scratchError", &scratch_error_js);
}

}  // namespace positional::js
