// Reader of the position fields of Hugging Face config.json files: strict JSON and the families' field
// names, read into a ModelConfig (see model_config.hpp for the rules). What a config gives (the report,
// whose every recipe comes from rope_scaling.hpp) is model_config_analysis.cpp's.
#include "positional/model_config.hpp"

#include <algorithm>
#include <cmath>
#include <limits>  // infinity: a pair that never turns
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

#include "model_config_shared.hpp"
#include "positional/limits.hpp"
#include "positional/rope.hpp"
#include "positional/rope_scaling.hpp"

namespace positional {

namespace {

using config_detail::is_layer_type;
using config_detail::whole;
using nlohmann::json;

constexpr double kMaxAttentionFactor = 1000.0;

// ---- describing values in error messages -----------------------------------------------

// The bare type word: "array", "string", "null" … (the top-level check names it; describe() puts
// "an" before it for arrays and objects).
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
    case json::value_t::object:
      return "an " + type_word(value);
    default:
      return "an unsupported value";
  }
}

[[noreturn]] void reject(const std::string& path, const std::string& rule, const json& value) {
  throw InputError(path + " must be " + rule + ", got " + describe(value));
}

// ---- what the reader does not understand ----------------------------------------------------

// Lists a well-formed field the reader does not know, once per field, value and effect (the codes of
// NotUnderstood in model_config.hpp).
void add_not_understood(std::vector<NotUnderstood>& list, const std::string& field, const std::string& value,
                        const char* effect) {
  const bool listed = std::any_of(list.begin(), list.end(), [&](const NotUnderstood& item) {
    return item.field == field && item.value == value && item.effect == effect;
  });
  if (!listed) list.push_back({field, value, effect});
}

// A scaling recipe that lacks a field it needs: thrown by read_recipe, caught by parse_rope, which then
// reads the frequencies unscaled and lists the field.
struct IncompleteRecipe {
  std::string field;
};

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
  return in_list(
      t, {"llama",      "mistral",     "mixtral",         "qwen2",       "qwen2_moe",    "qwen3",
          "qwen3_moe",  "gemma",       "gemma2",          "gemma3_text", "phi",          "phi3",
          "gpt_neox",   "gptj",        "falcon",          "stablelm",    "starcoder2",   "olmo",
          "olmo2",      "cohere",      "deepseek_v2",     "deepseek_v3", "internlm2",    "granite",
          "gpt_oss",    "persimmon",   "codegen",         "llama4",      "llama4_text",  "gemma3",
          "gemma4",     "gemma4_text", "qwen2_vl",        "qwen2_5_vl",  "qwen3_vl",     "qwen3_vl_text",
          "qwen3_next", "minimax",     "minimax_text_01", "minimax_m1",  "deepseek_v32", "glm_moe_dsa"});
}
bool is_sinusoidal_family(const std::string& t) {
  return in_list(t, {"marian", "pegasus", "m2m_100", "fsmt", "speech_to_text", "xglm"});
}
// State-space models: order is carried by the recurrence, not by any position encoding.
bool is_state_space_family(const std::string& t) {
  return in_list(t, {"mamba", "mamba2", "falcon_mamba", "rwkv", "jamba"});
}
bool is_relative_bucket_family(const std::string& t) {
  return in_list(t, {"t5", "mt5", "umt5", "longt5", "switch_transformers", "pop2piano", "udop"});
}
bool is_learned_family(const std::string& t) {
  return in_list(t, {"gpt2", "bert", "roberta", "distilbert", "gpt_neo", "opt", "bart", "mbart",
                     "xlm-roberta", "electra", "albert", "biogpt", "gpt_bigcode", "camembert", "deberta"});
}

PositionScheme detect_scheme(const json& root, const std::string& model_type, std::vector<std::string>& notes,
                             std::vector<NotUnderstood>& not_understood) {
  bool alibi = model_type == "bloom";
  if (const json* flag = find_present(root, "alibi")) alibi = read_bool(*flag, "alibi") || alibi;
  if (const json* attn = find_present(root, "attn_config")) {
    if (!attn->is_object()) reject("attn_config", "an object", *attn);
    if (const json* flag = find_present(*attn, "alibi"))
      alibi = read_bool(*flag, "attn_config.alibi") || alibi;
  }
  std::string embedding_type;
  if (const json* pet = find_present(root, "position_embedding_type")) {
    embedding_type = read_string(*pet, "position_embedding_type");
    // "rope" and "nope" are GraniteMoeHybridConfig's (Granite 4.0-H: its attention layers have no positions).
    if (!in_list(embedding_type, {"absolute", "rotary", "rope", "alibi", "nope"})) {
      // The field names the scheme outright (BERT's relative_key replaces its table), so no family
      // default stands in for it: only the lengths are read.
      add_not_understood(not_understood, "position_embedding_type", describe(*pet), "embedding_type");
      return PositionScheme::Unknown;
    }
  }
  if (alibi || embedding_type == "alibi") return PositionScheme::Alibi;
  if (embedding_type == "absolute") return PositionScheme::LearnedTable;
  if (embedding_type == "rotary" || embedding_type == "rope") return PositionScheme::Rope;
  if (embedding_type == "nope") return PositionScheme::None;
  // Kimi Linear as published: linear attention (Kimi Delta Attention) in most layers and MLA without RoPE
  // (mla_use_nope) in the rest, so no layer has positions, whatever rope_theta says.
  if (const json* nope = find_present(root, "mla_use_nope");
      nope != nullptr && find_present(root, "linear_attn_config") != nullptr &&
      read_bool(*nope, "mla_use_nope")) {
    return PositionScheme::None;
  }
  const bool rope_markers = find_present(root, "rope_theta") || find_present(root, "rope_scaling") ||
                            find_present(root, "rope_parameters") || find_present(root, "rotary_dim") ||
                            find_present(root, "rotary_pct") || find_present(root, "partial_rotary_factor") ||
                            find_present(root, "rotary_emb_base");
  if (find_present(root, "relative_attention_num_buckets") || is_relative_bucket_family(model_type)) {
    return PositionScheme::RelativeBuckets;
  }
  if (is_state_space_family(model_type)) return PositionScheme::None;
  const bool local_rope_markers =
      find_present(root, "global_rope_theta") || find_present(root, "local_rope_theta");
  if (rope_markers || local_rope_markers || is_rope_family(model_type) || model_type == "modernbert") {
    return PositionScheme::Rope;
  }
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
  // No family and no field names a scheme (the reader looked for rope_theta, rope_scaling,
  // rope_parameters, rotary_dim, rotary_pct, partial_rotary_factor, rotary_emb_base, global_rope_theta,
  // local_rope_theta, position_embedding_type, alibi, attn_config.alibi, sinusoidal_embeddings and
  // relative_attention_num_buckets): the lengths are still read.
  add_not_understood(not_understood, "model_type",
                     model_type.empty() ? "missing" : describe(json(model_type)), "no_scheme");
  return PositionScheme::Unknown;
}

// ---- the stable names of the schemes and recipes -------------------------------------------

// Each enumerator beside its stable name: reading a name and reporting one use the same spelling.
template <class Enum>
struct Named {
  Enum value;
  const char* name;
};

constexpr Named<PositionScheme> kSchemeNames[] = {{PositionScheme::LearnedTable, "learned"},
                                                  {PositionScheme::Sinusoidal, "sinusoidal"},
                                                  {PositionScheme::Rope, "rope"},
                                                  {PositionScheme::Alibi, "alibi"},
                                                  {PositionScheme::RelativeBuckets, "relative"},
                                                  {PositionScheme::None, "none"},
                                                  {PositionScheme::Unknown, "unknown"}};

// Also the names rope_type accepts, in the order its error message lists them.
constexpr Named<RopeType> kRopeTypeNames[] = {
    {RopeType::Default, "default"},          {RopeType::Linear, "linear"},
    {RopeType::Dynamic, "dynamic"},          {RopeType::Yarn, "yarn"},
    {RopeType::Longrope, "longrope"},        {RopeType::Llama3, "llama3"},
    {RopeType::Proportional, "proportional"}};

