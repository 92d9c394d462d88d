// The sink's share, SSMax's scale and the silent head, each re-derived from an explicit softmax over
// every key rather than from the closed forms the engine uses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "expect_error.hpp"
#include "positional/attention_sinks.hpp"

namespace positional {
namespace {

using namespace testing_support;

// Softmax weights of `scores` (max subtracted first, as every attention kernel does).
std::vector<double> softmax_of(const std::vector<double>& scores) {
  double top = scores[0];
  for (double s : scores) top = std::max(top, s);
  std::vector<double> w(scores.size());
  double sum = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) sum += (w[i] = std::exp(scores[i] - top));
  for (double& x : w) x /= sum;
  return w;
}

// The worked example's scores: the sink's score 0.3 + lead, the others 0.3 (an offset the softmax
// ignores), every one multiplied by `scale`.
std::vector<double> example_scores(int keys, double lead, double scale) {
  std::vector<double> scores(static_cast<std::size_t>(keys), 0.3 * scale);
  scores[0] = (0.3 + lead) * scale;
  return scores;
}

// Tolerance 1e-13 relative: the closed form and the explicit softmax differ only in the order of
// a few hundred roundings.
TEST(AttentionSinks, SinkShareIsTheFirstWeightOfTheExplicitSoftmax) {
  for (int keys : {1, 2, 3, 10, 257}) {
    for (double lead : {-3.0, 0.0, 0.7, 5.0}) {
      for (double scale : {0.0, 1.0, 2.5}) {
        const double explicit_share = softmax_of(example_scores(keys, lead, scale))[0];
        EXPECT_NEAR(sink_share(keys, lead, scale), explicit_share, 1e-13 * explicit_share)
            << keys << " keys, lead " << lead << ", scale " << scale;
      }
    }
  }
  EXPECT_EQ(sink_share(1, -1e300, 1), 1.0);
  EXPECT_EQ(sink_share(5, -1e300, 1), 0.0);
}

TEST(AttentionSinks, SsmaxScaleIsTheExponentOfNInTheScalableSoftmax) {
  // SSMax's own form: weight_i = n^(s·z_i) / Σ_j n^(s·z_j). Multiplying scores by s·ln n and taking a
  // plain softmax must give the same weights.
  const double s = 0.4;
  const int n = 37;
  const std::vector<double> z = {1.5, -0.25, 0.75, 0.0};
  std::vector<double> scaled(z.size());
  double total = 0;
  for (double zi : z) total += std::pow(n, s * zi);
  for (std::size_t i = 0; i < z.size(); ++i) scaled[i] = z[i] * ssmax_scale(n, s);
  const std::vector<double> w = softmax_of(scaled);
  for (std::size_t i = 0; i < z.size(); ++i) {
    const double want = std::pow(n, s * z[i]) / total;
    EXPECT_NEAR(w[i], want, 1e-14 * want) << "weight " << i;
  }
  EXPECT_EQ(ssmax_scale(1, 0.4), 0.0);
  // The s for a length makes the factor 1 there, and 2 at the length squared (ln n² = 2 ln n).
  for (double length : {2.0, 4096.0, 1048576.0}) {
    const double s_unit = ssmax_s_for_length(length);
    EXPECT_NEAR(ssmax_scale(length, s_unit), 1.0, 1e-15) << length;
    EXPECT_NEAR(ssmax_scale(length * length, s_unit), 2.0, 2e-15) << length;
  }
}

TEST(AttentionSinks, SilentHeadLeavesTheResidualWithAndWithoutAGate) {
  const double v = 2.0;  // every non-sink value; the sink's value is 0
  for (int keys : {2, 5, 1024}) {
    for (double residual : {0.01, 0.2, 0.5}) {
      const SilentHead head = silent_head(keys, residual);
      // Without a gate: the explicit softmax at the stated lead, then the weighted sum of values.
      const std::vector<double> w = softmax_of(example_scores(keys, head.ungated_lead, 1.0));
      double output = 0;
      for (std::size_t j = 1; j < w.size(); ++j) output += w[j] * v;
      EXPECT_NEAR(w[0], head.ungated_sink_share, 1e-12) << keys << " keys";
      EXPECT_NEAR(output, residual * v, 1e-12 * v) << keys << " keys";
      // With the gate: equal scores, the gate times the weighted sum.
      const std::vector<double> even = softmax_of(example_scores(keys, 0.0, 1.0));
      double gated = 0;
      for (std::size_t j = 1; j < even.size(); ++j) gated += even[j] * v;
      gated *= head.gate;
      EXPECT_NEAR(even[0], head.gated_sink_share, 1e-15);
      EXPECT_NEAR(gated, residual * v, 1e-12 * v) << keys << " keys";
      EXPECT_LE(head.gate, 1.0);
    }
  }
}

TEST(AttentionSinks, BadInputNamesTheFieldAndTheRule) {
  EXPECT_THAT(error_of([] { ssmax_scale(0.5, 1); }), names_field_and_rule("keys", "≥ 1"));
  EXPECT_THAT(error_of([] { ssmax_scale(10, -1); }), names_field_and_rule("s", "≥ 0"));
  EXPECT_THAT(error_of([] { ssmax_s_for_length(1); }), names_field_and_rule("length", "> 1"));
  EXPECT_THAT(error_of([] { sink_share(std::nan(""), 1, 1); }), names_field_and_rule("keys", "≥ 1"));
  EXPECT_THAT(error_of([] { sink_share(10, INFINITY, 1); }), names_field_and_rule("lead", "finite"));
  EXPECT_THAT(error_of([] { sink_share(10, 1, -0.5); }), names_field_and_rule("scale", "≥ 0"));
  EXPECT_THAT(error_of([] { silent_head(1, 0.1); }), names_field_and_rule("keys", "≥ 2"));
  EXPECT_THAT(error_of([] { silent_head(8, 0); }), names_field_and_rule("residual", "(0, 0.5]"));
  EXPECT_THAT(error_of([] { silent_head(8, 0.75); }), names_field_and_rule("residual", "(0, 0.5]"));
}

}  // namespace
}  // namespace positional
