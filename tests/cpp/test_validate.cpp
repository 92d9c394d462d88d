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

// The loops that name an element only when it fails ("pairs[3]") ask is_whole_number_in first, and
// checked_integer refuses exactly what it refuses: whole, finite and within the bounds, both included.
TEST(Validate, WholeNumberTestAcceptsWholeNumbersWithinTheBoundsOnly) {
  const double kInf = std::numeric_limits<double>::infinity();
  for (const double value : {0.0, -0.0, 1.0, 99.0, 100.0}) {
    EXPECT_TRUE(is_whole_number_in(value, 0, 100)) << value;
    EXPECT_EQ(checked_integer("n", value, 0, 100), static_cast<std::int64_t>(value));
  }
  for (const double value : {-1.0, 0.5, 99.999, 100.5, 101.0, kNaN, kInf, -kInf}) {
    EXPECT_FALSE(is_whole_number_in(value, 0, 100)) << value;
    EXPECT_THROW(checked_integer("n", value, 0, 100), InputError) << value;
  }
}

// In WebAssembly the scan runs two elements at a time and falls back to one at a time to name the
// culprit: every position of a bad element (either lane of a pair, the odd one out at the end) must
// be named as the scalar loop names it, and the largest magnitude must be exact (it is a maximum).
TEST(Validate, LargestFiniteMagnitudeNamesTheFirstNonFiniteElement) {
  EXPECT_EQ(largest_finite_magnitude("p", Vector(0)), 0);
  for (Eigen::Index n = 1; n <= 7; ++n) {
    Vector values = Vector::LinSpaced(n, 1, static_cast<double>(n));
    values[n / 2] = -1e300;
    EXPECT_EQ(largest_finite_magnitude("p", values), 1e300) << n;
    for (Eigen::Index bad = 0; bad < n; ++bad) {
      for (const double culprit : {kNaN, kInf, -kInf}) {
        Vector with_bad = values;
        with_bad[bad] = culprit;
        if (bad + 1 < n) with_bad[n - 1] = kNaN;  // a later bad element must not be the one named
        EXPECT_EQ(error_of([&] { largest_finite_magnitude("p", with_bad); }),
                  "p[" + std::to_string(bad) + "] must be finite, got " + format_number(culprit))
            << n << " " << bad;
      }
    }
  }
  const double most = std::numeric_limits<double>::max();
  EXPECT_EQ(largest_finite_magnitude("p", (Vector(3) << 0, -most, 1).finished()), most);
}

}  // namespace
}  // namespace positional
