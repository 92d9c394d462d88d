// The length-generalisation lab (positional/length_lab.hpp): deterministic elementary functions, the
// tasks, the transformer's forward and backward passes, Adam, training and evaluation.
//
// Bit-for-bit reproducibility rules every loop here (compiled with -ffp-contract=off, and under GCC
// -fno-tree-slp-vectorize, which would otherwise fuse the RoPE rotation: CMakeLists.txt):
//  - a sum runs over its index in ascending order from +0.0; the compilers vectorise only loops whose lanes
//    are different sums (c[j] += a · b[j] over j), never a reduction (that needs -ffast-math), so SSE2,
//    SIMD128 and scalar code give the same bits;
//  - the only library functions are sqrt, floor, frexp and ldexp, which IEEE 754 and C define exactly;
//  - sequences and positions are visited in order, and gradients accumulate in that order.
#include "positional/length_lab.hpp"

#include <algorithm>  // std::max, std::fill, std::copy
#include <array>
#include <cmath>  // std::sqrt, std::floor, std::frexp, std::ldexp, std::isnan, std::isfinite
#include <cstring>
#include <limits>
#include <utility>

#include "positional/alibi.hpp"
#include "positional/contextual_position.hpp"
#include "positional/limits.hpp"
#include "positional/rope_scaling.hpp"
#include "positional/validate.hpp"

// One copy of each kernel rather than one per call site: inlined, every call site carried its own vectorised
// loops and alias checks, 19 KB more of engine.wasm (4.5 KB gzipped), for no measurable speed (the calls are
// per matrix, not per entry; the bits are the same either way).
#if defined(__GNUC__)
#define LAB_NOINLINE __attribute__((noinline))
#else
#define LAB_NOINLINE
#endif

