// Parser and analysis of the position fields of Hugging Face config.json files
// (see model_config.hpp for the rules and the "beyond training" definition).
#include "positional/model_config.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

namespace positional {

namespace {

using nlohmann::json;

constexpr double kPi = 3.14159265358979323846;
constexpr double kMaxAttentionFactor = 1000.0;

// ---- describing values in error messages -----------------------------------------------

// A JSON value as it would read in the config, shortened: "abc" (quoted), 5, 1e+300, null,
// true, an array, an object.
std::string describe(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case json::value_t::string: {
      std::string text = value.get<std::string>();
      constexpr std::size_t kShown = 40;
      if (text.size() > kShown) {
        std::size_t cut = kShown;
        // Never cut inside a UTF-8 sequence: the message travels on as text.
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;
        text = text.substr(0, cut) + "…";
      }
      return "\"" + text + "\"";
    }
    case json::value_t::number_integer:
      return std::to_string(value.get<std::int64_t>());
    case json::value_t::number_unsigned:
      return std::to_string(value.get<std::uint64_t>());
    case json::value_t::number_float:
      return format_number(value.get<double>());
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    default:
      return "an unsupported value";
  }
}

// The bare type word used for the top-level check: "array", "string", "null" …
std::string type_word(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::string:
      return "string";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    default:
      return "number";
  }
}

std::string whole(std::int64_t n) { return std::to_string(n); }

[[noreturn]] void reject(const std::string& path, const std::string& rule, const json& value) {
  throw InputError(path + " must be " + rule + ", got " + describe(value));
}

// ---- typed field readers ---------------------------------------------------------------

// The value at key, or nullptr when the key is absent.
const json* find(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// Like find(), but a JSON null also counts as absent (optional fields are often null).
const json* find_present(const json& object, const char* key) {
  const json* value = find(object, key);
  return (value == nullptr || value->is_null()) ? nullptr : value;
}

std::int64_t read_whole(const json& value, const std::string& path, std::int64_t min_value,
                        std::int64_t max_value) {
  const std::string rule = "a whole number ≥ " + whole(min_value);
  if (!value.is_number()) reject(path, rule, value);
  const double d = value.get<double>();
  if (value.is_number_float() && (!std::isfinite(d) || d != std::floor(d))) reject(path, rule, value);
  if (value.is_number_integer() && !value.is_number_unsigned() && value.get<std::int64_t>() < min_value) {
    reject(path, rule, value);
  }
  if (d < static_cast<double>(min_value)) reject(path, rule, value);
  if (d > static_cast<double>(max_value)) {
    reject(path, "at most " + whole(max_value) + " (the reader's cap)", value);
  }
  return value.is_number_float() ? static_cast<std::int64_t>(d) : value.get<std::int64_t>();
}

// A finite number > 0 (or ≥ 0 when allow_zero) and ≤ max_value.
double read_positive(const json& value, const std::string& path, double max_value, bool allow_zero = false) {
  const std::string rule = allow_zero ? "a finite number ≥ 0" : "a finite number > 0";
  if (!value.is_number()) reject(path, rule, value);
  const double d = value.get<double>();
  if (!std::isfinite(d) || d < 0 || (d == 0 && !allow_zero)) reject(path, rule, value);
  if (d > max_value) reject(path, "at most " + format_number(max_value) + " (the reader's cap)", value);
  return d;
}

std::string read_string(const json& value, const std::string& path) {
  if (!value.is_string()) reject(path, "a string", value);
  return value.get<std::string>();
}

bool read_bool(const json& value, const std::string& path) {
  if (!value.is_boolean()) reject(path, "true or false", value);
  return value.get<bool>();
}

// ---- parsing with limits ----------------------------------------------------------------

json parse_limited(std::string_view text) {
  // Keys seen in each open object, innermost last, to refuse duplicates (JSON parsers keep
  // one of them silently, so the config would mean different things to different readers).
  std::vector<std::set<std::string>> open_objects;
  const json::parser_callback_t guard = [&open_objects](int depth, json::parse_event_t event,
                                                        json& parsed) -> bool {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        // depth counts the containers already open; the parser itself is iterative, and
        // this cap keeps every later walk over the document shallow too.
        if (depth >= kMaxConfigDepth) {
          throw InputError("config nests [ and { deeper than " + std::to_string(kMaxConfigDepth) +
                           " levels (the reader's cap)");
        }
        if (event == json::parse_event_t::object_start) open_objects.emplace_back();
        break;
      case json::parse_event_t::key:
        if (!open_objects.empty() && !open_objects.back().insert(parsed.get<std::string>()).second) {
          throw InputError("config has the key " + describe(parsed) +
                           " twice in one object (which one counts is ambiguous)");
        }
        break;
      case json::parse_event_t::object_end:
        if (!open_objects.empty()) open_objects.pop_back();
        break;
      default:
        break;
    }
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), guard);
  } catch (const json::exception& error) {
    // parse_error for bad syntax, out_of_range 406 for a number no double holds (1e999).
    std::string message = error.what();
    // Drop the library's "[json.exception.parse_error.101] " tag; keep line and column.
    const std::size_t tag_end = message.find("] ");
    if (message.rfind("[json.exception", 0) == 0 && tag_end != std::string::npos) {
      message = message.substr(tag_end + 2);
    }
    if (error.id == 406) message += " (no finite double holds it)";
    throw InputError("not JSON: " + message);
  }
}

