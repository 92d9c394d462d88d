// What the config.json reader (model_config.cpp) and its analysis (model_config_analysis.cpp) both use.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>

#include "positional/model_config.hpp"

namespace positional::config_detail {

// Whether `name` is a layer type the reader knows (kLayerTypeNames); others are read as not understood.
inline bool is_layer_type(const std::string& name) {
  return std::any_of(std::begin(kLayerTypeNames), std::end(kLayerTypeNames),
                     [&name](const char* known) { return name == known; });
}

// A whole number as the messages write it.
inline std::string whole(std::int64_t n) { return std::to_string(n); }

}  // namespace positional::config_detail
