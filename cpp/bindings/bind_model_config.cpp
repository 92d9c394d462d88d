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
  val array = val::array();
  for (const std::int64_t item : items) array.call<void>("push", val(static_cast<double>(item)));
  return array;
}

// One runtime's reading of the config: { runtime, source, factor, attentionFactor, length, alpha, base,
// invFreq } (alpha and base 0 unless it reads dynamic NTK by alpha).
val runtime_readings_to_js(const std::vector<RuntimeReading>& readings) {
  val array = val::array();
  for (const RuntimeReading& reading : readings) {
    val item = val::object();
    item.set("runtime", reading.runtime);
    item.set("source", reading.source);
    item.set("factor", reading.factor);
    item.set("attentionFactor", reading.attention_factor);
    item.set("length", static_cast<double>(reading.length));
    item.set("alpha", reading.alpha);
    item.set("base", reading.base);
    item.set("invFreq", to_float64_array(reading.inv_freq));
    array.call<void>("push", item);
  }
  return array;
}

// One kind of layer: { layerType, positions, noneReason, ropeType, layerCount, layers, window, chunk, base,
// headDim, rotaryDim, invFreq, baseInvFreq, wavelengths, beyond, beyondCount, longestDistance, mropeAxes,
// queryTemperature }, its arrays copied into JavaScript-owned typed arrays.
val layer_kinds_to_js(const std::vector<LayerKindReport>& kinds) {
  val array = val::array();
  for (const LayerKindReport& kind : kinds) {
    val item = val::object();
    item.set("layerType", kind.layer_type);
    item.set("positions", kind.positions);
    item.set("noneReason", kind.none_reason);
    item.set("ropeType", kind.rope_type);
    item.set("layerCount", static_cast<double>(kind.layer_count));
    item.set("layers", integers_to_js(kind.layers));
    item.set("window", static_cast<double>(kind.window));
    item.set("chunk", static_cast<double>(kind.chunk));
    item.set("base", kind.base);
    item.set("headDim", static_cast<double>(kind.head_dim));
    item.set("rotaryDim", static_cast<double>(kind.rotary_dim));
    item.set("invFreq", to_float64_array(kind.inv_freq));
    item.set("baseInvFreq", to_float64_array(kind.base_inv_freq));
    item.set("wavelengths", to_float64_array(kind.wavelengths));
    item.set("beyond", to_uint8_array(kind.beyond));
    item.set("beyondCount", static_cast<double>(kind.beyond_count));
    item.set("longestDistance", static_cast<double>(kind.longest_distance));
    item.set("mropeAxes", to_uint8_array(kind.mrope_axes));
    item.set("queryTemperature", kind.query_temperature);
    array.call<void>("push", item);
  }
  return array;
}

val strings_to_js(const std::vector<std::string>& items) {
  val array = val::array();
  for (const std::string& item : items) array.call<void>("push", val(item));
  return array;
}

val read_model_config_js(std::string json_text, double prompt_length) {
  return guarded([&] {
    const ModelPositionReport r = read_model_config(json_text, whole(prompt_length));

    val out = val::object();
    out.set("scheme", std::string(scheme_name(r.scheme)));
    out.set("ropeType",
            r.scheme == PositionScheme::Rope ? val(std::string(rope_type_name(r.rope_type))) : val::null());
    out.set("modelType", r.model_type);
    out.set("trainedLength", static_cast<double>(r.trained_length));
    out.set("advertisedLength", static_cast<double>(r.advertised_length));
    out.set("stretch", r.stretch);
    out.set("scalingFactor", r.scaling_factor);
    out.set("promptLength", static_cast<double>(r.prompt_length));
    out.set("promptBeyondTrained", r.prompt_beyond_trained);
    out.set("promptBeyondAdvertised", r.prompt_beyond_advertised);
    out.set("headDim", static_cast<double>(r.head_dim));
    out.set("rotaryDim", static_cast<double>(r.rotary_dim));
    out.set("base", r.base);
    out.set("dynamicBase", r.dynamic_base);
    out.set("longropeLongFactor", r.longrope_long_factor);
    out.set("attentionFactor", r.attention_factor);
    out.set("invFreq", to_float64_array(r.inv_freq));
    out.set("baseInvFreq", to_float64_array(r.base_inv_freq));
    out.set("wavelengths", to_float64_array(r.wavelengths));
    out.set("baseWavelengths", to_float64_array(r.base_wavelengths));
    out.set("beyond", to_uint8_array(r.beyond));
    out.set("beyondCount", static_cast<double>(r.beyond_count));
    out.set("slidingWindow", static_cast<double>(r.sliding_window));
    out.set("mlaQkHeadDim", static_cast<double>(r.mla_qk_head_dim));
    out.set("softmaxScaleFactor", r.softmax_scale_factor);
    out.set("localBase", r.local_base);
    out.set("localWindow", static_cast<double>(r.local_window));
    out.set("globalEvery", static_cast<double>(r.global_every));
    out.set("numLayers", static_cast<double>(r.num_layers));
    out.set("localInvFreq", to_float64_array(r.local_inv_freq));
    out.set("localWavelengths", to_float64_array(r.local_wavelengths));
    out.set("relativeBuckets", static_cast<double>(r.relative_buckets));
    out.set("relativeExactEncoder", static_cast<double>(r.relative_exact_encoder));
    out.set("relativeExactDecoder", static_cast<double>(r.relative_exact_decoder));
    out.set("relativeMaxDistance", static_cast<double>(r.relative_max_distance));
    out.set("learnedTableRows", static_cast<double>(r.learned_table_rows));
    out.set("learnedOffset", static_cast<double>(r.learned_offset));
    out.set("attentionLayers", integers_to_js(r.attention_layers));
    out.set("runtimeReadings", runtime_readings_to_js(r.runtime_readings));
    out.set("textField", r.text_field);
    out.set("layerTypesField", r.layer_types_field);
    out.set("mropeSection", integers_to_js(r.mrope_section));
    out.set("mropeInterleaved", r.mrope_interleaved);
    out.set("layerKinds", layer_kinds_to_js(r.layer_kinds));
    out.set("notes", strings_to_js(r.notes));
    return out;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(positional_model_config) {
  using namespace param;
  const Topic topic("model_config");
  topic.function(
      "readModelConfig", &read_model_config_js,
      "a Hugging Face config.json read: scheme (learned, sinusoidal, rope, alibi, relative, none), lengths, "
      "stretch, every pair's frequency and wavelength, which pairs go beyond training; MLA's rotary width, "
      "local "
      "layers' base and window, T5's bucket reach, hybrids' attention layers, and each runtime's reading "
      "(transformers 4.4x–4.5x, 5, vLLM) where they disagree; the text model inside a multimodal wrapper "
      "(text_config …); each kind of layer with its positions (RoPE, proportional, M-RoPE sections, none), "
      "window or chunk and per-pair frequencies; the reader refuses over 1 MiB of text",
      {text("jsonText", kMaxConfigTextBytes), integer("promptLength", 1, kMaxConfigPositions)},
      R"(["{\"model_type\": \"gpt2\", \"n_positions\": 1024, \"n_embd\": 768, \"n_head\": 12}", 100])");
  topic.limit("maxPromptLength", kMaxConfigPositions);
}

}  // namespace positional::js
