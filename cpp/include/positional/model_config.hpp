// Reads the position fields of a Hugging Face config.json and reports them: which position
// scheme the model uses (learned table, sinusoidal, RoPE with its scaling and local layers,
// ALiBi, T5's relative buckets, or none), how long it was trained, how far its config stretches
// that, and (for RoPE) each rotary pair's frequency after the configured scaling.
//
// This file only reads: every recipe it reports comes from rope_scaling.hpp (rope_frequencies and
// the recipes over it), the module the charts use too. Where runtimes read one config
// differently (YaRN's factor, the length vLLM serves), the report lists each runtime's reading.
// The runtimes compute in float32; these numbers are the float64 formula, so a runtime's
// tensors agree with them to about 1e-7 relative.
//
// "Beyond training", the rule used by analyse_model_config():
//   Let θ_i be pair i's unscaled inverse frequency, rope_theta^(−2i/rotary_dim), and θ'_i the
//   frequency after scaling (what the model runs with). Training on L = trained_length
//   tokens showed pair i every relative angle from 0 to (L − 1)·θ_i radians. A prompt of
//   n tokens asks for angles up to (n − 1)·θ'_i. Pair i is "beyond" when
//     (n − 1)·θ'_i > (L − 1)·θ_i   (the prompt needs a larger angle than training reached)
//   and
//     (L − 1)·θ_i < 2π             (training never completed a full turn of that pair,
//                                   i.e. its wavelength 2π/θ_i exceeds L − 1),
//   because a pair that turned through a full circle in training has already seen every
//   angle it can take. Distances, not positions, are used since attention scores in RoPE
//   depend on the distance m − n, whose largest value in n tokens is n − 1. Where no layer turning
//   these frequencies attends over the whole prompt (a window or a chunk in every such layer, as
//   Mistral's 4,096-token window or Llama 4's 8,192-token chunks beside layers without positions),
//   the longest distance such a layer spans stands for n − 1.
//   "Trained length" is original_max_position_embeddings where the config gives one, else
//   max_position_embeddings: it is what the config says, not what a later long-context
//   fine-tune (as for Llama 3.1) may have shown the scaled frequencies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "positional/types.hpp"
#include "positional/validate.hpp"

