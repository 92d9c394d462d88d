// Tests of the config.json reader: presets, each RoPE scaling recipe against its published
// formula (recomputed here and by numpy), the "beyond training" rule, and the broken corpus.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>  // the test reads its fixtures with the same library the engine uses
#include <sstream>
#include <string>
#include <utility>  // std::pair

#include "positional/model_config.hpp"

#include "expect_error.hpp"
#include "fixtures.hpp"

namespace positional {
namespace {

using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp
namespace fs = std::filesystem;

constexpr double kPi = 3.14159265358979323846;

const fs::path kFixtures = fixtures_dir();
const fs::path kConfigs = kFixtures / "configs";
const fs::path kPresets = kFixtures / ".." / ".." / "web" / "presets";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

ModelConfig preset(const std::string& name) { return parse_model_config(read_text(kPresets / name)); }

// Relative closeness; the engine and these references compute the same double expressions in
// a different order, so they agree to a few ulps. 1e-12 leaves room and still catches any
// formula mistake (those move values by far more than 1e-6).
void expect_close_vectors(const Vector& actual, const Vector& expected, double rel, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (Eigen::Index i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], rel * std::fabs(expected[i])) << what << " pair " << i;
  }
}

// θ_i = base^(−2i/d), written straight from the RoPE paper.
Vector reference_default(double base, int dim) {
  Vector inv(dim / 2);
  for (int i = 0; i < dim / 2; ++i) inv[i] = std::pow(base, -2.0 * i / dim);
  return inv;
}

// The message parse_model_config throws for `text`, or "no error".
std::string parse_error_of(const std::string& text) {
  return error_of([&] { parse_model_config(text); });
}

// ---- presets ---------------------------------------------------------------------------

// Each preset's published figures, one table shared with tests/node/model_config.test.mjs.
TEST(ModelConfigPresets, EveryPresetParsesWithItsPublishedLengths) {
  const nlohmann::json table =
      nlohmann::json::parse(read_text(kConfigs / "presets-expected.json")).at("expected");
  const nlohmann::json index = nlohmann::json::parse(read_text(kPresets / "index.json"));
  ASSERT_EQ(index["presets"].size(), table.size()) << "index.json lists every preset tested here";
  for (const auto& [id, e] : table.items()) {
    const std::string file = id + ".json";
    SCOPED_TRACE(file);
    const ModelPositionReport r = read_model_config(read_text(kPresets / file), 100);
    EXPECT_EQ(scheme_name(r.scheme), e.at("scheme").get<std::string>());
    if (e.at("rope_type").is_null()) {
      EXPECT_EQ(r.rope_type, RopeType::Default);
    } else {
      EXPECT_EQ(rope_type_name(r.rope_type), e.at("rope_type").get<std::string>());
    }
    EXPECT_EQ(r.trained_length, e.at("trained").get<std::int64_t>());
    EXPECT_EQ(r.advertised_length, e.at("advertised").get<std::int64_t>());
    EXPECT_DOUBLE_EQ(r.stretch, e.at("stretch").get<double>());
    const std::int64_t rotary_dim = e.at("rotary_dim");
    EXPECT_EQ(r.head_dim, e.at("head_dim").get<std::int64_t>());
    EXPECT_EQ(r.rotary_dim, rotary_dim);
    EXPECT_DOUBLE_EQ(r.base, e.at("base").get<double>());
    EXPECT_EQ(r.sliding_window, e.at("sliding_window").get<std::int64_t>());
    EXPECT_EQ(r.inv_freq.size(), rotary_dim / 2);
    EXPECT_EQ(r.beyond.size(), static_cast<std::size_t>(rotary_dim / 2));
    EXPECT_EQ(r.beyond_count, 0) << "a 100-token prompt is inside every preset's training";
    const nlohmann::json raw = nlohmann::json::parse(read_text(kPresets / file));
    EXPECT_EQ(raw["_source"].get<std::string>().rfind("https://huggingface.co/", 0), 0u)
        << "names its source";
  }
}

TEST(ModelConfigPresets, Llama2WithoutRopeThetaUsesTransformersDefaultAndSaysSo) {
  const ModelConfig cfg = preset("llama-2-7b.json");
  EXPECT_DOUBLE_EQ(cfg.rope_theta, 10000.0);
  ASSERT_FALSE(cfg.notes.empty());
  EXPECT_NE(cfg.notes[0].find("rope_theta is absent"), std::string::npos);
}

TEST(ModelConfigPresets, AttentionFactorsFollowTheirRecipes) {
  // YaRN: 0.1·ln(s) + 1 with s = 65536 / 4096 = 16.
  EXPECT_NEAR(rope_attention_factor(preset("yarn-llama-2-7b-64k.json")), 0.1 * std::log(16.0) + 1.0, 1e-15);
  // LongRoPE: sqrt(1 + ln(s)/ln(L)) with s = 131072 / 4096 = 32 and L = 4096.
  EXPECT_NEAR(rope_attention_factor(preset("phi-3.5-mini-instruct.json")),
              std::sqrt(1.0 + std::log(32.0) / std::log(4096.0)), 1e-15);
  EXPECT_EQ(rope_attention_factor(preset("llama-3.1-8b.json")), 1.0);
}

// ---- each recipe against its formula ------------------------------------------------------

TEST(ModelConfigRecipes, DefaultIsBasePowers) {
  const ModelConfig cfg = preset("qwen2-7b-instruct.json");
  expect_close_vectors(scaled_inverse_frequencies(cfg, 5000), reference_default(1e6, 128), 1e-14,
                       "qwen2 default");
}

TEST(ModelConfigRecipes, LinearDividesEveryFrequencyByFactor) {
  const ModelConfig cfg = parse_model_config(read_text(kConfigs / "valid" / "linear-llama.json"));
  const Vector base = base_inverse_frequencies(cfg);
  const Vector scaled = scaled_inverse_frequencies(cfg, 100);
  ASSERT_EQ(scaled.size(), 64);
  for (Eigen::Index i = 0; i < scaled.size(); ++i) {
    EXPECT_NEAR(scaled[i] * 4.0, base[i], 1e-15 * base[i]) << "pair " << i;
  }
}

TEST(ModelConfigRecipes, DynamicKeepsDefaultInsideTrainingAndEnlargesTheBaseBeyond) {
  const ModelConfig cfg = parse_model_config(read_text(kConfigs / "valid" / "dynamic-llama.json"));
  expect_close_vectors(scaled_inverse_frequencies(cfg, 4096), reference_default(10000.0, 128), 1e-14,
                       "dynamic at the trained length");
  // base' = base · (factor·n/L − (factor − 1))^(d/(d−2)) with factor 2, n 10000, L 4096, d 128.
  const double grown = 10000.0 * std::pow(2.0 * 10000.0 / 4096.0 - 1.0, 128.0 / 126.0);
  expect_close_vectors(scaled_inverse_frequencies(cfg, 10000), reference_default(grown, 128), 1e-13,
                       "dynamic at 10000 tokens");
  EXPECT_NEAR(analyse_model_config(cfg, 10000).dynamic_base, grown, 1e-9 * grown);
}

// YaRN written out from the paper / transformers: ramp between the pair indices where a pair
// turns beta_fast and beta_slow times over the original length.
Vector reference_yarn(double base, int dim, double factor, double original, double beta_fast,
                      double beta_slow) {
  const auto correction = [&](double turns) {
    return dim * std::log(original / (turns * 2 * kPi)) / (2 * std::log(base));
  };
  const double low = std::max(std::floor(correction(beta_fast)), 0.0);
  double high = std::min(std::ceil(correction(beta_slow)), dim - 1.0);
  if (low == high) high += 0.001;
  Vector inv(dim / 2);
  for (int i = 0; i < dim / 2; ++i) {
    const double theta = std::pow(base, -2.0 * i / dim);
    const double ramp = std::min(1.0, std::max(0.0, (i - low) / (high - low)));
    inv[i] = theta / factor * ramp + theta * (1.0 - ramp);
  }
  return inv;
}

TEST(ModelConfigRecipes, YarnMatchesItsFormulaAndKeepsFastPairs) {
  const ModelConfig cfg = preset("yarn-llama-2-7b-64k.json");
  const Vector inv = scaled_inverse_frequencies(cfg, 65536);
  expect_close_vectors(inv, reference_yarn(10000.0, 128, 16.0, 4096.0, 32.0, 1.0), 1e-14, "yarn 64k");
  const Vector base = reference_default(10000.0, 128);
  EXPECT_DOUBLE_EQ(inv[0], base[0]) << "the fastest pair is left alone (extrapolated)";
  EXPECT_NEAR(inv[63], base[63] / 16.0, 1e-15 * base[63]) << "the slowest pair is interpolated by the factor";
}

TEST(ModelConfigRecipes, YarnWithFactorOneEqualsDefault) {
  const ModelConfig cfg = parse_model_config(read_text(kConfigs / "valid" / "yarn-factor-one.json"));
  expect_close_vectors(scaled_inverse_frequencies(cfg, 10), reference_default(10000.0, 128), 1e-15,
                       "yarn factor 1");
  EXPECT_EQ(rope_attention_factor(cfg), 1.0);
}

TEST(ModelConfigRecipes, YarnMscaleRatioOfEqualMscalesIsOne) {
  // DeepSeek style: attention = get_mscale(s, mscale) / get_mscale(s, mscale_all_dim) = 1 when both are 1.
  const ModelConfig cfg = parse_model_config(read_text(kConfigs / "valid" / "yarn-deepseek-mscale.json"));
  EXPECT_DOUBLE_EQ(rope_attention_factor(cfg), 1.0);
}

TEST(ModelConfigRecipes, LongropePicksShortThenLongFactors) {
  const ModelConfig cfg = preset("phi-3.5-mini-instruct.json");
  const Vector base = reference_default(10000.0, 96);
  const Vector at_original = scaled_inverse_frequencies(cfg, 4096);
  const Vector past_original = scaled_inverse_frequencies(cfg, 4097);
  for (int i = 0; i < 48; ++i) {
    EXPECT_NEAR(at_original[i], base[i] / cfg.scaling.short_factor[static_cast<std::size_t>(i)],
                1e-14 * base[i]);
    EXPECT_NEAR(past_original[i], base[i] / cfg.scaling.long_factor[static_cast<std::size_t>(i)],
                1e-14 * base[i]);
  }
  EXPECT_FALSE(analyse_model_config(cfg, 4096).longrope_long_factor);
  EXPECT_TRUE(analyse_model_config(cfg, 4097).longrope_long_factor);
}

TEST(ModelConfigRecipes, Llama3KeepsFastPairsDividesSlowOnesAndBlendsBetween) {
  const ModelConfig cfg = preset("llama-3.1-8b.json");
  // The engine's own unscaled θ_i, so "unchanged" can be tested as exact equality.
  const Vector base = base_inverse_frequencies(cfg);
  expect_close_vectors(base, reference_default(500000.0, 128), 1e-14, "llama3 unscaled");
  const Vector inv = scaled_inverse_frequencies(cfg, 8192);
  int fast = 0, slow = 0, medium = 0;
  for (int i = 0; i < 64; ++i) {
    const double wavelength = 2 * kPi / base[i];
    if (wavelength < 8192.0 / 4.0) {  // shorter than original / high_freq_factor
      EXPECT_EQ(inv[i], base[i]) << "high-frequency pair " << i << " unchanged";
      ++fast;
    } else if (wavelength > 8192.0 / 1.0) {  // longer than original / low_freq_factor
      EXPECT_NEAR(inv[i], base[i] / 8.0, 1e-15 * base[i]) << "low-frequency pair " << i << " divided by 8";
      ++slow;
    } else {
      const double smooth = (8192.0 / wavelength - 1.0) / (4.0 - 1.0);
      EXPECT_NEAR(inv[i], (1 - smooth) * base[i] / 8.0 + smooth * base[i], 1e-15 * base[i]);
      EXPECT_GT(inv[i], base[i] / 8.0);
      EXPECT_LT(inv[i], base[i]);
      ++medium;
    }
  }
  EXPECT_GT(fast, 0);
  EXPECT_GT(slow, 0);
  EXPECT_GT(medium, 0);
}

