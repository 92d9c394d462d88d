// libFuzzer target for the lesson layer's word and sentence functions (demo_layer.hpp): arbitrary
// bytes as text — invalid UTF-8, NUL bytes, Unicode whitespace, many words. Contract: finite
// results or positional::InputError (see fuzz_input.hpp).
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "positional/demo_layer.hpp"

namespace positional::fuzz {
namespace {

const char* scheme_from(std::uint8_t b) {
  static const char* const kSchemes[] = {"none", "sinusoidal", "rope", "", "ROPE", "rope ", "sinusoidal\0x"};
  return kSchemes[b % 7];
}

}  // namespace

void fuzz_one_input(FuzzInput& in) {
  const std::uint8_t selector = in.byte();
  switch (selector % 6) {
    case 0: {
      const std::string text = in.rest();
      under_contract("split_words", [&] {
        const std::vector<std::string> words = split_words(text);
        for (const std::string& w : words)
          if (w.empty()) finding("split_words", "an empty word");
      });
      break;
    }
    case 1: {
      const std::int64_t d = in.boolean() ? kDemoDimension : in.integer();
      const std::string word = in.rest();
      if (over_budget(d, 1)) return;
      must_return_finite("word_vector", [&] { return word_vector(word, d); });
      break;
    }
    case 2:
    case 3: {
      const std::string scheme = scheme_from(in.byte());
      const bool causal = in.boolean();
      const std::string sentence = in.rest();
      if (selector % 6 == 2) {
        under_contract("demo_attention", [&] {
          const AttentionResult r = demo_attention(sentence, scheme, causal);
          require_finite_result("demo_attention output", r.output);
          require_finite_result("demo_attention weights", r.weights);
        });
      } else {
        must_return_finite("encode_sentence", [&] { return encode_sentence(sentence, scheme, causal); });
      }
      break;
    }
    case 4: {
      const std::string scheme = scheme_from(in.byte());
      const bool causal = in.boolean();
      const std::string a = in.until(0xFF);  // 0xFF never occurs in UTF-8: a safe separator
      const std::string b = in.rest();
      under_contract("order_similarity", [&] {
        const double s = order_similarity(a, b, scheme, causal);
        require_finite_result("order_similarity", s);
        if (s < -1.0 - 1e-12 || s > 1.0 + 1e-12) finding("order_similarity", "cosine outside [-1, 1]");
      });
      break;
    }
    default: {
      const std::string a = in.until(0xFF);
      const std::string b = in.rest();
      under_contract("order_similarities", [&] {
        const OrderSimilarities s = order_similarities(a, b);
        require_finite_parts("order_similarities", s.none, s.sinusoidal, s.rope, s.causal);
      });
      break;
    }
  }
}

}  // namespace positional::fuzz
