// The lesson's order-blindness demo layer against numpy (tests/fixtures/numpy, written by
// build-scripts/make-numpy-fixtures.py): word vectors, the default_rng(7) weights, the encoded
// sentences and the four order similarities the lesson prints.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "positional/demo_layer.hpp"
#include "positional/numpy_random.hpp"
#include "positional/validate.hpp"

#include "expect_error.hpp"
#include "numpy_fixtures.hpp"

namespace positional {
namespace {

using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp
using nlohmann::json;

// Largest |a − b| / max(|b|, 1e-300) over two equal-length sequences.
double largest_relative_difference(const double* a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(std::fabs(b[i]), 1e-300));
  }
  return worst;
}

// Every fixture word (ASCII, empty, MD5 block boundaries, long, accented, CJK, emoji): the same
// MD5 digest exactly, and the same 16 normals within 1e-12 relative (aim: bit-identical).
TEST(WordVector, MatchesNumpyForEveryFixtureWord) {
  const json fixture = load_numpy_fixture("word_vectors.json");
  ASSERT_GE(fixture["words"].size(), 10U);
  double worst = 0;
  for (const json& entry : fixture["words"]) {
    const std::string word = entry["word"];
    SCOPED_TRACE("word \"" + word + "\"");
    EXPECT_EQ(word.size(), entry["utf8_bytes"].get<std::size_t>());
    EXPECT_EQ(md5_hex(word), entry["md5"]);
    const Vector v = word_vector(word);
    const std::vector<double> expected = entry["vector"];
    ASSERT_EQ(v.size(), static_cast<Eigen::Index>(expected.size()));
    const double diff = largest_relative_difference(v.data(), expected);
    EXPECT_LE(diff, 1e-12);
    worst = std::max(worst, diff);
  }
  std::printf("[ numpy    ] word vectors: largest relative difference %.3g\n", worst);
}

TEST(WordVector, LengthIsTheRequestedDimension) {
  EXPECT_EQ(word_vector("dog", 1).size(), 1);
  // A longer vector starts with the same draws: numpy fills in order.
  EXPECT_EQ(word_vector("dog", 40).head(16), word_vector("dog"));
  EXPECT_EQ(error_of([] { word_vector("dog", 0); }), "d must be a whole number from 1 to 1048576, got 0");
  EXPECT_THAT(error_of([&] { word_vector(std::string("\xff"), 16); }),
              names_field_and_rule("word", "must be valid UTF-8 text"));
}

TEST(DemoLayer, WeightsMatchNumpyDefaultRng7) {
  const json fixture = load_numpy_fixture("demo_layer.json");
  const DemoWeights& w = demo_weights();
  double worst = 0;
  for (const auto& [name, m] :
       {std::pair<std::string, const Matrix*>{"W_Q", &w.w_q}, {"W_K", &w.w_k}, {"W_V", &w.w_v}}) {
    SCOPED_TRACE(name);
    ASSERT_EQ(m->rows(), 16);
    ASSERT_EQ(m->cols(), 16);
    const std::vector<double> expected = fixture[name];
    const double diff = largest_relative_difference(m->data(), expected);  // row-major, as numpy's ravel()
    EXPECT_LE(diff, 1e-12);
    worst = std::max(worst, diff);
  }
  std::printf("[ numpy    ] demo weights: largest relative difference %.3g\n", worst);
  EXPECT_EQ(&demo_weights(), &w);  // built once
}

// The encoded sentences for all four cases, element by element. The tolerance is absolute
// (outputs are O(1) sums of products): 1e-12 leaves room for a different summation order in the
// matrix products, far below the 3-decimal figures the lesson shows.
TEST(DemoLayer, EncodedSentencesMatchNumpy) {
  const json fixture = load_numpy_fixture("demo_layer.json");
  double worst = 0;
  for (const auto& [label, scheme, causal] :
       std::vector<std::tuple<std::string, std::string, bool>>{{"none", "none", false},
                                                               {"sinusoidal", "sinusoidal", false},
                                                               {"rope", "rope", false},
                                                               {"causal", "none", true}}) {
    for (const json& sentence : fixture["sentences"]) {
      SCOPED_TRACE(label + ": " + sentence.get<std::string>());
      const Matrix out = encode_sentence(sentence, scheme, causal);
      const std::vector<double> expected = fixture["encoded"][label][sentence.get<std::string>()];
      ASSERT_EQ(out.size(), static_cast<Eigen::Index>(expected.size()));
      for (std::size_t i = 0; i < expected.size(); ++i) {
        const double diff = std::fabs(out.data()[i] - expected[i]);
        EXPECT_LE(diff, 1e-12) << "element " << i;
        worst = std::max(worst, diff);
      }
    }
  }
  std::printf("[ numpy    ] encoded sentences: largest absolute difference %.3g\n", worst);
}