TEST(ModelConfigRecipes, NewerRopeParametersSpellingAndPartialRotary) {
  const ModelConfig params = parse_model_config(read_text(kConfigs / "valid" / "rope-parameters-new.json"));
  EXPECT_EQ(params.scaling.field, "rope_parameters");
  EXPECT_DOUBLE_EQ(params.rope_theta, 500000.0) << "rope_theta read from inside rope_parameters";
  EXPECT_EQ(params.scaling.type, RopeType::Linear);
  const ModelConfig neox = parse_model_config(read_text(kConfigs / "valid" / "partial-rotary-neox.json"));
  EXPECT_EQ(neox.head_dim, 80);
  EXPECT_EQ(neox.rotary_dim, 20) << "int(80 × 0.25)";
}

TEST(ModelConfigRecipes, AlibiAndSinusoidalConfigsAreRecognised) {
  for (const char* name : {"alibi-bloom.json", "alibi-mpt.json"}) {
    const ModelPositionReport r = read_model_config(read_text(kConfigs / "valid" / name), 4000);
    EXPECT_EQ(r.scheme, PositionScheme::Alibi) << name;
    EXPECT_EQ(r.trained_length, 2048) << name;
    EXPECT_TRUE(r.prompt_beyond_trained) << name;
    EXPECT_EQ(r.inv_freq.size(), 0) << name;
  }
  const ModelPositionReport marian =
      read_model_config(read_text(kConfigs / "valid" / "sinusoidal-marian.json"), 10);
  EXPECT_EQ(marian.scheme, PositionScheme::Sinusoidal);
  EXPECT_EQ(marian.head_dim, 64);
}

// The same numbers from an outside implementation: numpy, float64, made by
// build-scripts/make-config-fixtures.py. Agreement to 1e-12 relative (a few ulps plus pow's
// platform differences).
TEST(ModelConfigRecipes, MatchNumpyReimplementation) {
  const nlohmann::json fixture = nlohmann::json::parse(read_text(kConfigs / "expected_inv_freq.json"));
  ASSERT_GE(fixture["cases"].size(), 10u);
  for (const nlohmann::json& c : fixture["cases"]) {
    const std::string file = c["config"].get<std::string>();
    SCOPED_TRACE(file + " at " + std::to_string(c["seq_len"].get<int>()));
    const ModelConfig cfg = parse_model_config(read_text(kFixtures / ".." / ".." / file));
    const std::vector<double> expected = c["inv_freq"].get<std::vector<double>>();
    expect_close_vectors(
        scaled_inverse_frequencies(cfg, c["seq_len"].get<std::int64_t>()),
        Eigen::Map<const Vector>(expected.data(), static_cast<Eigen::Index>(expected.size())), 1e-12, file);
    EXPECT_NEAR(rope_attention_factor(cfg), c["attention_factor"].get<double>(), 1e-14);
    const ModelPositionReport report = analyse_model_config(cfg, c["seq_len"].get<std::int64_t>());
    // Each runtime's reading where they disagree: the same count, factors, lengths and frequencies.
    const nlohmann::json& readings = c["runtime_readings"];
    ASSERT_EQ(report.runtime_readings.size(), readings.size());
    for (std::size_t k = 0; k < readings.size(); ++k) {
      const RuntimeReading& got = report.runtime_readings[k];
      EXPECT_EQ(got.runtime, readings[k]["runtime"].get<std::string>());
      EXPECT_EQ(got.factor, readings[k]["factor"].get<double>());
      EXPECT_EQ(got.length, readings[k]["length"].get<std::int64_t>());
      EXPECT_NEAR(got.attention_factor, readings[k]["attention_factor"].get<double>(), 1e-14);
      const std::vector<double> runtime_inv = readings[k]["inv_freq"].get<std::vector<double>>();
      expect_close_vectors(
          got.inv_freq,
          Eigen::Map<const Vector>(runtime_inv.data(), static_cast<Eigen::Index>(runtime_inv.size())), 1e-12,
          file + " " + got.runtime);
    }
    if (c.contains("local_inv_freq")) {
      const std::vector<double> local = c["local_inv_freq"].get<std::vector<double>>();
      expect_close_vectors(report.local_inv_freq,
                           Eigen::Map<const Vector>(local.data(), static_cast<Eigen::Index>(local.size())),
                           1e-12, file + " local layers");
    } else {
      EXPECT_EQ(report.local_inv_freq.size(), 0) << "no local layers in " << file;
    }
    if (c.contains("softmax_scale_factor")) {
      EXPECT_NEAR(report.softmax_scale_factor, c["softmax_scale_factor"].get<double>(), 1e-14);
    }
  }
}

// ---- every family the reader explains --------------------------------------------------

ModelConfig valid(const std::string& name) {
  return parse_model_config(read_text(kConfigs / "valid" / name));
}

TEST(ModelConfigFamilies, MlaTurnsOnlyQkRopeHeadDimAndScalesTheSoftmax) {
  const ModelPositionReport r = analyse_model_config(preset("deepseek-v3.json"), 4096);
  EXPECT_EQ(r.rotary_dim, 64) << "qk_rope_head_dim, not hidden_size / heads = 56";
  EXPECT_EQ(r.mla_qk_head_dim, 192);
  EXPECT_EQ(r.head_dim, 192)
      << "no head_dim stated: a query and key head is qk_nope + qk_rope, not 7168 / 128";
  EXPECT_EQ(r.head_dim_field, "qk_nope_head_dim + qk_rope_head_dim");
  EXPECT_EQ(r.scaling_factor, 40.0);
  EXPECT_DOUBLE_EQ(r.attention_factor, 1.0) << "mscale / mscale_all_dim with both 1";
  const double m = 0.1 * std::log(40.0) + 1.0;
  EXPECT_NEAR(r.softmax_scale_factor, m * m, 1e-15);
  EXPECT_TRUE(r.runtime_readings.empty()) << "4,096 × 40 = 163,840: the runtimes agree";
  EXPECT_TRUE(r.notes.empty()) << "the rotary width is reported, not noted";
}

TEST(ModelConfigFamilies, QwenYarnOnTheCardsAdviceNamesWhereRuntimesDisagree) {
  const ModelPositionReport r = analyse_model_config(preset("qwen2.5-7b-instruct-yarn.json"), 100000);
  EXPECT_EQ(r.scaling_factor, 4.0) << "transformers 5 keeps the given factor";
  ASSERT_EQ(r.runtime_readings.size(), 3u);
  EXPECT_EQ(r.runtime_readings[1].runtime, "transformers 4.4x–4.5x");
  EXPECT_EQ(r.runtime_readings[1].factor, 1.0) << "32,768 / 32,768 replaces the factor";
  expect_close_vectors(r.runtime_readings[1].inv_freq, r.base_inv_freq, 1e-15, "factor 1 is plain RoPE");
  EXPECT_EQ(r.runtime_readings[2].runtime, "vLLM");
  EXPECT_EQ(r.runtime_readings[2].length, 131072);
  expect_close_vectors(r.runtime_readings[2].inv_freq, r.inv_freq, 1e-15,
                       "vLLM's frequencies are transformers 5's");
}

// Hunyuan's rope_scaling {"alpha": 1000, "factor": 1, "type": "dynamic"}: vLLM's and SGLang's get_rope
// take alpha first (DynamicNTKAlphaRotaryEmbedding: base · alpha^(d/(d−2)) for every prompt);
// transformers' dynamic recipe reads the factor (here 1) and grows the base past the trained length.
TEST(ModelConfigFamilies, DynamicByAlphaIsAFixedBaseInVllmAndSglang) {
  const std::string head = R"({"model_type": "hunyuan", "hidden_size": 4096, "num_attention_heads": 32,
      "head_dim": 128, "max_position_embeddings": 32768, "rope_theta": 10000, "rope_scaling": )";
  const ModelPositionReport r =
      read_model_config(head + R"({"alpha": 1000, "factor": 1, "type": "dynamic"}})", 100000);
  ASSERT_EQ(r.runtime_readings.size(), 2u);
  const RuntimeReading& transformers = r.runtime_readings[0];
  const RuntimeReading& vllm = r.runtime_readings[1];
  EXPECT_EQ(transformers.alpha, 0.0);
  // base · (factor · n / L − (factor − 1))^(d/(d−2)) with factor 1, n 100,000, L 32,768, d 128.
  const double grown = 10000.0 * std::pow(100000.0 / 32768.0, 128.0 / 126.0);
  expect_close_vectors(transformers.inv_freq, reference_default(grown, 128), 1e-13, "dynamic, factor 1");
  EXPECT_EQ(vllm.runtime, "vLLM and SGLang");
  EXPECT_EQ(vllm.alpha, 1000.0);
  const double base = 10000.0 * std::pow(1000.0, 128.0 / 126.0);
  EXPECT_NEAR(vllm.base, base, 1e-12 * base);
  expect_close_vectors(vllm.inv_freq, reference_default(base, 128), 1e-14, "alpha 1000");
  EXPECT_EQ(vllm.length, 32768);
  // Without a factor: read (vLLM and SGLang need none), with a note; a bad alpha is refused by name.
  const ModelConfig bare = parse_model_config(head + R"({"alpha": 1000, "type": "dynamic"}})");
  ASSERT_FALSE(bare.notes.empty());
  EXPECT_EQ(bare.notes.back(),
            "rope_scaling.factor is absent: vLLM and SGLang read alpha instead; transformers' dynamic recipe "
            "needs a factor, and 1 is used here");
  EXPECT_THAT(parse_error_of(head + R"({"alpha": 0, "type": "dynamic"}})"),
              ::testing::HasSubstr("rope_scaling.alpha"));
  // Without a factor or alpha the recipe cannot be computed: read unscaled, and named.
  const ModelConfig neither = parse_model_config(head + R"({"type": "dynamic"}})");
  EXPECT_EQ(neither.scaling.type, RopeType::Default);
  ASSERT_EQ(neither.not_understood.size(), 1u);
  EXPECT_EQ(neither.not_understood[0].field, "rope_scaling.factor");
  EXPECT_EQ(neither.not_understood[0].effect, "recipe_incomplete");
  const ModelConfig linear = parse_model_config(head + R"({"alpha": 4, "factor": 2, "type": "linear"}})");
  EXPECT_EQ(linear.scaling.alpha, 0.0);
  EXPECT_EQ(linear.notes.back(),
            "rope_scaling.alpha is read only with rope_type dynamic (vLLM, SGLang): ignored for linear");
}

TEST(ModelConfigFamilies, YarnWithoutFactorTakesTheRatioAndSaysSo) {
  const ModelConfig cfg = valid("yarn-factor-from-lengths.json");
  const ModelPositionReport r = analyse_model_config(cfg, 10);
  EXPECT_EQ(r.scaling_factor, 4.0);
  ASSERT_FALSE(cfg.notes.empty());
  EXPECT_EQ(cfg.notes.back(),
            "rope_parameters.factor is absent: max_position_embeddings / "
            "rope_parameters.original_max_position_embeddings is used, as transformers 5 does");
  // With neither the factor nor the original length, YaRN cannot be computed: unscaled, and named.
  const ModelConfig bare = parse_model_config(R"({"model_type": "llama", "hidden_size": 64,
      "num_attention_heads": 2, "max_position_embeddings": 512, "rope_scaling": {"type": "yarn"}})");
  EXPECT_EQ(bare.scaling.type, RopeType::Default);
  ASSERT_EQ(bare.not_understood.size(), 1u);
  EXPECT_EQ(bare.not_understood[0].field, "rope_scaling.factor");
}

TEST(ModelConfigFamilies, GlobalAndLocalLayers) {
  const ModelPositionReport modern = analyse_model_config(preset("modernbert-base.json"), 512);
  EXPECT_EQ(modern.base, 160000.0);
  EXPECT_EQ(modern.local_base, 10000.0);
  EXPECT_EQ(modern.local_window, 128);
  EXPECT_EQ(modern.global_every, 3);
  EXPECT_EQ(modern.num_layers, 22);
  ASSERT_EQ(modern.local_wavelengths.size(), 32);
  EXPECT_NEAR(modern.local_wavelengths[31], 2 * kPi * std::pow(10000.0, 62.0 / 64.0),
              1e-12 * modern.local_wavelengths[31]);
  const ModelPositionReport gemma3 = analyse_model_config(valid("gemma3-local-global.json"), 1000);
  EXPECT_EQ(gemma3.local_base, 10000.0);
  EXPECT_EQ(gemma3.local_window, 1024);
  EXPECT_EQ(gemma3.global_every, 6);
  const ModelPositionReport gemma2 = analyse_model_config(valid("gemma2-local-global.json"), 1000);
  EXPECT_EQ(gemma2.local_base, gemma2.base) << "Gemma 2's local layers share the global base";
  EXPECT_EQ(gemma2.local_window, 4096);
  EXPECT_EQ(gemma2.global_every, 2);
}

