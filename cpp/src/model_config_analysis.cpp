// The analysis of a read config (model_config.hpp): the frequencies each recipe gives, the lengths,
// which pairs a prompt takes beyond training, and the report each kind of layer gets. The reading of
// config.json is model_config.cpp's.
#include <algorithm>
#include <cmath>
#include <limits>  // infinity: a pair that never turns
#include <string>
#include <utility>

#include "model_config_shared.hpp"
#include "positional/limits.hpp"
#include "positional/model_config.hpp"
#include "positional/rope.hpp"
#include "positional/rope_scaling.hpp"

namespace positional {

namespace {

using config_detail::is_layer_type;
using config_detail::whole;
// ---- helpers of the analysis --------------------------------------------------------------

// Where YaRN's "original" (pre-extension) length comes from: the block's, else max_position_embeddings.
std::int64_t yarn_original_length(const ModelConfig& cfg) {
  return cfg.scaling.original_max_position_embeddings > 0 ? cfg.scaling.original_max_position_embeddings
                                                          : cfg.max_position_embeddings;
}
double length_ratio(const ModelConfig& cfg) {
  return static_cast<double>(cfg.max_position_embeddings) / static_cast<double>(yarn_original_length(cfg));
}
// transformers 5 (src/transformers/modeling_rope_utils.py, _compute_yarn_parameters): the given
// factor; the ratio of the lengths only when the factor is missing.
double yarn_factor_transformers5(const ModelConfig& cfg) {
  return cfg.scaling.has_factor ? cfg.scaling.factor : length_ratio(cfg);
}
// transformers 4.4x–4.5x (_compute_yarn_parameters reading config.rope_scaling): "if
// 'original_max_position_embeddings' in config.rope_scaling: factor = config.max_position_embeddings
// / original_max_position_embeddings", replacing the given factor.
double yarn_factor_transformers4(const ModelConfig& cfg) {
  return cfg.scaling.original_max_position_embeddings > 0 ? length_ratio(cfg) : cfg.scaling.factor;
}
std::int64_t longrope_original_length(const ModelConfig& cfg) {
  if (cfg.original_max_position_embeddings > 0) return cfg.original_max_position_embeddings;
  if (cfg.scaling.original_max_position_embeddings > 0) return cfg.scaling.original_max_position_embeddings;
  return cfg.max_position_embeddings;
}
bool longrope_has_original(const ModelConfig& cfg) {
  return cfg.original_max_position_embeddings > 0 || cfg.scaling.original_max_position_embeddings > 0;
}
double longrope_factor(const ModelConfig& cfg) {
  return longrope_has_original(cfg) ? static_cast<double>(cfg.max_position_embeddings) /
                                          static_cast<double>(longrope_original_length(cfg))
                                    : cfg.scaling.factor;
}

// YaRN's frequencies for a given factor, over the block's original length.
Vector yarn_frequencies(const ModelConfig& cfg, double factor) {
  const RopeScaling& s = cfg.scaling;
  return yarn_scaled_frequencies(cfg.rotary_dim, cfg.rope_theta, factor,
                                 static_cast<double>(yarn_original_length(cfg)), s.beta_fast, s.beta_slow,
                                 s.truncate);
}

// YaRN's cos/sin factor for a given factor, as transformers and vLLM (YaRNScalingRotaryEmbedding,
// DeepseekScalingRotaryEmbedding) compute it: attention_factor when given, else the ratio
// mscale(mscale) / mscale(mscale_all_dim) when both are set, else mscale(factor, 1).
double yarn_cos_sin_factor(const ModelConfig& cfg, double factor) {
  const RopeScaling& s = cfg.scaling;
  if (s.attention_factor > 0) return s.attention_factor;
  if (s.mscale > 0 && s.mscale_all_dim > 0)
    return yarn_mscale(factor, s.mscale) / yarn_mscale(factor, s.mscale_all_dim);
  return yarn_attention_factor(factor);
}

double dynamic_base(const ModelConfig& cfg, std::int64_t seq_len) {
  return dynamic_ntk_base(cfg.rope_theta, cfg.scaling.factor, cfg.rotary_dim, static_cast<double>(seq_len),
                          static_cast<double>(cfg.max_position_embeddings));
}

void require_rope(const ModelConfig& cfg, const char* what) {
  if (cfg.scheme != PositionScheme::Rope || cfg.rotary_dim < 2) {
    throw InputError(std::string(what) + " needs a RoPE config, got scheme " + scheme_name(cfg.scheme));
  }
}

std::int64_t checked_length(const char* name, std::int64_t n) {
  if (n < 1 || n > kMaxConfigPositions) {
    throw InputError(std::string(name) + " must be a whole number from 1 to " + whole(kMaxConfigPositions) +
                     ", got " + whole(n));
  }
  return n;
}

}  // namespace

Vector base_inverse_frequencies(const ModelConfig& cfg) {
  require_rope(cfg, "base_inverse_frequencies");
  if (cfg.scaling.type == RopeType::Proportional) {
    // The turning pairs only: proportional RoPE spaces them over the whole head.
    return proportional_rope_frequencies(cfg.head_dim, cfg.rope_theta, cfg.partial_rotary_factor)
        .head(cfg.rotary_dim / 2);
  }
  return rope_frequencies(cfg.rotary_dim, cfg.rope_theta);
}

Vector scaled_inverse_frequencies(const ModelConfig& cfg, std::int64_t seq_len) {
  require_rope(cfg, "scaled_inverse_frequencies");
  checked_length("seq_len", seq_len);
  const Vector base = base_inverse_frequencies(cfg);
  const RopeScaling& s = cfg.scaling;
  switch (s.type) {
    case RopeType::Default:
      return base;
    case RopeType::Linear:
      return linear_scaled_frequencies(base, s.factor);
    case RopeType::Dynamic:
      return rope_frequencies(cfg.rotary_dim, dynamic_base(cfg, seq_len));
    case RopeType::Yarn:
      return yarn_frequencies(cfg, yarn_factor_transformers5(cfg));
    case RopeType::Longrope: {
      const bool use_long = seq_len > longrope_original_length(cfg);
      const std::vector<double>& divisors = use_long ? s.long_factor : s.short_factor;
      return longrope_scaled_frequencies(
          base, Eigen::Map<const Vector>(divisors.data(), static_cast<Eigen::Index>(divisors.size())));
    }
    case RopeType::Llama3:
      return llama3_scaled_frequencies(base, s.factor, s.low_freq_factor, s.high_freq_factor,
                                       static_cast<double>(s.original_max_position_embeddings));
    case RopeType::Proportional:
      return proportional_rope_frequencies(cfg.head_dim, cfg.rope_theta, cfg.partial_rotary_factor, s.factor)
          .head(cfg.rotary_dim / 2);
  }
  return base;
}

double rope_attention_factor(const ModelConfig& cfg) {
  require_rope(cfg, "rope_attention_factor");
  const RopeScaling& s = cfg.scaling;
  if (s.type == RopeType::Yarn) return yarn_cos_sin_factor(cfg, yarn_factor_transformers5(cfg));
  if (s.type == RopeType::Longrope) {
    if (s.attention_factor > 0) return s.attention_factor;
    return longrope_attention_factor(longrope_factor(cfg),
                                     static_cast<double>(longrope_original_length(cfg)));
  }
  return 1.0;
}

namespace {

// How transformers 4.4x–4.5x, transformers 5 and vLLM read this config, when they disagree.
// Sources (read in their published code):
//  - transformers 5: src/transformers/modeling_rope_utils.py, _compute_yarn_parameters (factor
//    kept; "if factor is None: factor = config.max_position_embeddings /
//    original_max_position_embeddings") and _compute_dynamic_ntk_parameters.
//  - transformers 4.4x–4.5x: the same file's _compute_yarn_parameters reading config.rope_scaling,
//    which replaces the factor by that ratio whenever original_max_position_embeddings is in the
//    block. The stored sources showed this code in a port adapted from transformers (MaxText's
//    copy) and the 4.43-era file without it; the exact first release is not established here.
//  - vLLM: vllm/model_executor/layers/rotary_embedding/__init__.py get_rope (yarn: factor and
//    original_max_position_embeddings as given → YaRNScalingRotaryEmbedding, whose ramp runs over
//    the original length); dynamic_ntk_scaling_rope.py DynamicNTKScalingRotaryEmbedding
//    (_compute_cos_sin_cache: base · ((max_len / max_position) − (factor − 1))^(d/(d−2)) with
//    max_len = max_position · factor, which leaves the base unchanged); vllm/config
//    _get_and_verify_max_len (the served length: original_max_position_embeddings × factor for
//    yarn, max_position_embeddings × factor for the other types except longrope and llama3).
std::vector<RuntimeReading> runtime_readings(const ModelConfig& cfg, std::int64_t prompt_length) {
  std::vector<RuntimeReading> out;
  const RopeScaling& s = cfg.scaling;
  const std::int64_t stated = cfg.max_position_embeddings;
  const auto served = [](double length) {
    return length >= static_cast<double>(kMaxConfigPositions) ? kMaxConfigPositions
                                                              : static_cast<std::int64_t>(length);
  };
  if (s.type == RopeType::Yarn && s.original_max_position_embeddings > 0 && s.has_factor) {
    const double f5 = yarn_factor_transformers5(cfg);
    const double f4 = yarn_factor_transformers4(cfg);
    const std::int64_t vllm_length =
        served(static_cast<double>(s.original_max_position_embeddings) * s.factor);
    if (f5 == f4 && vllm_length == stated) return out;
    out.push_back({"transformers 5", "modeling_rope_utils.py _compute_yarn_parameters (rope_parameters)", f5,
                   yarn_cos_sin_factor(cfg, f5), stated, yarn_frequencies(cfg, f5)});
    out.push_back({"transformers 4.4x–4.5x", "modeling_rope_utils.py _compute_yarn_parameters (rope_scaling)",
                   f4, yarn_cos_sin_factor(cfg, f4), stated, yarn_frequencies(cfg, f4)});
    out.push_back({"vLLM", "rotary_embedding get_rope → YaRNScalingRotaryEmbedding; _get_and_verify_max_len",
                   s.factor, yarn_cos_sin_factor(cfg, s.factor), vllm_length,
                   yarn_frequencies(cfg, s.factor)});
  } else if (s.type == RopeType::Dynamic && s.alpha > 0) {
    // vLLM and SGLang: DynamicNTKAlphaRotaryEmbedding._compute_cos_sin_cache, base · alpha^(d/(d−2))
    // with d = rotary_dim, for every prompt; the served length as for dynamic (× factor, 1 when absent).
    const double d = static_cast<double>(cfg.rotary_dim);
    const double alpha_base = cfg.rope_theta * std::pow(s.alpha, d / (d - 2.0));
    out.push_back({"transformers 4.4x–4.5x and 5", "modeling_rope_utils.py _compute_dynamic_ntk_parameters",
                   s.factor, 1.0, stated,
                   rope_frequencies(cfg.rotary_dim, dynamic_base(cfg, prompt_length))});
    out.push_back({"vLLM and SGLang", "rotary_embedding get_rope → DynamicNTKAlphaRotaryEmbedding", s.factor,
                   1.0, served(static_cast<double>(stated) * s.factor),
                   rope_frequencies(cfg.rotary_dim, alpha_base), s.alpha, alpha_base});
  } else if (s.type == RopeType::Dynamic && s.factor != 1.0) {
    out.push_back({"transformers 4.4x–4.5x and 5", "modeling_rope_utils.py _compute_dynamic_ntk_parameters",
                   s.factor, 1.0, stated,
                   rope_frequencies(cfg.rotary_dim, dynamic_base(cfg, prompt_length))});
    out.push_back({"vLLM", "DynamicNTKScalingRotaryEmbedding._compute_cos_sin_cache; _get_and_verify_max_len",
                   s.factor, 1.0, served(static_cast<double>(stated) * s.factor),
                   rope_frequencies(cfg.rotary_dim, cfg.rope_theta)});
  } else if (s.type == RopeType::Linear && s.factor != 1.0) {
    // Only the served length is compared: vLLM's linear frequencies were not read here.
    out.push_back({"transformers 4.4x–4.5x and 5",
                   "modeling_rope_utils.py _compute_linear_scaling_rope_parameters", s.factor, 1.0, stated,
                   Vector()});
    out.push_back({"vLLM", "_get_and_verify_max_len", s.factor, 1.0,
                   served(static_cast<double>(stated) * s.factor), Vector()});
  }
  return out;
}

// The "beyond training" rule of model_config.hpp for one kind of layer, whose attention spans at most
// `distance` tokens back; a pair that never turns (θ' = 0) is never beyond.
void flag_beyond(LayerKindReport& kind, std::int64_t trained_length) {
  const Eigen::Index pairs = kind.inv_freq.size();
  kind.beyond.assign(static_cast<std::size_t>(pairs), 0);
  kind.beyond_count = 0;
  kind.wavelengths.resize(pairs);
  const double trained_span = static_cast<double>(trained_length - 1);
  for (Eigen::Index i = 0; i < pairs; ++i) {
    const double theta = kind.inv_freq[i];
    kind.wavelengths[i] = theta > 0 ? kTwoPi / theta : std::numeric_limits<double>::infinity();
    if (theta <= 0 || trained_length < 1) continue;
    const double trained_angle = trained_span * kind.base_inv_freq[i];
    if (static_cast<double>(kind.longest_distance) * theta > trained_angle && trained_angle < kTwoPi) {
      kind.beyond[static_cast<std::size_t>(i)] = 1;
      ++kind.beyond_count;
    }
  }
}

// A local layer's frequencies (Gemma 2/3: the global recipe's width at rope_local_base_freq, unscaled;
// transformers 5's rope_parameters.sliding_attention: its own type, factor and partial width).
void local_frequencies(const ModelConfig& cfg, LayerKindReport& kind) {
  kind.head_dim = cfg.local_head_dim > 0 ? cfg.local_head_dim : cfg.head_dim;
  kind.base = cfg.local_rope_theta;
  kind.rope_type = rope_type_name(cfg.local_rope_type);
  if (cfg.local_rope_type == RopeType::Proportional) {
    kind.positions = "proportional";
    kind.inv_freq = proportional_rope_frequencies(kind.head_dim, kind.base, cfg.local_partial_rotary_factor,
                                                  cfg.local_factor);
    kind.base_inv_freq =
        proportional_rope_frequencies(kind.head_dim, kind.base, cfg.local_partial_rotary_factor);
    kind.rotary_dim = 2 * proportional_rotating_pairs(kind.head_dim, cfg.local_partial_rotary_factor);
    return;
  }
  std::int64_t rotary =
      cfg.local_head_dim > 0
          ? static_cast<std::int64_t>(static_cast<double>(kind.head_dim) * cfg.local_partial_rotary_factor)
          : cfg.rotary_dim;
  rotary -= rotary % 2;
  if (rotary < 2) throw InputError("the local layers' rotary width is below 2 dimensions");
  kind.rotary_dim = rotary;
  kind.base_inv_freq = rope_frequencies(rotary, kind.base);
  kind.inv_freq = cfg.local_rope_type == RopeType::Linear
                      ? linear_scaled_frequencies(kind.base_inv_freq, cfg.local_factor)
                      : kind.base_inv_freq;
}

// Each distinct kind of layer of a RoPE config, first seen first: what positions it has, its
// frequencies, window or chunk, and its layers. A config without layer types is one kind, "all".
// Whether a kind of layer turns its own, local frequencies rather than the report's (Gemma's
// sliding layers at rope_local_base_freq).
bool turns_local_frequencies(const ModelConfig& cfg, const std::string& layer_type) {
  return layer_type == "sliding_attention" && cfg.local_rope_theta > 0;
}

// The indexer of DeepSeek Sparse Attention, as a kind of its own beside the layers it serves: it scores
// every earlier token over the whole prompt (DeepSeek's inference/model.py and transformers'
// GlmMoeDsaIndexer mask it causally, nothing more), turning the main attention's frequencies on the first
// rotary_dim dimensions of each of its heads; the rest of each head carries no position.
// DeepSeek-V4's indexer serves its compressed sparse layers and scores their compressed entries, one per
// compress_ratio tokens: DeepSeek's inference/model.py hands it the layer's own table (compress_rope_theta
// with YaRN; self.indexer.freqs_cis = self.freqs_cis), turns the last rotary_dim dimensions of each head
// (q[..., -rd:]) and lays its pairs out as the attention does, interleaved; no config field says either.
LayerKindReport indexer_kind(const ModelConfig& cfg, const ModelPositionReport& r,
                             const std::vector<LayerKindReport>& kinds) {
  LayerKindReport kind;
  kind.layer_type = "indexer";
  kind.positions = "rope";
  kind.rope_type = rope_type_name(cfg.scaling.type);
  for (const LayerKindReport& served : kinds) {
    if (served.top_k == 0) continue;
    kind.layer_count += served.layer_count;
    kind.layers.insert(kind.layers.end(), served.layers.begin(), served.layers.end());
    kind.compress_ratio = served.compress_ratio;
  }
  std::sort(kind.layers.begin(), kind.layers.end());
  kind.base = r.base;
  kind.head_dim = cfg.index_head_dim;
  kind.rotary_dim = r.rotary_dim;
  kind.heads = cfg.index_n_heads;
  const bool compressed = kind.compress_ratio > 0;
  kind.pair_layout = compressed || cfg.indexer_rope_interleave ? "interleaved" : "split-half";
  kind.rotary_part = compressed ? "last" : "first";
  kind.inv_freq = r.inv_freq;
  kind.base_inv_freq = r.base_inv_freq;
  kind.longest_distance = r.prompt_length - 1;
  flag_beyond(kind, r.trained_length);
  return kind;
}

std::vector<LayerKindReport> layer_kinds(const ModelConfig& cfg, const ModelPositionReport& r) {
  std::vector<LayerKindReport> kinds;
  std::vector<std::string> types = cfg.layer_types;
  if (types.empty()) types.assign(static_cast<std::size_t>(std::max<std::int64_t>(cfg.num_layers, 1)), "all");
  // SmolLM3's NoPE layers share a layer type with its RoPE layers: a kind is a type and whether it turns.
  std::vector<std::uint8_t> nope_of_kind;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const std::uint8_t nope = i < cfg.nope_layers.size() ? cfg.nope_layers[i] : 0;
    std::size_t k = 0;
    while (k < kinds.size() && !(kinds[k].layer_type == types[i] && nope_of_kind[k] == nope)) ++k;
    if (k == kinds.size()) {
      kinds.emplace_back();
      kinds.back().layer_type = types[i];
      nope_of_kind.push_back(nope);
    }
    LayerKindReport* kind = &kinds[k];
    ++kind->layer_count;
    if (cfg.num_layers > 0) kind->layers.push_back(static_cast<std::int64_t>(i));
  }
  const std::int64_t n = r.prompt_length;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    LayerKindReport& kind = kinds[k];
    const std::string& type = kind.layer_type;
    if (!is_layer_type(type) && type != "all") {
      // Not understood (listed in not_understood): no positions are drawn for these layers.
      kind.positions = "unknown";
      kind.longest_distance = n - 1;
      continue;
    }
    const bool nope = (type == "full_attention" && cfg.full_attention_nope) || type == "linear_attention" ||
                      type == "mamba" || nope_of_kind[k] == 1 || cfg.mla_nope;
    if (nope) {
      kind.positions = "none";
      kind.none_reason = type == "linear_attention" ? "linear_attention"
                         : type == "mamba"          ? "recurrence"
                                                    : "nope";
      if (kind.none_reason == "nope" && cfg.attn_temperature_tuning) {
        kind.query_temperature =
            nope_query_temperature(static_cast<double>(n - 1), cfg.floor_scale, cfg.attn_scale);
      }
      kind.longest_distance = n - 1;
      continue;
    }
    if (cfg.query_scaling_beta > 0) {
      // transformers' _get_llama_4_attn_scale at the last token's position n − 1.
      kind.query_temperature =
          1.0 +
          cfg.query_scaling_beta * std::log(1.0 + std::floor(static_cast<double>(n - 1) /
                                                             static_cast<double>(cfg.query_scaling_length)));
    }
    if (type == "sliding_attention")
      kind.window = cfg.local_window > 0 ? cfg.local_window : cfg.sliding_window;
    if (type == "all") kind.window = cfg.sliding_window;
    if (type == "chunked_attention") kind.chunk = cfg.attention_chunk_size;
    if (type == "compressed_sparse_attention" || type == "heavily_compressed_attention") {
      kind.compress_ratio =
          type == "compressed_sparse_attention" ? cfg.compress_rate_csa : cfg.compress_rate_hca;
      kind.raw_window = cfg.sliding_window;
    }
    const std::int64_t span = kind.window > 0 ? kind.window : (kind.chunk > 0 ? kind.chunk : n);
    kind.longest_distance = std::min(n, span) - 1;
    if (turns_local_frequencies(cfg, type)) {
      kind.positions = "rope";
      local_frequencies(cfg, kind);
    } else {
      kind.base = r.base;
      kind.head_dim = r.head_dim;
      kind.rotary_dim = r.rotary_dim;
      kind.rope_type = rope_type_name(cfg.scaling.type);
      if (cfg.scaling.type == RopeType::Proportional) {
        kind.positions = "proportional";
        kind.inv_freq = proportional_rope_frequencies(cfg.head_dim, cfg.rope_theta, cfg.partial_rotary_factor,
                                                      cfg.scaling.factor);
        kind.base_inv_freq =
            proportional_rope_frequencies(cfg.head_dim, cfg.rope_theta, cfg.partial_rotary_factor);
      } else {
        kind.positions = cfg.mrope_section.empty() ? "rope" : "mrope";
        kind.inv_freq = r.inv_freq;
        kind.base_inv_freq = r.base_inv_freq;
        if (!cfg.mrope_section.empty()) {
          kind.mrope_axes = mrope_pair_axes(cfg.mrope_section, r.rotary_dim / 2, cfg.mrope_interleaved);
        }
      }
    }
    // Sparse attention: each query of these layers attends to the index_topk tokens its indexer ranks
    // highest, chosen anywhere in the prompt, so the longest distance is still the prompt's. A window's
    // layers (DeepSeek-V4's sliding ones) have no indexer.
    if (type == "all" || type == "full_attention" || type == "deepseek_sparse_attention")
      kind.top_k = cfg.index_topk;
    // DeepSeek-V4's indexer keeps index_topk compressed entries per query (DeepseekV4Indexer).
    if (type == "compressed_sparse_attention") kind.top_k = cfg.index_topk;
    flag_beyond(kind, r.trained_length);
  }
  if (std::any_of(kinds.begin(), kinds.end(), [](const LayerKindReport& k) { return k.top_k > 0; }))
    kinds.push_back(indexer_kind(cfg, r, kinds));
  return kinds;
}

