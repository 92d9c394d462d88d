// How float32 loses RoPE's fast pairs at long positions: the angle m·θ_i and its cos/sin
// computed in single precision against double precision.
#pragma once

#include <cstdint>

#include "positional/limits.hpp"  // kDefaultBase and the other defaults
#include "positional/types.hpp"

namespace positional {

// Errors of single-precision RoPE angles, pairs (rows) × positions (columns). The float32 path
// casts the position and θ_i (computed in double) to float, multiplies in float, and takes
// sin/cos in float, as a float32 model does; the reference is the same in double.
struct Float32AngleErrors {
  Matrix angle_error;     // |float(m)·float(θ_i) − m·θ_i| in radians
  Matrix rotation_error;  // max(|cos_f − cos|, |sin_f − sin|): how far the rotated pair moves
  Vector theta;           // θ_i of the requested pairs (double)
};
// Throws InputError when d is odd or ≤ 0, base is invalid, a position is not finite, < 0 or
// > 2^31, a pair index is not whole or outside 0..d/2−1, a θ_i exceeds the largest float32, or the
// table's work (pairs × positions × 16) exceeds kMaxWorkSteps.
Float32AngleErrors float32_angle_errors(const Eigen::Ref<const Vector>& positions,
                                        const Eigen::Ref<const Vector>& pairs, std::int64_t d,
                                        double base = kDefaultBase);

}  // namespace positional