TEST(ModelConfigFamilies, PartialRotaryWidths) {
  EXPECT_EQ(analyse_model_config(valid("phi2-partial-rotary.json"), 10).rotary_dim, 32);
  EXPECT_EQ(analyse_model_config(valid("glm-partial-rotary.json"), 10).rotary_dim, 64);
  EXPECT_EQ(analyse_model_config(valid("partial-rotary-neox.json"), 10).rotary_dim, 20);
}

TEST(ModelConfigFamilies, RelativeBucketsAndTheirReach) {
  const ModelPositionReport t5 = analyse_model_config(preset("t5-v1_1-base.json"), 512);
  EXPECT_EQ(t5.scheme, PositionScheme::RelativeBuckets);
  EXPECT_STREQ(scheme_name(t5.scheme), "relative");
  EXPECT_EQ(t5.relative_buckets, 32);
  EXPECT_EQ(t5.relative_exact_encoder, 8) << "16 buckets per direction, half of them exact";
  EXPECT_EQ(t5.relative_exact_decoder, 16);
  EXPECT_EQ(t5.relative_max_distance, 128);
  EXPECT_EQ(t5.trained_length, 0) << "T5's config states no length";
}

TEST(ModelConfigFamilies, NoPositionsAndHybrids) {
  const ModelPositionReport mamba = analyse_model_config(preset("mamba-130m.json"), 5000);
  EXPECT_EQ(mamba.scheme, PositionScheme::None);
  EXPECT_STREQ(scheme_name(mamba.scheme), "none");
  EXPECT_TRUE(mamba.attention_layers.empty());
  const ModelPositionReport jamba = analyse_model_config(valid("jamba-hybrid.json"), 5000);
  EXPECT_EQ(jamba.scheme, PositionScheme::None);
  EXPECT_EQ(jamba.attention_layers, (std::vector<std::int64_t>{4, 12, 20, 28}));
  EXPECT_EQ(parse_error_of(R"({"model_type": "jamba", "num_hidden_layers": 8, "attn_layer_period": 4,
      "attn_layer_offset": 4})"),
            "attn_layer_offset must be less than attn_layer_period (4), got 4");
}

TEST(ModelConfigFamilies, LearnedTablesAndAlibiFlags) {
  const ModelPositionReport opt = analyse_model_config(preset("opt-125m.json"), 100);
  EXPECT_EQ(opt.learned_offset, 2);
  EXPECT_EQ(opt.learned_table_rows, 2050);
  const ModelPositionReport gpt2 = analyse_model_config(preset("gpt2.json"), 100);
  EXPECT_EQ(gpt2.learned_offset, 0);
  EXPECT_EQ(gpt2.learned_table_rows, 1024);
  EXPECT_EQ(analyse_model_config(valid("falcon-alibi.json"), 100).scheme, PositionScheme::Alibi);
  EXPECT_EQ(parse_error_of(R"({"model_type": "deepseek_v2", "hidden_size": 64, "num_attention_heads": 2,
      "max_position_embeddings": 512, "qk_rope_head_dim": 7})"),
            "qk_rope_head_dim must be even (pairs of dimensions turn together), got 7");
}

// ---- the "beyond training" rule -------------------------------------------------------

TEST(ModelConfigBeyond, PlainRopeFlagsExactlyThePairsThatNeverTurnedFullyInTraining) {
  const ModelConfig cfg = preset("llama-2-7b.json");
  const ModelPositionReport inside = analyse_model_config(cfg, 4096);
  EXPECT_EQ(inside.beyond_count, 0) << "a prompt of the trained length asks for no new angle";
  const ModelPositionReport twice = analyse_model_config(cfg, 8192);
  const Vector base = reference_default(10000.0, 128);
  int expected = 0;
  for (int i = 0; i < 64; ++i) {
    const bool partial_turn = 4095.0 * base[i] < 2 * kPi;  // wavelength longer than the training span
    EXPECT_EQ(twice.beyond[static_cast<std::size_t>(i)], partial_turn ? 1 : 0) << "pair " << i;
    expected += partial_turn ? 1 : 0;
    EXPECT_NEAR(twice.base_wavelengths[i], 2 * kPi / base[i], 1e-12 * twice.base_wavelengths[i]);
  }
  EXPECT_EQ(twice.beyond_count, expected);
  EXPECT_GT(expected, 0);
  EXPECT_TRUE(twice.prompt_beyond_trained);
  EXPECT_TRUE(twice.prompt_beyond_advertised);
}

TEST(ModelConfigBeyond, LinearScalingWithinItsStretchStaysInsideTraining) {
  // factor 4 over a 16384 advertised length: trained length is taken as max_position_embeddings
  // (no original given), and the divided frequencies never exceed what training showed.
  const ModelConfig cfg = parse_model_config(read_text(kConfigs / "valid" / "linear-llama.json"));
  EXPECT_EQ(analyse_model_config(cfg, 16384).beyond_count, 0);
}

TEST(ModelConfigBeyond, LearnedTableReportsThePromptPastItsTable) {
  const ModelPositionReport r = read_model_config(read_text(kPresets / "gpt2.json"), 2048);
  EXPECT_EQ(r.scheme, PositionScheme::LearnedTable);
  EXPECT_TRUE(r.prompt_beyond_advertised);
  EXPECT_EQ(r.inv_freq.size(), 0);
  EXPECT_EQ(r.beyond_count, 0);
}

TEST(ModelConfigBeyond, PromptLengthIsValidated) {
  const ModelConfig cfg = preset("gpt2.json");
  EXPECT_THAT(error_of([&] { analyse_model_config(cfg, 0); }),
              names_field_and_rule("prompt_length", "must be a whole number from 1 to 1073741824"));
  EXPECT_THAT(error_of([&] { analyse_model_config(cfg, kMaxConfigPositions + 1); }),
              names_field_and_rule("prompt_length", "must be a whole number from 1 to 1073741824"));
  EXPECT_THAT(error_of([&] { scaled_inverse_frequencies(cfg, 10); }),
              names_field_and_rule("scaled_inverse_frequencies", "needs a RoPE config"))
      << "GPT-2 has no rotary pairs";
}

// ---- 2025–26 families: nested text models and kinds of layer -------------------------------

const LayerKindReport& kind_named(const ModelPositionReport& r, const std::string& type) {
  for (const LayerKindReport& kind : r.layer_kinds) {
    if (kind.layer_type == type) return kind;
  }
  throw std::runtime_error("no layer kind " + type);
}

// The kinds of layer of a model that has exactly two, `first` then `second`. Throws, failing the test, when
// the model has another number of kinds or lacks one of these.
std::pair<const LayerKindReport&, const LayerKindReport&> two_kinds_named(const ModelPositionReport& r,
                                                                          const std::string& first,
                                                                          const std::string& second) {
  if (r.layer_kinds.size() != 2) {
    throw std::runtime_error(std::to_string(r.layer_kinds.size()) + " kinds of layer, not 2");
  }
  return {kind_named(r, first), kind_named(r, second)};
}

std::vector<std::int64_t> every_nth(std::int64_t first, std::int64_t step, std::int64_t count) {
  std::vector<std::int64_t> out;
  for (std::int64_t i = first; i < count; i += step) out.push_back(i);
  return out;
}

TEST(ModelConfigBeyond, TheRuleReadsTheLongestDistanceALayerTurningThesePairsSpans) {
  // Mistral 7B v0.1 windows every layer at 4,096 tokens: no distance past 4,095, however long the
  // prompt, so no pair meets an angle its 32,768 trained positions did not show.
  const ModelPositionReport mistral = read_model_config(read_text(kPresets / "mistral-7b-v0.1.json"), 100000);
  EXPECT_EQ(mistral.beyond_count, 0);
  EXPECT_TRUE(mistral.prompt_beyond_trained) << "the prompt itself is still past training";
  // Llama 4 Scout's RoPE layers attend within 8,192-token chunks; its layers without positions see it all.
  const ModelPositionReport scout =
      read_model_config(read_text(kPresets / "llama-4-scout-17b-16e.json"), 1048576);
  EXPECT_EQ(scout.beyond_count, 0);
  EXPECT_EQ(kind_named(scout, "chunked_attention").longest_distance, 8191);
  // Where some layer turning the report's frequencies spans the whole prompt, the prompt counts:
  // gpt-oss's full layers beside its 128-token windows, and every one of them with the same pairs.
  const ModelPositionReport oss = read_model_config(read_text(kPresets / "gpt-oss-20b.json"), 1048576);
  EXPECT_GT(oss.beyond_count, 0);
  EXPECT_EQ(oss.beyond, kind_named(oss, "full_attention").beyond);
  // The same rule as a window-free config of the same frequencies at the window's length.
  const ModelConfig windowed = preset("mistral-7b-v0.1.json");
  ModelConfig free = windowed;
  free.sliding_window = 0;
  EXPECT_EQ(analyse_model_config(windowed, 1 << 20).beyond, analyse_model_config(free, 4096).beyond);
}

TEST(ModelConfigFamilies, LlamaFourReadsItsTextConfigAndInterleavesNope) {
  const ModelPositionReport r = read_model_config(read_text(kPresets / "llama-4-scout-17b-16e.json"), 131072);
  EXPECT_EQ(r.text_field, "text_config");
  EXPECT_EQ(r.model_type, "llama4_text");
  EXPECT_THAT(r.notes[0], ::testing::HasSubstr("the text model is read from text_config"));
  EXPECT_EQ(r.layer_types_field, "no_rope_layers");
  const auto [rope, nope] = two_kinds_named(r, "chunked_attention", "full_attention");
  EXPECT_EQ(r.layer_kinds[0].layer_type, "chunked_attention") << "first seen first";
  EXPECT_EQ(rope.positions, "rope");
  EXPECT_EQ(rope.layer_count, 36);
  EXPECT_EQ(rope.chunk, 8192);
  EXPECT_EQ(rope.longest_distance, 8191) << "a chunk never spans more than 8,191 tokens back";
  EXPECT_EQ(rope.beyond_count, 0) << "inside a chunk every angle is one training (8,192 tokens) showed";
  expect_close_vectors(rope.inv_freq, r.inv_freq, 0, "chunked layers turn at the llama3 frequencies");
  EXPECT_EQ(nope.positions, "none");
  EXPECT_EQ(nope.none_reason, "nope");
  EXPECT_EQ(nope.layers, every_nth(3, 4, 48));
  EXPECT_TRUE(nope.inv_freq.size() == 0);
  // transformers' Llama4TextAttention: 1 + 0.1 · ln(1 + floor(131072 / 8192)) at the last position.
  EXPECT_NEAR(nope.query_temperature, 1.0 + 0.1 * std::log(17.0), 1e-15);
  EXPECT_NEAR(kind_named(read_model_config(read_text(kPresets / "llama-4-scout-17b-16e.json"), 8191),
                         "full_attention")
                  .query_temperature,
              1.0, 0.0);
}

TEST(ModelConfigFamilies, LlamaFourWithoutTheListUsesTheInterval) {
  const ModelPositionReport r = read_model_config(R"({"model_type": "llama4_text", "head_dim": 128,
      "num_attention_heads": 40, "num_hidden_layers": 12, "max_position_embeddings": 262144,
      "rope_theta": 500000, "no_rope_layers": [], "no_rope_layer_interval": 3,
      "attn_temperature_tuning": false})",
                                                  100);
  EXPECT_EQ(r.layer_types_field, "no_rope_layer_interval");
  EXPECT_EQ(kind_named(r, "full_attention").layers, every_nth(2, 3, 12));
  EXPECT_EQ(kind_named(r, "full_attention").query_temperature, 1.0) << "tuning off";
  EXPECT_EQ(kind_named(r, "chunked_attention").chunk, 8192) << "Llama4TextConfig's default";
}