template <class Enum, std::size_t N>
const char* name_in(const Named<Enum> (&table)[N], Enum value) {
  for (const Named<Enum>& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "unknown";
}

// ---- the scaling block ---------------------------------------------------------------

// The recipe the block names. A name the reader does not know reads as default (unscaled) frequencies,
// listed in not_understood; only a rope_type that is not a string, or two spellings that disagree, are
// refused.
RopeType parse_rope_type(const json& block, const std::string& prefix, ModelConfig& cfg) {
  std::vector<std::string>& notes = cfg.notes;
  const auto note = [&notes](const std::string& text) {
    if (std::find(notes.begin(), notes.end(), text) == notes.end()) notes.push_back(text);
  };
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
  for (const Named<RopeType>& entry : kRopeTypeNames) {
    if (name == entry.name) return entry.value;
  }
  if (name == "su") {
    note(path + " \"su\" is the older name of longrope; read as longrope");
    return RopeType::Longrope;
  }
  if (name == "mrope") {
    // transformers (Qwen2VLConfig) rewrites "mrope" to "default": the frequencies are RoPE's own, and
    // mrope_section only says which position axis each pair turns by.
    note(path + " \"mrope\" is read as default frequencies with multimodal sections, as transformers does");
    return RopeType::Default;
  }
  add_not_understood(cfg.not_understood, path, describe(json(name)), "rope_type");
  return RopeType::Default;
}

std::vector<double> read_factor_list(const json& block, const std::string& prefix, const char* key,
                                     std::int64_t pairs) {
  const std::string path = prefix + "." + key;
  const json* list = find_present(block, key);
  if (list == nullptr) throw IncompleteRecipe{path};
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

std::string layer_type_list() {
  std::string known;
  for (const char* name : kLayerTypeNames) known += (known.empty() ? "" : ", ") + std::string(name);
  return known;
}

// Whether rope_parameters holds one block per layer type. Checks that every block is an object and
// that no flat field sits beside them (which of the two would apply is ambiguous).
bool per_layer_type_blocks(const json& parameters, std::vector<NotUnderstood>& not_understood) {
  const bool any = std::any_of(parameters.items().begin(), parameters.items().end(),
                               [](const auto& item) { return is_layer_type(item.key()); });
  if (!any) return false;
  for (const auto& item : parameters.items()) {
    const std::string path = "rope_parameters." + item.key();
    if (is_layer_type(item.key())) {
      if (!item.value().is_object()) reject(path, "an object (one block per layer type)", item.value());
    } else if (item.value().is_object()) {
      // A block for a layer type the reader does not know (DeepSeek-V4's compressed layers …).
      add_not_understood(not_understood, path, "an object", "scaling_field");
    } else if (!item.value().is_null()) {
      throw InputError("rope_parameters mixes one block per layer type with the field " + path +
                       " (which one applies is ambiguous); layer types: " + layer_type_list());
    }
  }
  return true;
}

// Picks the block: rope_parameters (newer transformers) before rope_scaling. Returns nullptr
// when neither holds one; sets prefix to the field path used in messages.
const json* select_scaling_block(const json& root, std::string& prefix, ModelConfig& cfg) {
  std::vector<std::string>& notes = cfg.notes;
  const json* parameters = find_present(root, "rope_parameters");
  const json* scaling = find_present(root, "rope_scaling");
  if (parameters != nullptr && !parameters->is_object())
    reject("rope_parameters", "an object or null", *parameters);
  if (scaling != nullptr && !scaling->is_object()) reject("rope_scaling", "an object or null", *scaling);
  if (parameters != nullptr) {
    prefix = "rope_parameters";
    if (scaling != nullptr) {
      notes.push_back("both rope_parameters and rope_scaling are present: rope_parameters is read");
    }
    // Per-layer-type blocks (transformers 5: Gemma 3 and 4, gpt-oss …):
    // {"full_attention": {...}, "sliding_attention": {...}}.
    if (per_layer_type_blocks(*parameters, cfg.not_understood)) {
      const char* main_type = nullptr;
      for (const char* type : {"full_attention", "chunked_attention"}) {
        if (find_present(*parameters, type) != nullptr) {
          main_type = type;
          break;
        }
      }
      if (main_type == nullptr) {
        throw InputError(
            "rope_parameters holds one block per layer type but none named full_attention or "
            "chunked_attention (the layers that see the whole prompt)");
      }
      prefix = std::string("rope_parameters.") + main_type;
      notes.push_back(std::string("rope_parameters has one block per layer type: the ") + main_type +
                      " block gives the global layers' recipe");
      return find_present(*parameters, main_type);
    }
    return parameters;
  }
  if (scaling != nullptr) {
    prefix = "rope_scaling";
    return scaling;
  }
  return nullptr;
}

// Qwen2-VL's mrope_section (pairs per axis: time, height, width) and Qwen3-VL's mrope_interleaved.
void read_mrope_section(const json& block, const std::string& prefix, std::int64_t pairs, ModelConfig& cfg) {
  const json* section = find_present(block, "mrope_section");
  if (section == nullptr) return;
  const std::string path = prefix + ".mrope_section";
  if (!section->is_array())
    reject(path, "an array of 3 whole numbers (pairs for time, height, width)", *section);
  std::vector<std::int64_t> values;
  for (std::size_t i = 0; i < section->size(); ++i) {
    values.push_back(read_whole((*section)[i], path + "[" + std::to_string(i) + "]", 0, kMaxHeadDim));
  }
  if (const json* interleaved = find_present(block, "mrope_interleaved")) {
    cfg.mrope_interleaved = read_bool(*interleaved, prefix + ".mrope_interleaved");
  }
  try {
    mrope_pair_axes(values, pairs, cfg.mrope_interleaved);
  } catch (const InputError& error) {
    // The recipe's rule, under the field's full path.
    throw InputError(prefix + "." + error.what());
  }
  cfg.mrope_section = std::move(values);
}

// The fields a scaling block may hold that some recipe (or transformers 5's rope_parameters) reads.
// clang-format off
constexpr const char* kScalingFields[] = {
    "rope_type", "type", "factor", "original_max_position_embeddings", "low_freq_factor",
    "high_freq_factor", "beta_fast", "beta_slow", "attention_factor", "mscale", "mscale_all_dim",
    "truncate", "alpha", "short_factor", "long_factor", "rope_theta", "partial_rotary_factor",
    "mrope_section", "mrope_interleaved", "llama_4_scaling_beta"};
// clang-format on

// Lists each field of the block that no recipe reads: the reader ignores it, and the card names it
// (a new runtime knob, or a misspelt one, changes nothing the card draws).
void list_unknown_scaling_fields(const json& block, const std::string& prefix, ModelConfig& cfg) {
  for (const auto& item : block.items()) {
    const bool known = std::any_of(std::begin(kScalingFields), std::end(kScalingFields),
                                   [&item](const char* name) { return item.key() == name; });
    if (!known)
      add_not_understood(cfg.not_understood, prefix + "." + item.key(), describe(item.value()),
                         "scaling_field");
  }
}

void read_recipe(const json& block_ref, const std::string& prefix, std::int64_t pairs, ModelConfig& cfg);

// Ministral 3 and Mistral Large 3: rope_parameters.llama_4_scaling_beta, a query scale that grows with the
// position, read beside the block's original_max_position_embeddings (transformers' Ministral3Attention
// reads both from rope_parameters). Without the length the scale cannot be computed: it is listed.
void read_query_scaling(const json& block, const std::string& prefix, ModelConfig& cfg) {
  const json* beta = find_present(block, "llama_4_scaling_beta");
  if (beta == nullptr) return;
  const double value = read_positive(*beta, prefix + ".llama_4_scaling_beta", kMaxScalingValue, true);
  const json* original = find_present(block, "original_max_position_embeddings");
  if (original == nullptr) {
    add_not_understood(cfg.not_understood, prefix + ".original_max_position_embeddings", "missing",
                       "query_scale_incomplete");
    return;
  }
  cfg.query_scaling_beta = value;
  cfg.query_scaling_length =
      read_whole(*original, prefix + ".original_max_position_embeddings", 1, kMaxConfigPositions);
}

void parse_rope(const json& root, ModelConfig& cfg) {
  std::string prefix;
  const json* block = select_scaling_block(root, prefix, cfg);

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
  } else if ((theta = find_present(root, "global_rope_theta")) != nullptr) {
    theta_path = "global_rope_theta";  // ModernBERT: the global layers' base
  }
  if (theta != nullptr) {
    cfg.rope_theta = read_positive(*theta, theta_path, kMaxRopeTheta);
    if (cfg.rope_theta <= 1)
      reject(theta_path, "a finite number > 1 (every pair would turn at one speed)", *theta);
  } else {
    cfg.rope_theta = 10000.0;
    cfg.notes.push_back("rope_theta is absent: transformers' default 10000 is used");
  }

  // Rotary width.
  if (cfg.head_dim == 0) {
    throw InputError("RoPE needs head_dim, or hidden_size and num_attention_heads: the config has neither");
  }
  if (const json* global = find_present(root, "global_head_dim");
      global != nullptr && prefix == "rope_parameters.full_attention") {
    // Gemma 4: the full-attention layers have heads of their own width.
    cfg.local_head_dim = cfg.head_dim;
    cfg.head_dim = read_whole(*global, "global_head_dim", 2, kMaxHeadDim);
    if (cfg.head_dim % 2 != 0) reject("global_head_dim", "even (pairs of dimensions turn together)", *global);
  }
  // transformers 5 keeps partial_rotary_factor inside rope_parameters; older configs at the top level.
  const json* partial = block != nullptr ? find_present(*block, "partial_rotary_factor") : nullptr;
  std::string partial_path = prefix + ".partial_rotary_factor";
  if (partial == nullptr) {
    partial = find_present(root, "partial_rotary_factor");
    partial_path = "partial_rotary_factor";
  }
  if (partial == nullptr && (partial = find_present(root, "rotary_pct")) != nullptr)
    partial_path = "rotary_pct";
  if (partial != nullptr) {
    if (!partial->is_number() || !std::isfinite(partial->get<double>()) || partial->get<double>() <= 0 ||
        partial->get<double>() > 1) {
      reject(partial_path, "a finite number in (0, 1]", *partial);
    }
    cfg.partial_rotary_factor = partial->get<double>();
  }
  if (const json* mla = find_present(root, "qk_rope_head_dim")) {
    // Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): RoPE turns only the decoupled
    // qk_rope_head_dim part of each query and key; the qk_nope_head_dim part carries no position.
    cfg.qk_rope_head_dim = read_whole(*mla, "qk_rope_head_dim", 2, kMaxHeadDim);
    if (cfg.qk_rope_head_dim % 2 != 0)
      reject("qk_rope_head_dim", "even (pairs of dimensions turn together)", *mla);
    if (const json* nope = find_present(root, "qk_nope_head_dim")) {
      cfg.qk_nope_head_dim = read_whole(*nope, "qk_nope_head_dim", 0, kMaxHeadDim);
      // A query and key head is the two parts together, whatever else the config says: DeepSeek-V2/V3
      // and Kimi state no head_dim (hidden_size / num_attention_heads, 56 for V3, is no width any head
      // has), and GLM-5 states head_dim 64 for its rotary part beside qk_head_dim 256.
      cfg.head_dim = cfg.qk_nope_head_dim + cfg.qk_rope_head_dim;
      cfg.head_dim_field = "qk_nope_head_dim + qk_rope_head_dim";
      if (const json* whole = find_present(root, "qk_head_dim")) {
        if (read_whole(*whole, "qk_head_dim", 2, 2 * kMaxHeadDim) != cfg.head_dim) {
          reject("qk_head_dim", "qk_nope_head_dim + qk_rope_head_dim = " + std::to_string(cfg.head_dim),
                 *whole);
        }
        cfg.head_dim_field = "qk_head_dim";
      }
    } else if (find_present(root, "head_dim") != nullptr && cfg.head_dim > cfg.qk_rope_head_dim) {
      // DeepSeek-V4 states the whole query and key width as head_dim, its rotary part among it.
      cfg.qk_nope_head_dim = cfg.head_dim - cfg.qk_rope_head_dim;
    }
    cfg.rotary_dim = cfg.qk_rope_head_dim;
  } else if (const json* explicit_dim = find_present(root, "rotary_dim")) {
    cfg.rotary_dim = read_whole(*explicit_dim, "rotary_dim", 2, cfg.head_dim);
    if (cfg.rotary_dim % 2 != 0)
      reject("rotary_dim", "even (pairs of dimensions turn together)", *explicit_dim);
  } else if (block != nullptr && parse_rope_type(*block, prefix, cfg) == RopeType::Proportional) {
    // Proportional RoPE: floor(partial_rotary_factor · head_dim / 2) pairs turn, spaced over the whole head.
    const std::int64_t rotating = proportional_rotating_pairs(cfg.head_dim, cfg.partial_rotary_factor);
    if (rotating < 1) {
      throw InputError("proportional RoPE turns int(" + partial_path +
                       " × head_dim // 2) pairs, which is 0 for " + format_number(cfg.partial_rotary_factor) +
                       " × " + whole(cfg.head_dim));
    }
    cfg.rotary_dim = 2 * rotating;
  } else {
    // transformers truncates: int(head_dim * partial_rotary_factor).
    cfg.rotary_dim = static_cast<std::int64_t>(static_cast<double>(cfg.head_dim) * cfg.partial_rotary_factor);
    if (partial == nullptr || cfg.partial_rotary_factor == 1.0) {
      if (cfg.head_dim % 2 != 0) {
        throw InputError("head_dim must be even for RoPE (pairs of dimensions turn together), got " +
                         whole(cfg.head_dim));
      }
    } else if (cfg.rotary_dim < 2 || cfg.rotary_dim % 2 != 0) {
      throw InputError("rotary_dim = int(head_dim × " + partial_path +
                       ") must be an even whole number ≥ 2, got " + whole(cfg.rotary_dim) + " (head_dim " +
                       whole(cfg.head_dim) + " × " + format_number(cfg.partial_rotary_factor) + ")");
    }
  }
  const std::int64_t pairs = cfg.rotary_dim / 2;

  if (block == nullptr) return;
  RopeScaling& s = cfg.scaling;
  s.field = prefix;
  s.type = parse_rope_type(*block, prefix, cfg);  // its notes were written once, for the rotary width
  read_mrope_section(*block, prefix, pairs, cfg);
  list_unknown_scaling_fields(*block, prefix, cfg);
  read_query_scaling(*block, prefix, cfg);
  try {
    read_recipe(*block, prefix, pairs, cfg);
  } catch (const IncompleteRecipe& missing) {
    // The recipe cannot be computed without the field: the frequencies are read unscaled, and the card
    // says so, rather than the whole config being refused.
    add_not_understood(cfg.not_understood, missing.field, "missing", "recipe_incomplete");
    const std::string field = s.field;
    s = RopeScaling{};
    s.field = field;
  }
}

// The recipe's own fields (factor, lengths, betas, lists). Throws IncompleteRecipe when the recipe
// lacks a field it cannot do without, InputError when a field is malformed.
void read_recipe(const json& block_ref, const std::string& prefix, std::int64_t pairs, ModelConfig& cfg) {
  const json* block = &block_ref;
  RopeScaling& s = cfg.scaling;
  const std::string type_name = rope_type_name(s.type);

  if (const json* factor = find_present(*block, "factor")) {
    s.factor = read_positive(*factor, prefix + ".factor", kMaxScalingValue);
    s.has_factor = true;
    if (s.type != RopeType::Default && s.factor < 1) {
      reject(prefix + ".factor", "≥ 1 for rope_type " + type_name + " (below 1 it would shrink the context)",
             *factor);
    }
  }
  // Dynamic NTK by alpha (Hunyuan's configs): vLLM's and SGLang's get_rope take "alpha" before
  // "factor" and enlarge the base once, for every prompt (DynamicNTKAlphaRotaryEmbedding);
  // transformers' dynamic recipe reads the factor only.
  if (const json* alpha = find_present(*block, "alpha")) {
    s.alpha = read_positive(*alpha, prefix + ".alpha", kMaxScalingValue);
    if (s.type != RopeType::Dynamic) {
      cfg.notes.push_back(prefix + ".alpha is read only with rope_type dynamic (vLLM, SGLang): ignored for " +
                          type_name);
      s.alpha = 0.0;
    }
  }
  if (!s.has_factor) {
    if (s.type == RopeType::Dynamic && s.alpha > 0) {
      cfg.notes.push_back(
          prefix +
          ".factor is absent: vLLM and SGLang read alpha instead; transformers' dynamic recipe "
          "needs a factor, and 1 is used here");
    } else if (s.type == RopeType::Linear || s.type == RopeType::Dynamic || s.type == RopeType::Llama3) {
      throw IncompleteRecipe{prefix + ".factor"};
    }
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
        cfg.notes.push_back(prefix +
                            ".original_max_position_embeddings is not used by dynamic scaling in "
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
      if (!s.has_factor) {
        // transformers 5 (_compute_yarn_parameters): "if factor is None: factor =
        // config.max_position_embeddings / original_max_position_embeddings".
        if (s.original_max_position_embeddings == 0) throw IncompleteRecipe{prefix + ".factor"};
        cfg.notes.push_back(prefix + ".factor is absent: max_position_embeddings / " + prefix +
                            ".original_max_position_embeddings is used, as transformers 5 does");
      }
      break;
    }
    case RopeType::Longrope:
      s.short_factor = read_factor_list(*block, prefix, "short_factor", pairs);
      s.long_factor = read_factor_list(*block, prefix, "long_factor", pairs);
      if (cfg.original_max_position_embeddings == 0 && s.original_max_position_embeddings == 0 &&
          !s.has_factor && s.attention_factor == 0) {
        throw IncompleteRecipe{prefix + ".factor"};
      }
      break;
    case RopeType::Llama3: {
      const char* keys[] = {"low_freq_factor", "high_freq_factor"};
      double* targets[] = {&s.low_freq_factor, &s.high_freq_factor};
      for (int k = 0; k < 2; ++k) {
        const json* v = find_present(*block, keys[k]);
        if (v == nullptr) throw IncompleteRecipe{prefix + "." + keys[k]};
        *targets[k] = read_positive(*v, prefix + "." + keys[k], kMaxScalingValue);
      }
      // Equal factors are legal (Llama 4 Scout Instruct: both 1): transformers' rule then has no
      // medium band, and every pair is either kept or divided by the factor.
      if (s.high_freq_factor < s.low_freq_factor) {
        throw InputError(prefix + ".high_freq_factor must be at least " + prefix +
                         ".low_freq_factor, got high_freq_factor " + format_number(s.high_freq_factor) +
                         " and low_freq_factor " + format_number(s.low_freq_factor));
      }
      if (s.original_max_position_embeddings == 0) {
        throw IncompleteRecipe{prefix + ".original_max_position_embeddings"};
      }
      break;
    }
    default:
      break;
  }
}

// ---- local layers, buckets, tables and hybrids ------------------------------------------------

// The local layers' own recipe in rope_parameters.sliding_attention: the types a local layer's
// frequencies can follow without a length of their own (default, linear, proportional).
void read_local_recipe(const json& sliding, ModelConfig& cfg) {
  const std::string prefix = "rope_parameters.sliding_attention";
  cfg.local_rope_type = parse_rope_type(sliding, prefix, cfg);
  if (cfg.local_rope_type != RopeType::Default && cfg.local_rope_type != RopeType::Linear &&
      cfg.local_rope_type != RopeType::Proportional) {
    reject(prefix + ".rope_type",
           "default, linear or proportional (the recipes this reader computes for local layers)",
           json(rope_type_name(cfg.local_rope_type)));
  }
  if (const json* factor = find_present(sliding, "factor")) {
    cfg.local_factor = read_positive(*factor, prefix + ".factor", kMaxScalingValue);
  } else if (cfg.local_rope_type == RopeType::Linear) {
    throw InputError(prefix + ".factor is missing: rope_type linear needs it");
  }
  if (const json* partial = find_present(sliding, "partial_rotary_factor")) {
    if (!partial->is_number() || !std::isfinite(partial->get<double>()) || partial->get<double>() <= 0 ||
        partial->get<double>() > 1) {
      reject(prefix + ".partial_rotary_factor", "a finite number in (0, 1]", *partial);
    }
    cfg.local_partial_rotary_factor = partial->get<double>();
  }
}

// Global/local RoPE: Gemma 3 (rope_local_base_freq with sliding_window, one global layer in
// sliding_window_pattern), Gemma 2 (every other layer local, same base), ModernBERT
// (local_rope_theta with local_attention, one global layer in global_attn_every_n_layers), and
// transformers 5's per-layer rope_parameters.sliding_attention.
void read_local_layers(const json& root, ModelConfig& cfg) {
  const json* theta = nullptr;
  if ((theta = find_present(root, "rope_local_base_freq")) != nullptr) {
    cfg.local_theta_field = "rope_local_base_freq";
  } else if ((theta = find_present(root, "local_rope_theta")) != nullptr) {
    cfg.local_theta_field = "local_rope_theta";
  } else if (const json* parameters = find_present(root, "rope_parameters");
             parameters != nullptr && parameters->is_object()) {
    if (const json* sliding = find_present(*parameters, "sliding_attention");
        sliding != nullptr && sliding->is_object()) {
      if ((theta = find_present(*sliding, "rope_theta")) != nullptr) {
        cfg.local_theta_field = "rope_parameters.sliding_attention.rope_theta";
      }
      read_local_recipe(*sliding, cfg);
      list_unknown_scaling_fields(*sliding, "rope_parameters.sliding_attention", cfg);
    }
  }
  if (theta != nullptr) {
    cfg.local_rope_theta = read_positive(*theta, cfg.local_theta_field, kMaxRopeTheta);
    if (cfg.local_rope_theta <= 1) {
      reject(cfg.local_theta_field, "a finite number > 1 (every pair would turn at one speed)", *theta);
    }
  } else if (cfg.model_type == "gemma2" && cfg.sliding_window > 0) {
    cfg.local_rope_theta = cfg.rope_theta;  // Gemma 2's local layers turn at the global base
    cfg.local_theta_field = "rope_theta";
    cfg.global_every = 2;
  } else {
    return;
  }
  if (const json* window = find_present(root, "local_attention")) {
    cfg.local_window = read_whole(*window, "local_attention", 1, kMaxConfigPositions);
  } else {
    cfg.local_window = cfg.sliding_window;
  }
  for (const char* key : {"global_attn_every_n_layers", "sliding_window_pattern"}) {
    if (const json* every = find_present(root, key))
      cfg.global_every = read_whole(*every, key, 1, kMaxAttentionHeads);
  }
}

// SmolLM3 (SmolLM3Config): no_rope_layers, one flag per layer (1 turns RoPE, 0 is a NoPE layer), or
// when absent one NoPE layer in every no_rope_layer_interval. Without layer_types, a layer is
// full_attention, or sliding_attention when use_sliding_window and sliding_window are set and it has
// no RoPE, as SmolLM3Config.__post_init__ derives them. A NoPE layer attends without positions and
// without chunks: SmolLM3 has no attention_chunk_size.
void read_no_rope_layers(const json& root, ModelConfig& cfg) {
  const json* flags = find_present(root, "no_rope_layers");
  const bool smollm3 = cfg.model_type == "smollm3";
  if (flags == nullptr && !(smollm3 && cfg.num_layers > 0)) return;
  if (cfg.num_layers == 0) {
    throw InputError("no_rope_layers needs num_hidden_layers to lay out the layers: the config has none");
  }
  if (flags != nullptr && !flags->is_array()) reject("no_rope_layers", "an array of 0 and 1", *flags);
  std::vector<std::uint8_t> nope(static_cast<std::size_t>(cfg.num_layers), 0);
  if (flags != nullptr && !flags->empty()) {
    // SmolLM3Config: "at least the same length as the number of layers"; the layers read the first ones.
    if (static_cast<std::int64_t>(flags->size()) < cfg.num_layers) {
      throw InputError("no_rope_layers must hold at least num_hidden_layers = " + whole(cfg.num_layers) +
                       " entries, got " + std::to_string(flags->size()));
    }
    for (std::int64_t i = 0; i < cfg.num_layers; ++i) {
      const std::size_t k = static_cast<std::size_t>(i);
      nope[k] = read_whole((*flags)[k], "no_rope_layers[" + std::to_string(i) + "]", 0, 1) == 0 ? 1 : 0;
    }
  } else {
    std::int64_t interval = 4;  // SmolLM3Config's default
    if (const json* n = find_present(root, "no_rope_layer_interval")) {
      interval = read_whole(*n, "no_rope_layer_interval", 1, kMaxAttentionHeads);
    }
    for (std::int64_t i = 0; i < cfg.num_layers; ++i)
      nope[static_cast<std::size_t>(i)] = (i + 1) % interval == 0;
  }
  if (cfg.layer_types.empty()) {
    // SmolLM3Config's use_sliding_window defaults to false; given as false, sliding_window is already 0.
    const bool sliding = cfg.sliding_window > 0 && find_present(root, "use_sliding_window") != nullptr;
    for (std::int64_t i = 0; i < cfg.num_layers; ++i) {
      cfg.layer_types.push_back(sliding && nope[static_cast<std::size_t>(i)] ? "sliding_attention"
                                                                             : "full_attention");
    }
    cfg.layer_types_field = flags != nullptr ? "no_rope_layers" : "no_rope_layer_interval";
  }
  cfg.nope_layers = std::move(nope);
}

// Llama 4's attention beside its layer pattern: its layers without RoPE attend to the whole prompt,
// its RoPE layers in chunks, and the NoPE layers' queries are scaled by a temperature.
void read_llama4_attention(const json& root, ModelConfig& cfg) {
  cfg.full_attention_nope = true;
  // Llama4TextConfig's defaults: chunks of 8192, temperature tuning on, floor 8192, scale 0.1.
  cfg.attention_chunk_size = 8192;
  if (const json* chunk = find(root, "attention_chunk_size")) {
    cfg.attention_chunk_size =
        chunk->is_null() ? 0 : read_whole(*chunk, "attention_chunk_size", 1, kMaxConfigPositions);
  }
  cfg.attn_temperature_tuning = true;
  if (const json* tuning = find_present(root, "attn_temperature_tuning")) {
    if (tuning->is_boolean()) {
      cfg.attn_temperature_tuning = tuning->get<bool>();
    } else if (tuning->is_number()) {
      // Meta's published configs write a number here (4); Python reads any non-zero one as true.
      cfg.attn_temperature_tuning =
          read_whole(*tuning, "attn_temperature_tuning", 0, kMaxAttentionHeads) != 0;
      cfg.notes.push_back("attn_temperature_tuning is the number " + describe(*tuning) + ", read as " +
                          (cfg.attn_temperature_tuning ? "true" : "false") +
                          " (transformers tests it for truth)");
    } else {
      reject("attn_temperature_tuning", "true or false", *tuning);
    }
  }
  cfg.floor_scale = 8192;
  cfg.attn_scale = 0.1;
  if (const json* floor = find_present(root, "floor_scale")) {
    cfg.floor_scale = read_positive(*floor, "floor_scale", static_cast<double>(kMaxConfigPositions));
  }
  if (const json* scale = find_present(root, "attn_scale")) {
    cfg.attn_scale = read_positive(*scale, "attn_scale", kMaxScalingValue, true);
  }
}

// Each layer's type (transformers' layer_types), from the config's own list or from the pattern its
// family states: Llama 4's no_rope_layers or no_rope_layer_interval (iRoPE), Qwen3-Next's
// full_attention_interval, Gemma's sliding_window_pattern, ModernBERT's global_attn_every_n_layers.
// Every derivation follows the family's configuration_*.py in transformers 5.
// DeepSeek-V4 as its published config.json lays out its layers (DeepSeek's inference/model.py): one
// compress_ratios entry per layer, then one per multi-token-prediction layer. 0 is a window only (rope_theta,
// unscaled); 4 is compressed sparse attention, one entry per 4 tokens ranked by the indexer (the published
// weights hold indexer tensors on exactly those layers); another rate is heavily compressed attention, every
// entry attended. Read as the layer types transformers' DeepseekV4Config names; a second rate besides 4 is a
// kind the reader does not know.
void read_compress_ratios(const json& list, ModelConfig& cfg) {
  if (!list.is_array() || list.empty()) {
    reject("compress_ratios", "a non-empty array of whole numbers ≥ 0, one per layer", list);
  }
  if (cfg.num_layers > 0 && static_cast<std::int64_t>(list.size()) < cfg.num_layers) {
    throw InputError("compress_ratios must hold at least num_hidden_layers = " + whole(cfg.num_layers) +
                     " entries (one per layer), got " + std::to_string(list.size()));
  }
  if (cfg.num_layers == 0)
    cfg.num_layers = std::min<std::int64_t>(static_cast<std::int64_t>(list.size()), kMaxAttentionHeads);
  const std::size_t extra = list.size() - static_cast<std::size_t>(cfg.num_layers);
  if (extra > 0) {
    cfg.notes.push_back("compress_ratios holds " + std::to_string(list.size()) + " entries for " +
                        whole(cfg.num_layers) + " layers: those past the first " + whole(cfg.num_layers) +
                        " belong to the multi-token-prediction layers, which are not drawn");
  }
  cfg.layer_types_field = "compress_ratios";
  for (std::int64_t i = 0; i < cfg.num_layers; ++i) {
    const std::string path = "compress_ratios[" + std::to_string(i) + "]";
    const json& entry = list[static_cast<std::size_t>(i)];
    const std::int64_t rate = read_whole(entry, path, 0, kMaxConfigPositions);
    if (rate == 0) {
      cfg.layer_types.emplace_back("sliding_attention");
    } else if (rate == 4) {
      cfg.compress_rate_csa = 4;
      cfg.layer_types.emplace_back("compressed_sparse_attention");
    } else if (cfg.compress_rate_hca == 0 || cfg.compress_rate_hca == rate) {
      cfg.compress_rate_hca = rate;
      cfg.layer_types.emplace_back("heavily_compressed_attention");
    } else {
      const std::string name = "compressed_attention_" + whole(rate);
      const bool listed =
          std::find(cfg.layer_types.begin(), cfg.layer_types.end(), name) != cfg.layer_types.end();
      if (!listed) cfg.not_understood.push_back({path, describe(entry), "layer_type"});
      cfg.layer_types.push_back(name);
    }
  }
}

void read_layer_types(const json& root, ModelConfig& cfg) {
  // Llama 4's iRoPE (RoPE layers in chunks, NoPE layers scaling their queries) by its model_type, or by
  // no_rope_layers beside attention_chunk_size; no_rope_layers alone (SmolLM3) marks NoPE layers in a
  // model that otherwise attends as its layer types say (read_no_rope_layers).
  const bool llama4 = cfg.model_type == "llama4_text" || cfg.model_type == "llama4" ||
                      (find_present(root, "no_rope_layers") != nullptr &&
                       find_present(root, "attention_chunk_size") != nullptr);
  const auto need_layers = [&cfg](const std::string& field) {
    if (cfg.num_layers == 0) {
      throw InputError(field + " needs num_hidden_layers to lay out the layers: the config has none");
    }
  };
  const auto derive = [&cfg](const std::string& field, auto type_of) {
    cfg.layer_types_field = field;
    for (std::int64_t i = 0; i < cfg.num_layers; ++i) cfg.layer_types.push_back(type_of(i));
  };
  if (const json* list = find_present(root, "layer_types")) {
    if (!list->is_array()) reject("layer_types", "an array of layer type names", *list);
    if (cfg.num_layers > 0 && static_cast<std::int64_t>(list->size()) != cfg.num_layers) {
      throw InputError("layer_types must hold num_hidden_layers = " + whole(cfg.num_layers) +
                       " entries, got " + std::to_string(list->size()));
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = "layer_types[" + std::to_string(i) + "]";
      const std::string name = read_string((*list)[i], path);
      if (!is_layer_type(name)) {
        // Listed once per name, at its first layer.
        const bool listed =
            std::any_of(cfg.not_understood.begin(), cfg.not_understood.end(), [&](const NotUnderstood& item) {
              return item.effect == std::string("layer_type") && item.value == describe((*list)[i]);
            });
        if (!listed) cfg.not_understood.push_back({path, describe((*list)[i]), "layer_type"});
      }
      cfg.layer_types.push_back(name);
    }
    cfg.num_layers = static_cast<std::int64_t>(list->size());
    cfg.layer_types_field = "layer_types";
  } else if (llama4) {
    need_layers("Llama 4's no_rope_layers");
    const json* flags = find_present(root, "no_rope_layers");
    if (flags != nullptr && !flags->is_array()) reject("no_rope_layers", "an array of 0 and 1", *flags);
    if (flags != nullptr && !flags->empty()) {
      if (static_cast<std::int64_t>(flags->size()) != cfg.num_layers) {
        throw InputError("no_rope_layers must hold num_hidden_layers = " + whole(cfg.num_layers) +
                         " entries, got " + std::to_string(flags->size()));
      }
      // Despite the name, 1 marks a layer that uses RoPE (Llama4TextConfig's docstring).
      std::vector<std::int64_t> uses_rope;
      for (std::size_t i = 0; i < flags->size(); ++i) {
        uses_rope.push_back(read_whole((*flags)[i], "no_rope_layers[" + std::to_string(i) + "]", 0, 1));
      }
      derive("no_rope_layers", [&uses_rope](std::int64_t i) {
        return uses_rope[static_cast<std::size_t>(i)] == 1 ? "chunked_attention" : "full_attention";
      });
    } else {
      std::int64_t interval = 4;  // Llama4TextConfig's default
      if (const json* n = find_present(root, "no_rope_layer_interval")) {
        interval = read_whole(*n, "no_rope_layer_interval", 1, kMaxAttentionHeads);
      }
      derive("no_rope_layer_interval", [interval](std::int64_t i) {
        return (i + 1) % interval != 0 ? "chunked_attention" : "full_attention";
      });
    }
  } else if (const json* ratios = find_present(root, "compress_ratios");
             ratios != nullptr && cfg.model_type == "deepseek_v4") {
    read_compress_ratios(*ratios, cfg);
  } else if (const json* kinds = find_present(root, "attn_type_list")) {
    // MiniMax-Text-01 and MiniMax-M1 (vLLM's minimax_text_01.py): 0 marks a lightning-attention
    // layer (linear attention, no positions), 1 a softmax-attention layer with RoPE.
    if (!kinds->is_array()) reject("attn_type_list", "an array of 0 and 1", *kinds);
    if (cfg.num_layers > 0 && static_cast<std::int64_t>(kinds->size()) != cfg.num_layers) {
      throw InputError("attn_type_list must hold num_hidden_layers = " + whole(cfg.num_layers) +
                       " entries, got " + std::to_string(kinds->size()));
    }
    if (kinds->empty() || static_cast<std::int64_t>(kinds->size()) > kMaxAttentionHeads) {
      throw InputError("attn_type_list must hold 1 to " + whole(kMaxAttentionHeads) +
                       " entries (one per layer), got " + std::to_string(kinds->size()));
    }
    std::vector<std::int64_t> softmax;
    for (std::size_t i = 0; i < kinds->size(); ++i) {
      const json& k = (*kinds)[i];
      // A number equal to 0 or 1 (Python compares 1.0 == 1 as vLLM reads it); true and false are refused.
      if (!k.is_number() || (k.get<double>() != 0.0 && k.get<double>() != 1.0)) {
        reject("attn_type_list[" + std::to_string(i) + "]",
               "0 (lightning attention) or 1 (softmax attention)", k);
      }
      softmax.push_back(k.get<double>() == 1.0 ? 1 : 0);
    }
    cfg.num_layers = static_cast<std::int64_t>(kinds->size());
    derive("attn_type_list", [&softmax](std::int64_t i) {
      return softmax[static_cast<std::size_t>(i)] == 1 ? "full_attention" : "linear_attention";
    });
  } else if (const json* every = find_present(root, "full_attention_interval")) {
    const std::int64_t interval = read_whole(*every, "full_attention_interval", 1, kMaxAttentionHeads);
    need_layers("full_attention_interval");
    derive("full_attention_interval", [interval](std::int64_t i) {
      return (i + 1) % interval == 0 ? "full_attention" : "linear_attention";
    });
  } else if (cfg.model_type == "gemma4_text" && cfg.num_layers > 0) {
    // Gemma4TextConfig without layer_types: every sixth layer full attention, and the last one always.
    derive("Gemma4TextConfig's default pattern", [&cfg](std::int64_t i) {
      return (i + 1) % 6 == 0 || i == cfg.num_layers - 1 ? "full_attention" : "sliding_attention";
    });
    cfg.notes.push_back(
        "layer_types is absent: Gemma4TextConfig's default is used (every sixth layer and the last attend to "
        "the "
        "whole prompt)");
  } else if (cfg.local_rope_theta > 0 && cfg.global_every > 0 && cfg.num_layers > 0) {
    if (find_present(root, "global_attn_every_n_layers") != nullptr) {
      // ModernBERT: layer i is global when i % n == 0.
      derive("global_attn_every_n_layers", [&cfg](std::int64_t i) {
        return i % cfg.global_every == 0 ? "full_attention" : "sliding_attention";
      });
    } else {
      // Gemma 2 and 3: every pattern-th layer is global, counting from 1.
      derive(cfg.model_type == "gemma2" ? "model_type gemma2" : "sliding_window_pattern",
             [&cfg](std::int64_t i) {
               return (i + 1) % cfg.global_every == 0 ? "full_attention" : "sliding_attention";
             });
    }
  }
  if (!llama4) {
    read_no_rope_layers(root, cfg);
    return;
  }
  read_llama4_attention(root, cfg);
}

// A hybrid without positions (Granite 4.0-H: position_embedding_type "nope"): layer_types names each
// layer "mamba" or "attention"; the attention layers are listed as Jamba's are. Other names are listed
// as not understood.
void read_hybrid_layer_types(const json& root, ModelConfig& cfg) {
  const json* list = find_present(root, "layer_types");
  if (list == nullptr) return;
  if (!list->is_array()) reject("layer_types", "an array of layer type names", *list);
  if (cfg.num_layers > 0 && static_cast<std::int64_t>(list->size()) != cfg.num_layers) {
    throw InputError("layer_types must hold num_hidden_layers = " + whole(cfg.num_layers) + " entries, got " +
                     std::to_string(list->size()));
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = "layer_types[" + std::to_string(i) + "]";
    const std::string name = read_string((*list)[i], path);
    if (name == "attention" || name == "full_attention") {
      cfg.attention_layers.push_back(static_cast<std::int64_t>(i));
    } else if (name != "mamba") {
      const bool listed =
          std::any_of(cfg.not_understood.begin(), cfg.not_understood.end(), [&](const NotUnderstood& item) {
            return item.effect == std::string("layer_type") && item.value == describe((*list)[i]);
          });
      if (!listed) cfg.not_understood.push_back({path, describe((*list)[i]), "layer_type"});
    }
  }
  cfg.num_layers = static_cast<std::int64_t>(list->size());
}

// Kimi Linear's linear_attn_config (its configuration_kimi.py): kda_layers lists the linear-attention layers
// and full_attn_layers the MLA ones, both counted from 1; a layer in neither list is MLA, as vLLM's
// KimiLinear reads it (is_kda_layer: index + 1 in kda_layers).
void read_linear_attention_layers(const json& root, ModelConfig& cfg) {
  const json* linear = find_present(root, "linear_attn_config");
  if (linear == nullptr) return;
  if (!linear->is_object()) reject("linear_attn_config", "an object", *linear);
  if (cfg.num_layers == 0) {
    throw InputError("linear_attn_config needs num_hidden_layers to lay out the layers: the config has none");
  }
  const auto read_layers = [&](const char* name) {
    std::vector<std::uint8_t> listed(static_cast<std::size_t>(cfg.num_layers), 0);
    const json* list = find_present(*linear, name);
    if (list == nullptr) return std::make_pair(false, listed);
    const std::string path = std::string("linear_attn_config.") + name;
    if (!list->is_array()) reject(path, "an array of layer numbers counted from 1", *list);
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string entry = path + "[" + std::to_string(i) + "]";
      const std::int64_t layer = read_whole((*list)[i], entry, 1, kMaxConfigPositions);
      if (layer > cfg.num_layers)
        reject(entry, "a layer counted from 1 to num_hidden_layers = " + whole(cfg.num_layers), (*list)[i]);
      listed[static_cast<std::size_t>(layer - 1)] = 1;
    }
    return std::make_pair(true, listed);
  };
  const auto [has_kda, kda] = read_layers("kda_layers");
  const auto [has_full, full] = read_layers("full_attn_layers");
  if (!has_kda && !has_full) return;
  cfg.recurrent_kind = "kda";
  cfg.attention_layers.clear();
  for (std::int64_t i = 0; i < cfg.num_layers; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (has_kda ? kda[k] == 0 : full[k] == 1) cfg.attention_layers.push_back(i);
  }
}

