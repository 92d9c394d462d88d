// Embind adapter beside the engine's shared constants (positional/limits.hpp): the heap those caps
// guard (leak tests compare it before and after many calls). The output cap the facade quotes is a
// constant, exported in engine_core_exports.cpp.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include <emscripten/heap.h>  // emscripten_get_heap_size

#include <malloc.h>  // mallinfo: bytes in use, for leak tests

#include "engine_core_adapters.hpp"
#include "js_interop.hpp"

namespace positional::js {

// Bytes of the WASM heap in use by malloc, and the heap's total size: leak tests compare
// them before and after many calls.
val heap_bytes_js() {
  const struct mallinfo info = mallinfo();
  val out = val::object();
  out.set("inUse", static_cast<double>(info.uordblks));
  out.set("heapSize", static_cast<double>(emscripten_get_heap_size()));
  return out;
}

}  // namespace positional::js