TEST(ModelConfigFamilies, GemmaThreeNestedTakesTheClassDefaultsAndSaysSo) {
  const ModelPositionReport r = read_model_config(read_text(kPresets / "gemma-3-27b-it.json"), 32768);
  EXPECT_EQ(r.text_field, "text_config");
  EXPECT_EQ(r.trained_length, 131072);
  EXPECT_EQ(r.base, 1e6);
  EXPECT_EQ(r.local_base, 10000.0);
  const auto has_note = [&r](const std::string& text) {
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [&text](const std::string& note) { return note.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(has_note("max_position_embeddings is absent: Gemma3TextConfig's default 131072 is used"));
  EXPECT_TRUE(has_note("rope_local_base_freq is absent"));
  const auto [local, global] = two_kinds_named(r, "sliding_attention", "full_attention");
  EXPECT_EQ(local.layer_count, 52);
  EXPECT_EQ(global.layers, every_nth(5, 6, 62));
  EXPECT_EQ(local.window, 1024);
  EXPECT_EQ(local.rope_type, "default") << "the linear factor applies to the global layers only";
  expect_close_vectors(local.inv_freq, reference_default(10000.0, 128), 1e-12, "local θ");
  Vector linear = reference_default(1e6, 128) / 8.0;
  expect_close_vectors(global.inv_freq, linear, 1e-12, "global θ / 8");
  EXPECT_EQ(local.beyond_count, 0) << "a 1,024-token window stays inside training";
}

TEST(ModelConfigFamilies, LayerTypesListOverridesThePattern) {
  const ModelPositionReport r = read_model_config(R"({"model_type": "gemma3_text", "head_dim": 256,
      "num_hidden_layers": 4, "sliding_window": 512, "sliding_window_pattern": 6,
      "layer_types": ["sliding_attention", "full_attention", "full_attention", "sliding_attention"]})",
                                                  1000);
  EXPECT_EQ(r.layer_types_field, "layer_types");
  EXPECT_EQ(kind_named(r, "full_attention").layers, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(kind_named(r, "sliding_attention").layers, (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ(kind_named(r, "sliding_attention").window, 512);
}

// transformers 5's _compute_proportional_rope_parameters for Gemma 4's full layers (head 512, 25%).
TEST(ModelConfigFamilies, GemmaFourPerLayerTypeBlocksAndProportionalRope) {
  const ModelPositionReport r = read_model_config(read_text(kPresets / "gemma-4-26b-a4b-it.json"), 32768);
  EXPECT_EQ(r.rope_type, RopeType::Proportional);
  EXPECT_STREQ(rope_type_name(r.rope_type), "proportional");
  EXPECT_EQ(r.head_dim, 512);
  EXPECT_EQ(r.rotary_dim, 128) << "int(0.25 · 512 // 2) = 64 pairs turn";
  const LayerKindReport& global = kind_named(r, "full_attention");
  const LayerKindReport& local = kind_named(r, "sliding_attention");
  EXPECT_EQ(global.positions, "proportional");
  EXPECT_EQ(global.layer_count, 5);
  ASSERT_EQ(global.inv_freq.size(), 256);
  for (int i = 0; i < 64; ++i) {
    const double expected = 1.0 / std::pow(1e6, 2.0 * i / 512.0);
    EXPECT_NEAR(global.inv_freq[i], expected, 1e-12 * expected) << i;
  }
  for (int i = 64; i < 256; ++i) {
    EXPECT_EQ(global.inv_freq[i], 0.0) << i;
    EXPECT_TRUE(std::isinf(global.wavelengths[i])) << i;
    EXPECT_EQ(global.beyond[i], 0) << "a pair that never turns is never beyond";
  }
  EXPECT_EQ(local.positions, "rope");
  EXPECT_EQ(local.head_dim, 256);
  EXPECT_EQ(local.rotary_dim, 256);
  EXPECT_EQ(local.window, 1024);
  expect_close_vectors(local.inv_freq, reference_default(10000.0, 256), 1e-12, "local θ");
}

TEST(ModelConfigFamilies, GemmaFourWithoutLayerTypesTakesTheClassPattern) {
  const ModelPositionReport r = read_model_config(R"({"model_type": "gemma4", "text_config": {
      "model_type": "gemma4_text", "head_dim": 256, "global_head_dim": 512, "num_attention_heads": 8,
      "num_hidden_layers": 8, "max_position_embeddings": 131072, "sliding_window": 512, "rope_parameters": {
      "sliding_attention": {"rope_type": "default", "rope_theta": 10000},
      "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1000000}}}})",
                                                  1000);
  EXPECT_EQ(kind_named(r, "full_attention").layers, (std::vector<std::int64_t>{5, 7}));
  EXPECT_EQ(kind_named(r, "sliding_attention").window, 512);
}

TEST(ModelConfigFamilies, GptOssAlternatesWindowsAndFullLayersOnOneYarn) {
  // 300,000 tokens: past the 131,072 that YaRN's factor 32 stretches 4,096 to.
  const ModelPositionReport r = read_model_config(read_text(kPresets / "gpt-oss-20b.json"), 300000);
  const auto [local, global] = two_kinds_named(r, "sliding_attention", "full_attention");
  EXPECT_EQ(local.window, 128);
  EXPECT_EQ(local.layers, every_nth(0, 2, 24));
  EXPECT_EQ(global.window, 0);
  expect_close_vectors(local.inv_freq, r.inv_freq, 0, "both kinds turn at YaRN's frequencies");
  expect_close_vectors(global.inv_freq, r.inv_freq, 0, "both kinds turn at YaRN's frequencies");
  EXPECT_EQ(local.beyond_count, 0) << "127 tokens back is inside the 4,096 trained";
  EXPECT_EQ(global.beyond_count, r.beyond_count);
  EXPECT_GT(global.beyond_count, 0);
}

TEST(ModelConfigFamilies, QwenVlSectionsSayWhichAxisEachPairReads) {
  const ModelPositionReport r = read_model_config(read_text(kPresets / "qwen2.5-vl-7b-instruct.json"), 1000);
  EXPECT_EQ(r.rope_type, RopeType::Default) << "transformers maps mrope to default";
  EXPECT_EQ(r.mrope_section, (std::vector<std::int64_t>{16, 24, 24}));
  ASSERT_EQ(r.layer_kinds.size(), 1u);
  const LayerKindReport& all = r.layer_kinds[0];
  EXPECT_EQ(all.layer_type, "all");
  EXPECT_EQ(all.positions, "mrope");
  EXPECT_EQ(all.layer_count, 28);
  ASSERT_EQ(all.mrope_axes.size(), 64u);
  EXPECT_EQ(all.mrope_axes[15], 0);
  EXPECT_EQ(all.mrope_axes[16], 1);
  EXPECT_EQ(all.mrope_axes[40], 2);
  const ModelPositionReport v3 = read_model_config(R"({"model_type": "qwen3_vl", "text_config": {
      "model_type": "qwen3_vl_text", "head_dim": 128, "num_attention_heads": 32, "num_hidden_layers": 36,
      "max_position_embeddings": 262144, "rope_scaling": {"rope_type": "default", "mrope_section": [24, 20, 20],
      "mrope_interleaved": true}, "rope_theta": 5000000}})",
                                                   1000);
  EXPECT_TRUE(v3.mrope_interleaved);
  EXPECT_EQ(v3.layer_kinds[0].mrope_axes[1], 1);
  EXPECT_EQ(v3.layer_kinds[0].mrope_axes[2], 2);
  EXPECT_EQ(v3.layer_kinds[0].mrope_axes[63], 0);
}

TEST(ModelConfigFamilies, QwenThreeNextTurnsAQuarterOfItsFullLayersOnly) {
  const ModelPositionReport r =
      read_model_config(read_text(kPresets / "qwen3-next-80b-a3b-instruct.json"), 1000);
  EXPECT_EQ(r.layer_types_field, "full_attention_interval");
  const LayerKindReport& linear = kind_named(r, "linear_attention");
  const LayerKindReport& full = kind_named(r, "full_attention");
  EXPECT_EQ(linear.positions, "none");
  EXPECT_EQ(linear.none_reason, "linear_attention");
  EXPECT_EQ(linear.layer_count, 36);
  EXPECT_EQ(full.layers, every_nth(3, 4, 48));
  EXPECT_EQ(full.rotary_dim, 64) << "int(256 · 0.25)";
  expect_close_vectors(full.inv_freq, reference_default(1e7, 64), 1e-12, "partial RoPE over 64 dims");
}

TEST(ModelConfigFamilies, MiniMaxTextReadsAttnTypeListAndTurnsHalfOfEachHead) {
  const ModelPositionReport r = read_model_config(read_text(kPresets / "minimax-text-01.json"), 1000);
  EXPECT_EQ(r.layer_types_field, "attn_type_list");
  const LayerKindReport& linear = kind_named(r, "linear_attention");
  const LayerKindReport& full = kind_named(r, "full_attention");
  EXPECT_EQ(linear.positions, "none");
  EXPECT_EQ(linear.none_reason, "linear_attention");
  EXPECT_EQ(linear.layer_count, 70) << "seven lightning-attention layers in every eight";
  EXPECT_EQ(full.layers, every_nth(7, 8, 80));
  EXPECT_EQ(full.rotary_dim, 64) << "rotary_dim: half of the 128-wide head";
  EXPECT_EQ(full.head_dim, 128);
  expect_close_vectors(full.inv_freq, reference_default(1e7, 64), 1e-12, "RoPE over 64 of 128 dims");
  // MiniMax-M1 has the same layout under its own model_type.
  const ModelPositionReport m1 = analyse_model_config(valid("minimax-hybrid.json"), 100);
  EXPECT_EQ(kind_named(m1, "full_attention").layers, (std::vector<std::int64_t>{3, 7}));
  EXPECT_EQ(kind_named(m1, "full_attention").rotary_dim, 8);
  EXPECT_EQ(kind_named(m1, "linear_attention").layer_count, 6);
}

TEST(ModelConfigFamilies, BadAttnTypeListNamesTheFieldAndTheRule) {
  const std::string head = R"({"model_type": "minimax_text_01", "head_dim": 128, "rotary_dim": 64,
      "num_attention_heads": 8, "max_position_embeddings": 4096, )";
  EXPECT_EQ(parse_error_of(head + R"("num_hidden_layers": 3, "attn_type_list": [0, 1]})"),
            "attn_type_list must hold num_hidden_layers = 3 entries, got 2");
  EXPECT_EQ(parse_error_of(head + R"("attn_type_list": [0, 2]})"),
            "attn_type_list[1] must be 0 (lightning attention) or 1 (softmax attention), got 2");
  EXPECT_EQ(parse_error_of(head + R"("attn_type_list": [0, 1.0, true]})"),
            "attn_type_list[2] must be 0 (lightning attention) or 1 (softmax attention), got true");
  EXPECT_EQ(parse_error_of(head + R"("attn_type_list": [0.5]})"),
            "attn_type_list[0] must be 0 (lightning attention) or 1 (softmax attention), got 0.5");
  EXPECT_EQ(parse_error_of(head + R"("attn_type_list": "0,1"})"),
            "attn_type_list must be an array of 0 and 1, got \"0,1\"");
  EXPECT_EQ(parse_error_of(head + R"("attn_type_list": []})"),
            "attn_type_list must hold 1 to 4096 entries (one per layer), got 0");
  std::string many = head + R"("attn_type_list": [)";
  for (int i = 0; i < 5000; ++i) many += i == 0 ? "0" : ",0";
  EXPECT_EQ(parse_error_of(many + "]}"),
            "attn_type_list must hold 1 to 4096 entries (one per layer), got 5000");
}