void read_scheme_details(const json& root, ModelConfig& cfg) {
  if (cfg.scheme == PositionScheme::RelativeBuckets) {
    // transformers' T5Config defaults: 32 buckets reaching 128 tokens.
    cfg.relative_buckets = 32;
    cfg.relative_max_distance = 128;
    if (const json* n = find_present(root, "relative_attention_num_buckets")) {
      cfg.relative_buckets = read_whole(*n, "relative_attention_num_buckets", 4, kMaxHeadDim);
    } else {
      cfg.notes.push_back("relative_attention_num_buckets is absent: T5's default 32 is used");
    }
    if (const json* d = find_present(root, "relative_attention_max_distance")) {
      cfg.relative_max_distance = read_whole(*d, "relative_attention_max_distance", 1, kMaxConfigPositions);
    } else {
      cfg.notes.push_back("relative_attention_max_distance is absent: T5's default 128 is used");
    }
  }
  if (cfg.scheme == PositionScheme::LearnedTable && cfg.model_type == "opt") {
    // transformers' OPTLearnedPositionalEmbedding: positions are shifted by 2, so the table
    // holds max_position_embeddings + 2 rows and the first two are never a token's position.
    cfg.learned_offset = 2;
  }
  if (cfg.model_type == "jamba") {
    // Jamba: attention in layer i when i % attn_layer_period == attn_layer_offset, Mamba elsewhere.
    std::int64_t period = 8;
    std::int64_t offset = 4;
    if (const json* p = find_present(root, "attn_layer_period"))
      period = read_whole(*p, "attn_layer_period", 1, 4096);
    if (const json* o = find_present(root, "attn_layer_offset"))
      offset = read_whole(*o, "attn_layer_offset", 0, 4095);
    if (offset >= period) {
      throw InputError("attn_layer_offset must be less than attn_layer_period (" + whole(period) + "), got " +
                       whole(offset));
    }
    for (std::int64_t i = offset; i < cfg.num_layers; i += period) cfg.attention_layers.push_back(i);
  }
  if (cfg.scheme == PositionScheme::None) {
    read_hybrid_layer_types(root, cfg);
    read_linear_attention_layers(root, cfg);
  }
}

}  // namespace