// The longest distance over which a layer turns pairs by the report's own frequencies: a window or a
// chunk caps a layer's distances (Mistral's 4,096-token window in every layer, Llama 4's 8,192-token
// chunks), a layer without positions turns none, and a local layer turns its own frequencies (Gemma's
// sliding layers). 0 when no layer turns them.
std::int64_t longest_distance_turned(const ModelConfig& cfg, const std::vector<LayerKindReport>& kinds) {
  std::int64_t longest = 0;
  for (const LayerKindReport& kind : kinds) {
    if (kind.positions != "none" && kind.positions != "unknown" &&
        !turns_local_frequencies(cfg, kind.layer_type))
      longest = std::max(longest, kind.longest_distance);
  }
  return longest;
}

// T5's buckets (transformers' T5Attention._relative_position_bucket): the encoder splits
// num_buckets between the two directions, and in each direction half the buckets are exact
// distances; the rest grow logarithmically up to max_distance, past which all share the last.
void describe_buckets(const ModelConfig& cfg, ModelPositionReport& r) {
  r.relative_buckets = cfg.relative_buckets;
  r.relative_max_distance = cfg.relative_max_distance;
  r.relative_exact_encoder = (cfg.relative_buckets / 2) / 2;
  r.relative_exact_decoder = cfg.relative_buckets / 2;
}

}  // namespace