// Each kind of layer of the 2025–26 presets against numpy (build-scripts/make-config-fixtures.py,
// which lays out the layers from each family's configuration_*.py and computes the frequencies from
// modeling_rope_utils.py on its own). Relative 1e-12: both are float64, in a different order.
TEST(ModelConfigFamilies, EachLayerKindMatchesNumpy) {
  const nlohmann::json fixture = nlohmann::json::parse(read_text(kConfigs / "expected_inv_freq.json"));
  ASSERT_GE(fixture["kind_cases"].size(), 8u);
  for (const nlohmann::json& c : fixture["kind_cases"]) {
    const std::string file = c["config"].get<std::string>();
    SCOPED_TRACE(file);
    const ModelPositionReport r =
        read_model_config(read_text(kFixtures / ".." / ".." / file), c["seq_len"].get<std::int64_t>());
    ASSERT_EQ(r.layer_kinds.size(), c["layer_kinds"].size());
    for (const nlohmann::json& want : c["layer_kinds"]) {
      const std::string type = want["layer_type"].get<std::string>();
      SCOPED_TRACE(type);
      const LayerKindReport& got = kind_named(r, type);
      EXPECT_EQ(got.positions, want["positions"].get<std::string>());
      const std::vector<std::int64_t> layers = want["layers"].get<std::vector<std::int64_t>>();
      if (!layers.empty()) EXPECT_EQ(got.layers, layers);
      const std::vector<double> inv = want["inv_freq"].get<std::vector<double>>();
      ASSERT_EQ(got.inv_freq.size(), static_cast<Eigen::Index>(inv.size()));
      for (std::size_t i = 0; i < inv.size(); ++i) {
        const double g = got.inv_freq[static_cast<Eigen::Index>(i)];
        if (inv[i] == 0.0) {
          EXPECT_EQ(g, 0.0) << "pair " << i << " never turns";
        } else {
          EXPECT_NEAR(g, inv[i], 1e-12 * inv[i]) << "pair " << i;
        }
      }
      if (want.contains("mrope_axes")) {
        const std::vector<int> axes = want["mrope_axes"].get<std::vector<int>>();
        EXPECT_EQ(std::vector<int>(got.mrope_axes.begin(), got.mrope_axes.end()), axes);
      } else {
        EXPECT_TRUE(got.mrope_axes.empty());
      }
      const double temperature = want.value("query_temperature", 1.0);
      EXPECT_NEAR(got.query_temperature, temperature, 1e-12 * temperature);
    }
  }
}

TEST(ModelConfigFamilies, QwenThreeStaticYarnFromItsCard) {
  const ModelPositionReport r = read_model_config(read_text(kPresets / "qwen3-8b-yarn.json"), 1000);
  EXPECT_EQ(r.scaling_factor, 4.0);
  EXPECT_EQ(r.trained_length, 32768);
  ASSERT_EQ(r.layer_kinds.size(), 1u);
  EXPECT_EQ(r.layer_kinds[0].rope_type, "yarn");
  // Static: even a 1,000-token prompt runs on the stretched slow pairs.
  EXPECT_LT(r.inv_freq[63], r.base_inv_freq[63]);
}

TEST(ModelConfigFamilies, BadLayerInputNamesTheFieldAndTheRule) {
  EXPECT_EQ(
      parse_error_of(R"({"model_type": "gemma4_text", "head_dim": 256, "num_hidden_layers": 2,
      "num_attention_heads": 8, "max_position_embeddings": 4096, "rope_parameters": {"full_attention":
      {"rope_type": "proportional", "rope_theta": 1e6, "partial_rotary_factor": 0.25}, "rope_theta": 5}})"),
      "rope_parameters mixes one block per layer type with the field rope_parameters.rope_theta (which one "
      "applies is ambiguous); layer types: full_attention, sliding_attention, chunked_attention, "
      "linear_attention, attention, mamba, deepseek_sparse_attention, compressed_sparse_attention, "
      "heavily_compressed_attention");
  EXPECT_EQ(parse_error_of(R"({"model_type": "qwen3_next", "head_dim": 256, "num_attention_heads": 16,
      "max_position_embeddings": 4096, "full_attention_interval": 4})"),
            "full_attention_interval needs num_hidden_layers to lay out the layers: the config has none");
  EXPECT_EQ(parse_error_of(R"({"model_type": "gemma4", "text_config": {"model_type": "gemma4_text",
      "head_dim": 256, "num_attention_heads": 8, "max_position_embeddings": 4096, "rope_parameters":
      {"full_attention": {"rope_type": "proportional", "rope_theta": 1e6, "partial_rotary_factor": "a quarter"}}}})"),
            "in text_config: rope_parameters.full_attention.partial_rotary_factor must be a finite number in "
            "(0, 1], "
            "got \"a quarter\"");
  EXPECT_EQ(
      parse_error_of(R"({"model_type": "gemma4_text", "head_dim": 256, "num_attention_heads": 8,
      "max_position_embeddings": 4096, "rope_parameters": {"full_attention": {"rope_theta": 1e6},
      "sliding_attention": {"rope_type": "yarn", "factor": 2, "rope_theta": 1e4}}})"),
      "rope_parameters.sliding_attention.rope_type must be default, linear or proportional (the recipes this "
      "reader computes for local layers), got \"yarn\"");
}

// ---- families of 2025–26 ---------------------------------------------------------------------

// transformers' _compute_llama3_parameters, step by step as its torch.where lines read (a pair in the
// medium band takes the smoothed value; with equal factors that band holds only a wavelength exactly
// at the boundary, where smooth_factor is 0/0).
Vector reference_llama3(double base, int dim, double factor, double low, double high, double original) {
  const Vector inv = reference_default(base, dim);
  Vector out(inv.size());
  const double low_freq_wavelen = original / low;
  const double high_freq_wavelen = original / high;
  for (Eigen::Index i = 0; i < inv.size(); ++i) {
    const double wavelen = 2 * kPi / inv[i];
    const double inv_freq_llama = wavelen > low_freq_wavelen ? inv[i] / factor : inv[i];
    const double smooth_factor = (original / wavelen - low) / (high - low);
    const double smoothed = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama;
    const bool is_medium = !(wavelen < high_freq_wavelen) && !(wavelen > low_freq_wavelen);
    out[i] = is_medium ? smoothed : inv_freq_llama;
  }
  return out;
}

TEST(ModelConfigFamilies2026, Llama4ScoutInstructEqualLlama3FactorsHaveNoBlendBand) {
  const ModelPositionReport r =
      read_model_config(read_text(kPresets / "llama-4-scout-17b-16e-instruct.json"), 100000);
  EXPECT_TRUE(r.not_understood.empty());
  EXPECT_EQ(r.rope_type, RopeType::Llama3);
  EXPECT_EQ(r.advertised_length, 10485760);
  const Vector expected = reference_llama3(500000.0, 128, 16.0, 1.0, 1.0, 8192.0);
  // 1e-12 relative: the engine and the reference evaluate the same expressions.
  expect_close_vectors(r.inv_freq, expected, 1e-12, "scout instruct");
  int divided = 0;
  for (Eigen::Index i = 0; i < r.inv_freq.size(); ++i) {
    const bool slow = r.base_inv_freq[i] / r.inv_freq[i] > 1.5;
    if (slow) {
      EXPECT_NEAR(r.inv_freq[i] * 16, r.base_inv_freq[i], 1e-15 * r.base_inv_freq[i]) << "pair " << i;
      ++divided;
    } else {
      EXPECT_EQ(r.inv_freq[i], r.base_inv_freq[i]) << "pair " << i << ": no pair is blended";
    }
  }
  EXPECT_GT(divided, 0);
  const auto chunked = std::find_if(r.layer_kinds.begin(), r.layer_kinds.end(), [](const LayerKindReport& k) {
    return k.layer_type == "chunked_attention";
  });
  ASSERT_NE(chunked, r.layer_kinds.end());
  expect_close_vectors(chunked->inv_freq, expected, 1e-12, "chunked layers");
}

TEST(ModelConfigFamilies2026, SmolLM3NoPELayersHaveNoChunks) {
  const ModelPositionReport r = read_model_config(read_text(kPresets / "smollm3-3b.json"), 100000);
  EXPECT_TRUE(r.not_understood.empty());
  ASSERT_EQ(r.layer_kinds.size(), 2u);
  const LayerKindReport& rope = r.layer_kinds[0];
  const LayerKindReport& nope = r.layer_kinds[1];
  EXPECT_EQ(rope.layer_type, "full_attention");
  EXPECT_EQ(rope.positions, "rope");
  EXPECT_EQ(rope.layer_count, 27);
  EXPECT_EQ(rope.chunk, 0) << "SmolLM3 has no attention_chunk_size";
  EXPECT_EQ(rope.window, 0);
  EXPECT_EQ(rope.longest_distance, 99999);
  expect_close_vectors(rope.inv_freq, reference_default(5e6, 128), 1e-12, "smollm3 rope layers");
  EXPECT_EQ(nope.layer_type, "full_attention");
  EXPECT_EQ(nope.positions, "none");
  EXPECT_EQ(nope.none_reason, "nope");
  EXPECT_EQ(nope.layers, (std::vector<std::int64_t>{3, 7, 11, 15, 19, 23, 27, 31, 35}));
  EXPECT_EQ(nope.query_temperature, 1.0) << "no Llama 4 temperature tuning";
  EXPECT_GT(r.beyond_count, 0) << "100,000 tokens pass the 65,536 it was trained on";
  // Without the list, no_rope_layer_interval lays the same layers out.
  const ModelConfig interval = parse_model_config(R"({"model_type": "smollm3", "hidden_size": 2048,
      "num_attention_heads": 16, "num_hidden_layers": 8, "max_position_embeddings": 65536,
      "rope_theta": 5e6, "no_rope_layer_interval": 4})");
  EXPECT_EQ(interval.nope_layers, (std::vector<std::uint8_t>{0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(interval.attention_chunk_size, 0);
}

TEST(ModelConfigFamilies2026, Granite4HybridMambaLayersAndNoPEAttention) {
  const ModelPositionReport r = read_model_config(read_text(kPresets / "granite-4.0-h-350m.json"), 40000);
  EXPECT_EQ(r.scheme, PositionScheme::None);
  EXPECT_TRUE(r.not_understood.empty());
  EXPECT_EQ(r.attention_layers, (std::vector<std::int64_t>{10, 13, 17, 27}));
  EXPECT_EQ(r.num_layers, 32);
  EXPECT_EQ(r.advertised_length, 32768);
  // With position_embedding_type rope (GraniteMoeHybridConfig's other value) the attention layers turn
  // RoPE at rope_theta and the Mamba layers stay without positions.
  const ModelPositionReport rope = read_model_config(R"({"model_type": "granitemoehybrid", "hidden_size": 768,
      "num_attention_heads": 12, "num_hidden_layers": 4, "max_position_embeddings": 32768,
      "position_embedding_type": "rope", "rope_theta": 10000,
      "layer_types": ["mamba", "attention", "mamba", "attention"]})",
                                                     100);
  ASSERT_EQ(rope.layer_kinds.size(), 2u);
  EXPECT_EQ(rope.layer_kinds[0].layer_type, "mamba");
  EXPECT_EQ(rope.layer_kinds[0].positions, "none");
  EXPECT_EQ(rope.layer_kinds[0].none_reason, "recurrence");
  EXPECT_EQ(rope.layer_kinds[1].positions, "rope");
  expect_close_vectors(rope.layer_kinds[1].inv_freq, reference_default(10000.0, 64), 1e-12, "granite rope");
}

// Ministral 3's text model as copies of its published config give it (rope_parameters: YaRN ×16 over
// 16,384 tokens at base 1e6, llama_4_scaling_beta 0.1). transformers' Ministral3Attention multiplies the
// queries of every layer by _get_llama_4_attn_scale: 1 + β·log(1 + floor(position / original)).
TEST(ModelConfigFamilies2026, Llama4ScalingBetaIsAQueryScaleOnEveryRopeLayer) {
  const std::string text = R"({"model_type": "ministral3", "hidden_size": 4096, "num_attention_heads": 32,
      "head_dim": 128, "num_hidden_layers": 34, "max_position_embeddings": 262144,
      "rope_parameters": {"rope_type": "yarn", "rope_theta": 1000000, "factor": 16.0,
      "original_max_position_embeddings": 16384, "beta_fast": 32.0, "beta_slow": 1.0,
      "llama_4_scaling_beta": 0.1}})";
  for (const std::int64_t n : {1, 16384, 16385, 100000, 262144}) {
    const ModelPositionReport r = read_model_config(text, n);
    EXPECT_TRUE(r.not_understood.empty());
    EXPECT_EQ(r.query_scaling_beta, 0.1);
    EXPECT_EQ(r.query_scaling_length, 16384);
    ASSERT_EQ(r.layer_kinds.size(), 1u);
    const double position = static_cast<double>(n - 1);  // the last token's cache_position
    const double expected = 1.0 + 0.1 * std::log(1.0 + std::floor(position / 16384.0));
    // 1e-15 relative: one log and one product.
    EXPECT_NEAR(r.layer_kinds[0].query_temperature, expected, 1e-15 * expected) << n;
  }
  EXPECT_EQ(read_model_config(text, 16384).layer_kinds[0].query_temperature, 1.0) << "positions 0 … 16383";
  // Without the block's original length transformers cannot compute it: listed, not applied.
  const ModelPositionReport bare = read_model_config(R"({"model_type": "ministral3", "head_dim": 128,
      "num_attention_heads": 32, "max_position_embeddings": 262144,
      "rope_parameters": {"rope_type": "default", "rope_theta": 1e6, "llama_4_scaling_beta": 0.1}})",
                                                     100000);
  ASSERT_EQ(bare.not_understood.size(), 1u);
  EXPECT_EQ(bare.not_understood[0].effect, "query_scale_incomplete");
  EXPECT_EQ(bare.layer_kinds[0].query_temperature, 1.0);
}

