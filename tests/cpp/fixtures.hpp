// Test support: where the tree's tests/fixtures folder is. Its path is compiled into fixtures.cpp
// alone: as a definition on every test file's command line it made each compile's cache key differ
// between two checkouts of the tree, so ccache compiled the test files that read fixtures again in
// every fresh clone.
#pragma once

#include <string>

namespace positional::testing_support {

// The absolute path of tests/fixtures in the tree this program was built from.
const std::string& fixtures_dir();

}  // namespace positional::testing_support
