// The argument checks every entry point shares: each names the argument and the rule.
#include <gtest/gtest.h>

#include <limits>

#include "positional/validate.hpp"

#include "expect_error.hpp"
#include "test_inputs.hpp"

namespace positional {
namespace {

using namespace testing_support;  // the shared helpers of tests/cpp/*.hpp

TEST(Validate, CheckedIntegerNamesTheRule) {
  EXPECT_EQ(checked_integer("n", 12, 0, 100), 12);
  EXPECT_EQ(error_of([] { checked_integer("n", 3.7, 0, 100); }),
            "n must be a whole number from 0 to 100, got 3.7");
  EXPECT_EQ(error_of([] { checked_integer("n", kNaN, 0, 100); }),
            "n must be a whole number from 0 to 100, got nan");
  EXPECT_EQ(error_of([] { checked_integer("n", 101, 0, 100); }),
            "n must be a whole number from 0 to 100, got 101");
}

}  // namespace
}  // namespace positional
