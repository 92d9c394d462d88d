// CoPE's gated counts: the sentence-end rule and the counts, re-derived by a double loop.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "expect_error.hpp"
#include "positional/contextual_position.hpp"

namespace positional {
namespace {

using namespace testing_support;

TEST(ContextualPosition, SentenceEndGatesMarkEveryWordThatEndsASentence) {
  const Vector gates = sentence_end_gates("  The cat sat.  Did it?  Yes! ok");
  ASSERT_EQ(gates.size(), 7);
  const double expected[] = {0, 0, 1, 0, 1, 1, 0};
  for (int k = 0; k < 7; ++k) EXPECT_EQ(gates[k], expected[k]) << "word " << k;
}

TEST(ContextualPosition, CountsAreTheGatesFromKeyToQueryInclusive) {
  // Exact: sums of 0s and 1s (and of 0.5s and 0.25s, exact in binary) are exact in doubles.
  Vector gates(6);
  gates << 0.25, 1, 0, 0.5, 1, 0;
  for (std::int64_t query = 0; query < gates.size(); ++query) {
    const Vector positions = contextual_positions(gates, query);
    ASSERT_EQ(positions.size(), query + 1);
    for (std::int64_t j = 0; j <= query; ++j) {
      double sum = 0;
      for (std::int64_t k = j; k <= query; ++k) sum += gates[k];
      EXPECT_EQ(positions[j], sum) << "key " << j << ", query " << query;
    }
  }
}

TEST(ContextualPosition, TheLessonsSentenceCountsSentencesNotWords) {
  const Vector gates = sentence_end_gates("The cat sat. A dog ran in. Birds sang.");
  const Vector positions = contextual_positions(gates, gates.size() - 1);
  ASSERT_EQ(positions.size(), 9);
  EXPECT_EQ(positions[0], 3);  // "The": three sentence ends from it to the last word
  EXPECT_EQ(positions[3], 2);  // "A"
  EXPECT_EQ(positions[7], 1);  // "Birds"
  EXPECT_EQ(positions[8], 1);  // the query's own gate counts
}

TEST(ContextualPosition, BadInputNamesTheFieldAndTheRule) {
  EXPECT_THAT(error_of([] { sentence_end_gates("   "); }), names_field_and_rule("text", "at least one word"));
  EXPECT_THAT(error_of([] { sentence_end_gates(std::string(70000, 'a')); }),
              names_field_and_rule("text", "bytes long"));
  Vector gates(3);
  gates << 0, 1.5, 0;
  EXPECT_THAT(error_of([&] { contextual_positions(gates, 2); }), names_field_and_rule("gates[1]", "0 to 1"));
  gates[1] = std::nan("");
  EXPECT_THAT(error_of([&] { contextual_positions(gates, 2); }), names_field_and_rule("gates[1]", "0 to 1"));
  gates[1] = 1;
  EXPECT_THAT(error_of([&] { contextual_positions(gates, 3); }), names_field_and_rule("query", "0 to 2"));
  EXPECT_THAT(error_of([&] { contextual_positions(gates, -1); }), names_field_and_rule("query", "0 to 2"));
}

}  // namespace
}  // namespace positional