// ---- scheme detection ----------------------------------------------------------------

bool in_list(const std::string& value, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&value](const char* name) { return value == name; });
}

// model_type values whose transformers implementation uses each scheme.
bool is_rope_family(const std::string& t) {
  return in_list(t, {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma",
                     "gemma2", "gemma3_text", "phi", "phi3", "gpt_neox", "gptj", "falcon", "stablelm",
                     "starcoder2", "olmo", "olmo2", "cohere", "deepseek_v2", "deepseek_v3", "internlm2",
                     "granite", "gpt_oss", "persimmon", "codegen"});
}
bool is_sinusoidal_family(const std::string& t) {
  return in_list(t, {"marian", "pegasus", "m2m_100", "fsmt", "speech_to_text", "xglm"});
}
bool is_learned_family(const std::string& t) {
  return in_list(t, {"gpt2", "bert", "roberta", "distilbert", "gpt_neo", "opt", "bart", "mbart", "xlm-roberta",
                     "electra", "albert", "biogpt", "gpt_bigcode", "camembert", "deberta"});
}

PositionScheme detect_scheme(const json& root, const std::string& model_type, std::vector<std::string>& notes) {
  bool alibi = model_type == "bloom";
  if (const json* flag = find_present(root, "alibi")) alibi = read_bool(*flag, "alibi") || alibi;
  if (const json* attn = find_present(root, "attn_config")) {
    if (!attn->is_object()) reject("attn_config", "an object", *attn);
    if (const json* flag = find_present(*attn, "alibi")) alibi = read_bool(*flag, "attn_config.alibi") || alibi;
  }
  std::string embedding_type;
  if (const json* pet = find_present(root, "position_embedding_type")) {
    embedding_type = read_string(*pet, "position_embedding_type");
    if (!in_list(embedding_type, {"absolute", "rotary", "alibi"})) {
      reject("position_embedding_type", "one of absolute, rotary, alibi (the schemes this reader analyses)", *pet);
    }
  }
  if (alibi || embedding_type == "alibi") return PositionScheme::Alibi;
  if (embedding_type == "absolute") return PositionScheme::LearnedTable;
  if (embedding_type == "rotary") return PositionScheme::Rope;
  const bool rope_markers = find_present(root, "rope_theta") || find_present(root, "rope_scaling") ||
                            find_present(root, "rope_parameters") || find_present(root, "rotary_dim") ||
                            find_present(root, "rotary_pct") || find_present(root, "partial_rotary_factor") ||
                            find_present(root, "rotary_emb_base");
  if (rope_markers || is_rope_family(model_type)) return PositionScheme::Rope;
  bool sinusoidal_flag = false;
  if (const json* flag = find_present(root, "sinusoidal_embeddings")) {
    sinusoidal_flag = read_bool(*flag, "sinusoidal_embeddings");
  }
  if (sinusoidal_flag || is_sinusoidal_family(model_type)) return PositionScheme::Sinusoidal;
  if (is_learned_family(model_type)) {
    if (model_type != "gpt2" && model_type != "bert") {
      notes.push_back("model_type \"" + model_type + "\" uses a learned position table in transformers");
    }
    return PositionScheme::LearnedTable;
  }
  throw InputError(
      "config names no position scheme this reader knows: model_type " +
      (model_type.empty() ? std::string("is missing") : "\"" + model_type + "\" is not a known family") +
      ", and there is no rope_theta, rope_scaling, rope_parameters, position_embedding_type or alibi field");
}

