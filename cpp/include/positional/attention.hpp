// Scaled dot-product attention, the similarity measure the lesson pools with, and the
// permutations its order-blindness argument rests on: reorder a sentence's rows, map the
// interleaved RoPE layout to split halves, and measure how far two matrices are from permuted
// copies (attention without positions is permutation-equivariant). Attention-side position
// schemes that add a bias to the scores have their own module (alibi.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "positional/types.hpp"

namespace positional {

struct AttentionResult {
  Matrix output;         // (n × d_v): each row a weighted sum of the rows of V
  Matrix weights;        // (n × m): row i is query i's softmax over the keys; masked entries are 0
  Matrix scores;         // (n × m): the raw dot products q_i·k_j, before scaling and masking
  Matrix scaled_scores;  // (n × m): scores / √d_k, what the softmax sees (masked entries kept as computed)
};

// softmax(Q Kᵀ / √d_k) V for n queries and m keys. With `causal`, query i sees keys 0..i only: masked
// scores are left out of the softmax entirely (weight exactly 0), and each row
// subtracts its maximum first, so large scores cannot overflow.
// Throws InputError when shapes disagree, any input is not finite, a matrix is empty, or q·kᵀ or the
// output overflows (entries too large for a double), or n × m × (d_k + d_v) exceeds kMaxAttentionWork.
AttentionResult scaled_dot_product_attention(const Eigen::Ref<const Matrix>& q,
                                             const Eigen::Ref<const Matrix>& k,
                                             const Eigen::Ref<const Matrix>& v, bool causal = false);

// a·b / (|a| |b|). Throws InputError when lengths differ, either is empty or
// zero (the angle is undefined), or any element is not finite.
double cosine_similarity(const Eigen::Ref<const Vector>& a, const Eigen::Ref<const Vector>& b);

// ---- permutations of positions and dimensions ---------------------------------------------------

// A permutation as a list: entry j says which source index lands at position j
// (out[j] = in[perm[j]]).
using Permutation = std::vector<std::int64_t>;

// The reversal n − 1, n − 2, …, 0. Throws InputError when n < 0 or n > kMaxWorkSteps (2^22).
Permutation reversal_permutation(std::int64_t n);

// From the interleaved layout (pairs at 2i, 2i+1) to split halves (pair i at i and i + d/2):
// perm[i] = 2i and perm[i + d/2] = 2i + 1. Throws InputError when d is odd or ≤ 0.
Permutation interleaved_to_half_permutation(std::int64_t d);

// out[j] = x[perm[j]]. Throws InputError when perm is not a permutation of 0..x.size()−1
// or x has a non-finite entry.
Vector permute(const Eigen::Ref<const Vector>& x, const Permutation& perm);

// The columns of m reordered: out(r, j) = m(r, perm[j]). Throws InputError as permute.
Matrix permute_columns(const Eigen::Ref<const Matrix>& m, const Permutation& perm);

// max |b(i, j) − a(perm[i], perm[j])|: zero exactly when b is a with its rows and columns
// reordered by perm (how attention weights move when the tokens are reordered).
// Throws InputError when shapes disagree, a matrix is not square, perm is not a permutation, an
// entry is not finite, or the difference overflows.
double max_permuted_difference(const Eigen::Ref<const Matrix>& a, const Eigen::Ref<const Matrix>& b,
                               const Permutation& perm);

}  // namespace positional
