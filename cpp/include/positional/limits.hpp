// The engine's shared constants: the defaults of its arguments, π, and every cap on a call's output,
// work and input text. Each cap is checked before any work starts. The bindings declare the caps and
// defaults to JavaScript from here (cpp/bindings/bind_limits.cpp and each function's declaration):
// the JavaScript facade builds its checks from that declaration and types no number of its own.
#pragma once

#include <cstdint>

namespace positional {

// The base of the sinusoidal code and of RoPE in the original papers (10,000).
inline constexpr double kDefaultBase = 10000.0;

// YaRN's ramp bounds, in turns over the trained length (Peng et al.'s defaults): a pair turning more
// than beta_fast times keeps its speed, one turning fewer than beta_slow times is fully interpolated.
inline constexpr double kDefaultBetaFast = 32.0;
inline constexpr double kDefaultBetaSlow = 1.0;

// rope_clock's angle per position when none is given (one radian).
inline constexpr double kDefaultClockTheta = 1.0;

// π to the precision of a double, and a full turn; no engine file keeps its own copy.
inline constexpr double kPi = 3.14159265358979323846264338327950288;
inline constexpr double kTwoPi = 2.0 * kPi;

// The largest result, in doubles, any engine function will build, and the longest array of numbers
// it accepts (2^24 = 16,777,216 doubles, 128 MiB). A 32,768 × 512 table is exactly at the cap.
inline constexpr std::int64_t kMaxOutputDoubles = std::int64_t{1} << 24;

// The most inner-loop steps one call may take. A step is about the cost of one entry of the
// sinusoidal table (a sin/cos pair); the functions whose inner loop costs more count several
// steps per iteration, measured against that table in WebAssembly. 2^22 steps keep every call
// well under a second on a laptop core:
//   rotating x (applyRope, applyRopeHalf, applyRopeSequence): one step per entry;
//   compareRopeConventions: (maxDistance + 1) × (d + 32);
//   ropeScoresOverDistance: starts × (maxDistance + 1) × d/2;
//   ropeDecayCurve, ropeOnesScores: d/2 × (maxDistance + 1) × 2;
//   ropePairAngles: pairs × positions; float32AngleErrors: pairs × positions × 16 (float sin/cos);
//   extensionCurves: positions × 4; halfPermutation, reversalPermutation: one step per entry.
inline constexpr std::int64_t kMaxWorkSteps = std::int64_t{1} << 22;

// The most multiply-adds one attention call may take: n × m × (d_k + d_v) ≤ 2^28.
inline constexpr std::int64_t kMaxAttentionWork = std::int64_t{1} << 28;

// attention, the copying call from JavaScript: the most weights (n × m) it returns. Its three n × m
// matrices are each copied into a new Float64Array, and at 2^24 the copy took several times the
// computation (figures: BENCHMARKS.md, Measurements), so the copying call stops at 2^22 and
// engine.views.attention, which copies nothing, keeps the output cap (2^24).
inline constexpr std::int64_t kMaxCopiedAttentionWeights = std::int64_t{1} << 22;

// compareRopeConventions: the largest maxDistance (the work cap above also applies).
inline constexpr std::int64_t kMaxConventionsDistance = std::int64_t{1} << 20;

// ropeDecayCurve and ropeOnesScores: the largest maxDistance (the work cap above also applies).
inline constexpr std::int64_t kMaxDecayDistance = std::int64_t{1} << 22;

// alibiSlopes: the most heads.
inline constexpr std::int64_t kMaxAlibiHeads = 1024;

// float32AngleErrors: the largest position (2^31).
inline constexpr double kMaxPrecisionPosition = 2147483648.0;

// standardNormal: the most normals drawn in one call (every one is drawn, even when only a
// compact sample is returned); without the compact sample, kMaxOutputDoubles also applies.
inline constexpr std::int64_t kMaxNormalDraws = std::int64_t{1} << 22;

// pcg64Raw: the most raw 64-bit words returned (each becomes a 16-character JavaScript string).
inline constexpr std::int64_t kMaxRawDraws = std::int64_t{1} << 16;

// wordVector: the largest dimension of a demo word's embedding (the lesson uses 16).
inline constexpr std::int64_t kMaxWordDimension = std::int64_t{1} << 20;

// Text caps, in UTF-8 bytes, checked before a string crosses into the module.
inline constexpr std::int64_t kMaxConfigTextBytes = std::int64_t{4} << 20;  // a config.json (4 MiB)
inline constexpr std::int64_t kMaxDigestTextBytes = std::int64_t{1} << 20;  // md5Hex's input (1 MiB)
inline constexpr std::int64_t kMaxSentenceBytes = 64 << 10;                 // a demo sentence (64 KiB)
inline constexpr std::int64_t kMaxWordBytes = 4096;                         // one demo word
inline constexpr std::int64_t kMaxSeedDigits = 1000;                        // a decimal seed
inline constexpr std::int64_t kMaxSchemeBytes = 64;                         // a scheme name

// The length lab (length_lab.hpp): the largest run one call may train. Each field has its range, and the
// whole run (training plus evaluation, lab_work) at most kMaxLabWork multiply-adds, checked before any work
// starts. At the recorded training speed (tests/bench/results/length-lab*.json) the largest permitted run
// takes tens of seconds on a laptop core and minutes on a phone (figures: BENCHMARKS.md, Measurements): a run
// for a Worker, never the page's thread.
inline constexpr std::int64_t kMinLabSymbols = 4;  // content tokens
inline constexpr std::int64_t kMaxLabSymbols = 64;
inline constexpr std::int64_t kMinLabTrainLength = 8;  // tokens per training sequence
inline constexpr std::int64_t kMaxLabTrainLength = 64;
inline constexpr std::int64_t kMaxLabEvalFactor = 8;  // evaluation up to 8 × the trained length
inline constexpr std::int64_t kMaxLabLayers = 4;
inline constexpr std::int64_t kMinLabModelWidth = 4;  // d_model
inline constexpr std::int64_t kMaxLabModelWidth = 128;
inline constexpr std::int64_t kMaxLabHeads = 8;  // ALiBi's slopes are exact powers of 2 up to 8 heads
inline constexpr std::int64_t kMaxLabMlpWidth = 512;
inline constexpr std::int64_t kMaxLabBatch = 64;
inline constexpr std::int64_t kMaxLabSteps = 20000;
inline constexpr std::int64_t kMaxLabEvalSequences = 256;  // per evaluation length
inline constexpr std::int64_t kMaxLabWork = std::int64_t{1} << 36;
inline constexpr std::int64_t kMaxLabSeed = 0xFFFFFFFF;  // 2^32 − 1

}  // namespace positional