// ---- the scaling block ---------------------------------------------------------------

RopeType parse_rope_type(const json& block, const std::string& prefix, std::vector<std::string>& notes) {
  const json* rope_type = find_present(block, "rope_type");
  const json* legacy_type = find_present(block, "type");
  std::string name = "default";
  std::string path = prefix + ".rope_type";
  if (rope_type != nullptr) {
    name = read_string(*rope_type, path);
    if (legacy_type != nullptr && read_string(*legacy_type, prefix + ".type") != name) {
      throw InputError(path + " and " + prefix + ".type disagree: " + describe(*rope_type) + " and " +
                       describe(*legacy_type));
    }
  } else if (legacy_type != nullptr) {
    path = prefix + ".type";
    name = read_string(*legacy_type, path);
  }
  if (name == "default") return RopeType::Default;
  if (name == "linear") return RopeType::Linear;
  if (name == "dynamic") return RopeType::Dynamic;
  if (name == "yarn") return RopeType::Yarn;
  if (name == "longrope") return RopeType::Longrope;
  if (name == "llama3") return RopeType::Llama3;
  if (name == "su") {
    notes.push_back(path + " \"su\" is the older name of longrope; read as longrope");
    return RopeType::Longrope;
  }
  reject(path, "one of default, linear, dynamic, yarn, longrope, llama3", json(name));
}

std::vector<double> read_factor_list(const json& block, const std::string& prefix, const char* key,
                                     std::int64_t pairs) {
  const std::string path = prefix + "." + key;
  const json* list = find_present(block, key);
  if (list == nullptr) throw InputError(path + " is missing: rope_type longrope needs one number per rotary pair");
  if (!list->is_array()) reject(path, "an array of numbers", *list);
  if (static_cast<std::int64_t>(list->size()) != pairs) {
    throw InputError(path + " must hold rotary_dim/2 = " + whole(pairs) + " numbers, got " +
                     std::to_string(list->size()));
  }
  std::vector<double> values;
  values.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    values.push_back(read_positive((*list)[i], path + "[" + std::to_string(i) + "]", kMaxScalingValue));
  }
  return values;
}

// Picks the block: rope_parameters (newer transformers) before rope_scaling. Returns nullptr
// when neither holds one; sets prefix to the field path used in messages.
const json* select_scaling_block(const json& root, std::string& prefix, std::vector<std::string>& notes) {
  const json* parameters = find_present(root, "rope_parameters");
  const json* scaling = find_present(root, "rope_scaling");
  if (parameters != nullptr && !parameters->is_object()) reject("rope_parameters", "an object or null", *parameters);
  if (scaling != nullptr && !scaling->is_object()) reject("rope_scaling", "an object or null", *scaling);
  if (parameters != nullptr) {
    prefix = "rope_parameters";
    if (scaling != nullptr) {
      notes.push_back("both rope_parameters and rope_scaling are present: rope_parameters is read");
    }
    // Per-layer-type blocks (Gemma 3 style): {"full_attention": {...}, "sliding_attention": {...}}.
    const bool flat = find(*parameters, "rope_type") || find(*parameters, "type") ||
                      find(*parameters, "rope_theta") || find(*parameters, "factor");
    if (!flat && !parameters->empty() &&
        std::all_of(parameters->begin(), parameters->end(), [](const json& v) { return v.is_object(); })) {
      const json* full = find_present(*parameters, "full_attention");
      if (full == nullptr) {
        throw InputError("rope_parameters holds one block per layer type but none named full_attention; "
                         "this reader reads a single block");
      }
      prefix = "rope_parameters.full_attention";
      notes.push_back("rope_parameters has one block per layer type: the full_attention block is read");
      return full;
    }
    return parameters;
  }
  if (scaling != nullptr) {
    prefix = "rope_scaling";
    return scaling;
  }
  return nullptr;
}

