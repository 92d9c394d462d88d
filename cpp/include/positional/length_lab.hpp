// The length-generalisation lab: a small decoder-only transformer trained on the reader's own device on
// synthetic tasks that need positions, once per position scheme (none, learned table, sinusoidal, RoPE,
// ALiBi), then scored at 1×…8× the length it was trained at; the RoPE model also with position
// interpolation, the NTK-aware base and YaRN applied at evaluation time.
//
// Reproducibility is the contract: the same configuration and seed give the same loss curve, final
// parameters and accuracies bit for bit natively (g++ or clang, x86-64) and in WebAssembly. So every sum
// runs in one fixed order in loops written here (vector lanes only ever hold different sums, never parts
// of one), the module is compiled with -ffp-contract=off (no fused multiply-add), and every elementary
// function is built from + − × ÷, floor, frexp and ldexp (lab_exp, lab_log, lab_sin_cos below) instead of
// the C library's, whose last bits differ between glibc and Emscripten's musl. Eigen serves as storage
// only: its products and reductions sum in a different order with SSE than in scalar WebAssembly.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "positional/limits.hpp"        // kDefaultBase and the other defaults
#include "positional/numpy_random.hpp"  // Pcg64
#include "positional/types.hpp"

namespace positional {

// ---- deterministic elementary functions ------------------------------------------------------------

// e^x for any double: NaN for NaN, +∞ above 709.78, and 0 below −708.39 (where e^x would be subnormal:
// the lab only ever exponentiates softmax scores and tanh arguments, for which such weights are 0 anyway).
// Elsewhere within 1 ulp of the C library's exp (so within about 1.5 ulp of exact; equal to it for 90% of
// arguments): tests/cpp/test_length_lab.cpp measures it on glibc natively and on musl in WebAssembly.
double lab_exp(double x);

// The natural logarithm: NaN for NaN or x < 0, −∞ at 0, +∞ at +∞; elsewhere within 1 ulp of the C
// library's log (equal to it for 99.9% of arguments).
double lab_log(double x);

// sin x and cos x for |x| ≤ kMaxLabAngle: within 1 ulp of the C library's over the lab's angles, |x| ≤ 512
// (position · θ with θ ≤ 1; near a zero of either, within 2^−62 absolute).
// Throws InputError for a non-finite x or |x| > kMaxLabAngle (2^20).
struct SinCos {
  double sin = 0;
  double cos = 1;
};
SinCos lab_sin_cos(double x);
inline constexpr double kMaxLabAngle = 1048576.0;

// ---- what is trained ------------------------------------------------------------------------------

// How the model knows positions. kNone (NoPE): the causal mask only. kLearned: a trained table of
// train_length × max_eval_factor rows added to the tokens; rows past the trained length never receive a
// gradient, so they keep their random initial values (the table "stops at its last trained row").
// kSinusoidal: the fixed sin/cos code of the 2017 transformer added to the tokens. kRope: queries and keys
// rotated per head (interleaved pairs, θ_i = rope_base^(−2i/d_head)). kAlibi: a per-head penalty
// slope_h · distance subtracted from the scores, with alibi_slopes(heads).
// kRnopeSwa (RNoPE-SWA, arXiv 2501.18795): the last layer, and every fourth, attends
// globally with no positions (NoPE); every other layer is RoPE over a sliding window of `window` keys
// (the query and the window − 1 before it), the interleaving of Llama 4, Gemma 3 and Command A.
// kDrope (DroPE, arXiv 2512.12167): RoPE for the first steps − recalibration_steps steps,
// then the rotation removed and the same model trained on for the last recalibration_steps steps (same
// Adam state, same schedule: the step budget is unchanged); evaluated with no positions.
// kCope (contextual position, CoPE, arXiv 2405.18719): no position code; each head's score of key u
// gains q · e(p_u) · scale, with gates g_m = σ(q · k_m · scale), count p_u = Σ_{m=u..t} g_m
// (contextual_positions) clamped to train_length, and e interpolated between the two nearest rows of a
// trained table per layer (layerℓ.cope_positions, (train_length + 1) × d_head, shared by the heads).
enum class LabScheme { kNone, kLearned, kSinusoidal, kRope, kAlibi, kRnopeSwa, kDrope, kCope };

// The tasks. Tokens 0…symbols−1 are content, symbols is BOS (every sequence starts with it), symbols + 1
// is SEP. A target is the token the model must output at a position (argmax over the vocabulary).
//   kLookup:    BOS a_1 … a_{T−1}; at every position t ≥ k + 1 output the token k places back.
//   kCopy:      BOS a_1 … a_n SEP a_1 … a_n (T = 2n + 2); from SEP on, output the next token of the
//               copy. Training draws n from 1…(train_length − 2)/2; evaluation at length T uses n = (T−2)/2.
//   kLastWrite: tokens 0…symbols/2 − 1 are writes, the rest noise; position 1 is a write, then each
//               position is a write with probability 1/4. At every noise position output the value of
//               the most recent write (a flip-flop register: it needs "most recent", i.e. position).
enum class LabTask { kLookup, kCopy, kLastWrite };

// What a RoPE model does to its frequencies when evaluated at a length T beyond its trained length L,
// with scale s = T / L (at s ≤ 1 each is the plain model):
//   kInterpolation: positions × L/T (interpolate_positions, Chen et al. 2023);
//   kNtk: the base raised to base · s^(d/(d−2)) (the NTK-aware base, ntk_scaled_base);
//   kYarn: YaRN's blend θ_i · (w_i + (1 − w_i)/s) with w = yarn_extrapolation_weights(d_head, base, L,
//          32, 1), and the scores multiplied by the square of yarn_attention_factor(s) (Peng et al. 2023).
enum class RopeStretch { kNone, kInterpolation, kNtk, kYarn };

// Names as the binding and the results file spell them: "none", "learned", "sinusoidal", "rope",
// "alibi", "rnope-swa", "drope", "cope"; "lookup", "copy", "last-write". The parsers throw InputError naming
// `name` for anything else.
std::string_view lab_scheme_name(LabScheme scheme);
std::string_view lab_task_name(LabTask task);
LabScheme parse_lab_scheme(std::string_view text, std::string_view name = "scheme");
LabTask parse_lab_task(std::string_view text, std::string_view name = "task");

// One run of the lab. The defaults are the page's default size (see the caps in limits.hpp and the
// figures in tests/bench/results/length-lab.json).
struct LabConfig {
  LabScheme scheme = LabScheme::kRope;
  LabTask task = LabTask::kLookup;
  std::int64_t symbols = 16;         // content tokens; the vocabulary adds BOS and SEP
  std::int64_t train_length = 16;    // tokens per training sequence (even)
  std::int64_t layers = 2;           // pre-norm blocks: x + attention(LN(x)), then x + MLP(LN(x))
  std::int64_t d_model = 32;         // residual width
  std::int64_t heads = 4;            // d_head = d_model / heads, even and at least 4
  std::int64_t mlp_width = 64;       // the MLP's hidden width (GELU, tanh form)
  std::int64_t batch = 8;            // sequences per step
  std::int64_t steps = 300;          // Adam steps
  double learning_rate = 1e-2;       // peak; linear warm-up over the first tenth, then linear decay to 1/10
  std::int64_t lookup_distance = 3;  // k of kLookup
  std::int64_t eval_sequences = 8;   // sequences per evaluation length
  std::int64_t max_eval_factor = 8;  // evaluation lengths L, 2L, …, max_eval_factor · L
  double rope_base = kDefaultBase;   // RoPE's base (the sinusoidal code always uses 10,000)
  std::uint64_t seed = 0;            // 0 … 2^32 − 1: initial weights, training data and evaluation data
  // Scalable softmax (SSMax, arXiv 2501.19399), for any scheme: every score of a query that sees n keys is
  // multiplied by s_h · ln n before the softmax, with s_h a trained scale per layer and head (parameter
  // group layerℓ.ssmax_scale, starting at 1/ln train_length, so that at the trained length it starts as
  // plain attention), keeping attention as sharp at 8× the length as at 1×.
  bool length_scaled_softmax = false;
  std::int64_t window = 8;  // kRnopeSwa: keys per local window, 1 … train_length · max_eval_factor
  std::int64_t recalibration_steps = 30;  // kDrope only: the last steps, without positions, 0 … steps
};

// Throws InputError naming the field (snake_case) and its rule when a field is outside its range (the
// caps of limits.hpp: kMaxLabSymbols …), d_model is not heads × an even d_head ≥ 4, lookup_distance is not
// below train_length − 1, or the whole run would exceed kMaxLabWork multiply-adds (lab_work).
void check_lab_config(const LabConfig& config);

// The multiply-adds a run takes, training (forward and backward, counted as three forwards) plus every
// evaluation, as an upper bound from the sizes alone. No call checks more than this before it starts.
std::int64_t lab_work(const LabConfig& config);

// What a RoPE model of `config` runs with on sequences of `length` positions under `stretch` (scale
// s = length / train_length; at s ≤ 1 every stretch is the plain model): each pair's frequency θ_i
// (d_head/2 entries, radians per position), the factor positions are multiplied by (train_length / length
// under kInterpolation, else 1) and the factor the scores are multiplied by (YaRN's attention factor
// squared, else 1). Computed with lab_exp and lab_log; tests/cpp/test_length_lab.cpp holds them to the
// engine's rope_frequencies, ntk_scaled_base, yarn_inverse_frequencies and yarn_attention_factor.
// Throws InputError as check_lab_config, or when length is not within 1…train_length · max_eval_factor.
struct LabRopeSetting {
  Vector theta;
  double position_scale = 1;
  double score_factor = 1;
};
LabRopeSetting lab_rope_setting(const LabConfig& config, std::int64_t length, RopeStretch stretch);

// The sinusoidal code the lab adds to its tokens: (length × d), column 2i sin(p ω_i), 2i+1 cos(p ω_i),
// ω_i = 10000^(−2i/d), from lab_sin_cos. Throws InputError when length is not within 1…512 or d is not
// even and within 2…kMaxLabModelWidth.
Matrix lab_sinusoidal_codes(std::int64_t length, std::int64_t d);

// ---- data ------------------------------------------------------------------------------------------

// One sequence: its tokens and, per position, the target token or −1 for none.
struct LabSequence {
  std::vector<int> tokens;
  std::vector<int> targets;
};

// The training batches and evaluation sets, drawn with numpy's PCG64 (numpy_random.hpp) so that a numpy
// script can draw the same: every token is next_uint64() % (the range it is drawn from), in the order
// the task's description above reads. Training uses PCG64(SeedSequence([seed, 1])), one stream for the
// whole run; evaluation at factor f uses PCG64(SeedSequence([seed, 2, f])), the same for every scheme.
// Throws InputError as check_lab_config, or for a factor outside 1…max_eval_factor.
class LabData {
 public:
  explicit LabData(const LabConfig& config);
  // The next `config.batch` training sequences.
  std::vector<LabSequence> next_batch();
  // The eval_sequences sequences of length factor · train_length.
  std::vector<LabSequence> evaluation_set(std::int64_t factor) const;