const char* scheme_name(PositionScheme scheme) { return name_in(kSchemeNames, scheme); }

const char* rope_type_name(RopeType type) { return name_in(kRopeTypeNames, type); }

namespace {
// Reads one config object: the whole config, or the text model inside a wrapper (whose model_type
// stands in when the text model names none).
ModelConfig read_config_object(const json& given, const std::string& wrapper_type);
}  // namespace

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
  const json top = parse_limited(text);
  if (!top.is_object()) throw InputError("config must be a JSON object, got " + type_word(top));
  std::string wrapper_type;
  if (const json* type = find_present(top, "model_type")) wrapper_type = read_string(*type, "model_type");
  for (const char* key : {"text_config", "language_config", "llm_config"}) {
    const json* nested = find_present(top, key);
    if (nested == nullptr) continue;
    if (!nested->is_object()) reject(key, "an object (the text model's config) or null", *nested);
    if (nested->empty()) continue;
    try {
      ModelConfig cfg = read_config_object(*nested, wrapper_type);
      cfg.text_field = key;
      cfg.notes.insert(cfg.notes.begin(),
                       std::string("the text model is read from ") + key + ": the top level" +
                           (wrapper_type.empty() ? std::string() : " (model_type \"" + wrapper_type + "\")") +
                           " wraps it with other parts (vision, audio)");
      return cfg;
    } catch (const InputError& error) {
      throw InputError(std::string("in ") + key + ": " + error.what());
    }
  }
  return read_config_object(top, "");
}

