// Context extension after training: position interpolation, NTK-aware base, and the lesson's curves.
#include "positional/extension.hpp"

#include <cmath>

#include "positional/rope.hpp"
#include "positional/validate.hpp"

namespace positional {

// [snippet:interpolate_positions]
Vector interpolate_positions(const Eigen::Ref<const Vector>& positions, double trained_len, double new_len) {
  require_positive("trained_len", trained_len);
  require_positive("new_len", new_len);
  require_output_size("the interpolated positions", 1, positions.size());
  require_all_finite("positions", positions);
  const double ratio = trained_len / new_len;  // 4,096 / 32,768 = 1/8
  Vector scaled = positions * ratio;
  if (!scaled.allFinite()) {
    throw InputError("positions × trained_len / new_len overflows (ratio " + format_number(ratio) +
                     "): the positions or the ratio are too large");
  }
  return scaled;
}
// [/snippet]

// [snippet:ntk_scaled_base]
double ntk_scaled_base(double base, double scale, std::int64_t d) {
  require_base("base", base);
  require_positive("scale", scale);
  require_even_dimension("d", d);
  if (d < 4) fail("d", "at least 4 (d/(d−2) needs a slow pair)", static_cast<double>(d));
  const double result = base * std::pow(scale, static_cast<double>(d) / static_cast<double>(d - 2));
  if (!std::isfinite(result)) {
    throw InputError("base · scale^(d/(d−2)) overflows for base " + format_number(base) + " and scale " +
                     format_number(scale));
  }
  return result;
}
// [/snippet]

ContextExtensionCurves context_extension_curves(const Eigen::Ref<const Vector>& positions, double trained_len,
                                                double new_len, std::int64_t d, double base) {
  require_output_size("the curves", 3, positions.size());
  const Vector interpolated = interpolate_positions(positions, trained_len, new_len);
  const double slow = rope_frequencies(d, base)[d / 2 - 1];
  const double slow_ntk = rope_frequencies(d, ntk_scaled_base(base, new_len / trained_len, d))[d / 2 - 1];
  ContextExtensionCurves curves;
  curves.angles.resize(3, positions.size());
  curves.angles.row(0) = positions.transpose() * slow;
  curves.angles.row(1) = interpolated.transpose() * slow;
  curves.angles.row(2) = positions.transpose() * slow_ntk;
  curves.trained_max = trained_len * slow;
  if (!curves.angles.allFinite() || !std::isfinite(curves.trained_max)) {
    throw InputError(
        "the angles position · θ overflow: the positions, trained_len or the base's speeds are too large");
  }
  return curves;
}

}  // namespace positional
