// Single- against double-precision RoPE angles: where float32 loses the fast pairs.
#include "positional/precision.hpp"

#include <cmath>
#include <limits>  // std::numeric_limits<float>::max (FLT_MAX)
#include <string>

#include "positional/rope.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {}  // namespace

Float32AngleErrors float32_angle_errors(const Eigen::Ref<const Vector>& positions,
                                        const Eigen::Ref<const Vector>& pairs, std::int64_t d, double base) {
  const Vector all_theta = rope_frequencies(d, base);
  for (Eigen::Index j = 0; j < positions.size(); ++j) {
    const double p = positions[j];
    if (!std::isfinite(p) || p < 0 || p > kMaxPrecisionPosition) {
      fail("positions[" + std::to_string(j) + "]", "a finite number from 0 to 2^31", p);
    }
  }
  Float32AngleErrors out;
  out.theta.resize(pairs.size());
  for (Eigen::Index r = 0; r < pairs.size(); ++r) {
    out.theta[r] = all_theta[checked_integer("pairs[" + std::to_string(r) + "]", pairs[r], 0, d / 2 - 1)];
  }
  require_output_size("the error table", pairs.size(), positions.size());
  require_work("the error table", {pairs.size(), positions.size(), 16}, kMaxWorkSteps);
  out.angle_error.resize(pairs.size(), positions.size());
  out.rotation_error.resize(pairs.size(), positions.size());
  for (Eigen::Index r = 0; r < pairs.size(); ++r) {
    const double theta = out.theta[r];
    // Converting a double above FLT_MAX to float is undefined behaviour: refuse it first.
    if (!(theta <= static_cast<double>(std::numeric_limits<float>::max()))) {
      fail("theta of pair " + std::to_string(static_cast<std::int64_t>(pairs[r])),
           "at most the largest float32 (3.4028235e38); the base is too small", theta);
    }
    const float theta_f = static_cast<float>(theta);
    for (Eigen::Index j = 0; j < positions.size(); ++j) {
      const double m = positions[j];
      // float32 path: every operation in float, as a float32 model computes its tables.
      const float angle_f = static_cast<float>(m) * theta_f;
      const float cos_f = std::cos(angle_f);
      const float sin_f = std::sin(angle_f);
      const double angle = m * theta;
      out.angle_error(r, j) = std::fabs(static_cast<double>(angle_f) - angle);
      out.rotation_error(r, j) = std::max(std::fabs(static_cast<double>(cos_f) - std::cos(angle)),
                                          std::fabs(static_cast<double>(sin_f) - std::sin(angle)));
    }
  }
  if (!out.angle_error.allFinite() || !out.rotation_error.allFinite()) {
    throw InputError(
        "an angle m · θ_i overflows in float32 or double: the positions or the base's speeds are too large");
  }
  return out;
}

}  // namespace positional