// Kimi Linear's MLA layers with mla_use_nope (KimiLinearConfig): the qk_rope_head_dim part of each head
// is never rotated, so no layer has positions.
TEST(ModelConfigFamilies2026, MlaUseNopeLeavesTheAttentionLayersWithoutPositions) {
  const ModelPositionReport r = read_model_config(R"({"model_type": "kimi_linear", "hidden_size": 2304,
      "num_attention_heads": 32, "num_hidden_layers": 4, "max_position_embeddings": 1048576,
      "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "mla_use_nope": true, "rope_theta": 10000,
      "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"]})",
                                                  100000);
  ASSERT_EQ(r.layer_kinds.size(), 2u);
  EXPECT_EQ(r.layer_kinds[1].layer_type, "full_attention");
  EXPECT_EQ(r.layer_kinds[1].positions, "none");
  EXPECT_EQ(r.layer_kinds[1].none_reason, "nope");
  EXPECT_EQ(r.beyond_count, 0) << "no layer turns pairs";
  EXPECT_EQ(error_of([] {
              parse_model_config(R"({"model_type": "kimi_linear", "hidden_size": 64,
      "num_attention_heads": 2, "max_position_embeddings": 64, "qk_rope_head_dim": 8, "rope_theta": 1e4, "mla_use_nope": 1})");
            }),
            "mla_use_nope must be true or false, got 1");
}

// Kimi Linear as published: no layer_types, but linear_attn_config lists the linear-attention (Kimi Delta
// Attention) layers and the MLA ones, counted from 1, and mla_use_nope leaves MLA's rotary part unturned:
// a hybrid without positions, read as Granite 4.0-H's is, whatever rope_theta says, and with no length
// needed. Layers outside both lists are MLA (vLLM's is_kda_layer); a malformed list is refused by entry.
TEST(ModelConfigFamilies2026, KimiLinearPublishedLayersAreAHybridWithoutPositions) {
  const ModelPositionReport r = analyse_model_config(preset("kimi-linear-48b-a3b-instruct.json"), 100000);
  EXPECT_EQ(r.scheme, PositionScheme::None);
  EXPECT_TRUE(r.not_understood.empty());
  EXPECT_EQ(r.recurrent_kind, "kda");
  EXPECT_EQ(r.attention_layers, (std::vector<std::int64_t>{3, 7, 11, 15, 19, 23, 26}));
  EXPECT_EQ(r.beyond_count, 0);
  const std::string head = R"({"model_type": "kimi_linear", "hidden_size": 64, "num_attention_heads": 2,
      "num_hidden_layers": 4, "qk_rope_head_dim": 8, "qk_nope_head_dim": 8, "mla_use_nope": true,
      "rope_theta": 1e4, )";
  EXPECT_EQ(read_model_config(head + R"("linear_attn_config": {"full_attn_layers": [2, 4]}})", 100)
                .attention_layers,
            (std::vector<std::int64_t>{1, 3}))
      << "full_attn_layers alone";
  EXPECT_EQ(
      read_model_config(head + R"("linear_attn_config": {"kda_layers": [1, 2]}})", 100).attention_layers,
      (std::vector<std::int64_t>{2, 3}))
      << "a layer in neither list is MLA";
  EXPECT_EQ(parse_error_of(head + R"("linear_attn_config": {"kda_layers": [0, 1]}})"),
            "linear_attn_config.kda_layers[0] must be a whole number ≥ 1, got 0");
  EXPECT_EQ(parse_error_of(head + R"("linear_attn_config": {"full_attn_layers": [5]}})"),
            "linear_attn_config.full_attn_layers[0] must be a layer counted from 1 to num_hidden_layers = 4, "
            "got 5");
  EXPECT_EQ(parse_error_of(head + R"("linear_attn_config": [1, 2]})"),
            "linear_attn_config must be an object, got an array");
}

// DeepSeek-V3.2-Exp's published config (DeepSeek Sparse Attention): every MLA layer attends to the
// index_topk tokens its indexer ranks highest, chosen anywhere in the prompt; the indexer turns the first
// qk_rope_head_dim dimensions of each of its index_head_dim-wide heads with MLA's own YaRN frequencies
// (DeepSeek's inference/model.py passes both the same freqs_cis), laid out split-half.
TEST(ModelConfigFamilies2026, SparseAttentionIndexerTurnsTheMainFrequenciesOverThePrompt) {
  const ModelPositionReport r = analyse_model_config(preset("deepseek-v3.2-exp.json"), 400000);
  ASSERT_EQ(r.layer_kinds.size(), 2u);
  const LayerKindReport& mla = r.layer_kinds[0];
  EXPECT_EQ(mla.layer_type, "all");
  EXPECT_EQ(mla.top_k, 2048);
  EXPECT_EQ(mla.longest_distance, 399999) << "the picked tokens may lie anywhere: no window";
  const LayerKindReport& indexer = r.layer_kinds[1];
  EXPECT_EQ(indexer.layer_type, "indexer");
  EXPECT_EQ(indexer.positions, "rope");
  EXPECT_EQ(indexer.layer_count, 61);
  EXPECT_EQ(indexer.layers.front(), 0);
  EXPECT_EQ(indexer.layers.back(), 60);
  EXPECT_EQ(indexer.heads, 64);
  EXPECT_EQ(indexer.head_dim, 128);
  EXPECT_EQ(indexer.rotary_dim, 64) << "qk_rope_head_dim of its 128 dimensions";
  EXPECT_EQ(indexer.pair_layout, "split-half");
  EXPECT_EQ(indexer.top_k, 0);
  EXPECT_EQ(indexer.longest_distance, 399999) << "it scores every earlier token";
  // transformers' YaRN (_compute_yarn_parameters) for base 10000, 64 dimensions, factor 40 from 4,096.
  expect_close_vectors(indexer.inv_freq, reference_yarn(10000.0, 64, 40.0, 4096.0, 32.0, 1.0), 1e-12,
                       "indexer pairs");
  expect_close_vectors(indexer.base_inv_freq, reference_default(10000.0, 64), 1e-12, "indexer, unscaled");
  EXPECT_EQ(indexer.beyond, mla.beyond) << "same frequencies, same span";
  EXPECT_GT(indexer.beyond_count, 0)
      << "400,000 tokens are past the 4,096 × 40 = 163,840 the stretch reaches";
  EXPECT_TRUE(r.not_understood.empty());
}

// GLM-5 (GlmMoeDsaConfig): layer_types "deepseek_sparse_attention", and indexer_rope_interleave for the
// indexer's pair layout; a sliding layer has no indexer, and an indexer narrower than the rotary part is
// refused, naming the field.
TEST(ModelConfigFamilies2026, SparseAttentionReadsGlmLayerTypesAndLayout) {
  const ModelPositionReport r = read_model_config(R"({"model_type": "glm_moe_dsa", "hidden_size": 6144,
      "num_attention_heads": 64, "num_hidden_layers": 3, "max_position_embeddings": 202752,
      "qk_rope_head_dim": 64, "qk_nope_head_dim": 192, "rope_theta": 1000000, "index_topk": 2048,
      "index_head_dim": 128, "index_n_heads": 32, "indexer_rope_interleave": true, "sliding_window": 4096,
      "layer_types": ["deepseek_sparse_attention", "sliding_attention", "deepseek_sparse_attention"]})",
                                                  8192);
  ASSERT_EQ(r.layer_kinds.size(), 3u);
  EXPECT_EQ(r.layer_kinds[0].top_k, 2048);
  EXPECT_EQ(r.layer_kinds[1].top_k, 0) << "a windowed layer has no indexer";
  EXPECT_EQ(r.layer_kinds[2].layer_type, "indexer");
  EXPECT_EQ(r.layer_kinds[2].layers, (std::vector<std::int64_t>{0, 2}));
  EXPECT_EQ(r.layer_kinds[2].pair_layout, "interleaved");
  EXPECT_EQ(r.layer_kinds[2].heads, 32);
  expect_close_vectors(r.layer_kinds[2].inv_freq, reference_default(1e6, 64), 1e-12, "GLM indexer");
  EXPECT_TRUE(r.not_understood.empty()) << "indexer_rope_interleave is read";
  EXPECT_EQ(parse_error_of(R"({"model_type": "deepseek_v32", "hidden_size": 64, "num_attention_heads": 2,
      "max_position_embeddings": 64, "qk_rope_head_dim": 16, "rope_theta": 1e4, "index_topk": 8,
      "index_head_dim": 8})"),
            "index_head_dim must be at least the rotary width 16 (the indexer turns that many of its "
            "dimensions, as the main attention does), got 8");
}

// GLM-5 as published: each query and key is qk_head_dim 256 wide (qk_nope_head_dim 192 + qk_rope_head_dim
// 64), and its head_dim 64 is the rotary part (transformers' GlmMoeDsaConfig builds its rotary embedding from
// it), not the width of a head. RoPE at 1,000,000 unscaled; the indexer's pairs interleaved, on the first 64
// of its 128 dimensions. A qk_head_dim that is not the sum of the two parts is refused.
TEST(ModelConfigFamilies2026, Glm5HeadIsQkHeadDimAndItsIndexerInterleaves) {
  const ModelPositionReport r = analyse_model_config(preset("glm-5.json"), 400000);
  EXPECT_TRUE(r.not_understood.empty());
  EXPECT_EQ(r.head_dim, 256);
  EXPECT_EQ(r.head_dim_field, "qk_head_dim");
  EXPECT_EQ(r.mla_qk_head_dim, 256);
  EXPECT_EQ(r.rotary_dim, 64);
  expect_close_vectors(r.inv_freq, reference_default(1e6, 64), 1e-12, "MLA pairs at rope_theta 1,000,000");
  ASSERT_EQ(r.layer_kinds.size(), 2u);
  const LayerKindReport& mla = r.layer_kinds[0];
  EXPECT_EQ(mla.layer_count, 78);
  EXPECT_EQ(mla.head_dim, 256) << "the layers' head is the scheme's";
  EXPECT_EQ(mla.top_k, 2048);
  const LayerKindReport& indexer = r.layer_kinds[1];
  EXPECT_EQ(indexer.layer_type, "indexer");
  EXPECT_EQ(indexer.layer_count, 78);
  EXPECT_EQ(indexer.heads, 32);
  EXPECT_EQ(indexer.head_dim, 128);
  EXPECT_EQ(indexer.rotary_part, "first");
  EXPECT_EQ(indexer.pair_layout, "interleaved");
  expect_close_vectors(indexer.inv_freq, reference_default(1e6, 64), 1e-12, "GLM-5 indexer");
  // 400,000 tokens against 202,752 trained: the slow pairs that never finished a turn in training.
  EXPECT_EQ(indexer.beyond, mla.beyond);
  EXPECT_GT(mla.beyond_count, 0);
  EXPECT_EQ(parse_error_of(R"({"model_type": "glm_moe_dsa", "hidden_size": 6144, "num_attention_heads": 64,
      "max_position_embeddings": 4096, "qk_rope_head_dim": 64, "qk_nope_head_dim": 192, "qk_head_dim": 192,
      "rope_theta": 1e6})"),
            "qk_head_dim must be qk_nope_head_dim + qk_rope_head_dim = 256, got 192");
}

// ---- what the reader does not understand ---------------------------------------------------

bool lists(const std::vector<NotUnderstood>& items, const std::string& field, const std::string& effect) {
  return std::any_of(items.begin(), items.end(),
                     [&](const NotUnderstood& item) { return item.field == field && item.effect == effect; });
}

