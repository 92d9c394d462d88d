// The one file compiled with the fixtures folder's path (POSITIONAL_FIXTURES_DIR): see fixtures.hpp.
#include "fixtures.hpp"

namespace positional::testing_support {

const std::string& fixtures_dir() {
  static const std::string dir = POSITIONAL_FIXTURES_DIR;
  return dir;
}

}  // namespace positional::testing_support
