// The small calls that cross the boundary as numbers only: the context-extension curves, the
// lesson's three rows (contextExtensionCurves) and the chart's five (extensionCurves).
//
// Why: an Embind adapter whose arguments are JavaScript values (js_interop.hpp) makes one JavaScript
// round trip per argument check, property read and property set, and Embind's generic invoker (this
// build has no eval, so no generated one) has a cost of its own per call. For the curves (a few hundred
// numbers in and out, a kernel of under a microsecond) those costs were several times the kernel
// (figures: BENCHMARKS.md, Measurements). Here
// the facade writes the positions into a block of the module's memory and calls the kernel as a
// plain WebAssembly export with number arguments; the result is read back from the same block.
// Only the block itself (scratchBlock, scratchError) goes through Embind, and only when it changes.
//
// Layout rule: for n positions the block holds [positions (n) | angles (rows × n, row-major) | scalars],
// the scalars in the order each function below lists them.
// Ownership rule: the block belongs to the module. scratchBlock(size) hands JavaScript a Float64Array
// view of it, valid until the next scratchBlock call (which may move the block) or until the memory
// grows (the view's length becomes 0); the facade (engine-facade.mjs, `scratchRunner`) fetches a new
// view on either and copies every result out before it returns. scratchBlock(0) frees the block.
// Errors: each kernel returns 0, or 1 after keeping the message for scratchError().
#include <emscripten/emscripten.h>  // EMSCRIPTEN_KEEPALIVE
#include <emscripten/val.h>

#include <algorithm>
#include <exception>
#include <initializer_list>
#include <new>  // std::bad_alloc
#include <string>
#include <vector>

#include "js_declaration.hpp"
#include "js_interop.hpp"  // guarded, whole
#include "positional/limits.hpp"
#include "positional/rope_scaling.hpp"
#include "positional/validate.hpp"

namespace positional::js {
namespace {

std::vector<double>& block() {
  static std::vector<double> doubles;
  return doubles;
}

std::string& last_error() {
  static std::string message;
  return message;
}

// Runs `body` (which writes its result into the block) and returns 0, or 1 with the message kept.
template <class Body>
int kept_errors(Body&& body) {
  try {
    body();
    return 0;
  } catch (const std::bad_alloc&) {
    last_error() = "the engine ran out of memory (its WebAssembly heap is at most 1 GiB)";
  } catch (const std::exception& error) {
    last_error() = error.what();
  } catch (...) {
    last_error() = "unexpected engine failure";
  }
  return 1;
}

// The positions at the start of the block, after checking the output cap (first, as the kernels
// do: the facade does not size the block for a call over it) and that the block holds the whole
// layout (the facade sizes it; a raw caller that did not gets an error, not a read past the end).
Eigen::Map<const Vector> positions_in_block(double n_value, std::int64_t rows, std::int64_t scalars) {
  const std::int64_t n = whole(n_value);
  require_output_size("the curves", rows, n);
  if (static_cast<double>(block().size()) <
      static_cast<double>(n) * static_cast<double>(1 + rows) + static_cast<double>(scalars)) {
    throw InputError("the scratch block holds " + std::to_string(block().size()) +
                     " numbers, fewer than the call's layout needs (scratchBlock sizes it)");
  }
  return {block().data(), static_cast<Eigen::Index>(n)};
}

// Copies `angles` and then `scalars` into the block after the n positions.
void write_result(Eigen::Index n, const Matrix& angles, std::initializer_list<double> scalars) {
  double* out = std::copy(angles.data(), angles.data() + angles.size(), block().data() + n);
  std::copy(scalars.begin(), scalars.end(), out);
}

// A failed allocation comes back as an Error (guarded), which the facade rethrows.
val scratch_block_js(double size_value) {
  return guarded([&] {
    const std::int64_t size = checked_integer("size", size_value, 0, 2 * kMaxOutputDoubles + 8);
    std::vector<double>& doubles = block();
    if (size == 0) {
      std::vector<double>().swap(doubles);
      return val(emscripten::typed_memory_view(std::size_t{0}, static_cast<const double*>(nullptr)));
    }
    if (static_cast<std::int64_t>(doubles.size()) < size) doubles.resize(static_cast<std::size_t>(size));
    return val(emscripten::typed_memory_view(doubles.size(), doubles.data()));
  });
}

std::string scratch_error_js() { return last_error(); }

}  // namespace

POSITIONAL_TOPIC(scratch) {
  topic.scratch_function(
      "contextExtensionCurves", "_positional_context_extension_curves",
      "the lesson's three curves, the slowest pair's angle raw, interpolated and with the NTK base: "
      "{ angles (3 × n), trainedMax }; 3 × positions ≤ 2^24",
      {vector("positions"), number("trainedLen"), number("newLen"), kDimension, kBase},
      "[[0, 10], 4096, 32768, 128]", 3, {"trainedMax"});
  topic.scratch_function(
      "extensionCurves", "_positional_extension_curves",
      "the chart's five treatments' slowest-pair angles: { angles (5 × n), trainedMax, ntkBase, "
      "attentionFactor, yarnRange { low, high } }; positions × 4 ≤ 2^22 steps",
      {vector("positions"), number("trainedLen"), number("newLen"), kDimension, kBase, kBetaFast, kBetaSlow},
      "[[0, 10], 4096, 32768, 128]", kExtensionMethodCount,
      {"trainedMax", "ntkBase", "attentionFactor", "yarnRange.low", "yarnRange.high"});
  topic.internal("scratchBlock", &scratch_block_js);
  topic.internal("scratchError", &scratch_error_js);
}

}  // namespace positional::js

// The kernels, exported from the module as _positional_context_extension_curves and
// _positional_extension_curves (C names: a plain export needs no mangling to be found).
extern "C" {

// Layout: [positions | angles (3 × n) | trained_max].
EMSCRIPTEN_KEEPALIVE int positional_context_extension_curves(double n, double trained_len, double new_len,
                                                             double d, double base) {
  using namespace positional;
  using namespace positional::js;
  return kept_errors([&] {
    const Eigen::Map<const Vector> positions = positions_in_block(n, 3, 1);
    const Eigen::Index count = positions.size();
    double* const angles = block().data() + count;
    angles[3 * count] = context_extension_curves_into(positions, trained_len, new_len, whole(d), base,
                                                      Eigen::Map<Matrix>(angles, 3, count));
  });
}

// Layout: [positions | angles (5 × n) | trained_max, ntk_base, attention_factor, yarn low, yarn high].
EMSCRIPTEN_KEEPALIVE int positional_extension_curves(double n, double trained_len, double new_len, double d,
                                                     double base, double beta_fast, double beta_slow) {
  using namespace positional;
  using namespace positional::js;
  return kept_errors([&] {
    const Eigen::Map<const Vector> positions = positions_in_block(n, kExtensionMethodCount, 5);
    const ExtensionCurves curves =
        extension_curves(positions, trained_len, new_len, whole(d), base, beta_fast, beta_slow);
    write_result(positions.size(), curves.angles,
                 {curves.trained_max, curves.ntk_base, curves.attention_factor, curves.yarn_range.low,
                  curves.yarn_range.high});
  });
}

}  // extern "C"