// DeepSeek-V4 as transformers' DeepseekV4Config reads it: the sliding layers turn rope_theta unscaled within
// their 128-token window; the compressed layers turn compress_rope_theta with the config's YaRN block (its
// cos/sin factor forced to 1), over a window of raw tokens and one compressed entry per 4 (CSA, the indexer
// keeping index_topk of them) or 128 tokens (HCA), so they reach the whole prompt.
TEST(ModelConfigFamilies2026, DeepSeekV4CompressedLayersTurnTheSecondRope) {
  const ModelPositionReport r = read_model_config(R"({"model_type": "deepseek_v4", "hidden_size": 4096,
      "num_attention_heads": 64, "head_dim": 512, "num_hidden_layers": 4, "max_position_embeddings": 1048576,
      "partial_rotary_factor": 0.125, "rope_interleave": true, "sliding_window": 128, "rope_theta": 10000,
      "compress_rope_theta": 160000, "index_topk": 512, "index_head_dim": 128, "index_n_heads": 64,
      "rope_scaling": {"rope_type": "yarn", "factor": 16, "original_max_position_embeddings": 65536},
      "layer_types": ["sliding_attention", "compressed_sparse_attention", "heavily_compressed_attention",
      "compressed_sparse_attention"]})",
                                                  100000);
  EXPECT_EQ(r.rotary_dim, 64) << "int(512 × 0.125)";
  EXPECT_TRUE(r.not_understood.empty());
  ASSERT_EQ(r.layer_kinds.size(), 4u) << "window, CSA, HCA, and the CSA layers' indexer";
  EXPECT_EQ(r.layer_kinds[3].layer_type, "indexer");
  EXPECT_EQ(r.layer_kinds[3].layers, (std::vector<std::int64_t>{1, 3}));
  const LayerKindReport& sliding = r.layer_kinds[0];
  EXPECT_EQ(sliding.window, 128);
  EXPECT_EQ(sliding.base, 10000.0);
  expect_close_vectors(sliding.inv_freq, reference_default(10000.0, 64), 1e-12, "sliding layers, unscaled");
  const LayerKindReport& csa = r.layer_kinds[1];
  EXPECT_EQ(csa.layer_type, "compressed_sparse_attention");
  EXPECT_EQ(csa.layers, (std::vector<std::int64_t>{1, 3}));
  EXPECT_EQ(csa.compress_ratio, 4);
  EXPECT_EQ(csa.raw_window, 128);
  EXPECT_EQ(csa.window, 0) << "the entries reach back over the whole prompt";
  EXPECT_EQ(csa.top_k, 512);
  EXPECT_EQ(csa.longest_distance, 99999);
  EXPECT_EQ(csa.base, 160000.0);
  expect_close_vectors(csa.inv_freq, reference_yarn(160000.0, 64, 16.0, 65536.0, 32.0, 1.0), 1e-12,
                       "compressed layers: YaRN at compress_rope_theta");
  const LayerKindReport& hca = r.layer_kinds[2];
  EXPECT_EQ(hca.compress_ratio, 128);
  EXPECT_EQ(hca.top_k, 0) << "HCA attends to every compressed entry";
  EXPECT_EQ(r.attention_factor, 1.0) << "DeepseekV4Config forces YaRN's cos/sin factor to 1";
  EXPECT_EQ(r.local_base, 10000.0);
  // 100,000 tokens lie within the 65,536 × 16 the compressed layers were stretched to: no pair beyond.
  EXPECT_EQ(csa.beyond_count, 0);
  EXPECT_EQ(parse_error_of(R"({"model_type": "deepseek_v4", "head_dim": 512, "num_attention_heads": 64,
      "max_position_embeddings": 4096, "rope_theta": 10000, "layer_types": ["compressed_sparse_attention"],
      "compress_rates": {"compressed_sparse_attention": 0}})"),
            "compress_rates.compressed_sparse_attention must be a whole number ≥ 1, got 0");
}

// rope_parameters keyed by rope kind, as transformers 5 saves a DeepseekV4Config: "main" is the sliding
// layers', "compress" the compressed layers'; read as the flat form above, nothing left not understood.
TEST(ModelConfigFamilies2026, DeepSeekV4NestedRopeParametersReadAsTheFlatForm) {
  const ModelPositionReport r = read_model_config(R"({"model_type": "deepseek_v4", "hidden_size": 4096,
      "num_attention_heads": 64, "head_dim": 512, "num_hidden_layers": 2, "max_position_embeddings": 1048576,
      "sliding_window": 128, "rope_parameters": {"main": {"rope_type": "default", "rope_theta": 10000,
      "partial_rotary_factor": 0.125}, "compress": {"rope_type": "yarn", "factor": 16,
      "original_max_position_embeddings": 65536, "rope_theta": 160000, "partial_rotary_factor": 0.125,
      "attention_factor": 1.0}}, "layer_types": ["sliding_attention", "heavily_compressed_attention"]})",
                                                  100000);
  EXPECT_TRUE(r.not_understood.empty());
  EXPECT_TRUE(r.notes.empty()) << "both bases are given";
  EXPECT_EQ(r.rope_type, RopeType::Yarn);
  EXPECT_EQ(r.rotary_dim, 64);
  EXPECT_EQ(r.layer_kinds[0].base, 10000.0);
  expect_close_vectors(r.layer_kinds[1].inv_freq, reference_yarn(160000.0, 64, 16.0, 65536.0, 32.0, 1.0),
                       1e-12, "compressed layers");
}

// DeepSeek-V4-Flash's published config.json lays its layers out as compress_ratios, one per layer and then
// one per multi-token-prediction layer (0: window only; 4: compressed sparse attention with its indexer;
// 128: heavily compressed), with no layer_types and no qk_nope_head_dim (head_dim 512 is the whole width).
// Read as transformers' layer types, with DeepSeek's inference/model.py's two RoPEs.
TEST(ModelConfigFamilies2026, DeepSeekV4PublishedCompressRatiosReadAsLayerTypes) {
  const ModelPositionReport r = analyse_model_config(preset("deepseek-v4-flash.json"), 100000);
  EXPECT_TRUE(r.not_understood.empty());
  EXPECT_EQ(r.layer_types_field, "compress_ratios");
  EXPECT_EQ(r.mla_qk_head_dim, 512) << "head_dim holds the rotary 64 and the 448 without position";
  ASSERT_EQ(r.layer_kinds.size(), 4u) << "window, sparse, heavy, and the sparse layers' indexer";
  const LayerKindReport& window = r.layer_kinds[0];
  EXPECT_EQ(window.layer_type, "sliding_attention");
  EXPECT_EQ(window.layers, (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(window.window, 128);
  expect_close_vectors(window.inv_freq, reference_default(10000.0, 64), 1e-12, "window layers: rope_theta");
  std::vector<std::int64_t> even;
  std::vector<std::int64_t> odd;
  for (std::int64_t i = 2; i <= 42; ++i) (i % 2 == 0 ? even : odd).push_back(i);
  const LayerKindReport& csa = r.layer_kinds[1];
  EXPECT_EQ(csa.layer_type, "compressed_sparse_attention");
  EXPECT_EQ(csa.layers, even) << "the 21 layers the published weights give an indexer";
  EXPECT_EQ(csa.compress_ratio, 4);
  EXPECT_EQ(csa.top_k, 512);
  expect_close_vectors(csa.inv_freq, reference_yarn(160000.0, 64, 16.0, 65536.0, 32.0, 1.0), 1e-12,
                       "compressed layers: YaRN at compress_rope_theta");
  const LayerKindReport& hca = r.layer_kinds[2];
  EXPECT_EQ(hca.layers, odd);
  EXPECT_EQ(hca.compress_ratio, 128);
  EXPECT_EQ(r.attention_factor, 1.0) << "the reference turns unit-length rotations (no mscale in the block)";
  // The indexer of the sparse layers: DeepSeek's inference/model.py hands it its layer's table
  // (self.indexer.freqs_cis = self.freqs_cis), so YaRN at compress_rope_theta, on the last 64 of its 128
  // dimensions (q[..., -rd:]), pairs interleaved as apply_rotary_emb lays them out.
  const LayerKindReport& indexer = r.layer_kinds[3];
  EXPECT_EQ(indexer.layer_type, "indexer");
  EXPECT_EQ(indexer.layers, even) << "one indexer in each sparse layer, none in the heavy or window ones";
  EXPECT_EQ(indexer.compress_ratio, 4) << "it scores compressed entries, one per 4 tokens";
  EXPECT_EQ(indexer.heads, 64);
  EXPECT_EQ(indexer.head_dim, 128);
  EXPECT_EQ(indexer.rotary_dim, 64);
  EXPECT_EQ(indexer.rotary_part, "last");
  EXPECT_EQ(indexer.pair_layout, "interleaved");
  EXPECT_EQ(indexer.base, 160000.0);
  expect_close_vectors(indexer.inv_freq, reference_yarn(160000.0, 64, 16.0, 65536.0, 32.0, 1.0), 1e-12,
                       "indexer: its layer's YaRN at compress_rope_theta");
  EXPECT_EQ(indexer.longest_distance, 99999) << "it scores the whole prompt's entries";
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0],
            "compress_ratios holds 44 entries for 43 layers: those past the first 43 belong to the "
            "multi-token-prediction layers, which are not drawn");
}

// Mistral Medium 3.5 (a Mistral 3 text model under text_config): YaRN with beta_fast 4, so the ramp starts
// at a slower pair than YaRN's usual 32 would and more fast pairs keep their speed; mscale_all_dim 0.0 is
// falsy in transformers, which then takes get_mscale(factor); llama_4_scaling_beta 0 leaves every query
// unscaled.
TEST(ModelConfigFamilies2026, MistralMedium35YarnWithItsOwnBetaFastAndNoQueryScale) {
  const ModelPositionReport r = analyse_model_config(preset("mistral-medium-3.5-128b.json"), 100000);
  EXPECT_TRUE(r.not_understood.empty());
  EXPECT_EQ(r.text_field, "text_config");
  expect_close_vectors(r.inv_freq, reference_yarn(1e6, 128, 64.0, 4096.0, 4.0, 1.0), 1e-12,
                       "yarn, beta_fast 4");
  const Vector usual = reference_yarn(1e6, 128, 64.0, 4096.0, 32.0, 1.0);
  // The ramp starts where a pair turns beta_fast times over 4,096 tokens: pair 23 for 4, pair 13 for 32.
  EXPECT_EQ(r.inv_freq[20], reference_default(1e6, 128)[20]) << "beta_fast 4 keeps pair 20 at its speed";
  EXPECT_LT(usual[20], r.inv_freq[20]) << "where beta_fast 32 would have slowed it";
  EXPECT_NEAR(r.attention_factor, 0.1 * std::log(64.0) + 1.0, 1e-15);
  EXPECT_EQ(r.query_scaling_beta, 0.0);
  for (const LayerKindReport& kind : r.layer_kinds) EXPECT_EQ(kind.query_temperature, 1.0);
}

// A rate besides 4 and one other is a kind the reader does not know: named, its layers not drawn, the rest
// read. Malformed lists are refused with the entry that breaks the rule.
TEST(ModelConfigFamilies2026, DeepSeekV4CompressRatiosUnknownRateAndMalformedLists) {
  const std::string head = R"({"model_type": "deepseek_v4", "head_dim": 512, "num_attention_heads": 64,
      "qk_rope_head_dim": 64, "max_position_embeddings": 1048576, "rope_theta": 10000, "sliding_window": 128,
      "compress_rope_theta": 160000, "num_hidden_layers": 4, )";
  const ModelPositionReport r = read_model_config(head + R"("compress_ratios": [0, 4, 128, 16]})", 1000);
  ASSERT_EQ(r.not_understood.size(), 1u);
  EXPECT_EQ(r.not_understood[0].field, "compress_ratios[3]");
  EXPECT_EQ(r.not_understood[0].value, "16");
  ASSERT_EQ(r.layer_kinds.size(), 4u);
  EXPECT_EQ(r.layer_kinds[3].positions, "unknown");
  EXPECT_EQ(r.layer_kinds[2].compress_ratio, 128);
  EXPECT_EQ(parse_error_of(head + R"("compress_ratios": [0, 4, -1, 4]})"),
            "compress_ratios[2] must be a whole number ≥ 0, got -1");
  EXPECT_EQ(parse_error_of(head + R"("compress_ratios": [0, 4]})"),
            "compress_ratios must hold at least num_hidden_layers = 4 entries (one per layer), got 2");
  EXPECT_EQ(parse_error_of(head + R"("compress_ratios": "0,4"})"),
            "compress_ratios must be a non-empty array of whole numbers ≥ 0, one per layer, got \"0,4\"");
}

