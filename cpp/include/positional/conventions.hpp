// Two layouts of the same RoPE (and of the same sinusoidal code): interleaved pairs (2i, 2i+1),
// as in the RoFormer paper and this lesson, and split halves (i, i + d/2) with rotate_half, as in
// Hugging Face's Llama. They give identical scores once the dimensions are permuted.
#pragma once

#include <cstdint>

#include "positional/attention.hpp"
#include "positional/limits.hpp"  // kDefaultBase and the other defaults
#include "positional/types.hpp"

namespace positional {

// The split-halves convention: out = x·cos + rotate_half(x)·sin, where rotate_half(x) =
// (−x[d/2:], x[:d/2]) and pair i (angle position·θ_i) is (x[i], x[i + d/2]).
// Throws InputError when x is empty, has odd length or a non-finite entry, position is not
// finite, or base is invalid.
Vector apply_rope_half(const Eigen::Ref<const Vector>& x, double position, double base = kDefaultBase);

// What the conventions chart shows for one q, k (length d) with the query at `start` and keys at
// start + δ, δ = 0..max_distance.
struct ConventionComparison {
  Vector interleaved_scores;        // ⟨R_m q, R_n k⟩, interleaved pairs
  Vector half_scores;               // the split-halves rotation of P q and P k (P: interleaved → halves)
  Vector unpermuted_half_scores;    // the split-halves rotation of q and k without P: a different model
  Permutation permutation;          // P as interleaved_to_half_permutation(d)
  double max_score_difference = 0;  // max |interleaved − half|: zero up to rounding
  double max_unpermuted_difference = 0;  // max |interleaved − unpermuted half|: not zero in general
  double sinusoidal_max_difference = 0;  // max |interleaved table with P applied − concatenated table|
};
// Throws InputError when q and k differ in length or are invalid, start is not finite,
// max_distance is not within 0..kMaxConventionsDistance (2^20), (max_distance + 1) × (d + 32) exceeds
// kMaxWorkSteps, or base is invalid.
ConventionComparison compare_rope_conventions(const Eigen::Ref<const Vector>& q,
                                              const Eigen::Ref<const Vector>& k, double start,
                                              std::int64_t max_distance, double base = kDefaultBase);

}  // namespace positional
