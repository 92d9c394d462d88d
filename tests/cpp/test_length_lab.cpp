// The length lab: its own exp, log, sin and cos against the C library; its RoPE recipes and sinusoidal codes
// against the engine's; every parameter group's gradient against central differences; three Adam steps
// against numpy (tests/fixtures/numpy/length_lab.json, build-scripts/make-length-lab-fixtures.py); the
// same bits on every platform (fingerprints recorded in tests/fixtures/length-lab-fingerprints.json, which
// the native and the wasm32 runs of this suite must both reproduce); a run that must learn; bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "numpy_fixtures.hpp"
#include "positional/length_lab.hpp"
#include "positional/limits.hpp"
#include "positional/numpy_random.hpp"  // md5_hex
#include "positional/rope.hpp"
#include "positional/rope_scaling.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"
#include "test_inputs.hpp"

namespace positional {
namespace {

using ::testing::HasSubstr;
using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp
using nlohmann::json;

constexpr LabScheme kSchemes[] = {LabScheme::kNone,  LabScheme::kLearned, LabScheme::kSinusoidal,
                                  LabScheme::kRope,  LabScheme::kAlibi,   LabScheme::kRnopeSwa,
                                  LabScheme::kDrope, LabScheme::kCope};

// Distance from `value` to `reference` in units of the reference's last place.
double ulps(double value, double reference) {
  if (value == reference) return 0;
  const double ulp = std::nextafter(std::fabs(reference), kInf) - std::fabs(reference);
  return std::fabs(value - reference) / ulp;
}

// A model small enough to difference every parameter: 2 layers, d 8, 2 heads of 4, MLP 8, 6 tokens.
LabConfig tiny(LabScheme scheme, LabTask task, std::uint64_t seed) {
  LabConfig c;
  c.scheme = scheme;
  c.task = task;
  c.symbols = 4;
  c.train_length = 8;
  c.layers = 2;
  c.d_model = 8;
  c.heads = 2;
  c.mlp_width = 8;
  c.batch = 3;
  c.steps = 3;
  c.lookup_distance = 2;
  c.eval_sequences = 2;
  c.max_eval_factor = 2;
  c.window = 3;  // RNoPE-SWA's local layer sees 3 of up to 8 keys
  c.recalibration_steps = 1;
  c.seed = seed;
  return c;
}

// MD5 of a vector's doubles as their little-endian IEEE bytes (lab_fingerprint's encoding).
std::string bytes_md5(const Vector& v) {
  std::string bytes(static_cast<std::size_t>(v.size()) * sizeof(double), '\0');
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return md5_hex(bytes);
}

// ---- the elementary functions -----------------------------------------------------------------------------

// The sample points are each one rounding of whole numbers (no a · b + c that a compiler targeting FMA could
// fuse in one use of x and not in another). The C library's exp, log, sin and cos are within about half an
// ulp of the exact value (glibc and musl both), so the lab's functions, within 1 ulp of the library's, are
// within 1.5 ulp of exact.
TEST(LengthLabMath, ExpWithinOneUlpOfTheCLibrary) {
  double worst = 0;
  for (int i = 0; i <= 200000; ++i) {
    const double x = static_cast<double>(std::int64_t{7088} * i - 708000000) / 1e6;
    worst = std::max(worst, ulps(lab_exp(x), std::exp(x)));
  }
  for (int i = -2000; i <= 2000; ++i) {  // around 0, where softmax and tanh spend their time
    const double x = static_cast<double>(i) * 1.37e-3;
    worst = std::max(worst, ulps(lab_exp(x), std::exp(x)));
  }
  EXPECT_LE(worst, 1.0);
  EXPECT_EQ(lab_exp(0.0), 1.0);
  EXPECT_EQ(lab_exp(-710.0), 0.0);
  EXPECT_EQ(lab_exp(710.0), kInf);
  EXPECT_TRUE(std::isnan(lab_exp(kNaN)));
}

TEST(LengthLabMath, LogWithinOneUlpOfTheCLibrary) {
  double worst = 0;
  for (int i = 0; i <= 200000; ++i) {
    const double x = std::pow(10.0, -300.0 + 600.0 * i / 200000.0);
    worst = std::max(worst, ulps(lab_log(x), std::log(x)));
  }
  for (int i = 1; i <= 20000; ++i) {  // around 1, where log's relative accuracy is hardest to keep
    const double x = static_cast<double>(500000 + 73 * i) / 1e6;
    worst = std::max(worst, ulps(lab_log(x), std::log(x)));
  }
  EXPECT_LE(worst, 1.0);
  EXPECT_EQ(lab_log(1.0), 0.0);
  EXPECT_EQ(lab_log(0.0), -kInf);
  EXPECT_EQ(lab_log(kInf), kInf);
  EXPECT_TRUE(std::isnan(lab_log(-1.0)));
}

TEST(LengthLabMath, SinCosWithinOneUlpOfTheCLibrary) {
  // The lab's angles: position · θ with position < 512 and θ ≤ 1. Near a zero of sin or cos an ulp of the
  // result is tiny, so the error is measured in ulps of max(|value|, 2^−10) there.
  double worst = 0;
  for (int i = -200000; i <= 200000; ++i) {
    const double x = static_cast<double>(i) * 2.56e-3;
    const SinCos sc = lab_sin_cos(x);
    for (const auto& [value, reference] : {std::pair{sc.sin, std::sin(x)}, std::pair{sc.cos, std::cos(x)}}) {
      const double floor = 0x1p-10;
      const double scale = std::max(std::fabs(reference), floor);
      worst = std::max(worst, std::fabs(value - reference) / (std::nextafter(scale, kInf) - scale));
    }
  }
  EXPECT_LE(worst, 1.0);
  EXPECT_EQ(lab_sin_cos(0.0).sin, 0.0);
  EXPECT_EQ(lab_sin_cos(0.0).cos, 1.0);
  EXPECT_THAT(error_of([] { lab_sin_cos(kNaN); }), names_field_and_rule("angle", "finite"));
  EXPECT_THAT(error_of([] { lab_sin_cos(2 * kMaxLabAngle); }), names_field_and_rule("angle", "at most 2^20"));
}

// ---- positions against the engine's recipes ---------------------------------------------------------------

TEST(LengthLabPositions, SinusoidalCodesMatchTheEngine) {
  const Matrix lab = lab_sinusoidal_codes(512, 32);
  const Matrix engine = sinusoidal_encoding(512, 32);
  // Angles up to 511 rad: an ulp of the angle (1.1e-13) bounds how far two correct codes may differ.
  EXPECT_LE((lab - engine).cwiseAbs().maxCoeff(), 2e-13);
}

TEST(LengthLabPositions, RopeRecipesMatchTheEngine) {
  LabConfig c;
  c.d_model = 32;
  c.heads = 4;  // d_head 8
  const std::int64_t width = 8;
  const double trained = static_cast<double>(c.train_length);
  const Vector plain = rope_frequencies(width, c.rope_base);
  auto relative = [](const Vector& a, const Vector& b) {
    return ((a - b).cwiseAbs().array() / b.array()).maxCoeff();
  };
  for (const RopeStretch stretch :
       {RopeStretch::kNone, RopeStretch::kInterpolation, RopeStretch::kNtk, RopeStretch::kYarn}) {
    const LabRopeSetting trained_length = lab_rope_setting(c, c.train_length, stretch);
    EXPECT_LE(relative(trained_length.theta, plain), 1e-15);  // no stretch at the trained length
    EXPECT_EQ(trained_length.position_scale, 1.0);
    EXPECT_EQ(trained_length.score_factor, 1.0);
  }
  for (std::int64_t f = 2; f <= 8; ++f) {
    const std::int64_t length = f * c.train_length;
    const double s = static_cast<double>(f);
    const LabRopeSetting pi = lab_rope_setting(c, length, RopeStretch::kInterpolation);
    EXPECT_LE(relative(pi.theta, plain), 1e-15);
    EXPECT_EQ(pi.position_scale, trained / static_cast<double>(length));
    const LabRopeSetting ntk = lab_rope_setting(c, length, RopeStretch::kNtk);
    EXPECT_LE(relative(ntk.theta, rope_frequencies(width, ntk_scaled_base(c.rope_base, s, width))), 1e-14);
    const LabRopeSetting yarn = lab_rope_setting(c, length, RopeStretch::kYarn);
    EXPECT_LE(relative(yarn.theta, yarn_inverse_frequencies(width, c.rope_base, s, trained)), 1e-14);
    const double factor = yarn_attention_factor(s);
    EXPECT_NEAR(yarn.score_factor, factor * factor, 1e-15);
    EXPECT_EQ(lab_rope_setting(c, length, RopeStretch::kNone).score_factor, 1.0);
  }
}

// ---- gradients --------------------------------------------------------------------------------------------

// Every parameter of a tiny model, every group, differenced centrally with h = 1e−5. With a loss of order 1
// the truncation error is about h² |∂³L| / 6 ≈ 1e−10 and the rounding error ε |L| / h ≈ 2e−11, so a correct
// gradient agrees to about 1e−10 absolute, 1e−8 of a group's largest entry (measured: below 3e−9). The
// bound, 1e−6 of the group's largest entry, leaves a hundredfold margin and still catches any wrong term:
// a dropped factor, sign or path changes the gradient by a sizeable fraction of its entries.
TEST(LengthLabGradient, EveryGroupMatchesCentralDifferences) {
  struct Case {
    LabScheme scheme;
    LabTask task;
    bool ssmax = false;
    bool dropped = false;  // DroPE after its positions are dropped
  };
  std::vector<Case> cases;
  for (const LabScheme scheme : kSchemes) {
    cases.push_back({scheme, LabTask::kCopy});  // sequences of mixed length
    cases.push_back({scheme, LabTask::kLastWrite, true});
  }
  cases.push_back({LabScheme::kRope, LabTask::kLookup});
  cases.push_back({LabScheme::kAlibi, LabTask::kLastWrite});
  cases.push_back({LabScheme::kLearned, LabTask::kLastWrite});
  cases.push_back({LabScheme::kRnopeSwa, LabTask::kLookup});
  cases.push_back({LabScheme::kDrope, LabTask::kLookup, false, true});
  cases.push_back({LabScheme::kDrope, LabTask::kCopy, true, true});
  double worst_overall = 0;
  for (std::size_t n = 0; n < cases.size(); ++n) {
    LabConfig c = tiny(cases[n].scheme, cases[n].task, 100 + n);
    c.length_scaled_softmax = cases[n].ssmax;
    LabModel model(c);
    if (cases[n].dropped) model.drop_positions();
    const std::vector<LabSequence> batch = LabData(c).next_batch();
    Vector gradient;
    model.loss(batch, &gradient);
    const std::string label = std::string(lab_scheme_name(c.scheme)) + "/" +
                              std::string(lab_task_name(c.task)) + (c.length_scaled_softmax ? "+ssmax" : "") +
                              (cases[n].dropped ? " dropped" : "");
    for (const LabParameterGroup& group : model.groups()) {
      double largest = 0;
      double error = 0;
      for (std::int64_t i = group.offset; i < group.offset + group.rows * group.cols; ++i) {
        double& p = model.parameters()[i];
        const double kept = p;
        const double h = 1e-5;
        p = kept + h;
        const double up = model.loss(batch);
        p = kept - h;
        const double down = model.loss(batch);
        p = kept;
        largest = std::max(largest, std::fabs(gradient[i]));
        error = std::max(error, std::fabs((up - down) / (2 * h) - gradient[i]));
      }
      EXPECT_GT(largest, 0) << label << " " << group.name << " is never exercised";
      EXPECT_LE(error, 1e-6 * largest) << label << " " << group.name;
      if (largest > 0) worst_overall = std::max(worst_overall, error / largest);
    }
  }
  RecordProperty("worst_relative_error", std::to_string(worst_overall));
  std::printf("  worst |finite difference − gradient| / largest entry of its group: %.2e\n", worst_overall);
}

TEST(LengthLabGradient, TableRowsPastTheTrainedLengthGetNone) {
  const LabConfig c = tiny(LabScheme::kLearned, LabTask::kLookup, 3);
  LabModel model(c);
  const LabParameterGroup table = model.groups()[1];
  ASSERT_EQ(table.name, "position_table");
  ASSERT_EQ(table.rows, c.train_length * c.max_eval_factor);
  const Vector initial = model.parameters();
  LabData data(c);
  AdamState adam;
  Vector gradient;
  for (int step = 0; step < 3; ++step) {
    model.loss(data.next_batch(), &gradient);
    adam_step(model.parameters(), gradient, 1e-2, adam);
  }
  const Eigen::Index trained_end = table.offset + c.train_length * c.d_model;
  const Eigen::Index table_end = table.offset + table.rows * table.cols;
  EXPECT_NE(model.parameters()[table.offset], initial[table.offset]);
  for (Eigen::Index i = trained_end; i < table_end; ++i) ASSERT_EQ(model.parameters()[i], initial[i]) << i;
}

// ---- one training step against numpy ---------------------------------------------------------------------

LabConfig config_from_json(const json& j) {
  LabConfig c;
  c.scheme = parse_lab_scheme(j.at("scheme").get<std::string>());
  c.task = parse_lab_task(j.at("task").get<std::string>());
  c.symbols = j.at("symbols");
  c.train_length = j.at("train_length");
  c.layers = j.at("layers");
  c.d_model = j.at("d_model");
  c.heads = j.at("heads");
  c.mlp_width = j.at("mlp_width");
  c.batch = j.at("batch");
  c.steps = j.at("steps");
  c.learning_rate = j.at("learning_rate");
  c.lookup_distance = j.at("lookup_distance");
  c.eval_sequences = j.at("eval_sequences");
  c.max_eval_factor = j.at("max_eval_factor");
  c.rope_base = j.at("rope_base");
  c.seed = j.at("seed");
  c.length_scaled_softmax = j.at("length_scaled_softmax");
  c.window = j.at("window");
  c.recalibration_steps = j.at("recalibration_steps");
  return c;
}

// numpy's model is the same maths in matrix form with numpy's exp, log, sin, cos and tanh, summed in its own
// order, from initial values a few tens of ulps from the engine's (below): the two agree to rounding. The
// bounds, each about a hundredfold above what was measured (printed by the test) except the loss's: the loss
// within 1e−12 relative (measured 1.5e−13 on ALiBi with SSMax, whose steeper scores pass the initial values'
// last-bit differences on through three steps; 5e−16 without SSMax), the step-0 gradient within 1e−12 of its
// largest entry, and the parameters after three Adam steps within 1e−11 absolute (they start a few 1e−15
// apart and move by about the learning rate, 1e−2, per step; measured 1.3e−14 without SSMax, 7.3e−13 with
// it). A wrong term anywhere moves these by many
// orders of magnitude more.
TEST(LengthLabNumpy, InitialisationDataAndThreeAdamStepsMatchNumpy) {
  const json fixture = load_numpy_fixture("length_lab.json");
  ASSERT_GE(fixture.at("cases").size(), 11U);
  double worst_initial = 0, worst_loss = 0, worst_gradient = 0, worst_final = 0, worst_sink = 0;
  for (const json& entry : fixture.at("cases")) {
    const LabConfig c = config_from_json(entry.at("config"));
    const std::string label =
        std::string(lab_scheme_name(c.scheme)) + "/" + std::string(lab_task_name(c.task));
    LabModel model(c);
    // numpy's standard normals, scaled: the engine's ziggurat tables are derived rather than copied, so a
    // draw may differ from numpy's in its last bits (test_numpy_random.cpp allows 1e−12 relative; measured
    // here: a few tens of ulps). The bound, 1e−13 relative, still fails any draw taken out of order.
    const Vector& initial = model.parameters();
    const std::vector<double> head = entry.at("initial_head").get<std::vector<double>>();
    const std::vector<double> tail = entry.at("initial_tail").get<std::vector<double>>();
    for (std::size_t i = 0; i < head.size(); ++i) {
      EXPECT_NEAR(initial[static_cast<Eigen::Index>(i)], head[i], 1e-13 * std::fabs(head[i]))
          << label << " " << i;
      const Eigen::Index back = initial.size() - static_cast<Eigen::Index>(tail.size() - i);
      EXPECT_NEAR(initial[back], tail[i], 1e-13 * std::fabs(tail[i])) << label << " " << back;
      worst_initial = std::max({worst_initial, ulps(initial[static_cast<Eigen::Index>(i)], head[i]),
                                ulps(initial[back], tail[i])});
    }
    LabData data(c);
    AdamState adam;
    Vector gradient;
    const json& losses = entry.at("losses");
    for (std::int64_t step = 0; step < c.steps; ++step) {
      if (c.scheme == LabScheme::kDrope && step == c.steps - c.recalibration_steps) model.drop_positions();
      const std::vector<LabSequence> batch = data.next_batch();
      if (step == 0) {
        const json& expected = entry.at("first_batch");
        ASSERT_EQ(batch.size(), expected.size()) << label;
        for (std::size_t b = 0; b < batch.size(); ++b) {
          EXPECT_EQ(batch[b].tokens, expected[b].at("tokens").get<std::vector<int>>()) << label << " " << b;
          EXPECT_EQ(batch[b].targets, expected[b].at("targets").get<std::vector<int>>()) << label << " " << b;
        }
      }
      const double loss = model.loss(batch, &gradient);
      EXPECT_NEAR(loss, losses[step].get<double>(), 1e-12 * std::fabs(loss)) << label << " step " << step;
      worst_loss = std::max(worst_loss, std::fabs(loss - losses[step].get<double>()) / std::fabs(loss));
      if (step == 0) {
        const std::vector<double> numpy = entry.at("first_gradient").get<std::vector<double>>();
        ASSERT_EQ(static_cast<std::size_t>(gradient.size()), numpy.size()) << label;
        const Vector expected =
            Eigen::Map<const Vector>(numpy.data(), static_cast<Eigen::Index>(numpy.size()));
        const double off = (gradient - expected).cwiseAbs().maxCoeff() / expected.cwiseAbs().maxCoeff();
        EXPECT_LE(off, 1e-12) << label;
        worst_gradient = std::max(worst_gradient, off);
      }
      adam_step(model.parameters(), gradient, lab_learning_rate(c, step), adam);
    }
    const std::vector<double> numpy = entry.at("final").get<std::vector<double>>();
    const Vector expected = Eigen::Map<const Vector>(numpy.data(), static_cast<Eigen::Index>(numpy.size()));
    const double off = (model.parameters() - expected).cwiseAbs().maxCoeff();
    EXPECT_LE(off, 1e-11) << label;
    worst_final = std::max(worst_final, off);
    // The sink diagnostic of the trained model on the first batch, as evaluated (DroPE without positions):
    // shares of order 0.1 from probabilities computed to rounding, so within 1e−12 absolute.
    if (c.scheme == LabScheme::kDrope) model.drop_positions();
    Vector sinks;
    model.score(LabData(c).next_batch(), RopeStretch::kNone, &sinks);
    const std::vector<double> numpy_sinks = entry.at("sink_share").get<std::vector<double>>();
    ASSERT_EQ(static_cast<std::size_t>(sinks.size()), numpy_sinks.size()) << label;
    for (Eigen::Index l = 0; l < sinks.size(); ++l) {
      EXPECT_NEAR(sinks[l], numpy_sinks[static_cast<std::size_t>(l)], 1e-12) << label << " layer " << l;
      worst_sink = std::max(worst_sink, std::fabs(sinks[l] - numpy_sinks[static_cast<std::size_t>(l)]));
    }
  }
  std::printf(
      "  against numpy: initial values %.0f ulps, losses %.1e relative, gradient %.1e of its largest, "
      "parameters after three steps %.1e, sink shares %.1e\n",
      worst_initial, worst_loss, worst_gradient, worst_final, worst_sink);
}

// ---- reproducibility --------------------------------------------------------------------------------------

// The page's default run (RoPE on the lookup task), shared by the tests below: about 1 s natively.
const LabResult& default_run() {
  static const LabResult result = run_length_lab(LabConfig{});
  return result;
}

json load_fingerprints() {
  std::ifstream in(fixtures_dir() + "/length-lab-fingerprints.json");
  EXPECT_TRUE(in.good()) << "missing tests/fixtures/length-lab-fingerprints.json";
  return json::parse(in);
}

// A small run of every other scheme and task, and the page's default: their fingerprints (MD5 of every loss,
// final parameter and accuracy as IEEE bytes) were recorded from a native run; the wasm32 build of this
// suite must reproduce them, and so must g++ and clang natively.
TEST(LengthLabReproducibility, FingerprintsMatchTheRecordedOnes) {
  const json recorded = load_fingerprints();
  // The initialisation's normals: numpy's ziggurat, whose wedge and tail call the C library's exp and log1p.
  // 2^20 draws take about 260 tail and 10^4 wedge draws through them: the same bits on every platform.
  EXPECT_EQ(bytes_md5(Generator::from_seed(0).standard_normal(1 << 20)),
            recorded.at("normals").get<std::string>())
      << "numpy.random.default_rng(0).standard_normal(2^20) as the engine draws it";
  EXPECT_EQ(lab_fingerprint(default_run()), recorded.at("default").get<std::string>())
      << "the page's default run (rope, lookup, seed 0)";
  for (const json& run : recorded.at("small")) {
    LabConfig c;
    c.scheme = parse_lab_scheme(run.at("scheme").get<std::string>());
    c.task = parse_lab_task(run.at("task").get<std::string>());
    c.d_model = 16;
    c.heads = 2;
    c.mlp_width = 16;
    c.batch = 4;
    c.steps = 30;
    c.eval_sequences = 2;
    c.seed = run.at("seed");
    c.length_scaled_softmax = run.value("ssmax", false);
    c.recalibration_steps = 5;
    EXPECT_EQ(lab_fingerprint(run_length_lab(c)), run.at("fingerprint").get<std::string>())
        << run.at("scheme") << "/" << run.at("task") << (c.length_scaled_softmax ? "+ssmax" : "");
  }
}

TEST(LengthLabReproducibility, SameSeedSameBitsOtherSeedOtherBits) {
  const LabConfig c = tiny(LabScheme::kRope, LabTask::kLastWrite, 9);
  const std::string first = lab_fingerprint(run_length_lab(c));
  EXPECT_EQ(lab_fingerprint(run_length_lab(c)), first);
  LabConfig other = c;
  other.seed = 10;
  EXPECT_NE(lab_fingerprint(run_length_lab(other)), first);
}

// ---- learning ---------------------------------------------------------------------------------------------

// The page's default (2 layers, d 32, 4 heads, batch 8, 300 steps, RoPE, k = 3) learns the lookup at the
// trained length; this seed reaches 100%, the bound asks for 95%.
TEST(LengthLabTraining, DefaultRunLearnsTheLookupAtTheTrainedLength) {
  const LabResult& r = default_run();
  ASSERT_EQ(r.losses.size(), 300);
  ASSERT_EQ(r.variants, (std::vector<std::string>{"rope", "rope+pi", "rope+ntk", "rope+yarn"}));
  ASSERT_EQ(r.accuracy.rows(), 4);
  ASSERT_EQ(r.accuracy.cols(), 8);
  EXPECT_EQ(r.eval_lengths[7], 128.0);
  EXPECT_GE(r.accuracy(0, 0), 0.95);
  EXPECT_LT(r.losses.tail(10).mean(), 0.1);
  EXPECT_GT(r.losses[0], 2.5);  // ln 18 ≈ 2.9 at the start: nothing learned yet
  // At the trained length every stretch is the plain model.
  for (Eigen::Index v = 1; v < 4; ++v) EXPECT_EQ(r.accuracy(v, 0), r.accuracy(0, 0));
}

// DroPE is RoPE, then NoPE: recalibrating for every step trains exactly the NoPE model, for none trains
// exactly the RoPE model (evaluated without its rotation).
// The DroPE run of `c` and the same run under `other`, which must train to the same bits.
std::pair<LabResult, LabResult> drope_beside(const LabConfig& c, LabScheme other) {
  LabConfig twin = c;
  twin.scheme = other;
  std::pair<LabResult, LabResult> runs{run_length_lab(c), run_length_lab(twin)};
  EXPECT_EQ(bytes_md5(runs.first.losses), bytes_md5(runs.second.losses));
  EXPECT_EQ(bytes_md5(runs.first.parameters), bytes_md5(runs.second.parameters));
  return runs;
}

TEST(LengthLabSchemes, DropeIsRopeThenNope) {
  LabConfig c = tiny(LabScheme::kDrope, LabTask::kLookup, 21);
  c.steps = 6;
  c.recalibration_steps = 6;
  const auto [all_dropped, none] = drope_beside(c, LabScheme::kNone);
  EXPECT_EQ(all_dropped.accuracy, none.accuracy);
  EXPECT_EQ(all_dropped.variants, (std::vector<std::string>{"drope"}));
  c.recalibration_steps = 0;
  const auto [never_dropped, rope_run] = drope_beside(c, LabScheme::kRope);
  // Evaluated without positions, the RoPE-trained weights score differently from with them.
  EXPECT_NE(never_dropped.accuracy.row(0), rope_run.accuracy.row(0));
  c.recalibration_steps = 2;  // in between: the first 4 steps are RoPE's, the last 2 differ from it
  const LabResult recalibrated = run_length_lab(c);
  for (Eigen::Index i = 0; i < 4; ++i) EXPECT_EQ(recalibrated.losses[i], rope_run.losses[i]) << i;
  EXPECT_NE(recalibrated.losses[4], rope_run.losses[4]);
}

// RNoPE-SWA's last layer is global NoPE: a one-layer model is NoPE bit for bit. With two layers, the first
// is local: with a window of one key no query past position 0 sees position 0 there.
TEST(LengthLabSchemes, RnopeSwaLayers) {
  LabConfig c = tiny(LabScheme::kRnopeSwa, LabTask::kCopy, 22);
  c.layers = 1;
  LabConfig nope = c;
  nope.scheme = LabScheme::kNone;
  EXPECT_EQ(lab_fingerprint(run_length_lab(c)), lab_fingerprint(run_length_lab(nope)));
  c.layers = 2;
  c.window = 1;
  const LabResult r = run_length_lab(c);
  ASSERT_EQ(r.sink_share.rows(), 2);
  ASSERT_EQ(r.sink_share.cols(), 2);
  for (Eigen::Index f = 0; f < 2; ++f) {
    EXPECT_EQ(r.sink_share(0, f), 0.0) << f;
    EXPECT_GT(r.sink_share(1, f), 0.0) << f;
  }
  // A wider window changes the local layer, so the run.
  c.window = 4;
  EXPECT_NE(bytes_md5(run_length_lab(c).losses), bytes_md5(r.losses));
}

// CoPE adds q · e(count) to every score: with its position vectors at zero it is NoPE, bit for bit.
TEST(LengthLabSchemes, CopeWithZeroPositionVectorsIsNope) {
  const LabConfig c = tiny(LabScheme::kCope, LabTask::kCopy, 24);
  LabConfig nope_config = c;
  nope_config.scheme = LabScheme::kNone;
  LabModel cope(c);
  LabModel nope(nope_config);
  int tables = 0;
  for (const LabParameterGroup& g : cope.groups()) {
    double* at = cope.parameters().data() + g.offset;
    if (g.name.find("cope_positions") != std::string::npos) {
      ASSERT_EQ(g.rows, c.train_length + 1);
      ASSERT_EQ(g.cols, c.d_model / c.heads);
      std::fill(at, at + g.rows * g.cols, 0.0);
      ++tables;
      continue;
    }
    for (const LabParameterGroup& n : nope.groups())
      if (n.name == g.name) std::copy(at, at + g.rows * g.cols, nope.parameters().data() + n.offset);
  }
  EXPECT_EQ(tables, c.layers);
  const std::vector<LabSequence> batch = LabData(c).next_batch();
  EXPECT_EQ(cope.loss(batch), nope.loss(batch));
  // Vectors that differ by count change the scores.
  ASSERT_EQ(cope.groups()[7].name, "layer0.cope_positions");
  cope.parameters()[cope.groups()[7].offset + 1] = 0.5;  // row 0: the vector of a count of 0
  EXPECT_NE(cope.loss(batch), nope.loss(batch));
}

// SSMax: a trained scale per layer and head, starting where s · ln(train_length) = 1; the variants say so.
TEST(LengthLabSchemes, LengthScaledSoftmaxScalesAndNames) {
  LabConfig c = tiny(LabScheme::kRope, LabTask::kLookup, 23);
  c.length_scaled_softmax = true;
  const LabModel model(c);
  int found = 0;
  for (const LabParameterGroup& g : model.groups()) {
    if (g.name.find("ssmax_scale") == std::string::npos) continue;
    ++found;
    ASSERT_EQ(g.cols, c.heads);
    for (std::int64_t h = 0; h < c.heads; ++h)
      EXPECT_NEAR(model.parameters()[g.offset + h] * std::log(8.0), 1.0, 1e-15);
  }
  EXPECT_EQ(found, c.layers);
  const LabResult r = run_length_lab(c);
  EXPECT_EQ(r.variants,
            (std::vector<std::string>{"rope+ssmax", "rope+ssmax+pi", "rope+ssmax+ntk", "rope+ssmax+yarn"}));
  LabConfig plain = c;
  plain.length_scaled_softmax = false;
  EXPECT_NE(bytes_md5(run_length_lab(plain).losses), bytes_md5(r.losses));
  for (Eigen::Index i = 0; i < r.sink_share.size(); ++i) {
    EXPECT_GE(r.sink_share.data()[i], 0.0);
    EXPECT_LE(r.sink_share.data()[i], 1.0);
  }
}

TEST(LengthLabTraining, ProgressReportsEveryStepAndCanStop) {
  const LabConfig c = tiny(LabScheme::kAlibi, LabTask::kLookup, 4);
  LabConfig longer = c;
  longer.steps = 8;
  std::vector<std::int64_t> steps;
  std::vector<double> losses;
  const LabResult stopped = run_length_lab(longer, [&](std::int64_t step, double loss) {
    steps.push_back(step);
    losses.push_back(loss);
    return step < 5;
  });
  EXPECT_TRUE(stopped.stopped);
  EXPECT_EQ(steps, (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
  ASSERT_EQ(stopped.losses.size(), 5);
  EXPECT_EQ(stopped.accuracy.size(), 0);
  const LabResult full = run_length_lab(longer);
  EXPECT_FALSE(full.stopped);
  for (Eigen::Index i = 0; i < 5; ++i) {
    EXPECT_EQ(stopped.losses[i], losses[static_cast<std::size_t>(i)]);
    EXPECT_EQ(stopped.losses[i], full.losses[i]);  // stopping changes nothing before it
  }
}

// ---- data -------------------------------------------------------------------------------------------------

TEST(LengthLabData, TasksFollowTheirRules) {
  LabConfig c;
  c.task = LabTask::kLookup;
  for (const LabSequence& s : LabData(c).evaluation_set(3)) {
    ASSERT_EQ(s.tokens.size(), 48U);
    EXPECT_EQ(s.tokens[0], c.symbols);  // BOS
    for (std::size_t t = 0; t < s.tokens.size(); ++t)
      EXPECT_EQ(s.targets[t], t >= 4 ? s.tokens[t - 3] : -1) << t;
  }
  c.task = LabTask::kCopy;
  for (const LabSequence& s : LabData(c).evaluation_set(2)) {
    ASSERT_EQ(s.tokens.size(), 32U);
    const std::size_t n = 15;
    EXPECT_EQ(s.tokens[n + 1], c.symbols + 1);  // SEP
    for (std::size_t j = 1; j <= n; ++j) EXPECT_EQ(s.tokens[n + 1 + j], s.tokens[j]);
    for (std::size_t t = 0; t < s.tokens.size(); ++t)
      EXPECT_EQ(s.targets[t], t > n && t <= 2 * n ? s.tokens[t - n] : -1) << t;
  }
  c.task = LabTask::kLastWrite;
  int writes = 0;
  for (const LabSequence& s : LabData(c).evaluation_set(8)) {
    int latest = -1;
    for (std::size_t t = 1; t < s.tokens.size(); ++t) {
      const bool write = s.tokens[t] < c.symbols / 2;
      EXPECT_TRUE(t != 1 || write);
      if (write) {
        latest = s.tokens[t];
        ++writes;
      }
      EXPECT_EQ(s.targets[t], write ? -1 : latest) << t;
    }
  }
  EXPECT_NEAR(writes / (8.0 * 127.0), 0.25, 0.05);
}

TEST(LengthLabData, EveryTrainingLengthOfTheCopyTaskAndOneEvaluationSetForEveryScheme) {
  LabConfig c;
  c.task = LabTask::kCopy;
  LabData data(c);
  std::vector<int> seen(8, 0);
  for (int step = 0; step < 20; ++step)
    for (const LabSequence& s : data.next_batch()) seen[(s.tokens.size() - 2) / 2] += 1;
  for (int n = 1; n <= 7; ++n) EXPECT_GT(seen[n], 0) << n;
  EXPECT_EQ(seen[0], 0);
  const std::vector<LabSequence> rope = LabData(c).evaluation_set(4);
  for (const LabScheme scheme : kSchemes) {
    c.scheme = scheme;
    const std::vector<LabSequence> other = LabData(c).evaluation_set(4);
    for (std::size_t i = 0; i < rope.size(); ++i) EXPECT_EQ(other[i].tokens, rope[i].tokens);
  }
}

// ---- bad input --------------------------------------------------------------------------------------------

TEST(LengthLabInput, EachFieldNamesItsRule) {
  auto refused = [](auto change) {
    LabConfig c;
    change(c);
    return error_of([&] { check_lab_config(c); });
  };
  EXPECT_EQ(refused([](LabConfig&) {}), "no error");
  EXPECT_THAT(refused([](LabConfig& c) { c.steps = kMaxLabSteps + 1; }),
              names_field_and_rule("steps", "from 0 to 20000"));
  EXPECT_THAT(refused([](LabConfig& c) { c.train_length = 17; }),
              names_field_and_rule("train_length", "even"));
  EXPECT_THAT(refused([](LabConfig& c) { c.train_length = 66; }),
              names_field_and_rule("train_length", "8 to 64"));
  EXPECT_THAT(refused([](LabConfig& c) { c.d_model = 30; }),
              names_field_and_rule("d_model", "even head width of at least 4"));
  EXPECT_THAT(refused([](LabConfig& c) { c.heads = 16; }), names_field_and_rule("heads", "from 1 to 8"));
  EXPECT_THAT(refused([](LabConfig& c) { c.lookup_distance = 15; }),
              names_field_and_rule("lookup_distance", "from 1 to 14"));
  EXPECT_THAT(refused([](LabConfig& c) { c.learning_rate = kNaN; }),
              names_field_and_rule("learning_rate", "> 0"));
  EXPECT_THAT(refused([](LabConfig& c) { c.rope_base = 1; }), names_field_and_rule("rope_base", "> 1"));
  EXPECT_THAT(refused([](LabConfig& c) { c.seed = std::uint64_t{1} << 32; }),
              names_field_and_rule("seed", "4294967295"));
  EXPECT_THAT(refused([](LabConfig& c) { c.max_eval_factor = 9; }),
              names_field_and_rule("max_eval_factor", "from 1 to 8"));
  EXPECT_THAT(error_of([] { parse_lab_scheme("nope"); }),
              names_field_and_rule("scheme",
                                   "one of none, learned, sinusoidal, rope, alibi, rnope-swa, drope, cope"));
  EXPECT_THAT(refused([](LabConfig& c) { c.window = 0; }), names_field_and_rule("window", "from 1 to 128"));
  EXPECT_THAT(refused([](LabConfig& c) {
                c.scheme = LabScheme::kDrope;
                c.recalibration_steps = 301;
              }),
              names_field_and_rule("recalibration_steps", "from 0 to 300"));
  EXPECT_EQ(refused([](LabConfig& c) { c.recalibration_steps = 301; }), "no error");  // only DroPE reads it
  EXPECT_THAT(error_of([] { parse_lab_task("sort"); }), names_field_and_rule("task", "one of lookup, copy"));
}

TEST(LengthLabInput, TheWorkCapIsCheckedBeforeAnyWork) {
  LabConfig c;
  c.layers = kMaxLabLayers;
  c.d_model = kMaxLabModelWidth;
  c.mlp_width = kMaxLabMlpWidth;
  c.batch = kMaxLabBatch;
  c.train_length = kMaxLabTrainLength;
  c.steps = kMaxLabSteps;
  ASSERT_GT(lab_work(c), kMaxLabWork);
  EXPECT_THAT(error_of([&] { run_length_lab(c); }), HasSubstr("more than the cap of 68719476736"));
  EXPECT_LE(lab_work(LabConfig{}), kMaxLabWork / 16);  // the default is far inside it
}

TEST(LengthLabInput, BadBatchesAndAdamArguments) {
  const LabConfig c = tiny(LabScheme::kRope, LabTask::kLookup, 1);
  const LabModel model(c);
  std::vector<LabSequence> batch = LabData(c).next_batch();
  EXPECT_THAT(error_of([&] { model.loss({}); }), names_field_and_rule("batch", "at least one sequence"));
  batch[1].tokens[2] = 6;
  EXPECT_THAT(error_of([&] { model.loss(batch); }),
              names_field_and_rule("batch[1].tokens[2]", "from 0 to 5"));
  batch[1].tokens[2] = 0;
  batch[2].targets.pop_back();
  EXPECT_THAT(error_of([&] { model.loss(batch); }),
              names_field_and_rule("batch[2].targets length", "tokens' length"));
  batch[2].targets.push_back(-1);
  batch[0].tokens.assign(17, 0);
  batch[0].targets.assign(17, -1);
  EXPECT_THAT(error_of([&] { model.score(batch); }), names_field_and_rule("batch[0] length", "from 1 to"));
  batch = LabData(c).next_batch();
  for (LabSequence& s : batch) s.targets.assign(s.tokens.size(), -1);
  EXPECT_THAT(error_of([&] { model.loss(batch); }), names_field_and_rule("batch", "at least one target"));
  Vector p = Vector::Zero(4);
  AdamState state;
  EXPECT_THAT(error_of([&] { adam_step(p, Vector::Zero(3), 1e-3, state); }),
              names_field_and_rule("gradient length", "the parameters' length (4)"));
  EXPECT_THAT(error_of([&] { adam_step(p, Vector::Zero(4), 0, state); }),
              names_field_and_rule("learning_rate", "> 0"));
  EXPECT_THAT(error_of([&] { lab_rope_setting(c, 17, RopeStretch::kYarn); }),
              names_field_and_rule("length", "from 1 to 16"));
  EXPECT_THAT(error_of([&] { LabData(c).evaluation_set(3); }), names_field_and_rule("factor", "from 1 to 2"));
}

}  // namespace
}  // namespace positional