 private:
  LabConfig config_;
  Pcg64 training_bits_;  // the training stream, advanced by next_batch()
};

// ---- the model ------------------------------------------------------------------------------------

// One named block of the flat parameter vector (row-major rows × cols).
struct LabParameterGroup {
  std::string name;
  std::int64_t offset = 0;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
};

// Correct argmax predictions out of the targets scored.
struct LabScore {
  std::int64_t correct = 0;
  std::int64_t total = 0;
};

// The transformer. Parameters, in this order (the order numpy draws them in): token_embedding (V × d),
// position_table (kLearned only: train_length · max_eval_factor × d), then per layer ℓ "layerℓ." ln1_gain,
// ln1_bias, wq, wk, wv, wo (d × d, applied as x · W), cope_positions (kCope only), ssmax_scale (1 × heads,
// SSMax only), ln2_gain, ln2_bias, w1 (d × mlp), b1, w2 (mlp × d), b2; then final_gain, final_bias, unembed
// (d × V), unembed_bias. Gains start at 1, biases at 0, every matrix at std · z with z =
// numpy.random.default_rng(seed).standard_normal in row-major order: std 1 for the embedding and the table,
// 1/√fan_in for wq, wk, wv, w1 and unembed, and 1/√(fan_in · 2 · layers) for wo and w2 (their sum over the
// residual stream stays at the scale of one block's).
class LabModel {
 public:
  // Throws InputError as check_lab_config.
  explicit LabModel(const LabConfig& config);