// Well-formed configs holding something unknown: each reads, and names what it did not understand.
TEST(ModelConfigDegraded, EveryDegradedFileReadsAndNamesWhatItDidNotUnderstand) {
  const nlohmann::json expected =
      nlohmann::json::parse(read_text(kConfigs / "degraded" / "expected.json"))["expected"];
  std::size_t files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(kConfigs / "degraded")) {
    if (entry.path().filename() == "expected.json") continue;
    ++files;
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    ASSERT_TRUE(expected.contains(name)) << name << " has no expected reading";
    const nlohmann::json& e = expected[name];
    ModelPositionReport r;
    ASSERT_EQ(error_of([&] { r = read_model_config(read_text(entry.path()), 1000); }), "no error");
    EXPECT_EQ(scheme_name(r.scheme), e.at("scheme").get<std::string>());
    ASSERT_EQ(r.not_understood.size(), e.at("notUnderstood").size());
    for (std::size_t i = 0; i < r.not_understood.size(); ++i) {
      EXPECT_EQ(r.not_understood[i].field, e["notUnderstood"][i][0].get<std::string>());
      EXPECT_EQ(r.not_understood[i].value, e["notUnderstood"][i][1].get<std::string>());
      EXPECT_EQ(r.not_understood[i].effect, e["notUnderstood"][i][2].get<std::string>());
    }
    EXPECT_GT(r.advertised_length, 0) << "the lengths are still read";
  }
  EXPECT_EQ(files, expected.size()) << "every listed file exists";
}

TEST(ModelConfigDegraded, AnUnknownRecipeReadsTheUnscaledFrequencies) {
  const ModelPositionReport r =
      read_model_config(read_text(kConfigs / "degraded" / "unknown-rope-type.json"), 100);
  expect_close_vectors(r.inv_freq, reference_default(10000.0, 128), 1e-12, "unscaled");
  EXPECT_EQ(r.rope_type, RopeType::Default);
}

TEST(ModelConfigDegraded, AnUnknownLayerKindIsItsOwnKindAndTheOthersStillTurn) {
  const ModelPositionReport r =
      read_model_config(read_text(kConfigs / "degraded" / "layer-types-unknown.json"), 100000);
  ASSERT_EQ(r.layer_kinds.size(), 3u);
  const LayerKindReport& unknown = r.layer_kinds[2];
  EXPECT_EQ(unknown.layer_type, "global");
  EXPECT_EQ(unknown.positions, "unknown");
  EXPECT_EQ(unknown.layers, std::vector<std::int64_t>{2});
  EXPECT_EQ(unknown.inv_freq.size(), 0);
  EXPECT_EQ(r.layer_kinds[0].positions, "rope");
  EXPECT_EQ(r.layer_kinds[0].window, 128);
  EXPECT_EQ(r.layer_kinds[1].layers, (std::vector<std::int64_t>{1, 3}));
  expect_close_vectors(r.layer_kinds[1].inv_freq, reference_default(150000.0, 64), 1e-12, "full attention");
}

TEST(ModelConfigDegraded, MalformedValuesAreStillRefused) {
  EXPECT_EQ(parse_error_of(R"({"model_type": "gpt_oss", "head_dim": 64, "num_attention_heads": 8,
      "max_position_embeddings": 4096, "num_hidden_layers": 2, "layer_types": ["full_attention", 3]})"),
            "layer_types[1] must be a string, got 3");
  EXPECT_EQ(parse_error_of(R"({"model_type": "llama", "head_dim": 64, "num_attention_heads": 8,
      "max_position_embeddings": 4096, "rope_scaling": {"rope_type": "linear", "factor": -2}})"),
            "rope_scaling.factor must be a finite number > 0, got -2");
  EXPECT_EQ(parse_error_of(R"({"model_type": "llama", "head_dim": 64, "num_attention_heads": 8,
      "max_position_embeddings": 4096, "position_embedding_type": 5})"),
            "position_embedding_type must be a string, got 5");
}

// The text model's object inside a preset (text_config …), or the preset itself.
nlohmann::json& text_model(nlohmann::json& config) {
  for (const char* key : {"text_config", "language_config", "llm_config"}) {
    if (config.contains(key) && config[key].is_object() && !config[key].empty()) return config[key];
  }
  return config;
}

// The scaling blocks of a text model: rope_parameters (or its per-layer-type blocks) and rope_scaling.
std::vector<std::pair<std::string, nlohmann::json*>> scaling_blocks(nlohmann::json& model) {
  std::vector<std::pair<std::string, nlohmann::json*>> blocks;
  for (const char* key : {"rope_parameters", "rope_scaling"}) {
    if (!model.contains(key) || !model[key].is_object()) continue;
    bool nested = false;
    for (auto& [name, value] : model[key].items()) {
      if (value.is_object()) {
        blocks.emplace_back(std::string(key) + "." + name, &value);
        nested = true;
      }
    }
    if (!nested) blocks.emplace_back(key, &model[key]);
  }
  return blocks;
}

// Every preset, with one thing in it made unknown at a time: a scaling field renamed, the recipe's
// name replaced, a layer kind replaced, the family renamed, the embedding type replaced. Each still
// reads; the lengths and the layers the change did not touch read as before; and the card's list
// names the change.
TEST(ModelConfigDegraded, EveryPresetStillReadsWithOneThingUnknown) {
  const nlohmann::json index = nlohmann::json::parse(read_text(kPresets / "index.json"));
  int variants = 0;
  for (const auto& entry : index["presets"]) {
    const std::string file = entry["file"].get<std::string>();
    SCOPED_TRACE(file);
    const nlohmann::json original = nlohmann::json::parse(read_text(kPresets / file));
    const ModelPositionReport before = read_model_config(original.dump(), 4096);
    const auto read_variant = [&](const nlohmann::json& variant, const std::string& what) {
      SCOPED_TRACE(what);
      ++variants;
      ModelPositionReport r;
      EXPECT_EQ(error_of([&] { r = read_model_config(variant.dump(), 4096); }), "no error");
      EXPECT_EQ(r.advertised_length, before.advertised_length);
      EXPECT_FALSE(r.not_understood.empty()) << "the card names what was not understood";
      return r;
    };
    {
      nlohmann::json variant = original;
      for (auto& [field, block] : scaling_blocks(text_model(variant))) {
        std::vector<std::string> keys;
        for (const auto& item : block->items()) keys.push_back(item.key());
        for (const std::string& key : keys) {
          nlohmann::json renamed = original;
          nlohmann::json* target = nullptr;
          for (auto& [f, b] : scaling_blocks(text_model(renamed))) {
            if (f == field) target = b;
          }
          (*target)[key + "_v2"] = (*target)[key];
          target->erase(key);
          const ModelPositionReport r = read_variant(renamed, field + "." + key + " renamed");
          EXPECT_TRUE(lists(r.not_understood, field + "." + key + "_v2", "scaling_field"));
          EXPECT_EQ(r.scheme, before.scheme);
        }
        if (block->contains("rope_type") || block->contains("type")) {
          nlohmann::json unknown = original;
          for (auto& [f, b] : scaling_blocks(text_model(unknown))) {
            if (f != field) continue;
            (*b)[b->contains("rope_type") ? "rope_type" : "type"] = "future_rope";
            if (b->contains("rope_type") && b->contains("type")) (*b)["type"] = "future_rope";
          }
          const ModelPositionReport r = read_variant(unknown, field + " rope_type unknown");
          EXPECT_EQ(r.scheme, before.scheme);
          EXPECT_EQ(r.rotary_dim, before.rotary_dim);
        }
      }
    }
    nlohmann::json variant_base = original;
    if (text_model(variant_base).contains("layer_types") &&
        text_model(variant_base)["layer_types"].is_array()) {
      nlohmann::json variant = original;
      nlohmann::json& types = text_model(variant)["layer_types"];
      const std::size_t last = types.size() - 1;
      types[last] = "future_attention";
      const ModelPositionReport r = read_variant(variant, "last layer kind unknown");
      EXPECT_TRUE(lists(r.not_understood, "layer_types[" + std::to_string(last) + "]", "layer_type"));
      std::int64_t layers = 0;
      for (const LayerKindReport& kind : r.layer_kinds) layers += kind.layer_count;
      // A hybrid without positions (Granite 4.0-H) lists its attention layers instead of kinds.
      EXPECT_EQ(before.scheme == PositionScheme::Rope ? layers : r.num_layers,
                static_cast<std::int64_t>(types.size()));
      const auto unknown = std::find_if(r.layer_kinds.begin(), r.layer_kinds.end(),
                                        [](const LayerKindReport& k) { return k.positions == "unknown"; });
      if (before.scheme == PositionScheme::Rope) {
        ASSERT_NE(unknown, r.layer_kinds.end());
        EXPECT_EQ(unknown->layers, std::vector<std::int64_t>{static_cast<std::int64_t>(last)});
        // The kinds the change did not touch turn exactly as before.
        for (const LayerKindReport& kind : r.layer_kinds) {
          const auto same = std::find_if(
              before.layer_kinds.begin(), before.layer_kinds.end(), [&](const LayerKindReport& k) {
                return k.layer_type == kind.layer_type && k.positions == kind.positions;
              });
          if (kind.positions == "unknown" || same == before.layer_kinds.end()) continue;
          EXPECT_EQ(kind.inv_freq, same->inv_freq) << kind.layer_type;
        }
      }
    }
    // A family whose text model takes its length from the family's defaults (Gemma 3's text_config
    // states none) has no length once the family is unknown: that refusal names the missing field.
    if (text_model(variant_base).contains("max_position_embeddings")) {
      nlohmann::json variant = original;
      text_model(variant)["model_type"] = "future_family";
      ++variants;
      ModelPositionReport r;
      EXPECT_EQ(error_of([&] { r = read_model_config(variant.dump(), 4096); }), "no error") << "model_type";
    }
    {
      nlohmann::json variant = original;
      text_model(variant)["position_embedding_type"] = "future_positions";
      const ModelPositionReport r = read_variant(variant, "position_embedding_type unknown");
      EXPECT_EQ(r.scheme, PositionScheme::Unknown);
      EXPECT_TRUE(lists(r.not_understood, "position_embedding_type", "embedding_type"));
    }
  }
  EXPECT_GE(variants, 90) << "the loop reached every preset's fields";
}

// ---- the broken corpus ------------------------------------------------------------------

TEST(ModelConfigBroken, EveryBrokenFileGivesItsExpectedMessage) {
  const nlohmann::json expected =
      nlohmann::json::parse(read_text(kConfigs / "broken" / "expected.json"))["expected"];
  ASSERT_GE(expected.size(), 30u);
  std::size_t files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(kConfigs / "broken")) {
    if (entry.path().filename() == "expected.json") continue;
    ++files;
    const std::string name = entry.path().filename().string();
    ASSERT_TRUE(expected.contains(name)) << name << " has no expected message";
    const std::string message = parse_error_of(read_text(entry.path()));
    EXPECT_NE(message.find(expected[name].get<std::string>()), std::string::npos)
        << name << "\n  expected to contain: " << expected[name].get<std::string>() << "\n  got: " << message;
  }
  EXPECT_EQ(files, expected.size()) << "every listed file exists";
}

TEST(ModelConfigBroken, TextOverOneMebibyteIsRejectedBeforeParsing) {
  std::string big = "{\"model_type\": \"gpt2\", \"n_positions\": 1024, \"pad\": \"";
  big.append(kMaxConfigBytes, 'x');
  big += "\"}";
  EXPECT_NE(parse_error_of(big).find("config must be at most 1 MiB (1048576 bytes), got"), std::string::npos);
}

TEST(ModelConfigBroken, HundredThousandOpenBracketsDoNotOverflowTheStack) {
  const std::string deep(100000, '[');
  EXPECT_NE(parse_error_of(deep).find("deeper than 64 levels"), std::string::npos);
  std::string deep_objects;
  for (int i = 0; i < 100000; ++i) deep_objects += "{\"a\":";
  EXPECT_NE(parse_error_of(deep_objects).find("deeper than 64 levels"), std::string::npos);
}

TEST(ModelConfigBroken, NestingUpToTheCapIsAccepted) {
  const std::string nested =
      "{\"model_type\": \"gpt2\", \"n_positions\": 1024, \"x\": " + std::string(63, '[') +
      std::string(63, ']') + "}";
  EXPECT_EQ(parse_model_config(nested).max_position_embeddings, 1024);
}

}  // namespace
}  // namespace positional
