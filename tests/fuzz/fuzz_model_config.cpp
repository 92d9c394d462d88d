// libFuzzer target for the model-config reader (model_config.hpp): arbitrary bytes as
// config.json text, then the analysis at a fuzzed prompt length. Contract: finite results or
// positional::InputError (see fuzz_input.hpp).
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "positional/model_config.hpp"

namespace positional::fuzz {
namespace {

void check_report(const ModelPositionReport& r) {
  const char* f = "read_model_config";
  require_finite_parts(f, r.stretch, r.scaling_factor, r.base, r.dynamic_base, r.attention_factor, r.inv_freq,
                       r.base_inv_freq, r.wavelengths, r.base_wavelengths);
  if (static_cast<Eigen::Index>(r.beyond.size()) != r.inv_freq.size())
    finding(f, "beyond and inv_freq sizes differ");
  std::int64_t count = 0;
  for (const std::uint8_t b : r.beyond) count += b;
  if (count != r.beyond_count) finding(f, "beyond_count does not count beyond");
}

}  // namespace

void fuzz_one_input(FuzzInput& in) {
  const std::int64_t prompt = in.boolean() ? 4096 : in.integer();
  const std::string text = in.rest();
  under_contract("read_model_config", [&] { check_report(read_model_config(text, prompt)); });
}

}  // namespace positional::fuzz
