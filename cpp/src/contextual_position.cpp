// CoPE's gated position counts, and the sentence-end gate rule the lesson's example uses.
#include "positional/contextual_position.hpp"

#include <string>
#include <vector>

#include "positional/limits.hpp"
#include "positional/validate.hpp"

namespace positional {

Vector sentence_end_gates(std::string_view text) {
  if (static_cast<std::int64_t>(text.size()) > kMaxSentenceBytes) {
    fail("text", "at most " + format_number(static_cast<double>(kMaxSentenceBytes)) + " bytes long",
         static_cast<double>(text.size()));
  }
  std::vector<double> gates;
  std::size_t at = 0;
  while (at < text.size()) {
    if (text[at] == ' ') {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < text.size() && text[end] != ' ') ++end;
    const char last = text[end - 1];
    gates.push_back(last == '.' || last == '!' || last == '?' ? 1.0 : 0.0);
    at = end;
  }
  if (gates.empty()) fail("text", "at least one word long (words are separated by spaces)", 0);
  return Eigen::Map<const Vector>(gates.data(), static_cast<Eigen::Index>(gates.size()));
}

Vector contextual_positions(const Eigen::Ref<const Vector>& gates, std::int64_t query) {
  if (query < 0 || query >= gates.size()) {
    fail("query", "a token index from 0 to " + format_number(static_cast<double>(gates.size() - 1)),
         static_cast<double>(query));
  }
  for (Eigen::Index k = 0; k < gates.size(); ++k) {
    if (!(gates[k] >= 0.0 && gates[k] <= 1.0)) {
      fail("gates[" + std::to_string(k) + "]", "a number from 0 to 1", gates[k]);
    }
  }
  Vector positions(query + 1);
  double count = 0.0;
  // Walk back from the query, so each key's count is the running sum of the gates after it.
  for (std::int64_t j = query; j >= 0; --j) {
    count += gates[j];
    positions[j] = count;
  }
  return positions;
}

}  // namespace positional
