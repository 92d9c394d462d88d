// Reads the position fields of a Hugging Face config.json and analyses them: which
// position scheme the model uses, how long it was trained, how far its config stretches
// that, and (for RoPE) each rotary pair's frequency after the configured scaling.
//
// The scaling formulas follow transformers' modeling_rope_utils.py (default, linear,
// dynamic NTK, YaRN, LongRoPE, Llama 3), computed in double precision; transformers itself
// computes them in float32, so its tensors agree with these numbers to about 1e-7 relative.
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
//   depend on the distance m − n, whose largest value in n tokens is n − 1.
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
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;  // 1 MiB of JSON text
inline constexpr int kMaxConfigDepth = 64;                             // nesting of [ and {
inline constexpr std::int64_t kMaxConfigPositions = std::int64_t{1} << 30;  // any length field
inline constexpr std::int64_t kMaxHeadDim = 4096;
inline constexpr std::int64_t kMaxAttentionHeads = 4096;
inline constexpr std::int64_t kMaxHiddenSize = std::int64_t{1} << 20;
inline constexpr double kMaxRopeTheta = 1e12;
inline constexpr double kMaxScalingValue = 1e6;  // factor, low/high_freq_factor, betas, list entries

// How a model tells its tokens' positions apart.
enum class PositionScheme {
  LearnedTable,  // one trained vector per position (GPT-2, BERT): no row past the table's end
  Sinusoidal,    // fixed sin/cos table (Marian, Pegasus, M2M-100 …)
  Rope,          // rotary pairs (Llama, Mistral, Qwen, Phi-3 …)
  Alibi,         // a linear distance penalty on the scores (BLOOM, MPT, Falcon with alibi)
};

// The RoPE scaling recipe named by rope_scaling.rope_type (or .type, or rope_parameters).
enum class RopeType { Default, Linear, Dynamic, Yarn, Longrope, Llama3 };

// Stable lowercase names ("learned", "sinusoidal", "rope", "alibi"; "default", "linear", …).
const char* scheme_name(PositionScheme scheme);
const char* rope_type_name(RopeType type);

// The scaling block, whichever spelling it came in. Absent optional numbers are 0 or empty.
struct RopeScaling {
  RopeType type = RopeType::Default;
  std::string field;                 // "rope_scaling", "rope_parameters", or "" when absent
  double factor = 1.0;               // as written (1 when absent)
  bool has_factor = false;
  std::int64_t original_max_position_embeddings = 0;  // from the block, 0 when absent
  double low_freq_factor = 0.0;      // llama3
  double high_freq_factor = 0.0;     // llama3
  double beta_fast = 32.0;           // yarn (transformers' default)
  double beta_slow = 1.0;            // yarn (transformers' default)
  double attention_factor = 0.0;     // yarn / longrope; 0 = derive it from the factor
  double mscale = 0.0;               // yarn (DeepSeek style); 0 = absent
  double mscale_all_dim = 0.0;       // yarn (DeepSeek style); 0 = absent
  bool truncate = true;              // yarn: round the correction range outwards
  std::vector<double> short_factor;  // longrope: one divisor per pair for short prompts
  std::vector<double> long_factor;   // longrope: one divisor per pair past the original length
};

// The position-relevant fields of one config.json, validated.
struct ModelConfig {
  std::string model_type;                    // "" when the config has none
  PositionScheme scheme = PositionScheme::LearnedTable;
  std::int64_t max_position_embeddings = 0;  // 0 only for ALiBi configs that state no length
  std::string max_position_field;            // which key gave it (n_positions for GPT-2 …)
  std::int64_t original_max_position_embeddings = 0;  // top-level (Phi-3 style), 0 when absent
  std::int64_t hidden_size = 0;              // 0 when absent (allowed unless RoPE needs it)
  std::int64_t num_attention_heads = 0;
  std::int64_t head_dim = 0;                 // given, or hidden_size / num_attention_heads
  double partial_rotary_factor = 1.0;
  std::int64_t rotary_dim = 0;               // RoPE only: int(head_dim · partial_rotary_factor)
  double rope_theta = 0.0;                   // RoPE only (10000 when the config omits it)
  RopeScaling scaling;
  std::int64_t sliding_window = 0;           // 0 when absent or null
  std::vector<std::string> notes;            // what the reader assumed or chose, in words
};

// Parses and validates config.json text. Throws InputError naming the field path and the
// rule, e.g. "rope_scaling.factor must be a finite number > 0, got -2", for: text over
// kMaxConfigBytes, a UTF-8 byte-order mark, nesting deeper than kMaxConfigDepth, text that is
// not JSON ("not JSON: parse error at line …"), a top level that is not an object, duplicate
// keys, a missing or ill-typed length, out-of-range or non-finite numbers, an unknown
// rope_type, longrope lists of the wrong length, and an odd rotary dimension.
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
  std::int64_t rotary_dim = 0;         // RoPE only
  double base = 0.0;                   // rope_theta, RoPE only
  double dynamic_base = 0.0;           // dynamic only: the enlarged base at prompt_length
  bool longrope_long_factor = false;   // longrope only: long_factor chosen for this prompt
  double attention_factor = 1.0;
  Vector inv_freq;                     // θ'_i, size rotary_dim / 2 (empty unless RoPE)
  Vector base_inv_freq;                // θ_i
  Vector wavelengths;                  // 2π/θ'_i, in positions
  Vector base_wavelengths;             // 2π/θ_i
  std::vector<std::uint8_t> beyond;    // 1 where pair i is beyond training (rule above)
  std::int64_t beyond_count = 0;
  std::int64_t sliding_window = 0;
  std::vector<std::string> notes;
};

// Analyses a parsed config for a prompt of prompt_length tokens.
// Throws InputError when prompt_length is outside 1 … kMaxConfigPositions.
ModelPositionReport analyse_model_config(const ModelConfig& cfg, std::int64_t prompt_length);

// parse_model_config then analyse_model_config.
ModelPositionReport read_model_config(std::string_view json_text, std::int64_t prompt_length);

}  // namespace positional
