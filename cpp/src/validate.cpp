// Argument checks shared by every engine entry point.
#include "positional/validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>   // std::snprintf
#include <cstdlib>  // std::strtod
#include <limits>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace positional {

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[40];
  if (value == std::trunc(value) && std::fabs(value) < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    // Prefer the shortest form that reads back exactly.
    for (int digits = 1; digits <= 17; ++digits) {
      char shorter[40];
      std::snprintf(shorter, sizeof shorter, "%.*g", digits, value);
      if (std::strtod(shorter, nullptr) == value) {
        return shorter;
      }
    }
  }
  return buffer;
}

void fail(std::string_view name, std::string_view rule, double value) {
  throw InputError(std::string(name) + " must be " + std::string(rule) + ", got " + format_number(value));
}

bool is_whole_number_in(double value, std::int64_t min_value, std::int64_t max_value) {
  return std::isfinite(value) && value == std::trunc(value) && value >= static_cast<double>(min_value) &&
         value <= static_cast<double>(max_value);
}

std::int64_t checked_integer(std::string_view name, double value, std::int64_t min_value,
                             std::int64_t max_value) {
  if (!is_whole_number_in(value, min_value, max_value)) {
    fail(name,
         "a whole number from " + format_number(static_cast<double>(min_value)) + " to " +
             format_number(static_cast<double>(max_value)),
         value);
  }
  return static_cast<std::int64_t>(value);
}

namespace {

std::string element_name(std::string_view array, Eigen::Index index) {
  return std::string(array) + "[" + std::to_string(index) + "]";
}

}  // namespace

std::int64_t checked_element(std::string_view array, Eigen::Index index, double value, std::int64_t min_value,
                             std::int64_t max_value) {
  if (!is_whole_number_in(value, min_value, max_value))
    checked_integer(element_name(array, index), value, min_value, max_value);  // throws, naming it
  return static_cast<std::int64_t>(value);
}

void require_positive_element(std::string_view array, Eigen::Index index, double value) {
  if (!std::isfinite(value) || value <= 0) require_positive(element_name(array, index), value);
}

void require_even_dimension(std::string_view name, std::int64_t d) {
  if (d <= 0) fail(name, "positive", static_cast<double>(d));
  if (d % 2 != 0) fail(name, "even", static_cast<double>(d));
  if (d > kMaxOutputDoubles) {
    fail(name, "at most " + format_number(static_cast<double>(kMaxOutputDoubles)), static_cast<double>(d));
  }
}

void require_non_negative(std::string_view name, std::int64_t n) {
  if (n < 0) fail(name, "non-negative", static_cast<double>(n));
}

void require_finite(std::string_view name, double value) {
  if (!std::isfinite(value)) fail(name, "finite", value);
}

void require_positive(std::string_view name, double value) {
  if (!std::isfinite(value) || value <= 0) fail(name, "a finite number > 0", value);
}

void require_base(std::string_view name, double base) {
  if (!std::isfinite(base) || base <= 0) fail(name, "a finite number > 0", base);
  if (base == 1) fail(name, "different from 1 (every pair would turn at the same speed)", base);
}

void require_all_finite(std::string_view name, const Eigen::Ref<const Vector>& values) {
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]))
      fail(std::string(name) + "[" + std::to_string(i) + "]", "finite", values[i]);
  }
}

double largest_finite_magnitude(std::string_view name, const Eigen::Ref<const Vector>& values) {
  const double* data = values.data();
  const Eigen::Index n = values.size();
  double largest = 0;
  Eigen::Index j = 0;
#if defined(__wasm_simd128__)
  // Two at a time: LLVM does not vectorise the scalar loop below (its early exit), and this is
  // several times quicker (figures: BENCHMARKS.md, Measurements). A lane that is NaN or infinite
  // fails |x| ≤ DBL_MAX; then the scalar loop runs from the start and names the first such element.
  const v128_t most = wasm_f64x2_splat(std::numeric_limits<double>::max());
  v128_t finite = wasm_i64x2_splat(-1);
  v128_t pair_largest = wasm_f64x2_splat(0.0);
  for (; j + 2 <= n; j += 2) {
    const v128_t magnitude = wasm_f64x2_abs(wasm_v128_load(data + j));
    finite = wasm_v128_and(finite, wasm_f64x2_le(magnitude, most));
    pair_largest = wasm_f64x2_pmax(pair_largest, magnitude);
  }
  if (wasm_i64x2_all_true(finite)) {
    largest = std::max(wasm_f64x2_extract_lane(pair_largest, 0), wasm_f64x2_extract_lane(pair_largest, 1));
  } else {
    j = 0;
  }
#endif
  for (; j < n; ++j) {
    if (!std::isfinite(data[j])) fail(std::string(name) + "[" + std::to_string(j) + "]", "finite", data[j]);
    largest = std::max(largest, std::abs(data[j]));
  }
  return largest;
}

void require_all_finite(std::string_view name, const Eigen::Ref<const Matrix>& values) {
  for (Eigen::Index r = 0; r < values.rows(); ++r) {
    for (Eigen::Index c = 0; c < values.cols(); ++c) {
      if (!std::isfinite(values(r, c))) {
        fail(std::string(name) + "[" + std::to_string(r) + "][" + std::to_string(c) + "]", "finite",
             values(r, c));
      }
    }
  }
}

void require_output_size(std::string_view what, std::int64_t rows, std::int64_t cols) {
  // Compare without multiplying first so huge operands cannot overflow.
  if (rows > 0 && cols > 0 && rows > kMaxOutputDoubles / cols) {
    throw InputError(std::string(what) + " would hold " + format_number(static_cast<double>(rows)) + " × " +
                     format_number(static_cast<double>(cols)) + " numbers, more than the cap of " +
                     format_number(static_cast<double>(kMaxOutputDoubles)) + " (2^24)");
  }
}

void require_work(std::string_view what, std::initializer_list<std::int64_t> factors, std::int64_t cap) {
  std::int64_t steps = 1;
  bool over = false;
  for (const std::int64_t factor : factors) {
    if (factor <= 0) {
      steps = 0;
    } else if (!over && steps > cap / factor) {
      over = true;  // stop multiplying: the product would overflow, and it is over the cap anyway
    } else if (!over) {
      steps *= factor;
    }
  }
  if (over && steps != 0) {
    std::string product;  // the message is built only for a call that fails
    for (const std::int64_t factor : factors)
      product += (product.empty() ? "" : " × ") + format_number(static_cast<double>(factor));
    throw InputError(std::string(what) + " would take " + product + " steps, more than the cap of " +
                     format_number(static_cast<double>(cap)));
  }
}

}  // namespace positional