void parse_rope(const json& root, ModelConfig& cfg) {
  std::string prefix;
  const json* block = select_scaling_block(root, prefix, cfg.notes);

  // rope_theta: inside rope_parameters (newest), else top level, else GPT-NeoX's rotary_emb_base.
  const json* theta = nullptr;
  std::string theta_path;
  if (block != nullptr && (theta = find_present(*block, "rope_theta")) != nullptr) {
    theta_path = prefix + ".rope_theta";
    if (const json* top = find_present(root, "rope_theta"); top != nullptr && *top != *theta) {
      cfg.notes.push_back("rope_theta differs at the top level and in " + prefix + ": " + prefix +
                          ".rope_theta is used");
    }
  } else if ((theta = find_present(root, "rope_theta")) != nullptr) {
    theta_path = "rope_theta";
  } else if ((theta = find_present(root, "rotary_emb_base")) != nullptr) {
    theta_path = "rotary_emb_base";
  }
  if (theta != nullptr) {
    cfg.rope_theta = read_positive(*theta, theta_path, kMaxRopeTheta);
    if (cfg.rope_theta <= 1) reject(theta_path, "a finite number > 1 (every pair would turn at one speed)", *theta);
  } else {
    cfg.rope_theta = 10000.0;
    cfg.notes.push_back("rope_theta is absent: transformers' default 10000 is used");
  }

  // Rotary width.
  if (cfg.head_dim == 0) {
    throw InputError("RoPE needs head_dim, or hidden_size and num_attention_heads: the config has neither");
  }
  const json* partial = find_present(root, "partial_rotary_factor");
  std::string partial_path = "partial_rotary_factor";
  if (partial == nullptr && (partial = find_present(root, "rotary_pct")) != nullptr) partial_path = "rotary_pct";
  if (partial != nullptr) {
    if (!partial->is_number() || !std::isfinite(partial->get<double>()) || partial->get<double>() <= 0 ||
        partial->get<double>() > 1) {
      reject(partial_path, "a finite number in (0, 1]", *partial);
    }
    cfg.partial_rotary_factor = partial->get<double>();
  }
  if (const json* explicit_dim = find_present(root, "rotary_dim")) {
    cfg.rotary_dim = read_whole(*explicit_dim, "rotary_dim", 2, cfg.head_dim);
    if (cfg.rotary_dim % 2 != 0) reject("rotary_dim", "even (pairs of dimensions turn together)", *explicit_dim);
  } else {
    // transformers truncates: int(head_dim * partial_rotary_factor).
    cfg.rotary_dim = static_cast<std::int64_t>(static_cast<double>(cfg.head_dim) * cfg.partial_rotary_factor);
    if (partial == nullptr || cfg.partial_rotary_factor == 1.0) {
      if (cfg.head_dim % 2 != 0) {
        throw InputError("head_dim must be even for RoPE (pairs of dimensions turn together), got " +
                         whole(cfg.head_dim));
      }
    } else if (cfg.rotary_dim < 2 || cfg.rotary_dim % 2 != 0) {
      throw InputError("rotary_dim = int(head_dim × " + partial_path + ") must be an even whole number ≥ 2, got " +
                       whole(cfg.rotary_dim) + " (head_dim " + whole(cfg.head_dim) + " × " +
                       format_number(cfg.partial_rotary_factor) + ")");
    }
  }
  const std::int64_t pairs = cfg.rotary_dim / 2;

  if (block == nullptr) return;
  RopeScaling& s = cfg.scaling;
  s.field = prefix;
  s.type = parse_rope_type(*block, prefix, cfg.notes);
  const std::string type_name = rope_type_name(s.type);

  if (const json* factor = find_present(*block, "factor")) {
    s.factor = read_positive(*factor, prefix + ".factor", kMaxScalingValue);
    s.has_factor = true;
    if (s.type != RopeType::Default && s.factor < 1) {
      reject(prefix + ".factor", "≥ 1 for rope_type " + type_name + " (below 1 it would shrink the context)",
             *factor);
    }
  } else if (s.type == RopeType::Linear || s.type == RopeType::Dynamic || s.type == RopeType::Yarn ||
             s.type == RopeType::Llama3) {
    throw InputError(prefix + ".factor is missing: rope_type " + type_name + " needs it");
  }
  if (const json* original = find_present(*block, "original_max_position_embeddings")) {
    const std::string path = prefix + ".original_max_position_embeddings";
    s.original_max_position_embeddings = read_whole(*original, path, 1, kMaxConfigPositions);
    if (cfg.max_position_embeddings > 0 && s.original_max_position_embeddings > cfg.max_position_embeddings) {
      reject(path, "at most max_position_embeddings (" + whole(cfg.max_position_embeddings) + ")", *original);
    }
  }
  if (const json* attention = find_present(*block, "attention_factor")) {
    s.attention_factor = read_positive(*attention, prefix + ".attention_factor", kMaxAttentionFactor);
  }

  switch (s.type) {
    case RopeType::Dynamic:
      if (cfg.rotary_dim < 4) {
        throw InputError("rope_type dynamic needs rotary_dim ≥ 4 (its exponent is d/(d−2)), got " +
                         whole(cfg.rotary_dim));
      }
      if (s.original_max_position_embeddings > 0) {
        cfg.notes.push_back(prefix + ".original_max_position_embeddings is not used by dynamic scaling in "
                            "transformers: it scales from max_position_embeddings");
      }
      break;
    case RopeType::Yarn: {
      if (const json* beta = find_present(*block, "beta_fast")) {
        s.beta_fast = read_positive(*beta, prefix + ".beta_fast", kMaxScalingValue);
      }
      if (const json* beta = find_present(*block, "beta_slow")) {
        s.beta_slow = read_positive(*beta, prefix + ".beta_slow", kMaxScalingValue);
      }
      if (s.beta_fast <= s.beta_slow) {
        throw InputError(prefix + ".beta_fast must be greater than " + prefix + ".beta_slow, got beta_fast " +
                         format_number(s.beta_fast) + " and beta_slow " + format_number(s.beta_slow));
      }
      if (const json* m = find_present(*block, "mscale")) {
        s.mscale = read_positive(*m, prefix + ".mscale", kMaxScalingValue, true);
      }
      if (const json* m = find_present(*block, "mscale_all_dim")) {
        s.mscale_all_dim = read_positive(*m, prefix + ".mscale_all_dim", kMaxScalingValue, true);
      }
      if (const json* t = find_present(*block, "truncate")) s.truncate = read_bool(*t, prefix + ".truncate");
      if (s.original_max_position_embeddings > 0) {
        const double implied =
            static_cast<double>(cfg.max_position_embeddings) / static_cast<double>(s.original_max_position_embeddings);
        if (implied != s.factor) {
          cfg.notes.push_back("yarn: transformers uses max_position_embeddings / original_max_position_embeddings = " +
                              format_number(implied) + " as the factor, not " + prefix + ".factor " +
                              format_number(s.factor));
        }
      }
      break;
    }
    case RopeType::Longrope:
      s.short_factor = read_factor_list(*block, prefix, "short_factor", pairs);
      s.long_factor = read_factor_list(*block, prefix, "long_factor", pairs);
      if (cfg.original_max_position_embeddings == 0 && s.original_max_position_embeddings == 0 && !s.has_factor &&
          s.attention_factor == 0) {
        throw InputError(prefix + ".factor is missing: longrope without original_max_position_embeddings needs it");
      }
      break;
    case RopeType::Llama3: {
      const char* keys[] = {"low_freq_factor", "high_freq_factor"};
      double* targets[] = {&s.low_freq_factor, &s.high_freq_factor};
      for (int k = 0; k < 2; ++k) {
        const json* v = find_present(*block, keys[k]);
        if (v == nullptr) throw InputError(prefix + "." + keys[k] + " is missing: rope_type llama3 needs it");
        *targets[k] = read_positive(*v, prefix + "." + keys[k], kMaxScalingValue);
      }
      if (s.high_freq_factor <= s.low_freq_factor) {
        throw InputError(prefix + ".high_freq_factor must be greater than " + prefix +
                         ".low_freq_factor, got high_freq_factor " + format_number(s.high_freq_factor) +
                         " and low_freq_factor " + format_number(s.low_freq_factor));
      }
      if (s.original_max_position_embeddings == 0) {
        throw InputError(prefix + ".original_max_position_embeddings is missing: rope_type llama3 needs it");
      }
      break;
    }
    default:
      break;
  }
}