namespace positional {

// ---- deterministic elementary functions ------------------------------------------------------------

namespace {

// 1/n! and 2/(2j + 1): folded by the compiler in IEEE double arithmetic, the same bits on every compiler.
constexpr std::array<double, 20> inverse_factorials() {
  std::array<double, 20> c{};
  c[0] = 1.0;
  for (int n = 1; n < 20; ++n) c[n] = c[n - 1] / static_cast<double>(n);
  return c;
}
constexpr std::array<double, 20> kInverseFactorial = inverse_factorials();

constexpr std::array<double, 11> odd_reciprocals_doubled() {
  std::array<double, 11> c{};
  for (int j = 1; j < 11; ++j) c[j] = 2.0 / static_cast<double>(2 * j + 1);
  return c;
}
constexpr std::array<double, 11> kAtanhSeries = odd_reciprocals_doubled();

// fdlibm's splits: ln 2 and π/2 as a head of 32 or 33 bits (so k · head is exact for |k| < 2^20) and tails.
constexpr double kLn2Hi = 0x1.62e42feep-1;
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
constexpr double kLog2E = 0x1.71547652b82fep+0;
constexpr double kPio2Hi = 0x1.921fb544p+0;
constexpr double kPio2Mid = 0x1.0b4611a6p-34;
constexpr double kPio2Lo = 0x1.3198a2e037073p-69;
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kSqrtHalf = 0x1.6a09e667f3bcdp-1;
constexpr double kExpOverflow = 709.782712893384;          // ln(largest double)
constexpr double kExpSmallestNormal = -708.3964185322641;  // ln(2^−1022)

}  // namespace

double lab_exp(double x) {
  if (std::isnan(x)) return x;
  if (x > kExpOverflow) return std::numeric_limits<double>::infinity();
  if (x < kExpSmallestNormal) return 0.0;
  // x = k ln 2 + r with |r| ≤ ln 2 / 2; e^r by its Taylor polynomial to r^13 (the next term is below
  // 2^−57 relative), then scaled by 2^k exactly.
  const double k = std::floor(x * kLog2E + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double p = kInverseFactorial[13];
  for (int n = 12; n >= 0; --n) p = p * r + kInverseFactorial[n];
  return std::ldexp(p, static_cast<int>(k));
}

double lab_log(double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m · 2^e, m in [1/2, 1), exactly
  if (m < kSqrtHalf) {
    m *= 2.0;
    e -= 1;
  }
  // log m = log(1 + f) with f in [√½ − 1, √2 − 1), written as fdlibm does: f − (f²/2 − s (f²/2 + R)), with
  // s = f/(2 + f) and R = 2s²/3 + 2s⁴/5 + …, the series of 2 atanh(s)/s − 2 (|s| ≤ 0.172: ten terms).
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  double series = kAtanhSeries[10];
  for (int j = 9; j >= 1; --j) series = series * z + kAtanhSeries[j];
  const double r = series * z;
  const double half_f_squared = 0.5 * f * f;
  const double log_m = f - (half_f_squared - s * (half_f_squared + r));
  const double exponent = static_cast<double>(e);
  return exponent * kLn2Hi + (exponent * kLn2Lo + log_m);
}

SinCos lab_sin_cos(double x) {
  if (!std::isfinite(x) || x > kMaxLabAngle || x < -kMaxLabAngle) {
    fail("angle", "a finite number of magnitude at most 2^20", x);
  }
  // x = k π/2 + r with |r| ≤ π/4 (plus rounding): three-part Cody–Waite reduction, exact in its first two
  // products for |k| < 2^20; then the Taylor polynomials to r^17 and r^18 (next terms below 2^−60).
  const double k = std::floor(x * kTwoOverPi + 0.5);
  const double r = ((x - k * kPio2Hi) - k * kPio2Mid) - k * kPio2Lo;
  const double z = r * r;
  // sin r = r + r z P(z), P = −1/3! + z/5! − … + z⁷/17!; cos r = 1 − (z/2 − z² Q(z)), Q = 1/4! − z/6! + …
  // − z⁷/18!; both by Horner's rule from the highest term. The sign of 1/n! is + for n ≡ 1 or 0 (mod 4).
  double sin_poly = kInverseFactorial[17];
  for (int n = 15; n >= 3; n -= 2) sin_poly = (n % 4 == 1 ? 1.0 : -1.0) * kInverseFactorial[n] + z * sin_poly;
  const double sin_r = r + r * z * sin_poly;
  double cos_poly = -kInverseFactorial[18];
  for (int n = 16; n >= 4; n -= 2) cos_poly = (n % 4 == 0 ? 1.0 : -1.0) * kInverseFactorial[n] + z * cos_poly;
  const double cos_r = 1.0 - (0.5 * z - z * z * cos_poly);
  SinCos out;
  switch (static_cast<std::int64_t>(k) & 3) {
    case 0:
      out = {sin_r, cos_r};
      break;
    case 1:
      out = {cos_r, -sin_r};
      break;
    case 2:
      out = {-sin_r, -cos_r};
      break;
    default:
      out = {-cos_r, sin_r};
      break;
  }
  return out;
}

// ---- names, configuration, work ------------------------------------------------------------------------

namespace {

constexpr std::array<std::pair<LabScheme, std::string_view>, 8> kSchemeNames{
    {{LabScheme::kNone, "none"},
     {LabScheme::kLearned, "learned"},
     {LabScheme::kSinusoidal, "sinusoidal"},
     {LabScheme::kRope, "rope"},
     {LabScheme::kAlibi, "alibi"},
     {LabScheme::kRnopeSwa, "rnope-swa"},
     {LabScheme::kDrope, "drope"},
     {LabScheme::kCope, "cope"}}};
constexpr std::array<std::pair<LabTask, std::string_view>, 3> kTaskNames{
    {{LabTask::kLookup, "lookup"}, {LabTask::kCopy, "copy"}, {LabTask::kLastWrite, "last-write"}}};

void check_range(std::string_view name, std::int64_t value, std::int64_t low, std::int64_t high) {
  if (value < low || value > high) {
    fail(name,
         "a whole number from " + format_number(static_cast<double>(low)) + " to " +
             format_number(static_cast<double>(high)),
         static_cast<double>(value));
  }
}

}  // namespace

std::string_view lab_scheme_name(LabScheme scheme) {
  for (const auto& [value, text] : kSchemeNames)
    if (value == scheme) return text;
  return "unknown";
}

std::string_view lab_task_name(LabTask task) {
  for (const auto& [value, text] : kTaskNames)
    if (value == task) return text;
  return "unknown";
}

LabScheme parse_lab_scheme(std::string_view text, std::string_view name) {
  for (const auto& [value, spelled] : kSchemeNames)
    if (spelled == text) return value;
  throw InputError(std::string(name) +
                   " must be one of none, learned, sinusoidal, rope, alibi, rnope-swa, drope, cope, got \"" +
                   std::string(text.substr(0, 64)) + "\"");
}

LabTask parse_lab_task(std::string_view text, std::string_view name) {
  for (const auto& [value, spelled] : kTaskNames)
    if (spelled == text) return value;
  throw InputError(std::string(name) + " must be one of lookup, copy, last-write, got \"" +
                   std::string(text.substr(0, 64)) + "\"");
}

namespace {

// Forward multiply-adds of one sequence of length T (attention counts the scores and the weighted sum
// over the T(T+1)/2 visible pairs, d each; the logits only where there are targets, bounded by T).
std::int64_t sequence_work(const LabConfig& c, std::int64_t length) {
  const std::int64_t vocab = c.symbols + 2;
  const std::int64_t per_token =
      c.layers * (4 * c.d_model * c.d_model + 2 * c.d_model * c.mlp_width) + c.d_model * vocab;
  // CoPE scores each pair against two position vectors as well: as much again as the scores and sum.
  const std::int64_t attention = (c.scheme == LabScheme::kCope ? 2 : 1) * length * (length + 1) * c.d_model;
  return length * per_token + c.layers * attention;
}

std::int64_t evaluation_variants(const LabConfig& c) { return c.scheme == LabScheme::kRope ? 4 : 1; }

}  // namespace

std::int64_t lab_work(const LabConfig& c) {
  std::int64_t work = 3 * c.steps * c.batch * sequence_work(c, c.train_length);
  for (std::int64_t f = 1; f <= c.max_eval_factor; ++f) {
    work += evaluation_variants(c) * c.eval_sequences * sequence_work(c, f * c.train_length);
  }
  return work;
}

void check_lab_config(const LabConfig& c) {
  check_range("symbols", c.symbols, kMinLabSymbols, kMaxLabSymbols);
  check_range("train_length", c.train_length, kMinLabTrainLength, kMaxLabTrainLength);
  if (c.train_length % 2 != 0) fail("train_length", "even", static_cast<double>(c.train_length));
  check_range("layers", c.layers, 1, kMaxLabLayers);
  check_range("heads", c.heads, 1, kMaxLabHeads);
  check_range("d_model", c.d_model, kMinLabModelWidth, kMaxLabModelWidth);
  if (c.d_model % c.heads != 0 || (c.d_model / c.heads) % 2 != 0 || c.d_model / c.heads < 4) {
    fail("d_model",
         "heads (" + format_number(static_cast<double>(c.heads)) + ") × an even head width of at least 4",
         static_cast<double>(c.d_model));
  }
  check_range("mlp_width", c.mlp_width, 1, kMaxLabMlpWidth);
  check_range("batch", c.batch, 1, kMaxLabBatch);
  check_range("steps", c.steps, 0, kMaxLabSteps);
  if (!std::isfinite(c.learning_rate) || c.learning_rate <= 0 || c.learning_rate > 1) {
    fail("learning_rate", "a number > 0 and at most 1", c.learning_rate);
  }
  check_range("lookup_distance", c.lookup_distance, 1, c.train_length - 2);
  check_range("eval_sequences", c.eval_sequences, 1, kMaxLabEvalSequences);
  check_range("max_eval_factor", c.max_eval_factor, 1, kMaxLabEvalFactor);
  if (!std::isfinite(c.rope_base) || c.rope_base <= 1 || c.rope_base > 1e12) {
    fail("rope_base", "a number > 1 and at most 1e12", c.rope_base);
  }
  check_range("window", c.window, 1, c.train_length * c.max_eval_factor);
  if (c.scheme == LabScheme::kDrope) check_range("recalibration_steps", c.recalibration_steps, 0, c.steps);
  if (c.seed > static_cast<std::uint64_t>(kMaxLabSeed))
    fail("seed", "a whole number from 0 to " + format_number(static_cast<double>(kMaxLabSeed)),
         static_cast<double>(c.seed));
  const std::int64_t work = lab_work(c);
  if (work > kMaxLabWork) {
    throw InputError("the lab would take " + format_number(static_cast<double>(work)) +
                     " multiply-adds, more than the cap of " +
                     format_number(static_cast<double>(kMaxLabWork)) +
                     ": fewer steps, a smaller batch or model, or fewer evaluation sequences");
  }
}

// ---- data ---------------------------------------------------------------------------------------------

namespace {

int draw_below(Pcg64& bits, std::int64_t bound) {
  return static_cast<int>(bits.next_uint64() % static_cast<std::uint64_t>(bound));
}

SeedSequence stream_seed(std::uint64_t seed, std::uint32_t stream, std::uint32_t factor, bool with_factor) {
  std::vector<std::uint32_t> words{static_cast<std::uint32_t>(seed), stream};
  if (with_factor) words.push_back(factor);
  return SeedSequence(words);
}

// One sequence of `task` of total length `length` (for kCopy, `copy_length` content tokens instead).
LabSequence make_sequence(const LabConfig& c, std::int64_t length, std::int64_t copy_length, Pcg64& bits) {
  const int bos = static_cast<int>(c.symbols);
  const int sep = bos + 1;
  LabSequence s;
  switch (c.task) {
    case LabTask::kLookup: {
      s.tokens.assign(static_cast<std::size_t>(length), bos);
      s.targets.assign(static_cast<std::size_t>(length), -1);
      for (std::int64_t t = 1; t < length; ++t) s.tokens[t] = draw_below(bits, c.symbols);
      for (std::int64_t t = c.lookup_distance + 1; t < length; ++t)
        s.targets[t] = s.tokens[t - c.lookup_distance];
      break;
    }
    case LabTask::kCopy: {
      const std::int64_t n = copy_length;
      s.tokens.assign(static_cast<std::size_t>(2 * n + 2), bos);
      s.targets.assign(static_cast<std::size_t>(2 * n + 2), -1);
      for (std::int64_t j = 1; j <= n; ++j) s.tokens[j] = draw_below(bits, c.symbols);
      s.tokens[n + 1] = sep;
      for (std::int64_t j = 1; j <= n; ++j) s.tokens[n + 1 + j] = s.tokens[j];
      for (std::int64_t t = n + 1; t <= 2 * n; ++t) s.targets[t] = s.tokens[t - n];
      break;
    }
    case LabTask::kLastWrite: {
      const std::int64_t writes = c.symbols / 2;
      const std::int64_t noise = c.symbols - writes;
      s.tokens.assign(static_cast<std::size_t>(length), bos);
      s.targets.assign(static_cast<std::size_t>(length), -1);
      s.tokens[1] = draw_below(bits, writes);
      int latest = s.tokens[1];
      for (std::int64_t t = 2; t < length; ++t) {
        const std::uint64_t r = bits.next_uint64();
        if (r % 4 == 0) {
          s.tokens[t] = static_cast<int>((r >> 2) % static_cast<std::uint64_t>(writes));
          latest = s.tokens[t];
        } else {
          s.tokens[t] = static_cast<int>(
              writes + static_cast<std::int64_t>((r >> 2) % static_cast<std::uint64_t>(noise)));
          s.targets[t] = latest;
        }
      }
      break;
    }
  }
  return s;
}

}  // namespace

LabData::LabData(const LabConfig& config)
    : config_((check_lab_config(config), config)), training_bits_(stream_seed(config.seed, 1, 0, false)) {}

std::vector<LabSequence> LabData::next_batch() {
  std::vector<LabSequence> batch;
  batch.reserve(static_cast<std::size_t>(config_.batch));
  const std::int64_t longest_copy = (config_.train_length - 2) / 2;
  for (std::int64_t b = 0; b < config_.batch; ++b) {
    const std::int64_t n = config_.task == LabTask::kCopy ? 1 + draw_below(training_bits_, longest_copy) : 0;
    batch.push_back(make_sequence(config_, config_.train_length, n, training_bits_));
  }
  return batch;
}

std::vector<LabSequence> LabData::evaluation_set(std::int64_t factor) const {
  check_range("factor", factor, 1, config_.max_eval_factor);
  Pcg64 bits(stream_seed(config_.seed, 2, static_cast<std::uint32_t>(factor), true));
  const std::int64_t length = factor * config_.train_length;
  std::vector<LabSequence> set;
  set.reserve(static_cast<std::size_t>(config_.eval_sequences));
  for (std::int64_t i = 0; i < config_.eval_sequences; ++i) {
    set.push_back(make_sequence(config_, length, (length - 2) / 2, bits));
  }
  return set;
}

// ---- the model: layout and initialisation -------------------------------------------------------------

namespace {

using Index = std::ptrdiff_t;  // 64 bits natively, 32 in wasm32; every size is capped far below 2^31

constexpr double kLayerNormEpsilon = 1e-5;
constexpr double kGeluScale = 0x1.9884533d43651p-1;  // √(2/π)
constexpr double kGeluCubic = 0.044715;

// `scheme` is what the forward pass runs: kDrope runs as kRope until its positions are dropped, then
// as kNone.
struct Dims {
  Index vocab, d, heads, head_width, mlp, layers, table_rows, train_length;
  LabScheme scheme;
  bool ssmax;
  Index window;
  Index cope_rows;  // kCope: rows of each layer's position vectors (counts 0 … train_length), else 0
};

Dims dims_of(const LabConfig& c, bool positions_dropped = false) {
  LabScheme runs_as = c.scheme;
  if (c.scheme == LabScheme::kDrope) runs_as = positions_dropped ? LabScheme::kNone : LabScheme::kRope;
  return Dims{static_cast<Index>(c.symbols + 2),
              static_cast<Index>(c.d_model),
              static_cast<Index>(c.heads),
              static_cast<Index>(c.d_model / c.heads),
              static_cast<Index>(c.mlp_width),
              static_cast<Index>(c.layers),
              static_cast<Index>(c.train_length * c.max_eval_factor),
              static_cast<Index>(c.train_length),
              runs_as,
              c.length_scaled_softmax,
              static_cast<Index>(c.window),
              c.scheme == LabScheme::kCope ? static_cast<Index>(c.train_length + 1) : 0};
}

// kRnopeSwa: the last layer and every fourth attend globally with no positions; the others are local RoPE.
bool local_layer(const Dims& dm, Index layer) {
  return dm.scheme == LabScheme::kRnopeSwa && layer + 1 != dm.layers && (layer + 1) % 4 != 0;
}

// Whether a layer rotates its queries and keys.
bool rotates(const Dims& dm, Index layer) { return dm.scheme == LabScheme::kRope || local_layer(dm, layer); }

// The first key query t sees in a layer: 0, or the start of its window.
Index first_key(const Dims& dm, Index layer, Index t) {
  return local_layer(dm, layer) ? std::max<Index>(0, t - dm.window + 1) : 0;
}

struct LayerOffsets {
  // ssmax and cope: −1 when the model has none
  Index ln1_gain, ln1_bias, wq, wk, wv, wo, cope, ssmax, ln2_gain, ln2_bias, w1, b1, w2, b2;
};

struct Layout {
  Index embed = 0;
  Index table = -1;
  std::vector<LayerOffsets> layers;
  Index final_gain = 0, final_bias = 0, unembed = 0, unembed_bias = 0, total = 0;
};

// Initial values of a group: std · standard normal draws, or a constant.
struct GroupInit {
  double std = 0;  // 0: constant
  double constant = 0;
};

// Builds the groups in the documented order, with each one's initialisation.
std::vector<std::pair<LabParameterGroup, GroupInit>> describe_groups(const LabConfig& c) {
  const Dims dm = dims_of(c);
  std::vector<std::pair<LabParameterGroup, GroupInit>> groups;
  std::int64_t offset = 0;
  auto add = [&](std::string name, Index rows, Index cols, GroupInit init) {
    groups.push_back({LabParameterGroup{std::move(name), offset, rows, cols}, init});
    offset += static_cast<std::int64_t>(rows) * cols;
  };
  const double d = static_cast<double>(dm.d);
  const double depth = 2.0 * static_cast<double>(dm.layers);
  add("token_embedding", dm.vocab, dm.d, {1.0, 0});
  if (c.scheme == LabScheme::kLearned) add("position_table", dm.table_rows, dm.d, {1.0, 0});
  for (Index l = 0; l < dm.layers; ++l) {
    const std::string p = "layer" + std::to_string(l) + ".";
    add(p + "ln1_gain", 1, dm.d, {0, 1.0});
    add(p + "ln1_bias", 1, dm.d, {0, 0.0});
    add(p + "wq", dm.d, dm.d, {1.0 / std::sqrt(d), 0});
    add(p + "wk", dm.d, dm.d, {1.0 / std::sqrt(d), 0});
    add(p + "wv", dm.d, dm.d, {1.0 / std::sqrt(d), 0});
    add(p + "wo", dm.d, dm.d, {1.0 / std::sqrt(d * depth), 0});
    if (c.scheme == LabScheme::kCope) {
      add(p + "cope_positions", dm.cope_rows, dm.head_width,
          {1.0 / std::sqrt(static_cast<double>(dm.head_width)), 0});
    }
    if (c.length_scaled_softmax) {
      add(p + "ssmax_scale", 1, dm.heads, {0, 1.0 / lab_log(static_cast<double>(c.train_length))});
    }
    add(p + "ln2_gain", 1, dm.d, {0, 1.0});
    add(p + "ln2_bias", 1, dm.d, {0, 0.0});
    add(p + "w1", dm.d, dm.mlp, {1.0 / std::sqrt(d), 0});
    add(p + "b1", 1, dm.mlp, {0, 0.0});
    add(p + "w2", dm.mlp, dm.d, {1.0 / std::sqrt(static_cast<double>(dm.mlp) * depth), 0});
    add(p + "b2", 1, dm.d, {0, 0.0});
  }
  add("final_gain", 1, dm.d, {0, 1.0});
  add("final_bias", 1, dm.d, {0, 0.0});
  add("unembed", dm.d, dm.vocab, {1.0 / std::sqrt(d), 0});
  add("unembed_bias", 1, dm.vocab, {0, 0.0});
  return groups;
}

Layout layout_of(const LabConfig& c, const std::vector<LabParameterGroup>& groups) {
  Layout lay;
  std::size_t g = 0;
  auto next = [&] { return static_cast<Index>(groups[g++].offset); };
  lay.embed = next();
  if (c.scheme == LabScheme::kLearned) lay.table = next();
  for (std::int64_t l = 0; l < c.layers; ++l) {
    LayerOffsets o{};
    o.ln1_gain = next();
    o.ln1_bias = next();
    o.wq = next();
    o.wk = next();
    o.wv = next();
    o.wo = next();
    o.cope = c.scheme == LabScheme::kCope ? next() : -1;
    o.ssmax = c.length_scaled_softmax ? next() : -1;
    o.ln2_gain = next();
    o.ln2_bias = next();
    o.w1 = next();
    o.b1 = next();
    o.w2 = next();
    o.b2 = next();
    lay.layers.push_back(o);
  }
  lay.final_gain = next();
  lay.final_bias = next();
  lay.unembed = next();
  lay.unembed_bias = next();
  lay.total = static_cast<Index>(groups.back().offset + groups.back().rows * groups.back().cols);
  return lay;
}

}  // namespace

LabModel::LabModel(const LabConfig& config) : config_(config) {
  check_lab_config(config);
  const auto described = describe_groups(config);
  for (const auto& entry : described) groups_.push_back(entry.first);
  const LabParameterGroup& last = groups_.back();
  parameters_.resize(static_cast<Eigen::Index>(last.offset + last.rows * last.cols));
  Generator normals(SeedSequence::from_integer(config.seed));
  for (const auto& [group, init] : described) {
    const std::int64_t count = group.rows * group.cols;
    double* out = parameters_.data() + group.offset;
    for (std::int64_t i = 0; i < count; ++i) {
      // Two statements, as numpy computes std · z: one rounding each, never fused.
      out[i] = init.std == 0 ? init.constant : init.std * normals.standard_normal();
    }
  }
}

// ---- the forward and backward passes ------------------------------------------------------------------

namespace {

// out (rows × n) = in (rows × k) · w (k × n), plus bias (n) when given: each entry summed over k in order
// from +0.0, then the bias added. The inner loop runs over j: its lanes are different entries.
LAB_NOINLINE void multiply(const double* in, Index rows, Index k, const double* w, Index n,
                           const double* bias, double* out) {
  for (Index r = 0; r < rows; ++r) {
    double* o = out + r * n;
    std::fill(o, o + n, 0.0);
    const double* a = in + r * k;
    for (Index p = 0; p < k; ++p) {
      const double ap = a[p];
      const double* wp = w + p * n;
      for (Index j = 0; j < n; ++j) o[j] += ap * wp[j];
    }
    if (bias != nullptr)
      for (Index j = 0; j < n; ++j) o[j] += bias[j];
  }
}

// wt (n × k) = wᵀ for w (k × n).
LAB_NOINLINE void transpose(const double* w, Index k, Index n, double* wt) {
  for (Index p = 0; p < k; ++p)
    for (Index j = 0; j < n; ++j) wt[j * k + p] = w[p * n + j];
}

// dw (k × n) += inᵀ · d_out for in (rows × k), d_out (rows × n): rows in order.
LAB_NOINLINE void accumulate_weight_gradient(const double* in, Index rows, Index k, const double* d_out,
                                             Index n, double* dw) {
  for (Index r = 0; r < rows; ++r) {
    const double* a = in + r * k;
    const double* g = d_out + r * n;
    for (Index p = 0; p < k; ++p) {
      const double ap = a[p];
      double* row = dw + p * n;
      for (Index j = 0; j < n; ++j) row[j] += ap * g[j];
    }
  }
}

// db (n) += Σ_rows d_out, rows in order.
LAB_NOINLINE void accumulate_bias_gradient(const double* d_out, Index rows, Index n, double* db) {
  for (Index r = 0; r < rows; ++r)
    for (Index j = 0; j < n; ++j) db[j] += d_out[r * n + j];
}

double dot(const double* a, const double* b, Index n) {
  double sum = 0.0;
  for (Index i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// y = LN(x) · gain + bias per row, keeping x̂ and 1/σ for the backward pass.
LAB_NOINLINE void layer_norm(const double* x, Index rows, Index d, const double* gain, const double* bias,
                             double* xhat, double* rstd, double* y) {
  const double width = static_cast<double>(d);
  for (Index t = 0; t < rows; ++t) {
    const double* xt = x + t * d;
    double sum = 0.0;
    for (Index i = 0; i < d; ++i) sum += xt[i];
    const double mean = sum / width;
    double squares = 0.0;
    for (Index i = 0; i < d; ++i) {
      const double centred = xt[i] - mean;
      squares += centred * centred;
    }
    const double r = 1.0 / std::sqrt(squares / width + kLayerNormEpsilon);
    rstd[t] = r;
    for (Index i = 0; i < d; ++i) {
      const double h = (xt[i] - mean) * r;
      xhat[t * d + i] = h;
      const double scaled = h * gain[i];
      y[t * d + i] = scaled + bias[i];
    }
  }
}

// dx (+=) from dy through LN: dx = (1/σ)(dŷ − mean(dŷ) − x̂ · mean(dŷ x̂)), dŷ = dy · gain; and the
// gain and bias gradients.
LAB_NOINLINE void layer_norm_backward(const double* dy, const double* xhat, const double* rstd, Index rows,
                                      Index d, const double* gain, double* d_gain, double* d_bias, double* dx,
                                      double* scratch) {
  const double width = static_cast<double>(d);
  for (Index t = 0; t < rows; ++t) {
    const double* g = dy + t * d;
    const double* h = xhat + t * d;
    double sum = 0.0;
    double sum_h = 0.0;
    for (Index i = 0; i < d; ++i) {
      d_gain[i] += g[i] * h[i];
      d_bias[i] += g[i];
      scratch[i] = g[i] * gain[i];
      sum += scratch[i];
      sum_h += scratch[i] * h[i];
    }
    const double mean = sum / width;
    const double mean_h = sum_h / width;
    for (Index i = 0; i < d; ++i) {
      const double centred = scratch[i] - mean;
      const double term = h[i] * mean_h;
      dx[t * d + i] += rstd[t] * (centred - term);
    }
  }
}

// What a forward pass needs to know about positions, for sequences up to `length` long.
struct PositionContext {
  Index length = 0;
  std::vector<double> cos, sin;   // RoPE: (length × head_width/2), angle position · θ_i
  std::vector<double> slopes;     // ALiBi
  std::vector<double> codes;      // sinusoidal: (length × d)
  std::vector<double> log_count;  // SSMax: entry n − 1 is ln n, for a query that sees n keys
  double score_scale = 1.0;       // 1/√d_head, times YaRN's attention factor squared
};

// θ_i = base^(−2i/width) for i < width/2.
std::vector<double> frequencies(double base, Index width) {
  const double log_base = lab_log(base);
  std::vector<double> theta(static_cast<std::size_t>(width / 2));
  for (Index i = 0; i < width / 2; ++i) {
    theta[i] = lab_exp(-(static_cast<double>(2 * i) / static_cast<double>(width)) * log_base);
  }
  return theta;
}

}  // namespace

LabRopeSetting lab_rope_setting(const LabConfig& c, std::int64_t length, RopeStretch stretch) {
  check_lab_config(c);
  check_range("length", length, 1, c.train_length * c.max_eval_factor);
  const Index width = static_cast<Index>(c.d_model / c.heads);
  const double trained = static_cast<double>(c.train_length);
  const double scale = static_cast<double>(length) / trained;
  LabRopeSetting setting;
  const std::vector<double> theta = frequencies(c.rope_base, width);
  setting.theta = Eigen::Map<const Vector>(theta.data(), static_cast<Eigen::Index>(theta.size()));
  if (scale <= 1) return setting;
  switch (stretch) {
    case RopeStretch::kNone:
      break;
    case RopeStretch::kInterpolation:
      setting.position_scale = trained / static_cast<double>(length);  // interpolate_positions' ratio
      break;
    case RopeStretch::kNtk: {
      // ntk_scaled_base's formula, base · s^(d/(d−2)), with the lab's own exp and log.
      const double exponent = static_cast<double>(width) / static_cast<double>(width - 2);
      const std::vector<double> ntk = frequencies(c.rope_base * lab_exp(exponent * lab_log(scale)), width);
      setting.theta = Eigen::Map<const Vector>(ntk.data(), static_cast<Eigen::Index>(ntk.size()));
      break;
    }
    case RopeStretch::kYarn: {
      // yarn_scaled_frequencies' blend over the lab's θ with the engine's ramp of weights (its ends are
      // whole numbers, floor and ceil of the correction range, so the weights are the same bits on every
      // platform), and yarn_attention_factor's 0.1 ln s + 1, squared (it multiplies both q and k).
      const Vector w = yarn_extrapolation_weights(width, c.rope_base, trained);
      for (Eigen::Index i = 0; i < setting.theta.size(); ++i) {
        const double t = setting.theta[i];
        setting.theta[i] = t / scale * (1.0 - w[i]) + t * w[i];
      }
      const double factor = 0.1 * lab_log(scale) + 1.0;
      setting.score_factor = factor * factor;
      break;
    }
  }
  return setting;
}

Matrix lab_sinusoidal_codes(std::int64_t length, std::int64_t d) {
  check_range("length", length, 1, kMaxLabTrainLength * kMaxLabEvalFactor);
  check_range("d", d, 2, kMaxLabModelWidth);
  if (d % 2 != 0) fail("d", "even", static_cast<double>(d));
  const std::vector<double> omega = frequencies(kDefaultBase, static_cast<Index>(d));
  Matrix codes(static_cast<Eigen::Index>(length), static_cast<Eigen::Index>(d));
  for (Eigen::Index p = 0; p < codes.rows(); ++p) {
    for (Eigen::Index i = 0; i < codes.cols() / 2; ++i) {
      const SinCos sc = lab_sin_cos(static_cast<double>(p) * omega[i]);
      codes(p, 2 * i) = sc.sin;
      codes(p, 2 * i + 1) = sc.cos;
    }
  }
  return codes;
}

namespace {

PositionContext make_positions(const LabConfig& c, const Dims& dm, Index length, RopeStretch stretch) {
  PositionContext ctx;
  if (dm.ssmax) {
    ctx.log_count.resize(static_cast<std::size_t>(length));
    for (Index t = 0; t < length; ++t) ctx.log_count[t] = lab_log(static_cast<double>(t + 1));
  }
  ctx.length = length;
  ctx.score_scale = 1.0 / std::sqrt(static_cast<double>(dm.head_width));
  if (c.scheme == LabScheme::kSinusoidal) {
    const Matrix codes = lab_sinusoidal_codes(length, dm.d);
    ctx.codes.assign(codes.data(), codes.data() + codes.size());
  }
  if (c.scheme == LabScheme::kAlibi) {
    const Vector slopes = alibi_slopes(c.heads);
    ctx.slopes.assign(slopes.data(), slopes.data() + slopes.size());
    // Up to kMaxLabHeads = 8 heads every slope is 2^−k for a whole k, which exp2 returns exactly on every
    // C library; the bias slope · distance is then exact too.
    for (const double slope : ctx.slopes) {
      int exponent = 0;
      if (std::frexp(slope, &exponent) != 0.5)
        fail("heads", "a count whose ALiBi slopes are powers of 2", slope);
    }
  }
  if (dm.scheme == LabScheme::kRope || dm.scheme == LabScheme::kRnopeSwa) {
    const Index half = dm.head_width / 2;
    const LabRopeSetting setting = lab_rope_setting(c, length, stretch);
    ctx.score_scale *= setting.score_factor;
    Vector positions(static_cast<Eigen::Index>(length));
    for (Index p = 0; p < length; ++p) positions[p] = static_cast<double>(p);
    if (setting.position_scale != 1) {
      positions =
          interpolate_positions(positions, static_cast<double>(c.train_length), static_cast<double>(length));
    }
    ctx.cos.resize(static_cast<std::size_t>(length * half));
    ctx.sin.resize(static_cast<std::size_t>(length * half));
    for (Index p = 0; p < length; ++p) {
      for (Index i = 0; i < half; ++i) {
        const SinCos sc = lab_sin_cos(positions[p] * setting.theta[i]);
        ctx.cos[p * half + i] = sc.cos;
        ctx.sin[p * half + i] = sc.sin;
      }
    }
  }
  return ctx;
}

// Turns every head's pairs (2i, 2i+1) of each row by its position's angle; `inverse` turns back (the
// gradient of a rotation is the opposite rotation).
LAB_NOINLINE void rotate(double* x, Index rows, const Dims& dm, const PositionContext& ctx, bool inverse) {
  const Index half = dm.head_width / 2;
  for (Index t = 0; t < rows; ++t) {
    for (Index h = 0; h < dm.heads; ++h) {
      double* v = x + t * dm.d + h * dm.head_width;
      for (Index i = 0; i < half; ++i) {
        const double c = ctx.cos[t * half + i];
        const double s = inverse ? -ctx.sin[t * half + i] : ctx.sin[t * half + i];
        const double x0 = v[2 * i];
        const double x1 = v[2 * i + 1];
        v[2 * i] = x0 * c - x1 * s;
        v[2 * i + 1] = x0 * s + x1 * c;
      }
    }
  }
}

// Everything one layer keeps for the backward pass of one sequence.
struct LayerCache {
  std::vector<double> x_in, xhat1, rstd1, a, q, k, v, probs, o, x_mid, xhat2, rstd2, b, z, tanh_u, gelu;
  // kCope, per head, query and key (heads × length × length): the gate σ(q·k · scale), the count clamped
  // to the table, and the score before SSMax (q·k · scale + q·e(count) · scale)
  std::vector<double> gate, count, score;
};

struct Workspace {
  Index length = 0;
  std::vector<LayerCache> layers;
  std::vector<double> x_out, xhat_f, rstd_f, f;
  std::vector<double> row;  // one query's scores
  // backward buffers
  std::vector<double> dx, dx_mid, d_block, d_hidden, d_o, dq, dk, dv, d_a, scratch, wt;
  std::vector<double> gate_grad;  // kCope: one query's gradient through its gates
};

void size_workspace(Workspace& ws, const Dims& dm, Index length, bool keep_probs) {
  ws.length = length;
  const auto td = static_cast<std::size_t>(length * dm.d);
  const auto tm = static_cast<std::size_t>(length * dm.mlp);
  const auto tl = static_cast<std::size_t>(length);
  ws.layers.resize(static_cast<std::size_t>(dm.layers));
  for (LayerCache& c : ws.layers) {
    for (std::vector<double>* v : {&c.x_in, &c.xhat1, &c.a, &c.q, &c.k, &c.v, &c.o, &c.x_mid, &c.xhat2, &c.b})
      v->resize(td);
    c.rstd1.resize(tl);
    c.rstd2.resize(tl);
    for (std::vector<double>* v : {&c.z, &c.tanh_u, &c.gelu}) v->resize(tm);
    c.probs.resize(keep_probs ? static_cast<std::size_t>(dm.heads * length * length) : 0);
    const bool cope = dm.cope_rows > 0;
    for (std::vector<double>* v : {&c.gate, &c.count, &c.score})
      v->resize(cope ? static_cast<std::size_t>(dm.heads * length * length) : 0);
  }
  for (std::vector<double>* v : {&ws.x_out, &ws.xhat_f, &ws.f, &ws.dx, &ws.dx_mid, &ws.d_block, &ws.d_o,
                                 &ws.dq, &ws.dk, &ws.dv, &ws.d_a})
    v->resize(td);
  ws.rstd_f.resize(tl);
  ws.d_hidden.resize(tm);
  ws.row.resize(tl);
  ws.gate_grad.resize(tl);
  ws.scratch.resize(static_cast<std::size_t>(std::max(dm.d, dm.mlp)));
  ws.wt.resize(static_cast<std::size_t>(dm.d * std::max(dm.d, dm.mlp)));
}

// The score of query t on key u before SSMax: q·k · scale − ALiBi's bias.
double raw_score(const LayerCache& c, const Dims& dm, const PositionContext& ctx, Index h, Index t, Index u) {
  const Index off = h * dm.head_width;
  double s = dot(c.q.data() + t * dm.d + off, c.k.data() + u * dm.d + off, dm.head_width) * ctx.score_scale;
  if (!ctx.slopes.empty()) s -= ctx.slopes[h] * static_cast<double>(t - u);
  return s;
}

// SSMax's factor for query t of head h in `layer` (s_h · ln n, n the keys it sees), or 1 without SSMax.
double ssmax_factor(const double* params, const LayerOffsets& o, const Dims& dm, const PositionContext& ctx,
                    Index layer, Index h, Index t) {
  if (!dm.ssmax) return 1.0;
  return params[o.ssmax + h] * ctx.log_count[t - first_key(dm, layer, t)];
}

// Causal attention of every head: o = softmax((q kᵀ · scale − ALiBi) · SSMax's factor) v, row by row, over
// the keys each query sees (its window in a local layer). Probabilities of unseen keys are stored as 0.
// `sink`, when given, gains each query's (t ≥ 1) weight on key 0, summed over heads in order.
// kCope: the scores of query t of head h before SSMax, into c.score (and the gates and clamped counts
// into c.gate and c.count): CoPE's gate g_u = σ(q·k_u · scale), count p_u = Σ_{m=u..t} g_m
// (contextual_positions), clamped to the table's last row, and score q·k_u · scale + q·e(p_u) · scale with
// e interpolated linearly between the rows either side of p_u.
void cope_scores(LayerCache& c, Index rows, const Dims& dm, const PositionContext& ctx, const double* table,
                 Index h, Index t) {
  const Index off = h * dm.head_width;
  const Index at = (h * rows + t) * rows;
  const double* qt = c.q.data() + t * dm.d + off;
  for (Index u = 0; u <= t; ++u) {
    const double raw = raw_score(c, dm, ctx, h, t, u);
    c.score[at + u] = raw;
    c.gate[at + u] = 1.0 / (1.0 + lab_exp(-raw));
  }
  const Vector counts =
      contextual_positions(Eigen::Map<const Vector>(c.gate.data() + at, static_cast<Eigen::Index>(t + 1)), t);
  const auto last = static_cast<double>(dm.cope_rows - 1);
  for (Index u = 0; u <= t; ++u) {
    const double p = std::min(counts[u], last);
    c.count[at + u] = p;
    const double below = std::floor(p);
    const double frac = p - below;
    const auto lo = static_cast<Index>(below);
    const Index hi = std::min(lo + 1, dm.cope_rows - 1);
    const double e_lo = dot(qt, table + lo * dm.head_width, dm.head_width);
    const double e_hi = dot(qt, table + hi * dm.head_width, dm.head_width);
    const double mixed = (1.0 - frac) * e_lo + frac * e_hi;
    c.score[at + u] += mixed * ctx.score_scale;
  }
}

LAB_NOINLINE void attention(LayerCache& c, Index rows, const Dims& dm, const PositionContext& ctx,
                            const double* params, const LayerOffsets& lo, Index layer, double* probs,
                            double* o, std::vector<double>& row, double* sink) {
  for (Index h = 0; h < dm.heads; ++h) {
    const Index off = h * dm.head_width;
    for (Index t = 0; t < rows; ++t) {
      const Index first = first_key(dm, layer, t);
      const double factor = ssmax_factor(params, lo, dm, ctx, layer, h, t);
      if (dm.cope_rows > 0) cope_scores(c, rows, dm, ctx, params + lo.cope, h, t);
      double largest = -std::numeric_limits<double>::infinity();
      for (Index u = first; u <= t; ++u) {
        double s = dm.cope_rows > 0 ? c.score[(h * rows + t) * rows + u] : raw_score(c, dm, ctx, h, t, u);
        if (dm.ssmax) s *= factor;
        row[u] = s;
        largest = std::max(largest, s);
      }
      double sum = 0.0;
      for (Index u = first; u <= t; ++u) {
        row[u] = lab_exp(row[u] - largest);
        sum += row[u];
      }
      double* ot = o + t * dm.d + off;
      std::fill(ot, ot + dm.head_width, 0.0);
      for (Index u = first; u <= t; ++u) {
        row[u] /= sum;
        const double p = row[u];
        const double* vu = c.v.data() + u * dm.d + off;
        for (Index i = 0; i < dm.head_width; ++i) ot[i] += p * vu[i];
      }
      if (sink != nullptr && t >= 1) *sink += first == 0 ? row[0] : 0.0;
      if (probs != nullptr) {
        double* out = probs + (h * rows + t) * rows;
        std::fill(out, out + first, 0.0);
        std::copy(row.data() + first, row.data() + t + 1, out + first);
      }
    }
  }
}

// Runs the model over one sequence; ws.f holds the final layer norm's output (length × d).
LAB_NOINLINE void forward(const double* params, const Layout& lay, const Dims& dm, const LabSequence& seq,
                          const PositionContext& ctx, Workspace& ws, bool keep_probs,
                          double* sinks = nullptr) {
  const auto rows = static_cast<Index>(seq.tokens.size());
  const Index d = dm.d;
  // The residual stream's input: token embedding, plus the position code or table row.
  double* x = ws.layers[0].x_in.data();
  for (Index t = 0; t < rows; ++t) {
    const double* e = params + lay.embed + seq.tokens[t] * d;
    for (Index i = 0; i < d; ++i) x[t * d + i] = e[i];
    if (dm.scheme == LabScheme::kLearned) {
      const double* p = params + lay.table + t * d;
      for (Index i = 0; i < d; ++i) x[t * d + i] += p[i];
    } else if (dm.scheme == LabScheme::kSinusoidal) {
      for (Index i = 0; i < d; ++i) x[t * d + i] += ctx.codes[t * d + i];
    }
  }
  for (Index l = 0; l < dm.layers; ++l) {
    LayerCache& c = ws.layers[l];
    const LayerOffsets& o = lay.layers[l];
    layer_norm(c.x_in.data(), rows, d, params + o.ln1_gain, params + o.ln1_bias, c.xhat1.data(),
               c.rstd1.data(), c.a.data());
    multiply(c.a.data(), rows, d, params + o.wq, d, nullptr, c.q.data());
    multiply(c.a.data(), rows, d, params + o.wk, d, nullptr, c.k.data());
    multiply(c.a.data(), rows, d, params + o.wv, d, nullptr, c.v.data());
    if (rotates(dm, l)) {
      rotate(c.q.data(), rows, dm, ctx, false);
      rotate(c.k.data(), rows, dm, ctx, false);
    }
    attention(c, rows, dm, ctx, params, o, l, keep_probs ? c.probs.data() : nullptr, c.o.data(), ws.row,
              sinks != nullptr ? sinks + l : nullptr);
    multiply(c.o.data(), rows, d, params + o.wo, d, nullptr, c.x_mid.data());
    for (Index i = 0; i < rows * d; ++i) c.x_mid[i] += c.x_in[i];
    layer_norm(c.x_mid.data(), rows, d, params + o.ln2_gain, params + o.ln2_bias, c.xhat2.data(),
               c.rstd2.data(), c.b.data());
    multiply(c.b.data(), rows, d, params + o.w1, dm.mlp, params + o.b1, c.z.data());
    for (Index i = 0; i < rows * dm.mlp; ++i) {
      // GELU, tanh form: z/2 · (1 + tanh(√(2/π)(z + 0.044715 z³))), tanh from the lab's exp.
      const double z = c.z[i];
      const double u = kGeluScale * (z + kGeluCubic * z * z * z);
      const double e = lab_exp(-2.0 * std::fabs(u));
      const double magnitude = (1.0 - e) / (1.0 + e);
      const double th = u < 0 ? -magnitude : magnitude;
      c.tanh_u[i] = th;
      c.gelu[i] = 0.5 * z * (1.0 + th);
    }
    double* out = l + 1 < dm.layers ? ws.layers[l + 1].x_in.data() : ws.x_out.data();
    multiply(c.gelu.data(), rows, dm.mlp, params + o.w2, d, params + o.b2, out);
    for (Index i = 0; i < rows * d; ++i) out[i] += c.x_mid[i];
  }
  layer_norm(ws.x_out.data(), rows, d, params + lay.final_gain, params + lay.final_bias, ws.xhat_f.data(),
             ws.rstd_f.data(), ws.f.data());
}

// logits (vocab) at position t: f_t · unembed + unembed_bias.
LAB_NOINLINE void logits_at(const double* params, const Layout& lay, const Dims& dm, const Workspace& ws,
                            Index t, double* logits) {
  multiply(ws.f.data() + t * dm.d, 1, dm.d, params + lay.unembed, dm.vocab, params + lay.unembed_bias,
           logits);
}

// kCope's own part of the backward pass for query t of head h, given p (its probabilities) and ws.row
// (d loss / d p): the position vectors' gradient into d_table, q's through them into ws.dq, and in
// ws.gate_grad[u] the gradient reaching q·k_u · scale through the gates (the caller adds it to the score's).
void cope_backward(const LayerCache& c, Index rows, const Dims& dm, const PositionContext& ctx,
                   const double* table, double* d_table, const double* p, Workspace& ws, double weighted,
                   double factor, Index h, Index t) {
  const Index off = h * dm.head_width;
  const Index at = (h * rows + t) * rows;
  const double* qt = c.q.data() + t * dm.d + off;
  double* dqt = ws.dq.data() + t * dm.d + off;
  const double last = static_cast<double>(dm.cope_rows - 1);
  // d loss / d count_u, then the gates': count_u = Σ_{m=u..t} g_m, so d g_m = Σ_{u ≤ m} d count_u.
  double running = 0.0;
  for (Index u = 0; u <= t; ++u) {
    const double d_raw = p[u] * (ws.row[u] - weighted);
    const double dz = (dm.ssmax ? d_raw * factor : d_raw) * ctx.score_scale;  // d loss / d (q·e(p))
    const double count = c.count[at + u];
    const double below = std::floor(count);
    const double frac = count - below;
    const auto lo = static_cast<Index>(below);
    const Index hi = std::min(lo + 1, dm.cope_rows - 1);
    const double* e_lo = table + lo * dm.head_width;
    const double* e_hi = table + hi * dm.head_width;
    double* de_lo = d_table + lo * dm.head_width;
    double* de_hi = d_table + hi * dm.head_width;
    for (Index i = 0; i < dm.head_width; ++i) {
      const double mixed = (1.0 - frac) * e_lo[i] + frac * e_hi[i];
      dqt[i] += dz * mixed;
      de_lo[i] += dz * (1.0 - frac) * qt[i];
      de_hi[i] += dz * frac * qt[i];
    }
    // The count's slope: e(p) moves from row lo towards row hi; a count clamped at the last row is flat.
    const double d_count =
        count < last ? dz * (dot(qt, e_hi, dm.head_width) - dot(qt, e_lo, dm.head_width)) : 0.0;
    running += d_count;
    const double g = c.gate[at + u];
    ws.gate_grad[u] = running * g * (1.0 - g);
  }
}

// Backpropagates ws.dx (the gradient at the final layer norm's input, length × d) through every layer to
// the embeddings, accumulating into grad.
LAB_NOINLINE void backward(const double* params, const Layout& lay, const Dims& dm, const LabSequence& seq,
                           const PositionContext& ctx, Workspace& ws, double* grad) {
  const auto rows = static_cast<Index>(seq.tokens.size());
  const Index d = dm.d;
  const Index m = dm.mlp;
  std::vector<double>& dx = ws.dx;  // gradient at the current layer's output, then its input
  for (Index l = dm.layers - 1; l >= 0; --l) {
    const LayerCache& c = ws.layers[l];
    const LayerOffsets& o = lay.layers[l];
    // out = x_mid + gelu(z) · w2 + b2
    accumulate_weight_gradient(c.gelu.data(), rows, m, dx.data(), d, grad + o.w2);
    accumulate_bias_gradient(dx.data(), rows, d, grad + o.b2);
    transpose(params + o.w2, m, d, ws.wt.data());
    multiply(dx.data(), rows, d, ws.wt.data(), m, nullptr, ws.d_hidden.data());
    for (Index i = 0; i < rows * m; ++i) {
      const double z = c.z[i];
      const double th = c.tanh_u[i];
      const double du_dz = kGeluScale * (1.0 + 3.0 * kGeluCubic * z * z);
      const double slope = 0.5 * (1.0 + th) + 0.5 * z * (1.0 - th * th) * du_dz;
      ws.d_hidden[i] *= slope;
    }
    // z = b · w1 + b1, b = LN2(x_mid)
    accumulate_weight_gradient(c.b.data(), rows, d, ws.d_hidden.data(), m, grad + o.w1);
    accumulate_bias_gradient(ws.d_hidden.data(), rows, m, grad + o.b1);
    transpose(params + o.w1, d, m, ws.wt.data());
    multiply(ws.d_hidden.data(), rows, m, ws.wt.data(), d, nullptr, ws.d_block.data());
    std::copy(dx.begin(), dx.begin() + rows * d, ws.dx_mid.begin());
    layer_norm_backward(ws.d_block.data(), c.xhat2.data(), c.rstd2.data(), rows, d, params + o.ln2_gain,
                        grad + o.ln2_gain, grad + o.ln2_bias, ws.dx_mid.data(), ws.scratch.data());
    // x_mid = x_in + o · wo
    accumulate_weight_gradient(c.o.data(), rows, d, ws.dx_mid.data(), d, grad + o.wo);
    transpose(params + o.wo, d, d, ws.wt.data());
    multiply(ws.dx_mid.data(), rows, d, ws.wt.data(), d, nullptr, ws.d_o.data());
    // attention: p = softmax(s), s = (q·k · scale − bias) · m with m = s_h ln n under SSMax (else 1),
    // o = p v
    std::fill(ws.dq.begin(), ws.dq.begin() + rows * d, 0.0);
    std::fill(ws.dk.begin(), ws.dk.begin() + rows * d, 0.0);
    std::fill(ws.dv.begin(), ws.dv.begin() + rows * d, 0.0);
    for (Index h = 0; h < dm.heads; ++h) {
      const Index off = h * dm.head_width;
      for (Index t = 0; t < rows; ++t) {
        const Index first = first_key(dm, l, t);
        const double* p = c.probs.data() + (h * rows + t) * rows;
        const double* g = ws.d_o.data() + t * d + off;
        double weighted = 0.0;
        for (Index u = first; u <= t; ++u) {
          const double dp = dot(g, c.v.data() + u * d + off, dm.head_width);
          ws.row[u] = dp;
          weighted += p[u] * dp;
        }
        const double factor = ssmax_factor(params, o, dm, ctx, l, h, t);
        const Index at = (h * rows + t) * rows;
        const bool cope = dm.cope_rows > 0;
        if (dm.ssmax) {
          // d loss / d s_h = Σ_u d loss / d s_tu · raw_tu · ln n
          double d_factor = 0.0;
          for (Index u = first; u <= t; ++u)
            d_factor +=
                p[u] * (ws.row[u] - weighted) * (cope ? c.score[at + u] : raw_score(c, dm, ctx, h, t, u));
          grad[o.ssmax + h] += d_factor * ctx.log_count[t - first];
        }
        const double* qt = c.q.data() + t * d + off;
        double* dqt = ws.dq.data() + t * d + off;
        if (cope)
          cope_backward(c, rows, dm, ctx, params + o.cope, grad + o.cope, p, ws, weighted, factor, h, t);
        for (Index u = first; u <= t; ++u) {
          const double d_raw = p[u] * (ws.row[u] - weighted);
          double ds = (dm.ssmax ? d_raw * factor : d_raw) * ctx.score_scale;
          if (cope) ds += ws.gate_grad[u] * ctx.score_scale;
          const double* ku = c.k.data() + u * d + off;
          double* dku = ws.dk.data() + u * d + off;
          double* dvu = ws.dv.data() + u * d + off;
          for (Index i = 0; i < dm.head_width; ++i) {
            dqt[i] += ds * ku[i];
            dku[i] += ds * qt[i];
            dvu[i] += p[u] * g[i];
          }
        }
      }
    }
    if (rotates(dm, l)) {
      rotate(ws.dq.data(), rows, dm, ctx, true);
      rotate(ws.dk.data(), rows, dm, ctx, true);
    }
    accumulate_weight_gradient(c.a.data(), rows, d, ws.dq.data(), d, grad + o.wq);
    accumulate_weight_gradient(c.a.data(), rows, d, ws.dk.data(), d, grad + o.wk);
    accumulate_weight_gradient(c.a.data(), rows, d, ws.dv.data(), d, grad + o.wv);
    // d_a = dq wqᵀ + dk wkᵀ + dv wvᵀ, added in that order
    transpose(params + o.wq, d, d, ws.wt.data());
    multiply(ws.dq.data(), rows, d, ws.wt.data(), d, nullptr, ws.d_a.data());
    transpose(params + o.wk, d, d, ws.wt.data());
    multiply(ws.dk.data(), rows, d, ws.wt.data(), d, nullptr, ws.d_block.data());
    for (Index i = 0; i < rows * d; ++i) ws.d_a[i] += ws.d_block[i];
    transpose(params + o.wv, d, d, ws.wt.data());
    multiply(ws.dv.data(), rows, d, ws.wt.data(), d, nullptr, ws.d_block.data());
    for (Index i = 0; i < rows * d; ++i) ws.d_a[i] += ws.d_block[i];
    std::copy(ws.dx_mid.begin(), ws.dx_mid.begin() + rows * d, dx.begin());
    layer_norm_backward(ws.d_a.data(), c.xhat1.data(), c.rstd1.data(), rows, d, params + o.ln1_gain,
                        grad + o.ln1_gain, grad + o.ln1_bias, dx.data(), ws.scratch.data());
  }
  for (Index t = 0; t < rows; ++t) {
    double* e = grad + lay.embed + seq.tokens[t] * d;
    for (Index i = 0; i < d; ++i) e[i] += dx[t * d + i];
    if (dm.scheme == LabScheme::kLearned) {
      double* p = grad + lay.table + t * d;
      for (Index i = 0; i < d; ++i) p[i] += dx[t * d + i];
    }
  }
}

// Checks a batch against the model's vocabulary and table; returns the longest sequence and the targets.
std::pair<Index, std::int64_t> check_batch(const std::vector<LabSequence>& batch, const Dims& dm) {
  if (batch.empty()) throw InputError("batch must hold at least one sequence, got none");
  Index longest = 0;
  std::int64_t targets = 0;
  for (std::size_t b = 0; b < batch.size(); ++b) {
    const LabSequence& s = batch[b];
    // Built only when a check fails: a batch that passes costs no string.
    auto name = [b] { return "batch[" + std::to_string(b) + "]"; };
    if (s.tokens.empty() || static_cast<Index>(s.tokens.size()) > dm.table_rows) {
      fail(name() + " length",
           "from 1 to train_length · max_eval_factor = " + format_number(static_cast<double>(dm.table_rows)),
           static_cast<double>(s.tokens.size()));
    }
    if (s.targets.size() != s.tokens.size()) {
      fail(name() + ".targets length", "the tokens' length (" + std::to_string(s.tokens.size()) + ")",
           static_cast<double>(s.targets.size()));
    }
    for (std::size_t t = 0; t < s.tokens.size(); ++t) {
      if (s.tokens[t] < 0 || s.tokens[t] >= dm.vocab) {
        fail(name() + ".tokens[" + std::to_string(t) + "]",
             "a token from 0 to " + format_number(static_cast<double>(dm.vocab - 1)), s.tokens[t]);
      }
      if (s.targets[t] < -1 || s.targets[t] >= dm.vocab) {
        fail(name() + ".targets[" + std::to_string(t) + "]",
             "−1 or a token from 0 to " + format_number(static_cast<double>(dm.vocab - 1)), s.targets[t]);
      }
      if (s.targets[t] >= 0) ++targets;
    }
    longest = std::max(longest, static_cast<Index>(s.tokens.size()));
  }
  if (targets == 0) throw InputError("batch must hold at least one target, got none");
  return {longest, targets};
}

}  // namespace

double LabModel::loss(const std::vector<LabSequence>& batch, Vector* gradient) const {
  const Dims dm = dims_of(config_, positions_dropped_);
  const auto [longest, targets] = check_batch(batch, dm);
  const Layout lay = layout_of(config_, groups_);
  const PositionContext ctx = make_positions(config_, dm, longest, RopeStretch::kNone);
  Workspace ws;
  size_workspace(ws, dm, longest, gradient != nullptr);
  if (gradient != nullptr) gradient->setZero(lay.total);
  const double* params = parameters_.data();
  double* grad = gradient != nullptr ? gradient->data() : nullptr;
  const double inverse_count = 1.0 / static_cast<double>(targets);
  std::vector<double> logits(static_cast<std::size_t>(dm.vocab));
  double total = 0.0;
  for (const LabSequence& seq : batch) {
    forward(params, lay, dm, seq, ctx, ws, gradient != nullptr);
    const auto rows = static_cast<Index>(seq.tokens.size());
    if (grad != nullptr) std::fill(ws.d_block.begin(), ws.d_block.begin() + rows * dm.d, 0.0);
    for (Index t = 0; t < rows; ++t) {
      if (seq.targets[t] < 0) continue;
      logits_at(params, lay, dm, ws, t, logits.data());
      double largest = logits[0];
      for (Index j = 1; j < dm.vocab; ++j) largest = std::max(largest, logits[j]);
      double sum = 0.0;
      for (Index j = 0; j < dm.vocab; ++j) sum += lab_exp(logits[j] - largest);
      total += (largest + lab_log(sum)) - logits[seq.targets[t]];
      if (grad == nullptr) continue;
      // d loss / d logits = (softmax − one-hot) / targets
      for (Index j = 0; j < dm.vocab; ++j) {
        const double p = lab_exp(logits[j] - largest) / sum;
        logits[j] = (p - (j == seq.targets[t] ? 1.0 : 0.0)) * inverse_count;
      }
      accumulate_weight_gradient(ws.f.data() + t * dm.d, 1, dm.d, logits.data(), dm.vocab,
                                 grad + lay.unembed);
      accumulate_bias_gradient(logits.data(), 1, dm.vocab, grad + lay.unembed_bias);
      double* df = ws.d_block.data() + t * dm.d;
      const double* u = params + lay.unembed;
      for (Index i = 0; i < dm.d; ++i) df[i] = dot(u + i * dm.vocab, logits.data(), dm.vocab);
    }
    if (grad == nullptr) continue;
    std::fill(ws.dx.begin(), ws.dx.begin() + rows * dm.d, 0.0);
    layer_norm_backward(ws.d_block.data(), ws.xhat_f.data(), ws.rstd_f.data(), rows, dm.d,
                        params + lay.final_gain, grad + lay.final_gain, grad + lay.final_bias, ws.dx.data(),
                        ws.scratch.data());
    backward(params, lay, dm, seq, ctx, ws, grad);
  }
  return total * inverse_count;
}

LabScore LabModel::score(const std::vector<LabSequence>& batch, RopeStretch stretch,
                         Vector* sink_share) const {
  const Dims dm = dims_of(config_, positions_dropped_);
  const Index longest = check_batch(batch, dm).first;
  const Layout lay = layout_of(config_, groups_);
  Workspace ws;
  size_workspace(ws, dm, longest, false);
  std::vector<double> logits(static_cast<std::size_t>(dm.vocab));
  LabScore score;
  std::vector<double> sinks(static_cast<std::size_t>(dm.layers), 0.0);
  double queries = 0.0;  // every sequence's queries t ≥ 1, once per head
  // Each sequence's stretch follows its own length: the positions are built per length met.
  Index built = -1;
  PositionContext ctx;
  for (const LabSequence& seq : batch) {
    const auto rows = static_cast<Index>(seq.tokens.size());
    if (rows != built) {
      ctx = make_positions(config_, dm, rows, stretch);
      built = rows;
    }
    forward(parameters_.data(), lay, dm, seq, ctx, ws, false, sink_share != nullptr ? sinks.data() : nullptr);
    queries += static_cast<double>((rows - 1) * dm.heads);
    for (Index t = 0; t < rows; ++t) {
      if (seq.targets[t] < 0) continue;
      logits_at(parameters_.data(), lay, dm, ws, t, logits.data());
      Index best = 0;
      for (Index j = 1; j < dm.vocab; ++j)
        if (logits[j] > logits[best]) best = j;
      score.correct += best == seq.targets[t] ? 1 : 0;
      score.total += 1;
    }
  }
  if (sink_share != nullptr) {
    sink_share->resize(dm.layers);
    for (Index l = 0; l < dm.layers; ++l) (*sink_share)[l] = queries > 0 ? sinks[l] / queries : 0.0;
  }
  return score;
}

// ---- training ----------------------------------------------------------------------------------------

void adam_step(Vector& parameters, const Vector& gradient, double learning_rate, AdamState& state) {
  if (gradient.size() != parameters.size()) {
    fail("gradient length", "the parameters' length (" + std::to_string(parameters.size()) + ")",
         static_cast<double>(gradient.size()));
  }
  require_positive("learning_rate", learning_rate);
  const Eigen::Index n = parameters.size();
  if (state.m.size() != n) {
    state.m.setZero(n);
    state.v.setZero(n);
  }
  double squares = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) squares += gradient[i] * gradient[i];
  const double norm = std::sqrt(squares);
  const double clip = norm > kLabGradientClip ? kLabGradientClip / norm : 1.0;
  state.step += 1;
  state.beta1_power *= kLabAdamBeta1;
  state.beta2_power *= kLabAdamBeta2;
  const double correction1 = 1.0 - state.beta1_power;
  const double correction2 = 1.0 - state.beta2_power;
  double* p = parameters.data();
  double* m = state.m.data();
  double* v = state.v.data();
  const double* g = gradient.data();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double gi = g[i] * clip;
    m[i] = kLabAdamBeta1 * m[i] + (1.0 - kLabAdamBeta1) * gi;
    v[i] = kLabAdamBeta2 * v[i] + (1.0 - kLabAdamBeta2) * (gi * gi);
    const double m_hat = m[i] / correction1;
    const double v_hat = v[i] / correction2;
    p[i] -= learning_rate * m_hat / (std::sqrt(v_hat) + kLabAdamEpsilon);
  }
}

double lab_learning_rate(const LabConfig& c, std::int64_t step) {
  const std::int64_t warmup = std::max<std::int64_t>(1, c.steps / 10);
  if (step < warmup) return c.learning_rate * static_cast<double>(step + 1) / static_cast<double>(warmup);
  const std::int64_t span = std::max<std::int64_t>(1, c.steps - 1 - warmup);
  const double progress = static_cast<double>(step - warmup) / static_cast<double>(span);
  return c.learning_rate * (1.0 - 0.9 * std::min(progress, 1.0));
}

LabResult run_length_lab(const LabConfig& config, const LabProgress& progress) {
  LabModel model(config);
  LabData data(config);
  LabResult result;
  result.work = lab_work(config);
  AdamState adam;
  Vector gradient;
  std::vector<double> losses;
  losses.reserve(static_cast<std::size_t>(config.steps));
  const std::int64_t drop_at =
      config.scheme == LabScheme::kDrope ? config.steps - config.recalibration_steps : config.steps + 1;
  for (std::int64_t step = 0; step < config.steps; ++step) {
    if (step == drop_at) model.drop_positions();
    const std::vector<LabSequence> batch = data.next_batch();
    const double loss = model.loss(batch, &gradient);
    adam_step(model.parameters(), gradient, lab_learning_rate(config, step), adam);
    losses.push_back(loss);
    if (progress && !progress(step + 1, loss)) {
      result.stopped = true;
      break;
    }
  }
  result.losses = Eigen::Map<const Vector>(losses.data(), static_cast<Eigen::Index>(losses.size()));
  result.parameters = model.parameters();
  result.eval_lengths.resize(static_cast<Eigen::Index>(config.max_eval_factor));
  for (std::int64_t f = 1; f <= config.max_eval_factor; ++f)
    result.eval_lengths[f - 1] = static_cast<double>(f * config.train_length);
  // A DroPE run evaluates without positions, however few steps it recalibrated for (even none).
  if (config.scheme == LabScheme::kDrope && !result.stopped) model.drop_positions();
  std::vector<RopeStretch> stretches{RopeStretch::kNone};
  const std::string model_name =
      std::string(lab_scheme_name(config.scheme)) + (config.length_scaled_softmax ? "+ssmax" : "");
  result.variants.push_back(model_name);
  if (config.scheme == LabScheme::kRope) {
    stretches.insert(stretches.end(), {RopeStretch::kInterpolation, RopeStretch::kNtk, RopeStretch::kYarn});
    for (const char* stretch : {"+pi", "+ntk", "+yarn"}) result.variants.push_back(model_name + stretch);
  }
  if (result.stopped) return result;
  result.accuracy.resize(static_cast<Eigen::Index>(stretches.size()),
                         static_cast<Eigen::Index>(config.max_eval_factor));
  result.sink_share.resize(static_cast<Eigen::Index>(config.layers),
                           static_cast<Eigen::Index>(config.max_eval_factor));
  for (std::int64_t f = 1; f <= config.max_eval_factor; ++f) {
    const std::vector<LabSequence> set = data.evaluation_set(f);
    for (std::size_t v = 0; v < stretches.size(); ++v) {
      Vector sinks;
      const LabScore s = model.score(set, stretches[v], v == 0 ? &sinks : nullptr);
      if (v == 0) result.sink_share.col(static_cast<Eigen::Index>(f - 1)) = sinks;
      result.accuracy(static_cast<Eigen::Index>(v), static_cast<Eigen::Index>(f - 1)) =
          static_cast<double>(s.correct) / static_cast<double>(s.total);
    }
  }
  return result;
}

std::string lab_fingerprint(const LabResult& result) {
  std::string bytes;
  auto append = [&bytes](const double* values, Eigen::Index count) {
    const std::size_t size = static_cast<std::size_t>(count) * sizeof(double);
    const std::size_t at = bytes.size();
    bytes.resize(at + size);
    // Both targets are little-endian IEEE 754: the bytes are the same on each.
    std::memcpy(bytes.data() + at, values, size);
  };
  append(result.losses.data(), result.losses.size());
  append(result.parameters.data(), result.parameters.size());
  append(result.accuracy.data(), result.accuracy.size());
  append(result.sink_share.data(), result.sink_share.size());
  return md5_hex(bytes);
}

}  // namespace positional
