// Embind adapter for the config.json reader (positional/model_config.hpp): readModelConfig(jsonText,
// promptLength) → a plain JavaScript object. The reader is a module of its own (engine-config), loaded
// when the model card mounts. Every array is copied into a JavaScript-owned Float64Array / Uint8Array;
// nothing returned needs .delete().
#include <string>

#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/model_config.hpp"

namespace positional::js {
namespace {

// Copies bytes into a new JavaScript-owned Uint8Array.
val to_uint8_array(const std::vector<std::uint8_t>& bytes) {
  return val(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
}

val integers_to_js(const std::vector<std::int64_t>& items) {
  return array_to_js(items, [](std::int64_t item) { return val(static_cast<double>(item)); });
}

// One runtime's reading of the config: { runtime, source, factor, attentionFactor, length, alpha, base,
// invFreq } (alpha and base 0 unless it reads dynamic NTK by alpha).
val runtime_reading_to_js(const RuntimeReading& reading) {
  return js_object({{"runtime", reading.runtime},
                    {"source", reading.source},
                    {"factor", reading.factor},
                    {"attentionFactor", reading.attention_factor},
                    {"length", static_cast<double>(reading.length)},
                    {"alpha", reading.alpha},
                    {"base", reading.base},
                    {"invFreq", to_float64_array(reading.inv_freq)}});
}

// One kind of layer: { layerType, positions, noneReason, ropeType, layerCount, layers, window, chunk, base,
// headDim, rotaryDim, invFreq, baseInvFreq, wavelengths, beyond, beyondCount, longestDistance, mropeAxes,
// queryTemperature, topK, heads, pairLayout, rotaryPart, compressRatio,
// rawWindow }, its arrays copied into JavaScript-owned typed arrays.
val layer_kind_to_js(const LayerKindReport& kind) {
  return js_object({{"layerType", kind.layer_type},
                    {"positions", kind.positions},
                    {"noneReason", kind.none_reason},
                    {"ropeType", kind.rope_type},
                    {"layerCount", static_cast<double>(kind.layer_count)},
                    {"layers", integers_to_js(kind.layers)},
                    {"window", static_cast<double>(kind.window)},
                    {"chunk", static_cast<double>(kind.chunk)},
                    {"base", kind.base},
                    {"headDim", static_cast<double>(kind.head_dim)},
                    {"rotaryDim", static_cast<double>(kind.rotary_dim)},
                    {"invFreq", to_float64_array(kind.inv_freq)},
                    {"baseInvFreq", to_float64_array(kind.base_inv_freq)},
                    {"wavelengths", to_float64_array(kind.wavelengths)},
                    {"beyond", to_uint8_array(kind.beyond)},
                    {"beyondCount", static_cast<double>(kind.beyond_count)},
                    {"longestDistance", static_cast<double>(kind.longest_distance)},
                    {"mropeAxes", to_uint8_array(kind.mrope_axes)},
                    {"queryTemperature", kind.query_temperature},
                    {"topK", static_cast<double>(kind.top_k)},
                    {"heads", static_cast<double>(kind.heads)},
                    {"pairLayout", kind.pair_layout},
                    {"rotaryPart", kind.rotary_part},
                    {"compressRatio", static_cast<double>(kind.compress_ratio)},
                    {"rawWindow", static_cast<double>(kind.raw_window)}});
}

// One field the reader did not understand: { field, value, effect } (effect: a code of NotUnderstood).
val not_understood_to_js(const NotUnderstood& item) {
  return js_object({{"field", item.field}, {"value", item.value}, {"effect", item.effect}});
}

val read_model_config_js(std::string json_text, double prompt_length) {
  return guarded([&] {
    const ModelPositionReport r = read_model_config(json_text, whole(prompt_length));
    const val rope_type =
        r.scheme == PositionScheme::Rope ? val(std::string(rope_type_name(r.rope_type))) : val::null();
    return js_object({{"scheme", std::string(scheme_name(r.scheme))},
                      {"ropeType", rope_type},
                      {"modelType", r.model_type},
                      {"trainedLength", static_cast<double>(r.trained_length)},
                      {"advertisedLength", static_cast<double>(r.advertised_length)},
                      {"stretch", r.stretch},
                      {"scalingFactor", r.scaling_factor},
                      {"promptLength", static_cast<double>(r.prompt_length)},
                      {"promptBeyondTrained", r.prompt_beyond_trained},
                      {"promptBeyondAdvertised", r.prompt_beyond_advertised},
                      {"headDim", static_cast<double>(r.head_dim)},
                      {"rotaryDim", static_cast<double>(r.rotary_dim)},
                      {"base", r.base},
                      {"dynamicBase", r.dynamic_base},
                      {"longropeLongFactor", r.longrope_long_factor},
                      {"attentionFactor", r.attention_factor},
                      {"queryScalingBeta", r.query_scaling_beta},
                      {"queryScalingLength", static_cast<double>(r.query_scaling_length)},
                      {"lowFreqFactor", r.low_freq_factor},
                      {"highFreqFactor", r.high_freq_factor},
                      {"invFreq", to_float64_array(r.inv_freq)},
                      {"baseInvFreq", to_float64_array(r.base_inv_freq)},
                      {"wavelengths", to_float64_array(r.wavelengths)},
                      {"baseWavelengths", to_float64_array(r.base_wavelengths)},
                      {"beyond", to_uint8_array(r.beyond)},
                      {"beyondCount", static_cast<double>(r.beyond_count)},
                      {"slidingWindow", static_cast<double>(r.sliding_window)},
                      {"mlaQkHeadDim", static_cast<double>(r.mla_qk_head_dim)},
                      {"headDimField", r.head_dim_field},
                      {"softmaxScaleFactor", r.softmax_scale_factor},
                      {"localBase", r.local_base},
                      {"localWindow", static_cast<double>(r.local_window)},
                      {"globalEvery", static_cast<double>(r.global_every)},
                      {"numLayers", static_cast<double>(r.num_layers)},
                      {"localInvFreq", to_float64_array(r.local_inv_freq)},
                      {"localWavelengths", to_float64_array(r.local_wavelengths)},
                      {"relativeBuckets", static_cast<double>(r.relative_buckets)},
                      {"relativeExactEncoder", static_cast<double>(r.relative_exact_encoder)},
                      {"relativeExactDecoder", static_cast<double>(r.relative_exact_decoder)},
                      {"relativeMaxDistance", static_cast<double>(r.relative_max_distance)},
                      {"learnedTableRows", static_cast<double>(r.learned_table_rows)},
                      {"learnedOffset", static_cast<double>(r.learned_offset)},
                      {"attentionLayers", integers_to_js(r.attention_layers)},
                      {"recurrentKind", r.recurrent_kind},
                      {"runtimeReadings", array_to_js(r.runtime_readings, runtime_reading_to_js)},
                      {"textField", r.text_field},
                      {"layerTypesField", r.layer_types_field},
                      {"mropeSection", integers_to_js(r.mrope_section)},
                      {"mropeInterleaved", r.mrope_interleaved},
                      {"layerKinds", array_to_js(r.layer_kinds, layer_kind_to_js)},
                      {"notUnderstood", array_to_js(r.not_understood, not_understood_to_js)},
                      {"notes", strings_to_js(r.notes)}});
  });
}

}  // namespace

POSITIONAL_TOPIC(model_config) {
  topic.function(
      "readModelConfig", &read_model_config_js,
      "a Hugging Face config.json read: scheme (learned, sinusoidal, rope, alibi, relative, none), lengths, "
      "stretch, every pair's frequency and wavelength, which pairs go beyond training; MLA's rotary width, "
      "local "
      "layers' base and window, T5's bucket reach, hybrids' attention layers, and each runtime's reading "
      "(transformers 4.4x–4.5x, 5, vLLM) where they disagree; the text model inside a multimodal wrapper "
      "(text_config …); each kind of layer with its positions (RoPE, proportional, M-RoPE sections, none), "
      "sparse attention's top-k and its indexer's RoPE, "
      "window or chunk and per-pair frequencies; what it did not understand (an unknown model_type, "
      "rope_type, "
      "layer type or scaling field), read around rather than refused; the reader refuses over 1 MiB of text",
      {text("jsonText", kMaxConfigTextBytes), integer("promptLength", 1, kMaxConfigPositions)},
      R"(["{\"model_type\": \"gpt2\", \"n_positions\": 1024, \"n_embd\": 768, \"n_head\": 12}", 100])");
  topic.limit("maxPromptLength", kMaxConfigPositions);
}

}  // namespace positional::js
