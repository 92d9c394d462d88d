// RoPE scaling: stretching a RoPE model's context after training, every recipe over one frequency
// model. Each maps the unscaled θ_i = base^(−2i/d) (rope_frequencies) to the frequencies a model
// runs with. The lesson's two methods come first: position interpolation (every position times
// trained_len / new_len) and NTK-aware scaling (a larger base). Beyond the lesson: dynamic NTK,
// YaRN (a per-band blend, with its attention temperature), Llama 3's wavelength bands and LongRoPE's
// per-pair divisors, with pair wavelengths and the extension charts' curves. The charts and the
// config.json reader (model_config.hpp) both call these, so a recipe is written once.
#pragma once

#include <cstdint>
#include <vector>

#include "positional/limits.hpp"  // kDefaultBase and the other defaults
#include "positional/types.hpp"

namespace positional {

// Position interpolation (Chen et al., 2023): every position times trained_len / new_len.
// Throws InputError when a length is not finite or ≤ 0, a position is not finite, a result overflows,
// or there are more than kMaxOutputDoubles positions.
Vector interpolate_positions(const Eigen::Ref<const Vector>& positions, double trained_len, double new_len);

// NTK-aware scaling: base · scale^(d/(d−2)). The fastest pair keeps θ_0 = 1, the
// slowest slows by exactly `scale`. Throws InputError when base is invalid,
// scale is not finite or ≤ 0, or d is odd or < 4 (d = 2 has no slow pair: d/(d−2) is undefined).
double ntk_scaled_base(double base, double scale, std::int64_t d);

// Angle of the slowest pair at each position under the lesson's three treatments:
// row 0 raw positions, row 1 position interpolation, row 2 NTK-aware base.
// Also reports the top of the trained band (trained_len · θ_slowest).
struct ContextExtensionCurves {
  Matrix angles;           // (3 × positions.size())
  double trained_max = 0;  // the largest slowest-pair angle seen in training
};
ContextExtensionCurves context_extension_curves(const Eigen::Ref<const Vector>& positions, double trained_len,
                                                double new_len, std::int64_t d, double base = kDefaultBase);
// The same angles written into `angles`, which the caller sizes 3 × positions.size() and which must not
// overlap `positions`; returns trained_max. The path without allocation (the WebAssembly binding's).
double context_extension_curves_into(const Eigen::Ref<const Vector>& positions, double trained_len,
                                     double new_len, std::int64_t d, double base, Eigen::Ref<Matrix> angles);

// ---- beyond the lesson: dynamic NTK, YaRN, Llama 3, LongRoPE ------------------------------------

// The pair indices where YaRN's ramp runs (Peng et al., 2023; Hugging Face's
// find_correction_range with truncation): pairs with index i below `low`
// keep their original speed (extrapolation), pairs above `high` are fully interpolated.
// low = floor(dim(beta_fast)), high = ceil(dim(beta_slow)), clamped to [0, d − 1], where
// dim(r) = d · ln(trained_len / (2π r)) / (2 ln base) is the pair that turns r times in trained_len
// (the clamp to d − 1 rather than d/2 − 1 follows Hugging Face; the ramp stops at d/2 − 1 anyway).
struct YarnCorrectionRange {
  double low = 0;
  double high = 0;
};
// Throws InputError when d is odd or < 2, base is invalid, trained_len is not finite or ≤ 0,
// or beta_fast, beta_slow are not finite and > 0 with beta_fast > beta_slow.
YarnCorrectionRange yarn_correction_range(std::int64_t d, double base, double trained_len,
                                          double beta_fast = kDefaultBetaFast,
                                          double beta_slow = kDefaultBetaSlow);

// YaRN's extrapolation weight per pair (d/2 entries): 1 keeps θ_i, 0 uses θ_i / scale,
// and a linear ramp between the correction range's low and high ends.
Vector yarn_extrapolation_weights(std::int64_t d, double base, double trained_len,
                                  double beta_fast = kDefaultBetaFast, double beta_slow = kDefaultBetaSlow);

// YaRN's ramp with the choice of rounding: `truncate` rounds the correction range outwards (floor /
// ceil) as every runtime does by default; false keeps the fractional ends (transformers' `truncate`
// option, used by gpt-oss). Same checks as yarn_correction_range.
YarnCorrectionRange yarn_ramp_range(std::int64_t d, double base, double trained_len, double beta_fast,
                                    double beta_slow, bool truncate);

// YaRN's inverse frequencies with the rounding choice above; yarn_inverse_frequencies is truncate = true.
Vector yarn_scaled_frequencies(std::int64_t d, double base, double scale, double trained_len,
                               double beta_fast, double beta_slow, bool truncate);

// YaRN's inverse frequencies (radians per position, d/2 entries):
// θ_i · (w_i + (1 − w_i) / scale) with w the extrapolation weights. scale ≥ 1.
// Throws InputError for the reasons above, or scale not finite or < 1.
Vector yarn_inverse_frequencies(std::int64_t d, double base, double scale, double trained_len,
                                double beta_fast = kDefaultBetaFast, double beta_slow = kDefaultBetaSlow);

// YaRN's attention temperature factor: 0.1 · ln(scale) + 1 for scale > 1, else 1.
// The cos and sin tables (equivalently the logits, squared) are multiplied by it.
// Throws InputError when scale is not finite or ≤ 0.
double yarn_attention_factor(double scale);

// YaRN's get_mscale (transformers' _compute_yarn_parameters, vLLM's yarn_get_mscale):
// 0.1 · mscale · ln(scale) + 1 for scale > 1, else 1. yarn_attention_factor(s) is yarn_mscale(s, 1).
// Throws InputError when scale is not finite or ≤ 0, or mscale is not finite or < 0.
double yarn_mscale(double scale, double mscale);

// Position interpolation on frequencies: θ_i / factor (the same as positions × 1/factor).
// Throws InputError when factor is not finite or ≤ 0.
Vector linear_scaled_frequencies(const Eigen::Ref<const Vector>& theta, double factor);

// Llama 3.1's recipe (transformers' _compute_llama3_parameters): pairs whose wavelength 2π/θ is
// below original_len / high_freq_factor keep θ, those above original_len / low_freq_factor get
// θ / factor, and a smooth blend joins them. With low == high the blend has no band (Llama 4 Scout
// Instruct): each pair is kept or divided. Throws InputError unless factor ≥ 1, 0 < low ≤ high and
// original_len > 0.
Vector llama3_scaled_frequencies(const Eigen::Ref<const Vector>& theta, double factor, double low_freq_factor,
                                 double high_freq_factor, double original_len);

// LongRoPE: θ_i / divisors_i. Throws InputError when the sizes differ or a divisor is not finite and > 0.
Vector longrope_scaled_frequencies(const Eigen::Ref<const Vector>& theta,
                                   const Eigen::Ref<const Vector>& divisors);

// LongRoPE's attention factor sqrt(1 + ln(factor) / ln(original_len)) for factor > 1, else 1.
// Throws InputError unless factor > 0 and original_len > 1.
double longrope_attention_factor(double factor, double original_len);

// Dynamic NTK's stretch (scale · L / trained_len) − (scale − 1) with L = max(seq_len, trained_len):
// 1 up to the trained length, then growing linearly. dynamic_ntk_base is base · stretch^(d/(d−2)).
// Throws InputError when scale is not finite or < 1, or a length is not finite or ≤ 0.
double dynamic_ntk_stretch(double scale, double seq_len, double trained_len);

// Dynamic NTK scaling as Hugging Face computes it at run time:
// base · ((scale · L / trained_len) − (scale − 1))^(d/(d−2)), with L = max(seq_len, trained_len),
// so the base is unchanged until the sequence outgrows the trained length.
// Throws InputError when base is invalid, scale is not finite or < 1, d is odd or < 4,
// seq_len or trained_len are not finite or ≤ 0, or the result overflows.
double dynamic_ntk_base(double base, double scale, std::int64_t d, double seq_len, double trained_len);

// Each pair's wavelength 2π / θ_i, in positions. Throws InputError when an entry is not finite or ≤ 0,
// or there are more than kMaxOutputDoubles entries.
Vector pair_wavelengths(const Eigen::Ref<const Vector>& inv_freq);

// ---- 2025–26 families: proportional RoPE, multimodal sections, Llama 4's NoPE temperature ---------

// Proportional RoPE (transformers 5's _compute_proportional_rope_parameters; Gemma 4's full-attention
// layers): head_dim / 2 pairs, of which the first floor(partial_rotary_factor · head_dim / 2) turn at
// base^(−2i/head_dim) / factor — spaced over the whole head width, not over the rotating part, so they
// turn as the same pairs of a full-width RoPE would — and the rest get frequency 0 (they never turn).
// Throws InputError when head_dim is odd or < 2, base is invalid, partial_rotary_factor is not in
// (0, 1], or factor is not finite and > 0 or so small that a frequency overflows.
Vector proportional_rope_frequencies(std::int64_t head_dim, double base, double partial_rotary_factor,
                                     double factor = 1.0);

// How many pairs of proportional RoPE turn: floor(partial_rotary_factor · head_dim / 2), as Python's
// int(partial_rotary_factor * head_dim // 2). Same checks on head_dim and the factor as above.
std::int64_t proportional_rotating_pairs(std::int64_t head_dim, double partial_rotary_factor);

// Multimodal RoPE (Qwen2-VL's mrope_section): which position axis each of `pairs` rotary pairs reads,
// 0 time, 1 height, 2 width. The frequencies are RoPE's own; only the position each pair turns by
// differs (for text tokens the three positions are equal, so text turns exactly as plain RoPE).
// Sections in order (Qwen2-VL, Qwen2.5-VL, transformers' apply_multimodal_rotary_pos_emb): the first
// section[0] pairs read time, the next section[1] height, the last section[2] width. Interleaved
// (Qwen3-VL's mrope_interleaved, apply_interleaved_mrope): pair i reads height when i % 3 == 1 and
// i < 3 · section[1], width when i % 3 == 2 and i < 3 · section[2], time otherwise.
// Throws InputError unless section has 3 entries, each ≥ 0, summing to pairs.
std::vector<std::uint8_t> mrope_pair_axes(const std::vector<std::int64_t>& section, std::int64_t pairs,
                                          bool interleaved);

// Llama 4's query temperature on its layers without RoPE (transformers' Llama4TextAttention with
// attn_temperature_tuning): the queries at position p (counted from 0) are multiplied by
// 1 + attn_scale · ln(1 + floor((p + 1) / floor_scale)); 1 for the first floor_scale − 1 positions.
// Throws InputError when position is not finite or < 0, floor_scale is not finite or ≤ 0 or so
// small that (position + 1) / floor_scale overflows, or attn_scale is not finite, < 0 or so large
// that the temperature overflows.
double nope_query_temperature(double position, double floor_scale, double attn_scale);

// Which treatment a row of the extension results belongs to.
enum class ExtensionMethod : int { kRaw = 0, kInterpolation = 1, kNtk = 2, kYarn = 3, kDynamicNtk = 4 };
inline constexpr int kExtensionMethodCount = 5;

// Inverse frequencies (5 × d/2) for the five treatments at a stretch scale = new_len / trained_len:
// raw, position interpolation (θ/scale), NTK-aware base, YaRN, and dynamic NTK at seq_len = new_len.
// Throws InputError when d is odd or < 4, base is invalid, a length is not finite or ≤ 0,
// new_len < trained_len, the betas are invalid, or 5 × d/2 exceeds kMaxOutputDoubles.
Matrix extension_inverse_frequencies(std::int64_t d, double base, double trained_len, double new_len,
                                     double beta_fast = kDefaultBetaFast,
                                     double beta_slow = kDefaultBetaSlow);

// The slowest pair's angle (radians, unwrapped) at each position for the five treatments
// (rows in ExtensionMethod order). Dynamic NTK recomputes its base at every position p from
// the length of a sequence ending there, seq_len = p + 1 (Hugging Face uses max(position_ids) + 1).
struct ExtensionCurves {
  Matrix angles;                // (5 × positions.size())
  double trained_max = 0;       // trained_len · θ_slowest: the top of the band seen in training
  double ntk_base = 0;          // the NTK-aware base for scale = new_len / trained_len
  double attention_factor = 1;  // YaRN's temperature factor for that scale
  YarnCorrectionRange yarn_range;
};
// Throws InputError as extension_inverse_frequencies, or when a position is not finite or < 0,
// or the result would exceed kMaxOutputDoubles, or positions × 4 exceeds kMaxWorkSteps.
ExtensionCurves extension_curves(const Eigen::Ref<const Vector>& positions, double trained_len,
                                 double new_len, std::int64_t d, double base = kDefaultBase,
                                 double beta_fast = kDefaultBetaFast, double beta_slow = kDefaultBetaSlow);

}  // namespace positional