  const LabConfig& config() const { return config_; }
  const std::vector<LabParameterGroup>& groups() const { return groups_; }
  const Vector& parameters() const { return parameters_; }
  Vector& parameters() { return parameters_; }

  // The mean cross-entropy (natural log) over every target of `batch`, at positions 0, 1, …; when
  // `gradient` is given it is resized and filled with the loss's gradient by backpropagation.
  // Throws InputError when the batch is empty or has no target, a sequence is empty, longer than
  // train_length · max_eval_factor or of mismatched lengths, or a token or target is out of range.
  double loss(const std::vector<LabSequence>& batch, Vector* gradient = nullptr) const;

  // Argmax accuracy over every target, with `stretch` applied to a RoPE model's frequencies for each
  // sequence longer than train_length (ignored by the other schemes). When `sink_share` is given it is
  // resized to the layer count and filled with each layer's attention share on position 0 (BOS): the mean
  // over heads, sequences and queries t ≥ 1 of softmax weight on key 0 (an attention sink, Xiao et al.
  // 2023, draws most of it). Throws as loss().
  LabScore score(const std::vector<LabSequence>& batch, RopeStretch stretch = RopeStretch::kNone,
                 Vector* sink_share = nullptr) const;

  // kDrope: from now on the model runs without its rotation (no effect on other schemes).
  void drop_positions() { positions_dropped_ = true; }
  bool positions_dropped() const { return positions_dropped_; }

