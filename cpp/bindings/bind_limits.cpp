// Embind adapters for the engine's shared constants (positional/limits.hpp): the output cap the
// facade quotes, and the heap those caps guard (leak tests compare it before and after many calls).
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include <emscripten/bind.h>
#include <emscripten/heap.h>  // emscripten_get_heap_size

#include <malloc.h>  // mallinfo: bytes in use, for leak tests

#include "js_interop.hpp"
#include "positional/limits.hpp"

namespace positional::js {
namespace {

// Bytes of the WASM heap in use by malloc, and the heap's total size: leak tests compare
// them before and after many calls.
val heap_bytes_js() {
  const struct mallinfo info = mallinfo();
  val out = val::object();
  out.set("inUse", static_cast<double>(info.uordblks));
  out.set("heapSize", static_cast<double>(emscripten_get_heap_size()));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(positional_limits) {
  using emscripten::function;

  function("heapBytes", &heap_bytes_js);
  emscripten::constant("maxOutputDoubles", static_cast<double>(kMaxOutputDoubles));
}

}  // namespace positional::js