namespace {

// Fields named for rotary positions that the reader reads, or knows change nothing it draws
// (rope_interleave: the pairs' layout in the head, not their frequencies).
// clang-format off
constexpr const char* kPositionFields[] = {
    "rope_theta", "rope_scaling", "rope_parameters", "rotary_dim", "rotary_pct", "rotary_emb_base",
    "rope_local_base_freq", "local_rope_theta", "global_rope_theta", "qk_rope_head_dim", "no_rope_layers",
    "no_rope_layer_interval", "partial_rotary_factor", "rope_interleave", "indexer_rope_interleave",
    "compress_rope_theta"};
// clang-format on

// DeepSeek-V4's compressed layers (transformers' DeepseekV4Config.__post_init__): the scaling block read as
// the global recipe belongs to the compressed layers, at compress_rope_theta (default 160000), with YaRN's
// cos/sin factor 1 unless given; the sliding layers turn rope_theta unscaled, so they are read as local
// layers. Compress rates: compress_rates {layer type: rate}, the older compress_rate_csa / compress_rate_hca,
// else 4 and 128.
void read_compressed_layers(const json& root, ModelConfig& cfg) {
  const bool compressed =
      std::any_of(cfg.layer_types.begin(), cfg.layer_types.end(), [](const std::string& type) {
        return type == "compressed_sparse_attention" || type == "heavily_compressed_attention";
      });
  if (!compressed) return;
  // Rates compress_ratios gave stand; otherwise DeepseekV4Config's defaults.
  if (cfg.compress_rate_csa == 0) cfg.compress_rate_csa = 4;
  if (cfg.compress_rate_hca == 0) cfg.compress_rate_hca = 128;
  if (const json* rates = find_present(root, "compress_rates")) {
    if (!rates->is_object()) reject("compress_rates", "an object of rates by layer type", *rates);
    if (const json* csa = find_present(*rates, "compressed_sparse_attention"))
      cfg.compress_rate_csa =
          read_whole(*csa, "compress_rates.compressed_sparse_attention", 1, kMaxConfigPositions);
    if (const json* hca = find_present(*rates, "heavily_compressed_attention"))
      cfg.compress_rate_hca =
          read_whole(*hca, "compress_rates.heavily_compressed_attention", 1, kMaxConfigPositions);
  }
  if (const json* csa = find_present(root, "compress_rate_csa"))
    cfg.compress_rate_csa = read_whole(*csa, "compress_rate_csa", 1, kMaxConfigPositions);
  if (const json* hca = find_present(root, "compress_rate_hca"))
    cfg.compress_rate_hca = read_whole(*hca, "compress_rate_hca", 1, kMaxConfigPositions);
  double compress_theta = 160000.0;
  if (const json* theta = find_present(root, "compress_rope_theta")) {
    compress_theta = read_positive(*theta, "compress_rope_theta", kMaxRopeTheta);
    if (compress_theta <= 1)
      reject("compress_rope_theta", "a finite number > 1 (every pair would turn at one speed)", *theta);
  } else {
    cfg.notes.push_back(
        "compress_rope_theta is absent: DeepseekV4Config's default 160000 is used, as transformers does");
  }
  cfg.local_rope_theta = cfg.rope_theta;
  cfg.local_theta_field = "rope_theta";
  cfg.local_window = cfg.sliding_window;
  cfg.rope_theta = compress_theta;
  if (cfg.scaling.type == RopeType::Yarn && cfg.scaling.attention_factor == 0)
    cfg.scaling.attention_factor = 1;
}

// DeepSeek Sparse Attention's indexer (DeepSeek-V3.2's config.json, GlmMoeDsaConfig for GLM-5): index_topk
// tokens per query, index_n_heads heads of index_head_dim, of which the first rotary_dim dimensions turn
// (DeepSeek's inference/model.py splits rope_head_dim = qk_rope_head_dim off each indexer head; transformers'
// GlmMoeDsaIndexer splits qk_rope_head_dim). An absent head count or width is 0: not stated.
void read_sparse_indexer(const json& root, ModelConfig& cfg) {
  const json* topk = find_present(root, "index_topk");
  if (topk == nullptr) return;
  cfg.index_topk = read_whole(*topk, "index_topk", 1, kMaxConfigPositions);
  if (const json* heads = find_present(root, "index_n_heads"))
    cfg.index_n_heads = read_whole(*heads, "index_n_heads", 1, kMaxAttentionHeads);
  if (const json* width = find_present(root, "index_head_dim")) {
    cfg.index_head_dim = read_whole(*width, "index_head_dim", 2, kMaxHeadDim);
    if (cfg.index_head_dim < cfg.rotary_dim) {
      reject("index_head_dim",
             "at least the rotary width " + whole(cfg.rotary_dim) +
                 " (the indexer turns that many of its dimensions, as the main attention does)",
             *width);
    }
  }
  if (const json* interleave = find_present(root, "indexer_rope_interleave"))
    cfg.indexer_rope_interleave = read_bool(*interleave, "indexer_rope_interleave");
}

// Lists each field of the text model whose name says it is about rotary positions ("rope", "rotary")
// but that the reader does not read: DeepSeek-V4's second RoPE (compress_rope_theta,
// compress_rope_parameters) and the next family's. Ignored, and named on the card.
void list_unknown_position_fields(const json& root, ModelConfig& cfg) {
  for (const auto& item : root.items()) {
    const std::string& key = item.key();
    if (key.find("rope") == std::string::npos && key.find("rotary") == std::string::npos) continue;
    if (item.value().is_null()) continue;
    const bool known = std::any_of(std::begin(kPositionFields), std::end(kPositionFields),
                                   [&key](const char* name) { return key == name; });
    if (!known) add_not_understood(cfg.not_understood, key, describe(item.value()), "position_field");
  }
}

// transformers' Gemma3TextConfig defaults: Google's published multimodal configs leave these out of
// text_config, and the text model takes them from the class.
void apply_family_defaults(json& root, std::vector<std::string>& notes) {
  const json* type = find_present(root, "model_type");
  if (type == nullptr || !type->is_string() || type->get<std::string>() != "gemma3_text") return;
  const std::pair<const char*, json> defaults[] = {
      {"max_position_embeddings", 131072}, {"rope_theta", 1000000.0},
      {"rope_local_base_freq", 10000.0},   {"head_dim", 256},
      {"num_attention_heads", 8},          {"sliding_window", 4096},
      {"sliding_window_pattern", 6}};
  for (const auto& [key, value] : defaults) {
    if (find(root, key) != nullptr) continue;
    if (std::string(key) == "sliding_window_pattern" && find_present(root, "layer_types") != nullptr)
      continue;
    root[key] = value;
    notes.push_back(std::string(key) + " is absent: Gemma3TextConfig's default " + describe(value) +
                    " is used, as transformers does");
  }
}

// DeepSeek-V4's rope_parameters as transformers 5 saves it, keyed by rope kind: {"main": the sliding layers'
// RoPE, "compress": the compressed layers'}. DeepseekV4Config.__post_init__ keeps these over any top-level
// field, so they are read as rope_theta, compress_rope_theta and the scaling block (the compressed layers').
void unnest_deepseek_v4_rope(json& root) {
  const json* type = find_present(root, "model_type");
  if (type == nullptr || !type->is_string() || type->get<std::string>() != "deepseek_v4") return;
  const json* parameters = find_present(root, "rope_parameters");
  if (parameters == nullptr || !parameters->is_object()) return;
  const json* main = find_present(*parameters, "main");
  const json* compress = find_present(*parameters, "compress");
  if (main == nullptr || compress == nullptr || !main->is_object() || !compress->is_object()) return;
  json block = *compress;
  const json main_block = *main;
  if (const json* theta = find_present(main_block, "rope_theta")) root["rope_theta"] = *theta;
  if (const json* theta = find_present(block, "rope_theta")) root["compress_rope_theta"] = *theta;
  block.erase("rope_theta");
  root["rope_parameters"] = block;
}

ModelConfig read_config_object(const json& given, const std::string& wrapper_type) {
  ModelConfig cfg;
  json with_defaults = given;
  apply_family_defaults(with_defaults, cfg.notes);
  unnest_deepseek_v4_rope(with_defaults);
  const json& root = with_defaults;
  if (const json* type = find_present(root, "model_type")) cfg.model_type = read_string(*type, "model_type");
  if (cfg.model_type.empty()) cfg.model_type = wrapper_type;
  cfg.scheme = detect_scheme(root, cfg.model_type, cfg.notes, cfg.not_understood);

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
  const bool length_optional = cfg.scheme == PositionScheme::Alibi ||
                               cfg.scheme == PositionScheme::RelativeBuckets ||
                               cfg.scheme == PositionScheme::None || cfg.scheme == PositionScheme::Unknown;
  if (cfg.max_position_field.empty() && !length_optional) {
    throw InputError(
        "max_position_embeddings is missing (also looked for n_positions, n_ctx, max_seq_len, "
        "seq_length): the config states no length");
  }
  if (const json* original = find_present(root, "original_max_position_embeddings")) {
    cfg.original_max_position_embeddings =
        read_whole(*original, "original_max_position_embeddings", 1, kMaxConfigPositions);
    if (cfg.max_position_embeddings > 0 &&
        cfg.original_max_position_embeddings > cfg.max_position_embeddings) {
      reject("original_max_position_embeddings",
             "at most max_position_embeddings (" + whole(cfg.max_position_embeddings) + ")", *original);
    }
  }

  // Head geometry, under each family's names.
  const auto read_first = [&root](std::initializer_list<const char*> keys, std::int64_t cap,
                                  std::string& path) {
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
  std::string layers_path;
  cfg.num_layers =
      read_first({"num_hidden_layers", "n_layer", "num_layers"}, kMaxAttentionHeads, layers_path);
  cfg.num_attention_heads =
      read_first({"num_attention_heads", "n_head", "n_heads", "num_heads", "encoder_attention_heads"},
                 kMaxAttentionHeads, heads_path);
  cfg.head_dim = read_first({"head_dim"}, kMaxHeadDim, head_dim_path);
  cfg.head_dim_field = head_dim_path;
  if (cfg.head_dim == 0 && cfg.hidden_size > 0 && cfg.num_attention_heads > 0) {
    cfg.head_dim_field = hidden_path + " / " + heads_path;
    if (cfg.hidden_size % cfg.num_attention_heads != 0) {
      throw InputError(hidden_path + " (" + whole(cfg.hidden_size) + ") must be a multiple of " + heads_path +
                       " (" + whole(cfg.num_attention_heads) + ") when head_dim is not given");
    }
    cfg.head_dim = cfg.hidden_size / cfg.num_attention_heads;
    if (cfg.head_dim > kMaxHeadDim) {
      throw InputError("head_dim = " + hidden_path + " / " + heads_path + " must be at most " +
                       whole(kMaxHeadDim) + " (the reader's cap), got " + whole(cfg.head_dim));
    }
  }

  if (cfg.scheme == PositionScheme::Rope) {
    parse_rope(root, cfg);
  } else if (find_present(root, "rope_scaling") || find_present(root, "rope_parameters")) {
    cfg.notes.push_back(std::string("the RoPE scaling block is ignored: the model uses ") +
                        scheme_name(cfg.scheme));
  }

  if (const json* window = find_present(root, "sliding_window")) {
    cfg.sliding_window = read_whole(*window, "sliding_window", 1, kMaxConfigPositions);
    if (const json* use = find_present(root, "use_sliding_window");
        use != nullptr && !read_bool(*use, "use_sliding_window")) {
      cfg.sliding_window = 0;
      cfg.notes.push_back(
          "sliding_window is given but use_sliding_window is false: attention is not windowed");
    }
  }
  if (cfg.scheme == PositionScheme::Rope) {
    read_local_layers(root, cfg);
    read_layer_types(root, cfg);
    // Kimi Linear's MLA without RoPE (transformers' KimiLinearConfig, mla_use_nope): the decoupled rotary
    // part of each head is not rotated, so its attention layers have no positions.
    if (const json* nope = find_present(root, "mla_use_nope"))
      cfg.mla_nope = read_bool(*nope, "mla_use_nope");
    read_sparse_indexer(root, cfg);
    read_compressed_layers(root, cfg);
  }
  read_scheme_details(root, cfg);
  list_unknown_position_fields(root, cfg);
  return cfg;
}

}  // namespace

}  // namespace positional
