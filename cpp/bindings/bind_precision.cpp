// Embind adapter for float32 RoPE angles (positional/precision.hpp).
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/precision.hpp"

namespace positional::js {

val float32_angle_errors_js(val positions, val pairs, val d, val base) {
  return guarded([&] {
    const Float32AngleErrors e =
        float32_angle_errors(vector_from_js("positions", positions), vector_from_js("pairs", pairs),
                             dimension_arg(d), number_arg("base", base));
    val out = val::object();
    out.set("angleError", matrix_to_js(e.angle_error));
    out.set("rotationError", matrix_to_js(e.rotation_error));
    out.set("theta", to_float64_array(e.theta));
    return out;
  });
}

}  // namespace positional::js
