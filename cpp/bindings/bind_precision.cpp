// Embind adapter for float32 RoPE angles (positional/precision.hpp).
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/precision.hpp"

namespace positional::js {
namespace {

val angle_errors_js(val positions, val pairs, double d, double base) {
  return guarded([&] {
    const Float32AngleErrors e = float32_angle_errors(vector_from_js("positions", positions),
                                                      vector_from_js("pairs", pairs), whole(d), base);
    return js_object({{"angleError", matrix_to_js(e.angle_error)},
                      {"rotationError", matrix_to_js(e.rotation_error)},
                      {"theta", to_float64_array(e.theta)}});
  });
}

}  // namespace

POSITIONAL_TOPIC(precision) {
  topic.function(
      "float32AngleErrors", &angle_errors_js,
      "float32 against float64 RoPE angles: { angleError, rotationError (pairs × positions), theta }; "
      "pairs × positions × 16 ≤ 2^22 steps, θ ≤ the largest float32",
      {vector("positions"), vector("pairs"), kDimension, kBase}, "[[0, 1e6], [0, 1], 8]");
}

}  // namespace positional::js
