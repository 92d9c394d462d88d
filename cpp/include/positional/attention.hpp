// Scaled dot-product attention and the similarity measure the lesson pools with.
#pragma once

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

}  // namespace positional
