// Contextual position (CoPE, Golovneva et al., 2024, arXiv 2405.18719): a position that counts only
// the tokens a gate selects, so "the third sentence back" is a position a head can attend to.
#pragma once

#include <cstdint>
#include <string_view>

#include "positional/types.hpp"

namespace positional {

// The gates of the rule "a word that ends a sentence": the text is split into words at runs of
// ASCII spaces, and a word's gate is 1 when its last character is '.', '!' or '?', else 0.
// (CoPE learns its gates, σ(q_i · k_j), so trained counts are fractional; this rule is the hard,
// hand-written case of one.) Throws InputError when the text has no word, or more than
// kMaxSentenceBytes bytes.
Vector sentence_end_gates(std::string_view text);

// CoPE's position of every key j = 0..query as the token at `query` sees it:
// p_j = Σ_{k=j..query} g_k, the gates from the key up to the query, both included.
// Throws InputError when a gate is not finite or outside [0, 1], or query is not within
// 0..gates.size() − 1.
Vector contextual_positions(const Eigen::Ref<const Vector>& gates, std::int64_t query);

}  // namespace positional
