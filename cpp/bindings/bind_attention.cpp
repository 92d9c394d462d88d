// Embind adapters for attention and permutations (positional/attention.hpp): scaled dot-product
// attention, cosine similarity, and the permutations of the order-blindness argument.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include <cstdint>
#include <string>

#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/attention.hpp"

namespace positional::js {
namespace {

Permutation permutation_from_js(const std::string& name, const val& array) {
  const Vector values = vector_from_js(name, array);
  Permutation perm(static_cast<std::size_t>(values.size()));
  for (Eigen::Index j = 0; j < values.size(); ++j) {
    perm[static_cast<std::size_t>(j)] = checked_element(name, j, values[j], 0, kMaxOutputDoubles);
  }
  return perm;
}

}  // namespace

val attention_js(val q, val k, val v, val causal) {
  return guarded([&] {
    // The copy out is the cost at the output cap: checked on the shapes, before anything is read.
    const std::int64_t queries = matrix_shape_from_js("q", q).rows;
    const std::int64_t keys = matrix_shape_from_js("k", k).rows;
    if (queries > 0 && keys > kMaxCopiedAttentionWeights / queries) {
      throw InputError("the copied weights would hold " + format_number(static_cast<double>(queries)) +
                       " × " + format_number(static_cast<double>(keys)) + " numbers, more than the cap of " +
                       format_number(static_cast<double>(kMaxCopiedAttentionWeights)) +
                       " (2^22; engine.views.attention, which copies nothing, takes up to 2^24)");
    }
    const AttentionResult result = scaled_dot_product_attention(
        matrix_from_js("q", q), matrix_from_js("k", k), matrix_from_js("v", v), bool_arg("causal", causal));
    val out = val::object();
    out.set("output", matrix_to_js(result.output));
    out.set("weights", matrix_to_js(result.weights));
    out.set("scores", matrix_to_js(result.scores));
    out.set("scaledScores", matrix_to_js(result.scaled_scores));
    return out;
  });
}

val cosine_similarity_js(val a, val b) {
  return guarded([&] { return cosine_similarity(vector_from_js("a", a), vector_from_js("b", b)); });
}

val half_permutation_js(val d) {
  return guarded([&] { return permutation_to_js(interleaved_to_half_permutation(dimension_arg(d))); });
}

val max_permuted_difference_js(val a, val b, val perm) {
  return guarded([&] {
    return max_permuted_difference(matrix_from_js("a", a), matrix_from_js("b", b),
                                   permutation_from_js("perm", perm));
  });
}

val reversal_permutation_js(val n) {
  return guarded(
      [&] { return permutation_to_js(reversal_permutation(integer_arg("n", n, 0, kMaxOutputDoubles))); });
}

}  // namespace positional::js
