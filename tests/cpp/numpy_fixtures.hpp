// Test support: the numpy outputs the demo-layer and randomness tests compare against
// (tests/fixtures/numpy, written by build-scripts/make-numpy-fixtures.py).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "fixtures.hpp"

namespace positional::testing_support {

// tests/fixtures/numpy/<name>, parsed. A missing file fails the test with the command that writes it.
inline nlohmann::json load_numpy_fixture(const std::string& name) {
  std::ifstream in(fixtures_dir() + "/numpy/" + name);
  EXPECT_TRUE(in.good()) << "missing fixture " << name << ": run build-scripts/make-numpy-fixtures.py";
  return nlohmann::json::parse(in);
}

}  // namespace positional::testing_support