TEST(DemoLayer, OrderSimilaritiesAreTheLessonsFigures) {
  const json fixture = load_numpy_fixture("demo_layer.json");
  const OrderSimilarities sims = order_similarities("dog bites man", "man bites dog");
  const auto three_decimals = [](double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", v);
    return std::string(buffer);
  };
  // The figures the lesson prints.
  EXPECT_EQ(three_decimals(sims.none), "1.000");
  EXPECT_EQ(three_decimals(sims.sinusoidal), "0.995");
  EXPECT_EQ(three_decimals(sims.rope), "0.997");
  EXPECT_EQ(three_decimals(sims.causal), "0.524");
  // And numpy's full-precision values.
  const json& expected = fixture["order_similarities"];
  EXPECT_NEAR(sims.none, expected["none"].get<double>(), 1e-12);
  EXPECT_NEAR(sims.sinusoidal, expected["sinusoidal"].get<double>(), 1e-12);
  EXPECT_NEAR(sims.rope, expected["rope"].get<double>(), 1e-12);
  EXPECT_NEAR(sims.causal, expected["causal"].get<double>(), 1e-12);
  EXPECT_EQ(order_similarity("dog bites man", "man bites dog", "rope", false), sims.rope);
  std::printf("[ numpy    ] order similarities: none %.17g, sinusoidal %.17g, rope %.17g, causal %.17g\n",
              sims.none, sims.sinusoidal, sims.rope, sims.causal);
}

// Without positions the layer is permutation-equivariant: 'dog' gets the same output vector
// first or last, up to rounding in the softmax's sums (< 1e-15; numpy's own figure is in the fixture).
TEST(DemoLayer, DogRowIsTheSameInEitherOrder) {
  const json fixture = load_numpy_fixture("demo_layer.json");
  const Matrix a = encode_sentence("dog bites man");
  const Matrix b = encode_sentence("man bites dog");
  const double difference = (a.row(0) - b.row(2)).cwiseAbs().maxCoeff();
  EXPECT_LT(difference, 1e-15);
  EXPECT_LT(fixture["dog_row_max_difference"].get<double>(), 1e-15);
  std::printf("[ numpy    ] dog row max difference: engine %.3g, numpy %.3g\n", difference,
              fixture["dog_row_max_difference"].get<double>());
}

TEST(DemoLayer, AttentionWeightsAreRowStochasticAndCausal) {
  const AttentionResult full = demo_attention("the dog bites the man", "rope", false);
  const AttentionResult causal = demo_attention("the dog bites the man", "rope", true);
  ASSERT_EQ(full.weights.rows(), 5);
  ASSERT_EQ(full.weights.cols(), 5);
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(full.weights.row(i).sum(), 1.0, 1e-15 * 5);
    EXPECT_NEAR(causal.weights.row(i).sum(), 1.0, 1e-15 * 5);
    for (int j = i + 1; j < 5; ++j) EXPECT_EQ(causal.weights(i, j), 0.0);
  }
  EXPECT_EQ(causal.weights(0, 0), 1.0);  // the first word can only see itself
  EXPECT_EQ(full.output, encode_sentence("the dog bites the man", "rope", false));
}

// Python's str.split(): runs of any Unicode whitespace, no empty words at either end.
TEST(DemoLayer, SplitsWordsLikePythonStrSplit) {
  EXPECT_EQ(split_words("  dog\tbites\n\nman  "), (std::vector<std::string>{"dog", "bites", "man"}));
  EXPECT_EQ(split_words("dog\u00a0bites\u3000man\u2028x\x1fy"),
            (std::vector<std::string>{"dog", "bites", "man", "x", "y"}));
  EXPECT_EQ(split_words("café 猫 🐕"), (std::vector<std::string>{"café", "猫", "🐕"}));
  EXPECT_EQ(split_words("a\u200bb"),
            (std::vector<std::string>{"a\u200bb"}));  // zero-width space is not whitespace
  EXPECT_TRUE(split_words(" \t\u3000 ").empty());
  EXPECT_EQ(encode_sentence(" dog\tbites\u00a0man "), encode_sentence("dog bites man"));
}

TEST(DemoLayer, BadSentencesAndSchemesNameTheRule) {
  EXPECT_EQ(error_of([] { encode_sentence(""); }), "sentence must contain at least one word");
  EXPECT_EQ(error_of([] { encode_sentence(" \t\n"); }), "sentence must contain at least one word");
  EXPECT_EQ(error_of([] { encode_sentence("dog bites man", "alibi"); }),
            "scheme must be one of \"none\", \"sinusoidal\", \"rope\", got \"alibi\"");
  std::string long_sentence;
  for (int i = 0; i < kMaxSentenceWords + 1; ++i) long_sentence += "w" + std::to_string(i) + " ";
  EXPECT_EQ(error_of([&] { encode_sentence(long_sentence); }),
            "sentence must contain at most 512 words, got 513");
  long_sentence.resize(long_sentence.rfind("w512"));
  EXPECT_EQ(encode_sentence(long_sentence, "sinusoidal", true).rows(), 512);
  EXPECT_EQ(error_of([] { encode_sentence("dog \xc3\x28 man"); }),
            "sentence must be valid UTF-8 text, got a malformed byte sequence at byte 4");
  EXPECT_THAT(error_of([&] { encode_sentence("\xed\xa0\x80"); }),
              names_field_and_rule("sentence", "must be valid UTF-8 text"));  // a UTF-16 surrogate
  EXPECT_THAT(error_of([&] { encode_sentence("\xc0\xaf"); }),
              names_field_and_rule("sentence", "must be valid UTF-8 text"));  // overlong '/'
  EXPECT_THAT(error_of([&] { order_similarity("", "dog", "none", false); }),
              names_field_and_rule("sentence", "must contain at least one word"));
  EXPECT_THAT(error_of([&] { mean_of_rows(Matrix(0, 16)); }),
              names_field_and_rule("rows", "must not be empty"));
}

}  // namespace
}  // namespace positional