// ---- helpers of the analysis --------------------------------------------------------------

// Where the recipe's "original" (pre-extension) length comes from, as transformers reads it.
std::int64_t yarn_original_length(const ModelConfig& cfg) {
  return cfg.scaling.original_max_position_embeddings > 0 ? cfg.scaling.original_max_position_embeddings
                                                          : cfg.max_position_embeddings;
}
double yarn_factor(const ModelConfig& cfg) {
  return cfg.scaling.original_max_position_embeddings > 0
             ? static_cast<double>(cfg.max_position_embeddings) /
                   static_cast<double>(cfg.scaling.original_max_position_embeddings)
             : cfg.scaling.factor;
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

// YaRN's attention temperature: 0.1·mscale·ln(s) + 1 for s > 1.
double yarn_get_mscale(double scale, double mscale) { return scale <= 1 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0; }

double dynamic_base(const ModelConfig& cfg, std::int64_t seq_len) {
  const double trained = static_cast<double>(cfg.max_position_embeddings);
  const double seq = std::max(static_cast<double>(seq_len), trained);
  const double dim = static_cast<double>(cfg.rotary_dim);
  const double factor = cfg.scaling.factor;
  return cfg.rope_theta * std::pow(factor * seq / trained - (factor - 1.0), dim / (dim - 2.0));
}

Vector inverse_powers(double base, std::int64_t dim) {
  Vector inv(dim / 2);
  for (std::int64_t i = 0; i < dim / 2; ++i) {
    inv[i] = 1.0 / std::pow(base, static_cast<double>(2 * i) / static_cast<double>(dim));
  }
  return inv;
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

const char* scheme_name(PositionScheme scheme) {
  switch (scheme) {
    case PositionScheme::LearnedTable:
      return "learned";
    case PositionScheme::Sinusoidal:
      return "sinusoidal";
    case PositionScheme::Rope:
      return "rope";
    case PositionScheme::Alibi:
      return "alibi";
  }
  return "unknown";
}

const char* rope_type_name(RopeType type) {
  switch (type) {
    case RopeType::Default:
      return "default";
    case RopeType::Linear:
      return "linear";
    case RopeType::Dynamic:
      return "dynamic";
    case RopeType::Yarn:
      return "yarn";
    case RopeType::Longrope:
      return "longrope";
    case RopeType::Llama3:
      return "llama3";
  }
  return "unknown";
}

ModelConfig parse_model_config(std::string_view text) {
  if (text.size() > kMaxConfigBytes) {
    throw InputError("config must be at most 1 MiB (" + std::to_string(kMaxConfigBytes) + " bytes), got " +
                     std::to_string(text.size()) + " bytes");
  }
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
      static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF) {
    throw InputError("config starts with a UTF-8 byte-order mark (EF BB BF): save it as UTF-8 without one");
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw InputError("not JSON: the config is empty");
  }
  const json root = parse_limited(text);
  if (!root.is_object()) throw InputError("config must be a JSON object, got " + type_word(root));

  ModelConfig cfg;
  if (const json* type = find_present(root, "model_type")) cfg.model_type = read_string(*type, "model_type");
  cfg.scheme = detect_scheme(root, cfg.model_type, cfg.notes);

  // Length: transformers' name first, then the older and family-specific spellings.
  for (const char* key : {"max_position_embeddings", "n_positions", "n_ctx", "max_seq_len", "seq_length"}) {
    if (const json* value = find(root, key)) {
      cfg.max_position_embeddings = read_whole(*value, key, 1, kMaxConfigPositions);
      cfg.max_position_field = key;
      break;
    }
  }
  if (cfg.max_position_field == "n_positions") {
    if (const json* n_ctx = find_present(root, "n_ctx")) {
      if (read_whole(*n_ctx, "n_ctx", 1, kMaxConfigPositions) != cfg.max_position_embeddings) {
        cfg.notes.push_back("n_ctx differs from n_positions: n_positions (the table size) is used");
      }
    }
  }
  if (cfg.max_position_field.empty() && cfg.scheme != PositionScheme::Alibi) {
    throw InputError("max_position_embeddings is missing (also looked for n_positions, n_ctx, max_seq_len, "
                     "seq_length): the config states no length");
  }
  if (const json* original = find_present(root, "original_max_position_embeddings")) {
    cfg.original_max_position_embeddings =
        read_whole(*original, "original_max_position_embeddings", 1, kMaxConfigPositions);
    if (cfg.max_position_embeddings > 0 && cfg.original_max_position_embeddings > cfg.max_position_embeddings) {
      reject("original_max_position_embeddings",
             "at most max_position_embeddings (" + whole(cfg.max_position_embeddings) + ")", *original);
    }
  }

  // Head geometry, under each family's names.
  const auto read_first = [&root](std::initializer_list<const char*> keys, std::int64_t cap, std::string& path) {
    for (const char* key : keys) {
      if (const json* value = find_present(root, key)) {
        path = key;
        return read_whole(*value, key, 1, cap);
      }
    }
    return std::int64_t{0};
  };
  std::string hidden_path;
  std::string heads_path;
  std::string head_dim_path;
  cfg.hidden_size = read_first({"hidden_size", "n_embd", "d_model"}, kMaxHiddenSize, hidden_path);
  cfg.num_attention_heads = read_first({"num_attention_heads", "n_head", "n_heads", "encoder_attention_heads"},
                                       kMaxAttentionHeads, heads_path);
  cfg.head_dim = read_first({"head_dim"}, kMaxHeadDim, head_dim_path);
  if (cfg.head_dim == 0 && cfg.hidden_size > 0 && cfg.num_attention_heads > 0) {
    if (cfg.hidden_size % cfg.num_attention_heads != 0) {
      throw InputError(hidden_path + " (" + whole(cfg.hidden_size) + ") must be a multiple of " + heads_path + " (" +
                       whole(cfg.num_attention_heads) + ") when head_dim is not given");
    }
    cfg.head_dim = cfg.hidden_size / cfg.num_attention_heads;
    if (cfg.head_dim > kMaxHeadDim) {
      throw InputError("head_dim = " + hidden_path + " / " + heads_path + " must be at most " + whole(kMaxHeadDim) +
                       " (the reader's cap), got " + whole(cfg.head_dim));
    }
  }

  if (cfg.scheme == PositionScheme::Rope) {
    parse_rope(root, cfg);
  } else if (find_present(root, "rope_scaling") || find_present(root, "rope_parameters")) {
    cfg.notes.push_back(std::string("the RoPE scaling block is ignored: the model uses ") + scheme_name(cfg.scheme));
  }

  if (const json* window = find_present(root, "sliding_window")) {
    cfg.sliding_window = read_whole(*window, "sliding_window", 1, kMaxConfigPositions);
    if (const json* use = find_present(root, "use_sliding_window"); use != nullptr &&
                                                                   !read_bool(*use, "use_sliding_window")) {
      cfg.sliding_window = 0;
      cfg.notes.push_back("sliding_window is given but use_sliding_window is false: attention is not windowed");
    }
  }
  return cfg;
}

Vector base_inverse_frequencies(const ModelConfig& cfg) {
  require_rope(cfg, "base_inverse_frequencies");
  return inverse_powers(cfg.rope_theta, cfg.rotary_dim);
}

Vector scaled_inverse_frequencies(const ModelConfig& cfg, std::int64_t seq_len) {
  require_rope(cfg, "scaled_inverse_frequencies");
  checked_length("seq_len", seq_len);
  const std::int64_t dim = cfg.rotary_dim;
  const std::int64_t pairs = dim / 2;
  const Vector base = inverse_powers(cfg.rope_theta, dim);
  const RopeScaling& s = cfg.scaling;
  switch (s.type) {
    case RopeType::Default:
      return base;
    case RopeType::Linear: {
      Vector scaled = base / s.factor;
      return scaled;
    }
    case RopeType::Dynamic:
      return inverse_powers(dynamic_base(cfg, seq_len), dim);
    case RopeType::Yarn: {
      const double factor = yarn_factor(cfg);
      const double original = static_cast<double>(yarn_original_length(cfg));
      const double d = static_cast<double>(dim);
      // The pair index at which a pair turns `rotations` times over the original length.
      const auto correction_dim = [&](double rotations) {
        return d * std::log(original / (rotations * 2.0 * kPi)) / (2.0 * std::log(cfg.rope_theta));
      };
      double low = correction_dim(s.beta_fast);
      double high = correction_dim(s.beta_slow);
      if (s.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
      }
      low = std::max(low, 0.0);
      high = std::min(high, d - 1.0);
      if (low == high) high += 0.001;  // transformers' guard against a zero-width ramp
      Vector inv(pairs);
      for (std::int64_t i = 0; i < pairs; ++i) {
        const double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
        // ramp 0: fast pairs keep their frequency (extrapolate); ramp 1: slow pairs are divided by factor.
        inv[i] = base[i] / factor * ramp + base[i] * (1.0 - ramp);
      }
      return inv;
    }
    case RopeType::Longrope: {
      const bool use_long = seq_len > longrope_original_length(cfg);
      const std::vector<double>& divisors = use_long ? s.long_factor : s.short_factor;
      Vector inv(pairs);
      for (std::int64_t i = 0; i < pairs; ++i) inv[i] = base[i] / divisors[static_cast<std::size_t>(i)];
      return inv;
    }
    case RopeType::Llama3: {
      const double original = static_cast<double>(s.original_max_position_embeddings);
      const double low_freq_wavelen = original / s.low_freq_factor;
      const double high_freq_wavelen = original / s.high_freq_factor;
      Vector inv(pairs);
      for (std::int64_t i = 0; i < pairs; ++i) {
        const double wavelen = 2.0 * kPi / base[i];
        if (wavelen < high_freq_wavelen) {
          inv[i] = base[i];
        } else if (wavelen > low_freq_wavelen) {
          inv[i] = base[i] / s.factor;
        } else {
          const double smooth = (original / wavelen - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
          inv[i] = (1.0 - smooth) * base[i] / s.factor + smooth * base[i];
        }
      }
      return inv;
    }
  }
  return base;
}

double rope_attention_factor(const ModelConfig& cfg) {
  require_rope(cfg, "rope_attention_factor");
  const RopeScaling& s = cfg.scaling;
  if (s.attention_factor > 0 && (s.type == RopeType::Yarn || s.type == RopeType::Longrope)) return s.attention_factor;
  if (s.type == RopeType::Yarn) {
    const double factor = yarn_factor(cfg);
    if (s.mscale > 0 && s.mscale_all_dim > 0) {
      return yarn_get_mscale(factor, s.mscale) / yarn_get_mscale(factor, s.mscale_all_dim);
    }
    return yarn_get_mscale(factor, 1.0);
  }
  if (s.type == RopeType::Longrope) {
    const double factor = longrope_factor(cfg);
    if (factor <= 1.0) return 1.0;
    return std::sqrt(1.0 + std::log(factor) / std::log(static_cast<double>(longrope_original_length(cfg))));
  }
  return 1.0;
}

ModelPositionReport analyse_model_config(const ModelConfig& cfg, std::int64_t prompt_length) {
  checked_length("prompt_length", prompt_length);
  ModelPositionReport r;
  r.scheme = cfg.scheme;
  r.model_type = cfg.model_type;
  r.prompt_length = prompt_length;
  r.head_dim = cfg.head_dim;
  r.sliding_window = cfg.sliding_window;
  r.notes = cfg.notes;
  r.advertised_length = cfg.max_position_embeddings;
  r.trained_length = cfg.original_max_position_embeddings > 0 ? cfg.original_max_position_embeddings
                                                                : cfg.max_position_embeddings;

  if (cfg.scheme == PositionScheme::Rope) {
    const RopeScaling& s = cfg.scaling;
    r.rope_type = s.type;
    if (s.original_max_position_embeddings > 0) r.trained_length = s.original_max_position_embeddings;
    r.rotary_dim = cfg.rotary_dim;
    r.base = cfg.rope_theta;
    switch (s.type) {
      case RopeType::Default:
        r.scaling_factor = 1.0;
        break;
      case RopeType::Yarn:
        r.scaling_factor = yarn_factor(cfg);
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
    r.base_inv_freq = base_inverse_frequencies(cfg);
    r.inv_freq = scaled_inverse_frequencies(cfg, prompt_length);
    const Eigen::Index pairs = r.inv_freq.size();
    r.wavelengths.resize(pairs);
    r.base_wavelengths.resize(pairs);
    r.beyond.assign(static_cast<std::size_t>(pairs), 0);
    const double trained_span = static_cast<double>(r.trained_length - 1);
    const double prompt_span = static_cast<double>(prompt_length - 1);
    for (Eigen::Index i = 0; i < pairs; ++i) {
      r.wavelengths[i] = 2.0 * kPi / r.inv_freq[i];
      r.base_wavelengths[i] = 2.0 * kPi / r.base_inv_freq[i];
      const double trained_angle = trained_span * r.base_inv_freq[i];
      const bool needs_more = prompt_span * r.inv_freq[i] > trained_angle;
      const bool never_full_turn = trained_angle < 2.0 * kPi;
      if (needs_more && never_full_turn) {
        r.beyond[static_cast<std::size_t>(i)] = 1;
        ++r.beyond_count;
      }
    }
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
