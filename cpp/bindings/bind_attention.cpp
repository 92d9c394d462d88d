// Embind adapters for attention and permutations (positional/attention.hpp): scaled dot-product
// attention, cosine similarity, and the permutations of the order-blindness argument.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include <cstdint>
#include <string>

#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/attention.hpp"

namespace positional::js {
namespace {

// The indices of a permutation: each element a whole number from 0 (the engine checks that they
// permute 0…n−1).
Permutation permutation_from_js(const char* name, const val& array) {
  const Vector values = vector_from_js(name, array);
  Permutation perm(static_cast<std::size_t>(values.size()));
  for (Eigen::Index j = 0; j < values.size(); ++j) {
    perm[static_cast<std::size_t>(j)] = checked_element(name, j, values[j], 0, kMaxOutputDoubles);
  }
  return perm;
}

val attention_js(val q, val k, val v, bool causal) {
  return guarded([&] {
    // The copy out is the cost at the output cap: checked on the shapes, before anything is read.
    const std::int64_t queries = matrix_rows(q);
    const std::int64_t keys = matrix_rows(k);
    if (queries > 0 && keys > kMaxCopiedAttentionWeights / queries) {
      throw InputError("the copied weights would hold " + format_number(static_cast<double>(queries)) +
                       " × " + format_number(static_cast<double>(keys)) + " numbers, more than the cap of " +
                       format_number(static_cast<double>(kMaxCopiedAttentionWeights)) +
                       " (2^22; engine.views.attention, which copies nothing, takes up to 2^24)");
    }
    const AttentionResult result = scaled_dot_product_attention(
        matrix_from_js("q", q), matrix_from_js("k", k), matrix_from_js("v", v), causal);
    return js_object({{"output", matrix_to_js(result.output)},
                      {"weights", matrix_to_js(result.weights)},
                      {"scores", matrix_to_js(result.scores)},
                      {"scaledScores", matrix_to_js(result.scaled_scores)}});
  });
}

val cosine_similarity_js(val a, val b) {
  return guarded([&] { return cosine_similarity(vector_from_js("a", a), vector_from_js("b", b)); });
}

val half_permutation_js(double d) {
  return guarded([&] { return permutation_to_js(interleaved_to_half_permutation(whole(d))); });
}

val max_permuted_difference_js(val a, val b, val perm) {
  return guarded([&] {
    return max_permuted_difference(matrix_from_js("a", a), matrix_from_js("b", b),
                                   permutation_from_js("perm", perm));
  });
}

val reversal_permutation_js(double n) {
  return guarded([&] { return permutation_to_js(reversal_permutation(whole(n))); });
}

}  // namespace

POSITIONAL_TOPIC(attention) {
  topic.function(
      "attention", &attention_js,
      "scaled dot-product attention: { output, weights, scores, scaledScores }; n × m ≤ 2^22 weights "
      "(views.attention: 2^24), n × m × (d_k + d_v) ≤ 2^28 steps",
      {matrix("q"), matrix("k"), matrix("v"), boolean("causal", false)},
      R"([{"rows": 2, "cols": 2, "data": [1, 0, 0, 1]}, {"rows": 2, "cols": 2, "data": [1, 0, 0, 1]},)"
      R"( {"rows": 2, "cols": 1, "data": [1, 2]}])");
  topic.function("cosineSimilarity", &cosine_similarity_js, "cos(a, b), a number", {vector("a"), vector("b")},
                 "[[1, 2], [2, 1]]");
  topic.function("halfPermutation", &half_permutation_js,
                 "the permutation from interleaved pairs to split halves (rotate_half); d ≤ 2^22",
                 {kDimension}, "[8]");
  topic.function(
      "maxPermutedDifference", &max_permuted_difference_js,
      "max |b(i, j) − a(perm[i], perm[j])|, a number: 0 when b is a reordered by perm",
      {matrix("a"), matrix("b"), vector("perm")},
      R"([{"rows": 2, "cols": 2, "data": [1, 2, 3, 4]}, {"rows": 2, "cols": 2, "data": [4, 3, 2, 1]},)"
      R"( [1, 0]])");
  topic.function("reversalPermutation", &reversal_permutation_js, "n − 1, …, 1, 0",
                 {integer("n", 0, kMaxWorkSteps)}, "[4]");
}

}  // namespace positional::js
