// The lesson's order-blindness demo layer (positional.py, section 3): word embeddings seeded
// by MD5, projections from default_rng(7), and one attention layer under three position schemes.
#include "positional/demo_layer.hpp"

#include <cmath>  // std::sqrt

#include "matrix_product.hpp"
#include "positional/numpy_random.hpp"
#include "positional/rope.hpp"
#include "positional/sinusoidal.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {

// Python's str.isspace() code points (bidirectional class WS, B or S, or category Zs).
bool is_python_whitespace(std::uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 || cp == 0xA0 ||
         cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

// Decodes the code point starting at text[i] and returns its length in bytes, or throws when
// the bytes are not well-formed UTF-8 (overlong forms, surrogates and values past U+10FFFF included).
std::size_t decode_utf8(const std::string& text, std::size_t i, std::uint32_t& cp, const std::string& name) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  const std::uint8_t lead = byte(i);
  std::size_t length = 0;
  std::uint32_t minimum = 0;
  if (lead < 0x80) {
    cp = lead;
    return 1;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, cp = lead & 0x1FU, minimum = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, cp = lead & 0x0FU, minimum = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, cp = lead & 0x07U, minimum = 0x10000;
  }
  bool ok = length != 0 && i + length <= text.size();
  for (std::size_t k = 1; ok && k < length; ++k) {
    ok = (byte(i + k) & 0xC0U) == 0x80U;
    cp = (cp << 6) | (byte(i + k) & 0x3FU);
  }
  if (!ok || cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    throw InputError(name + " must be valid UTF-8 text, got a malformed byte sequence at byte " +
                     std::to_string(i));
  }
  return length;
}

void require_utf8(const std::string& text, const std::string& name) {
  std::uint32_t cp = 0;
  for (std::size_t i = 0; i < text.size();) i += decode_utf8(text, i, cp, name);
}

enum class Scheme { none, sinusoidal, rope };

Scheme parse_scheme(const std::string& scheme) {
  if (scheme == "none") return Scheme::none;
  if (scheme == "sinusoidal") return Scheme::sinusoidal;
  if (scheme == "rope") return Scheme::rope;
  throw InputError("scheme must be one of \"none\", \"sinusoidal\", \"rope\", got \"" + scheme + "\"");
}

// The (n × 16) embeddings of the sentence's words, one row per word.
Matrix embed_sentence(const std::string& sentence) {
  const std::vector<std::string> words = split_words(sentence);
  if (words.empty()) throw InputError("sentence must contain at least one word");
  const auto n = static_cast<std::int64_t>(words.size());
  if (n > kMaxSentenceWords) {
    throw InputError("sentence must contain at most " + std::to_string(kMaxSentenceWords) + " words, got " +
                     std::to_string(n));
  }
  Matrix embeddings(n, kDemoDimension);
  for (std::int64_t i = 0; i < n; ++i)
    embeddings.row(i) = word_vector(words[static_cast<std::size_t>(i)]).transpose();
  return embeddings;
}

Matrix draw_matrix(Generator& rng, double scale) {
  const Vector values = rng.normal(0.0, scale, kDemoDimension * kDemoDimension);
  return Eigen::Map<const Matrix>(values.data(), kDemoDimension, kDemoDimension);  // numpy fills row-major
}

}  // namespace

std::vector<std::string> split_words(const std::string& sentence) {
  std::vector<std::string> words;
  std::size_t start = 0;
  bool in_word = false;
  std::uint32_t cp = 0;
  for (std::size_t i = 0; i < sentence.size();) {
    const std::size_t length = decode_utf8(sentence, i, cp, "sentence");
    if (is_python_whitespace(cp)) {
      if (in_word) words.push_back(sentence.substr(start, i - start));
      in_word = false;
    } else if (!in_word) {
      in_word = true;
      start = i;
    }
    i += length;
  }
  if (in_word) words.push_back(sentence.substr(start));
  return words;
}

Vector word_vector(const std::string& word, std::int64_t d) {
  if (d < 1 || d > kMaxWordDimension) {
    fail("d", "a whole number from 1 to " + format_number(static_cast<double>(kMaxWordDimension)),
         static_cast<double>(d));
  }
  require_utf8(word, "word");
  // The first 8 hex digits of the MD5 digest are its first four bytes, read big-endian.
  const std::array<std::uint8_t, 16> digest = md5_digest(word);
  const std::uint64_t seed =
      (static_cast<std::uint64_t>(digest[0]) << 24) | (static_cast<std::uint64_t>(digest[1]) << 16) |
      (static_cast<std::uint64_t>(digest[2]) << 8) | static_cast<std::uint64_t>(digest[3]);
  Generator rng = Generator::from_seed(seed);
  return rng.standard_normal(d);
}

const DemoWeights& demo_weights() {
  // Function-local static: built on first use, exactly once, even with several threads.
  static const DemoWeights weights = [] {
    Generator rng = Generator::from_seed(7);
    const double scale = 1.0 / std::sqrt(static_cast<double>(kDemoDimension));
    DemoWeights w;
    w.w_q = draw_matrix(rng, scale);
    w.w_k = draw_matrix(rng, scale);
    w.w_v = draw_matrix(rng, scale);
    return w;
  }();
  return weights;
}

AttentionResult demo_attention(const std::string& sentence, const std::string& scheme_name, bool causal) {
  const Scheme scheme = parse_scheme(scheme_name);
  Matrix x = embed_sentence(sentence);
  if (scheme == Scheme::sinusoidal) x += sinusoidal_encoding(x.rows(), kDemoDimension);
  const DemoWeights& w = demo_weights();
  Matrix q = detail::product(x, w.w_q);
  Matrix k = detail::product(x, w.w_k);
  const Matrix v = detail::product(x, w.w_v);
  if (scheme == Scheme::rope) {
    // Only q and k turn with position; v carries plain content.
    q = apply_rope_sequence(q);
    k = apply_rope_sequence(k);
  }
  return scaled_dot_product_attention(q, k, v, causal);
}

Matrix encode_sentence(const std::string& sentence, const std::string& scheme, bool causal) {
  return demo_attention(sentence, scheme, causal).output;
}

Vector mean_of_rows(const Eigen::Ref<const Matrix>& rows) {
  if (rows.rows() == 0) throw InputError("rows must not be empty");
  Vector sum = rows.row(0).transpose();
  for (Eigen::Index i = 1; i < rows.rows(); ++i) sum += rows.row(i).transpose();
  return sum / static_cast<double>(rows.rows());
}

double order_similarity(const std::string& a, const std::string& b, const std::string& scheme, bool causal) {
  const Vector pooled_a = mean_of_rows(encode_sentence(a, scheme, causal));
  const Vector pooled_b = mean_of_rows(encode_sentence(b, scheme, causal));
  return cosine_similarity(pooled_a, pooled_b);
}

OrderSimilarities order_similarities(const std::string& a, const std::string& b) {
  OrderSimilarities out;
  out.none = order_similarity(a, b, "none", false);
  out.sinusoidal = order_similarity(a, b, "sinusoidal", false);
  out.rope = order_similarity(a, b, "rope", false);
  out.causal = order_similarity(a, b, "none", true);
  return out;
}

}  // namespace positional
