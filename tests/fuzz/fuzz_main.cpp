// The libFuzzer entry point of every fuzz target: each input's bytes go to the target's
// fuzz_one_input (fuzz_input.hpp), which decodes its arguments and calls the engine.
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  positional::fuzz::FuzzInput in(data, size);
  positional::fuzz::fuzz_one_input(in);
  return 0;
}