ModelPositionReport analyse_model_config(const ModelConfig& cfg, std::int64_t prompt_length) {
  checked_length("prompt_length", prompt_length);
  ModelPositionReport r;
  r.scheme = cfg.scheme;
  r.model_type = cfg.model_type;
  r.prompt_length = prompt_length;
  r.head_dim = cfg.head_dim;
  r.sliding_window = cfg.sliding_window;
  r.num_layers = cfg.num_layers;
  r.notes = cfg.notes;
  r.not_understood = cfg.not_understood;
  r.advertised_length = cfg.max_position_embeddings;
  r.trained_length = cfg.original_max_position_embeddings > 0 ? cfg.original_max_position_embeddings
                                                              : cfg.max_position_embeddings;
  r.attention_layers = cfg.attention_layers;
  r.recurrent_kind = cfg.recurrent_kind;
  r.text_field = cfg.text_field;

  if (cfg.scheme == PositionScheme::LearnedTable) {
    r.learned_offset = cfg.learned_offset;
    r.learned_table_rows = cfg.max_position_embeddings + cfg.learned_offset;
  }
  if (cfg.scheme == PositionScheme::RelativeBuckets) describe_buckets(cfg, r);

  if (cfg.scheme == PositionScheme::Rope) {
    const RopeScaling& s = cfg.scaling;
    r.rope_type = s.type;
    if (s.original_max_position_embeddings > 0) r.trained_length = s.original_max_position_embeddings;
    r.rotary_dim = cfg.rotary_dim;
    r.base = cfg.rope_theta;
    if (cfg.qk_rope_head_dim > 0) r.mla_qk_head_dim = cfg.qk_nope_head_dim + cfg.qk_rope_head_dim;
    r.head_dim_field = cfg.head_dim_field;
    switch (s.type) {
      case RopeType::Default:
        r.scaling_factor = 1.0;
        break;
      case RopeType::Yarn:
        r.scaling_factor = yarn_factor_transformers5(cfg);
        // MLA's softmax scale (transformers' DeepseekV3Attention, vLLM's DeepseekV2Attention):
        // 1/√d times mscale(factor, mscale_all_dim)², on top of the cos/sin factor.
        if (cfg.qk_rope_head_dim > 0 && s.mscale_all_dim > 0) {
          const double m = yarn_mscale(r.scaling_factor, s.mscale_all_dim);
          r.softmax_scale_factor = m * m;
        }
        break;
      case RopeType::Longrope:
        r.scaling_factor = longrope_factor(cfg);
        r.longrope_long_factor = prompt_length > longrope_original_length(cfg);
        break;
      case RopeType::Dynamic:
        r.scaling_factor = s.factor;
        r.dynamic_base = dynamic_base(cfg, prompt_length);
        break;
      default:
        r.scaling_factor = s.factor;
        break;
    }
    r.attention_factor = rope_attention_factor(cfg);
    r.query_scaling_beta = cfg.query_scaling_beta;
    r.query_scaling_length = cfg.query_scaling_length;
    if (s.type == RopeType::Llama3) {
      r.low_freq_factor = s.low_freq_factor;
      r.high_freq_factor = s.high_freq_factor;
    }
    r.base_inv_freq = base_inverse_frequencies(cfg);
    r.inv_freq = scaled_inverse_frequencies(cfg, prompt_length);
    r.wavelengths = pair_wavelengths(r.inv_freq);
    r.base_wavelengths = pair_wavelengths(r.base_inv_freq);
    r.layer_kinds = layer_kinds(cfg, r);
    const Eigen::Index pairs = r.inv_freq.size();
    r.beyond.assign(static_cast<std::size_t>(pairs), 0);
    const double trained_span = static_cast<double>(r.trained_length - 1);
    const double span = static_cast<double>(longest_distance_turned(cfg, r.layer_kinds));
    for (Eigen::Index i = 0; i < pairs; ++i) {
      const double trained_angle = trained_span * r.base_inv_freq[i];
      const bool needs_more = span * r.inv_freq[i] > trained_angle;
      const bool never_full_turn = trained_angle < kTwoPi;
      if (needs_more && never_full_turn) {
        r.beyond[static_cast<std::size_t>(i)] = 1;
        ++r.beyond_count;
      }
    }
    if (cfg.local_rope_theta > 0) {
      r.local_base = cfg.local_rope_theta;
      r.local_window = cfg.local_window;
      r.global_every = cfg.global_every;
      r.local_inv_freq = rope_frequencies(cfg.rotary_dim, cfg.local_rope_theta);
      r.local_wavelengths = pair_wavelengths(r.local_inv_freq);
    }
    r.runtime_readings = runtime_readings(cfg, prompt_length);
    r.mrope_section = cfg.mrope_section;
    r.mrope_interleaved = cfg.mrope_interleaved;
    r.layer_types_field = cfg.layer_types_field;
  }

  if (r.trained_length > 0 && r.advertised_length > 0) {
    r.stretch = static_cast<double>(r.advertised_length) / static_cast<double>(r.trained_length);
  }
  r.prompt_beyond_trained = r.trained_length > 0 && prompt_length > r.trained_length;
  r.prompt_beyond_advertised = r.advertised_length > 0 && prompt_length > r.advertised_length;
  return r;
}

ModelPositionReport read_model_config(std::string_view json_text, std::int64_t prompt_length) {
  checked_length("prompt_length", prompt_length);
  return analyse_model_config(parse_model_config(json_text), prompt_length);
}

}  // namespace positional