namespace positional {

// Limits the reader enforces before and while parsing; each is named in its error message.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;        // 1 MiB of JSON text
inline constexpr int kMaxConfigDepth = 64;                                  // nesting of [ and {
inline constexpr std::int64_t kMaxConfigPositions = std::int64_t{1} << 30;  // any length field
inline constexpr std::int64_t kMaxHeadDim = 4096;
inline constexpr std::int64_t kMaxAttentionHeads = 4096;
inline constexpr std::int64_t kMaxHiddenSize = std::int64_t{1} << 20;
inline constexpr double kMaxRopeTheta = 1e12;
inline constexpr double kMaxScalingValue = 1e6;  // factor, low/high_freq_factor, betas, list entries

// How a model tells its tokens' positions apart.
enum class PositionScheme {
  LearnedTable,     // one trained vector per position (GPT-2, BERT): no row past the table's end
  Sinusoidal,       // fixed sin/cos table (Marian, Pegasus, M2M-100 …)
  Rope,             // rotary pairs (Llama, Mistral, Qwen, Phi-3 …)
  Alibi,            // a linear distance penalty on the scores (BLOOM, MPT, Falcon with alibi)
  RelativeBuckets,  // a learned bias per bucket of distances (T5 and its descendants)
  None,             // no position encoding (Mamba and other state-space models; Jamba; Granite 4.0-H)
  Unknown,          // no field or model_type names a scheme the reader knows: only the lengths are read
};

// The RoPE scaling recipe named by rope_scaling.rope_type (or .type, or rope_parameters). "mrope"
// (Qwen2-VL's rope_scaling.type) reads as Default, as transformers maps it, with its mrope_section.
enum class RopeType { Default, Linear, Dynamic, Yarn, Longrope, Llama3, Proportional };

// The layer types the reader knows (transformers' layer_types values), each with what positions it has.
// "attention" and "mamba" are Granite 4.0-H's (GraniteMoeHybridConfig): attention layers whose positions
// position_embedding_type names, and Mamba-2 layers, whose recurrence orders the tokens. A layer type
// outside this list is read as "not understood" (see NotUnderstood), never refused.
// "compressed_sparse_attention" and "heavily_compressed_attention" are DeepseekV4Config's (DeepSeek-V4): a
// window of raw tokens beside one compressed entry per compress rate of tokens (see
// ModelConfig::compress_rate_csa). "deepseek_sparse_attention" is GlmMoeDsaConfig's (GLM-5): full attention
// over the tokens an indexer picks. The report adds one kind of its own, "indexer", for the indexer of
// DeepSeek Sparse Attention (see ModelConfig::index_topk); it is part of every sparse-attention layer, not a
// layer of its own.
inline constexpr const char* kLayerTypeNames[] = {"full_attention",
                                                  "sliding_attention",
                                                  "chunked_attention",
                                                  "linear_attention",
                                                  "attention",
                                                  "mamba",
                                                  "deepseek_sparse_attention",
                                                  "compressed_sparse_attention",
                                                  "heavily_compressed_attention"};

// One thing in the config the reader did not understand and worked around instead of refusing the
// config: the field's path, its raw value, and what
// the reader did, as a stable code (values as they read in the config: strings quoted, shortened):
//   "no_scheme"         model_type names no known family and no field names a scheme: lengths only
//   "embedding_type"    position_embedding_type names a scheme the reader does not know: lengths only
//   "rope_type"         the scaling recipe is unknown: the frequencies are the unscaled ones
//   "recipe_incomplete" the recipe lacks a field it needs (value "missing"): the frequencies are unscaled
//   "scaling_field"     a field of the scaling block the reader does not know: ignored
//   "layer_type"        a layer type the reader does not know: those layers are shown as not understood
//   "query_scale_incomplete" llama_4_scaling_beta without original_max_position_embeddings: not applied
//   "position_field"    a field named for rotary positions that the reader does not read: ignored
struct NotUnderstood {
  std::string field;
  std::string value;
  std::string effect;
};

// Stable lowercase names ("learned", "sinusoidal", "rope", "alibi", "relative", "none";
// "default", "linear", …).
const char* scheme_name(PositionScheme scheme);
const char* rope_type_name(RopeType type);

// The scaling block, whichever spelling it came in. Absent optional numbers are 0 or empty.
struct RopeScaling {
  RopeType type = RopeType::Default;
  std::string field;    // "rope_scaling", "rope_parameters", or "" when absent
  double factor = 1.0;  // as written (1 when absent)
  bool has_factor = false;
  std::int64_t original_max_position_embeddings = 0;  // from the block, 0 when absent
  double low_freq_factor = 0.0;                       // llama3
  double high_freq_factor = 0.0;                      // llama3
  double beta_fast = 32.0;                            // yarn (transformers' default)
  double beta_slow = 1.0;                             // yarn (transformers' default)
  double attention_factor = 0.0;                      // yarn / longrope; 0 = derive it from the factor
  double mscale = 0.0;                                // yarn (DeepSeek style); 0 = absent
  double mscale_all_dim = 0.0;                        // yarn (DeepSeek style); 0 = absent
  bool truncate = true;                               // yarn: round the correction range outwards
  double alpha = 0.0;  // dynamic, as vLLM and SGLang read it: a fixed base · alpha^(d/(d−2)); 0 = absent
  std::vector<double> short_factor;  // longrope: one divisor per pair for short prompts
  std::vector<double> long_factor;   // longrope: one divisor per pair past the original length
};

// The position-relevant fields of one config.json, validated. When the top level is a multimodal
// wrapper (Llama 4, Gemma 3 and 4, Qwen3-VL, LLaVA …), these are the text model's, read from
// text_config, language_config or llm_config.
struct ModelConfig {
  std::string model_type;  // "" when the config has none
  std::string text_field;  // "text_config", "language_config", "llm_config", or "" (read at the top level)
  PositionScheme scheme = PositionScheme::LearnedTable;
  std::int64_t max_position_embeddings = 0;           // 0 only for ALiBi configs that state no length
  std::string max_position_field;                     // which key gave it (n_positions for GPT-2 …)
  std::int64_t original_max_position_embeddings = 0;  // top-level (Phi-3 style), 0 when absent
  std::int64_t hidden_size = 0;                       // 0 when absent (allowed unless RoPE needs it)
  std::int64_t num_attention_heads = 0;
  std::int64_t head_dim = 0;  // given, or hidden_size / num_attention_heads (MLA: qk_nope + qk_rope)
  double partial_rotary_factor = 1.0;
  std::int64_t rotary_dim = 0;  // RoPE only: int(head_dim · partial_rotary_factor)
  double rope_theta = 0.0;      // RoPE only (10000 when the config omits it)
  RopeScaling scaling;
  std::int64_t sliding_window = 0;    // 0 when absent or null
  std::int64_t qk_rope_head_dim = 0;  // MLA (DeepSeek-V2/V3, Kimi K2): the rotary part of each head
  std::int64_t qk_nope_head_dim = 0;  // MLA: the part of each head without positions
  std::string head_dim_field;  // where head_dim came from: "head_dim", "hidden_size / num_attention_heads", …
  std::int64_t num_layers = 0;                 // num_hidden_layers (n_layer, num_layers), 0 when absent
  double local_rope_theta = 0.0;               // local layers' base (Gemma 2/3, ModernBERT); 0 = none
  std::string local_theta_field;               // which key gave it
  std::int64_t local_window = 0;               // tokens a local layer sees (sliding_window / local_attention)
  std::int64_t global_every = 0;               // one global layer in every N (0 = unknown)
  std::int64_t relative_buckets = 0;           // T5: relative_attention_num_buckets
  std::int64_t relative_max_distance = 0;      // T5: relative_attention_max_distance
  std::int64_t learned_offset = 0;             // OPT: the table has max_position_embeddings + 2 rows
  std::vector<std::int64_t> attention_layers;  // hybrids (Jamba): the attention layers' indices
  std::string recurrent_kind;  // hybrids: what the other layers are, "kda" (Kimi Linear) or "" (Mamba)
  // Local layers' own recipe (transformers 5's rope_parameters.sliding_attention, Gemma 4's head_dim
  // beside global_head_dim): 0 / Default / 1 when they follow the global layers' head width.
  std::int64_t local_head_dim = 0;
  RopeType local_rope_type = RopeType::Default;
  double local_factor = 1.0;
  double local_partial_rotary_factor = 1.0;
  // Multimodal RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): pairs per axis (time, height, width); empty = none.
  std::vector<std::int64_t> mrope_section;
  bool mrope_interleaved = false;  // Qwen3-VL: the axes cycle pair by pair instead of in blocks
  // Each layer's type, one of kLayerTypeNames, in layer order; empty when every layer is alike.
  std::vector<std::string> layer_types;
  std::string layer_types_field;          // where they came from: "layer_types", "no_rope_layers", …
  bool full_attention_nope = false;       // Llama 4 (iRoPE): the full-attention layers have no RoPE
  bool mla_nope = false;                  // Kimi Linear (mla_use_nope): its MLA layers turn no RoPE at all
  std::int64_t attention_chunk_size = 0;  // Llama 4: its RoPE layers attend within chunks of this many tokens
  bool attn_temperature_tuning = false;   // Llama 4: NoPE layers scale their queries with position
  double floor_scale = 0.0;
  double attn_scale = 0.0;
  // Ministral 3 / Mistral Large 3 (rope_parameters.llama_4_scaling_beta): every RoPE layer multiplies its
  // queries by 1 + β·ln(1 + ⌊position / original⌋), original being the block's
  // original_max_position_embeddings. 0 / 0 when absent.
  double query_scaling_beta = 0.0;
  std::int64_t query_scaling_length = 0;
  // Layers without RoPE beside layers with it, by layer index (SmolLM3's no_rope_layers, where 0 marks
  // a NoPE layer): empty when every layer's positions follow its type.
  std::vector<std::uint8_t> nope_layers;
  // DeepSeek Sparse Attention (DeepSeek-V3.2, GLM-5): in every layer a small attention of its own, the
  // indexer (index_n_heads heads of index_head_dim), scores every earlier token, and the layer's main
  // attention sees only the index_topk it ranks highest. The indexer turns the first rotary_dim
  // dimensions of its heads with the main attention's frequencies (DeepSeek's inference/model.py: the
  // same freqs_cis; transformers' GlmMoeDsaIndexer: the same cos and sin), laid out split-half unless
  // indexer_rope_interleave says otherwise. 0 / false when the config has no indexer.
  // DeepSeek-V4 (DeepseekV4Config): each compressed layer attends within the sliding_window of raw tokens
  // and, beyond it, to one compressed entry per compress rate of tokens (4 for compressed_sparse_attention,
  // whose indexer keeps index_topk of them; 128 for heavily_compressed_attention), an entry turned at the
  // position of its block's first token. Those layers turn compress_rope_theta with the config's scaling
  // block; the sliding layers turn rope_theta unscaled, read here as local layers (local_rope_theta). 0 / 0
  // otherwise.
  std::int64_t compress_rate_csa = 0;
  std::int64_t compress_rate_hca = 0;
  std::int64_t index_topk = 0;
  std::int64_t index_head_dim = 0;
  std::int64_t index_n_heads = 0;
  bool indexer_rope_interleave = false;
  std::vector<NotUnderstood> not_understood;  // what the reader could not read, and what it did instead
  std::vector<std::string> notes;             // what the reader assumed or chose, in words
};

// Parses and validates config.json text. Throws InputError naming the field path and the
// rule, e.g. "rope_scaling.factor must be a finite number > 0, got -2", for: text over
// kMaxConfigBytes, a UTF-8 byte-order mark, nesting deeper than kMaxConfigDepth, text that is
// not JSON ("not JSON: parse error at line …"), a top level that is not an object, duplicate
// keys, a missing or ill-typed length, out-of-range or non-finite numbers, longrope lists of the
// wrong length, an odd rotary dimension, a text_config that is not an object, a layer_types entry
// that is not a string, a per-layer-type rope_parameters block that is not an object, and an
// mrope_section whose sum is not the pair count. Inside a wrapper the message starts
// "in text_config: " (or the field the text model came from). What is well formed but unknown (a
// model_type, a rope_type, a layer type, a scaling field) is not refused: it is listed in
// not_understood and the rest is read.
ModelConfig parse_model_config(std::string_view json_text);

// Pair i's inverse frequency θ'_i (radians per position) after the config's RoPE scaling,
// for a sequence of seq_len tokens (only dynamic and longrope depend on it; others ignore
// it). Size rotary_dim / 2. Throws InputError unless cfg.scheme is Rope and
// 1 ≤ seq_len ≤ kMaxConfigPositions.
Vector scaled_inverse_frequencies(const ModelConfig& cfg, std::int64_t seq_len);

// The unscaled θ_i = rope_theta^(−2i/rotary_dim). Throws InputError unless RoPE.
Vector base_inverse_frequencies(const ModelConfig& cfg);

// The factor transformers multiplies cos/sin by (YaRN's mscale, LongRoPE's
// sqrt(1 + ln s / ln L)); 1 for the other types. seq_len matters for none of them today.
double rope_attention_factor(const ModelConfig& cfg);

// How one runtime reads a YaRN / linear / dynamic config, where runtimes disagree: the factor its
// frequencies use, the cos/sin factor, and the longest prompt it serves without being told.
struct RuntimeReading {
  std::string runtime;  // "transformers 5", "transformers 4.4x–4.5x", "vLLM"
  std::string source;   // the file and function it follows
  double factor = 1.0;  // the factor its frequencies use
  double attention_factor = 1.0;
  std::int64_t length = 0;  // the length it takes as the model's limit (0 when it states none)
  Vector inv_freq;          // its per-pair frequencies at the report's prompt length
  double alpha = 0.0;       // dynamic NTK by alpha (vLLM, SGLang): the alpha it reads; 0 otherwise
  double base = 0.0;        // with alpha: the base it uses for every prompt; 0 otherwise
};

// One kind of layer and the positions it has, at the report's prompt length.
struct LayerKindReport {
  std::string
      layer_type;         // one of kLayerTypeNames, the config's own name, or "all" when every layer is alike
  std::string positions;  // "rope", "proportional" (p-RoPE), "mrope", "none", or "unknown" (not understood)
  std::string none_reason;  // positions "none": "nope" (attention without positions), "linear_attention",
                            // or "recurrence" (Mamba layers)
  std::string rope_type;    // the recipe of its frequencies ("default", "linear", "yarn" …); "" for none
  std::int64_t layer_count = 0;
  std::vector<std::int64_t> layers;  // its layers' indices (empty when the config states no layer count)
  std::int64_t window = 0;           // sliding window in tokens; 0 = it attends over the whole prompt
  std::int64_t chunk = 0;            // chunked attention (Llama 4) in tokens; 0 = none
  double base = 0.0;
  std::int64_t head_dim = 0;
  std::int64_t rotary_dim = 0;  // dimensions that turn: 2 × the pairs with θ > 0
  Vector inv_freq;              // θ'_i per pair (proportional: head_dim/2 pairs, 0 past the turning ones)
  Vector base_inv_freq;         // θ_i before the config's scaling
  Vector wavelengths;           // 2π/θ'_i in tokens; +∞ for a pair that never turns
  std::vector<std::uint8_t> beyond;  // the "beyond training" rule over the distances this kind spans
  std::int64_t beyond_count = 0;
  std::int64_t longest_distance = 0;     // the longest distance its attention spans at the prompt length
  std::vector<std::uint8_t> mrope_axes;  // mrope only: per pair 0 time, 1 height, 2 width
  // The query scale at the prompt's last token: Llama 4's NoPE layers (attn_temperature_tuning), or every
  // RoPE layer under llama_4_scaling_beta (Ministral 3); 1 otherwise.
  double query_temperature = 1.0;
  // Sparse attention (DeepSeek-V3.2, GLM-5): an attention kind sees at most this many earlier tokens per
  // query, those its layer's indexer ranks highest, wherever they lie in the prompt; 0 = every token.
  std::int64_t top_k = 0;
  // The kind "indexer" (the indexer inside each sparse-attention layer): its heads and their pair layout,
  // "split-half" (dimension i with i + rotary_dim/2) or "interleaved" (2i with 2i + 1); 0 / "" otherwise.
  std::int64_t heads = 0;
  std::string pair_layout;
  // The indexer: where its turning dimensions sit in each head, "first" (DeepSeek-V3.2, GLM-5) or "last"
  // (DeepSeek-V4); "" otherwise.
  std::string rotary_part;
  // DeepSeek-V4's compressed layers: tokens per compressed entry, and the window of raw tokens beside the
  // entries (window stays 0: the entries reach back over the whole prompt); 0 otherwise.
  std::int64_t compress_ratio = 0;
  std::int64_t raw_window = 0;
};

// Everything the page shows about one config at one prompt length.
struct ModelPositionReport {
  PositionScheme scheme = PositionScheme::LearnedTable;
  RopeType rope_type = RopeType::Default;
  std::string model_type;
  std::int64_t trained_length = 0;     // original_max_position_embeddings, else max_…; 0 unknown
  std::int64_t advertised_length = 0;  // max_position_embeddings; 0 unknown (ALiBi)
  double stretch = 1.0;                // advertised / trained (1 when either is unknown)
  double scaling_factor = 1.0;         // the factor the scaling formula uses
  std::int64_t prompt_length = 0;
  bool prompt_beyond_trained = false;     // prompt_length > trained_length (known lengths only)
  bool prompt_beyond_advertised = false;  // prompt_length > advertised_length
  std::int64_t head_dim = 0;
  std::int64_t rotary_dim = 0;        // RoPE only
  double base = 0.0;                  // rope_theta, RoPE only
  double dynamic_base = 0.0;          // dynamic only: the enlarged base at prompt_length
  bool longrope_long_factor = false;  // longrope only: long_factor chosen for this prompt
  double attention_factor = 1.0;
  double query_scaling_beta = 0.0;        // llama_4_scaling_beta (0 = none)
  std::int64_t query_scaling_length = 0;  // the length its floor divides by
  double low_freq_factor = 0.0;           // llama3 only: the band's factors (equal: no blend band)
  double high_freq_factor = 0.0;          // llama3 only
  Vector inv_freq;                        // θ'_i, size rotary_dim / 2 (empty unless RoPE)
  Vector base_inv_freq;                   // θ_i
  Vector wavelengths;                     // 2π/θ'_i, in positions
  Vector base_wavelengths;                // 2π/θ_i
  std::vector<std::uint8_t> beyond;       // 1 where pair i is beyond training (rule above)
  std::int64_t beyond_count = 0;
  std::int64_t sliding_window = 0;
  // MLA: qk_nope_head_dim + qk_rope_head_dim, of which rotary_dim turn (0 otherwise).
  std::int64_t mla_qk_head_dim = 0;
  std::string head_dim_field;         // where head_dim came from (ModelConfig::head_dim_field)
  double softmax_scale_factor = 1.0;  // MLA YaRN: the 1/√d softmax scale times mscale(mscale_all_dim)²
  // Local layers (Gemma 2/3, ModernBERT): their base, window, per-pair frequencies, and the pattern.
  double local_base = 0.0;
  std::int64_t local_window = 0;
  std::int64_t global_every = 0;
  std::int64_t num_layers = 0;
  Vector local_inv_freq;
  Vector local_wavelengths;  // 2π / local θ_i
  // T5's buckets: how many per direction, the distances each has its own bucket, and the reach.
  std::int64_t relative_buckets = 0;
  std::int64_t relative_exact_encoder = 0;  // distances 0 … n−1 get one bucket each (encoder)
  std::int64_t relative_exact_decoder = 0;  // the same in the decoder (one-directional)
  std::int64_t relative_max_distance = 0;   // every distance ≥ this shares the last bucket
  std::int64_t learned_table_rows = 0;      // learned tables: rows, with OPT's offset of 2
  std::int64_t learned_offset = 0;
  std::vector<std::int64_t> attention_layers;  // hybrids: layers that attend (without positions)
  std::string recurrent_kind;  // hybrids: "kda" (Kimi Linear's linear attention) or "" (Mamba)
  std::vector<RuntimeReading> runtime_readings;  // empty unless the runtimes disagree
  std::string text_field;                        // where the text model was read ("" = top level)
  std::string layer_types_field;                 // where the layer types came from ("" = all alike)
  std::vector<std::int64_t> mrope_section;
  bool mrope_interleaved = false;
  std::vector<LayerKindReport> layer_kinds;  // RoPE configs: each distinct kind of layer, first seen first
  std::vector<NotUnderstood> not_understood;
  std::vector<std::string> notes;
};

// Analyses a parsed config for a prompt of prompt_length tokens.
// Throws InputError when prompt_length is outside 1 … kMaxConfigPositions.
ModelPositionReport analyse_model_config(const ModelConfig& cfg, std::int64_t prompt_length);

// parse_model_config then analyse_model_config.
ModelPositionReport read_model_config(std::string_view json_text, std::int64_t prompt_length);

}  // namespace positional
