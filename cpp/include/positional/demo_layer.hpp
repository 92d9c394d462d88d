// The lesson's order-blindness demo: fixed random word embeddings and one fixed, untrained
// single-head attention layer, reproducing positional.py's word_vector, encode_sentence and
// order_similarity digit for digit (numpy-compatible randomness, see numpy_random.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "positional/attention.hpp"
#include "positional/types.hpp"

namespace positional {

// The demo's model width (the lesson's D_DEMO).
inline constexpr std::int64_t kDemoDimension = 16;

// The scheme when none is named: embeddings only, no positions.
inline constexpr char kDefaultDemoScheme[] = "none";

// The most words a demo sentence may hold; longer sentences throw InputError naming the cap.
inline constexpr std::int64_t kMaxSentenceWords = 512;

// The words of `sentence` as Python's str.split() finds them: separated by runs of Unicode
// whitespace (space, \t\n\v\f\r, U+001C–U+001F, U+0085, U+00A0, U+1680, U+2000–U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000); leading and trailing whitespace gives no empty words.
// Throws InputError when `sentence` is not valid UTF-8.
std::vector<std::string> split_words(const std::string& sentence);

// A fixed random embedding per word: default_rng(int(md5(utf8).hexdigest()[:8], 16))
// .standard_normal(d). Any word works, the empty one too. Throws InputError when d is not in
// 1..kMaxWordDimension (2^20) or `word` is not valid UTF-8.
Vector word_vector(const std::string& word, std::int64_t d = kDemoDimension);

// The demo layer's projections: W_Q, W_K, W_V (16 × 16), drawn in that order from one
// default_rng(7) with normal(0, 1/√16). Built on first use, once.
struct DemoWeights {
  Matrix w_q;
  Matrix w_k;
  Matrix w_v;
};
const DemoWeights& demo_weights();

// One attention layer over the words of `sentence`. scheme: "none" (embeddings only: the
// layer sees an unordered set), "sinusoidal" (add the sinusoidal codes, d = 16, base 10000)
// or "rope" (rotate q and k at positions 0..n−1, base 10000); `causal` lets each word attend
// only to itself and earlier words. Returns the (n × 16) outputs and the (n × n) weights.
// Throws InputError when the sentence has no words or more than kMaxSentenceWords, is not
// valid UTF-8, or the scheme is not one of the three.
AttentionResult demo_attention(const std::string& sentence, const std::string& scheme = kDefaultDemoScheme,
                               bool causal = false);

// The outputs of demo_attention only: the lesson's encode_sentence.
Matrix encode_sentence(const std::string& sentence, const std::string& scheme = kDefaultDemoScheme,
                       bool causal = false);

// The mean over rows (numpy's .mean(axis=0): rows summed in order, then divided by their count).
// Throws InputError when `rows` has no rows.
Vector mean_of_rows(const Eigen::Ref<const Matrix>& rows);

// Cosine similarity of the mean-pooled encodings of two sentences under one scheme.
double order_similarity(const std::string& a, const std::string& b,
                        const std::string& scheme = kDefaultDemoScheme, bool causal = false);

// The lesson's four cases: no positions, sinusoidal, RoPE, and the causal mask with no positions.
struct OrderSimilarities {
  double none = 0;
  double sinusoidal = 0;
  double rope = 0;
  double causal = 0;
};
OrderSimilarities order_similarities(const std::string& a, const std::string& b);

}  // namespace positional
