// Stretching a RoPE model's context after training: position interpolation and NTK-aware scaling.
#pragma once

#include <cstdint>

#include "positional/types.hpp"

namespace positional {

// Position interpolation (Chen et al., 2023): every position times trained_len / new_len.
// Throws InputError when a length is not finite or ≤ 0, a position is not finite, a result overflows,
// or there are more than kMaxOutputDoubles positions.
Vector interpolate_positions(const Eigen::Ref<const Vector>& positions, double trained_len, double new_len);

// NTK-aware scaling: base · scale^(d/(d−2)). The fastest pair keeps θ_0 = 1, the
// slowest slows by exactly `scale`. Throws InputError when base is invalid,
// scale is not finite or ≤ 0, or d is odd or < 4 (d = 2 has no slow pair: d/(d−2) is undefined).
double ntk_scaled_base(double base, double scale, std::int64_t d);

// Angle of the slowest pair at each position under the lesson's three treatments:
// row 0 raw positions, row 1 position interpolation, row 2 NTK-aware base.
// Also reports the top of the trained band (trained_len · θ_slowest).
struct ContextExtensionCurves {
  Matrix angles;           // (3 × positions.size())
  double trained_max = 0;  // the largest slowest-pair angle seen in training
};
ContextExtensionCurves context_extension_curves(const Eigen::Ref<const Vector>& positions, double trained_len,
                                                double new_len, std::int64_t d, double base = 10000.0);

}  // namespace positional
