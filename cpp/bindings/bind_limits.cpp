// The engine's shared constants (positional/limits.hpp) as JavaScript reads them: the caps the facade
// exports as `limits` and the default base, declared here from the header (the length lab and the
// model-config reader declare their own beside their functions); and the heap those caps guard (leak tests
// compare it before and after many calls). Linked into every module: each reports its own heap.
// Every result is a number, a Float64Array or a plain object: nothing for the caller to .delete().
#include <emscripten/heap.h>  // emscripten_get_heap_size

#include <malloc.h>  // mallinfo: bytes in use, for leak tests

#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/limits.hpp"

namespace positional::js {
namespace {

// Bytes of the WASM heap in use by malloc, and the heap's total size.
val heap_bytes_js() {
  const struct mallinfo info = mallinfo();
  return js_object({{"inUse", static_cast<double>(info.uordblks)},
                    {"heapSize", static_cast<double>(emscripten_get_heap_size())}});
}

}  // namespace

POSITIONAL_TOPIC(limits) {
  topic.function("heapBytes", &heap_bytes_js,
                 "{ inUse, heapSize } of the WebAssembly heap, in bytes (for leak tests)", {}, "[]");
  topic.constant("defaultBase", kDefaultBase);
  topic.limit("maxOutputDoubles", kMaxOutputDoubles);  // the longest array of numbers in or out of one call
  topic.limit("maxWorkSteps", kMaxWorkSteps);          // inner-loop steps (about one sin/cos pair each)
  topic.limit("maxAttentionWork", kMaxAttentionWork);  // n × m × (d_k + d_v) multiply-adds in one attention
  topic.limit("maxCopiedAttentionWeights", kMaxCopiedAttentionWeights);  // views.attention: maxOutputDoubles
  topic.limit("maxConventionsDistance", kMaxConventionsDistance);
  topic.limit("maxDecayDistance", kMaxDecayDistance);
  topic.limit("maxAlibiHeads", kMaxAlibiHeads);
  topic.limit("maxPrecisionPosition", kMaxPrecisionPosition);
  topic.limit("maxNormalDraws", kMaxNormalDraws);
  topic.limit("maxRawDraws", kMaxRawDraws);
  topic.limit("maxWordDimension", kMaxWordDimension);
  topic.limit("maxConfigTextBytes", kMaxConfigTextBytes);  // readModelConfig's jsonText (the reader: 1 MiB)
  topic.limit("maxDigestTextBytes", kMaxDigestTextBytes);
  topic.limit("maxSentenceBytes", kMaxSentenceBytes);
  topic.limit("maxWordBytes", kMaxWordBytes);
  topic.limit("maxSeedDigits", kMaxSeedDigits);
  topic.limit("maxSchemeBytes", kMaxSchemeBytes);
}

}  // namespace positional::js
