// Permutations of positions and dimensions: reorder a sentence's rows, map the interleaved RoPE
// layout to the split-halves layout, and measure how far two matrices are from permuted copies.
#pragma once

#include <cstdint>
#include <vector>

#include "positional/types.hpp"

namespace positional {

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