 private:
  LabConfig config_;
  bool positions_dropped_ = false;
  std::vector<LabParameterGroup> groups_;
  Vector parameters_;
};

// ---- training --------------------------------------------------------------------------------------

// Adam (β1 = 0.9, β2 = 0.99, ε = 1e−8, no weight decay) after clipping the gradient to global norm 1.
struct AdamState {
  Vector m;
  Vector v;
  std::int64_t step = 0;
  double beta1_power = 1;  // β1^step, by repeated multiplication (no pow)
  double beta2_power = 1;
};
inline constexpr double kLabAdamBeta1 = 0.9;
inline constexpr double kLabAdamBeta2 = 0.99;
inline constexpr double kLabAdamEpsilon = 1e-8;
inline constexpr double kLabGradientClip = 1.0;

// One update of `parameters` with `gradient` (same size; state sized on first use). Throws InputError
// when the sizes differ or learning_rate is not finite and > 0.
void adam_step(Vector& parameters, const Vector& gradient, double learning_rate, AdamState& state);

// The learning rate at step 0 … steps − 1: learning_rate · (step + 1)/w for the first w = max(1, steps/10)
// steps, then falling linearly to learning_rate / 10 at the last step.
double lab_learning_rate(const LabConfig& config, std::int64_t step);

// Called after every step with the number of steps done (1, 2, …) and that step's loss; returning false
// stops training (the Worker's stop button): the run then returns what it has, unevaluated.
using LabProgress = std::function<bool(std::int64_t step, double loss)>;

// A whole run: train, then (unless stopped) evaluate.
struct LabResult {
  Vector losses;                      // the loss of every step done, before its update
  bool stopped = false;               // the progress callback returned false
  Vector eval_lengths;                // train_length · (1, 2, …, max_eval_factor)
  std::vector<std::string> variants;  // the accuracy rows: the scheme's name; for RoPE also
                                      // "rope+pi", "rope+ntk", "rope+yarn"; with SSMax each name
                                      // has "+ssmax" after the scheme's ("rope+ssmax+pi")
  Matrix accuracy;        // variants × eval lengths, fractions of targets right; 0 × 0 if stopped
  Matrix sink_share;      // layers × eval lengths: attention share on position 0 (score's sink_share) of
                          // the plain variant; 0 × 0 if stopped
  Vector parameters;      // the final parameters
  std::int64_t work = 0;  // lab_work(config)
};

// Trains a fresh LabModel(config) for config.steps steps on LabData(config) batches, then scores it on
// every evaluation set (each variant, each length). Throws InputError as check_lab_config; exceptions
// of `progress` propagate.
LabResult run_length_lab(const LabConfig& config, const LabProgress& progress = nullptr);

// MD5 (hex) of the run's numbers as little-endian IEEE doubles: the losses, the final parameters, the
// accuracy table, then the sink shares. Equal fingerprints on two platforms mean equal bits.
std::string lab_fingerprint(const LabResult& result);

}  // namespace positional
