// Argument checks shared by every engine entry point.
#include "positional/validate.hpp"

#include <cmath>
#include <cstdio>   // std::snprintf
#include <cstdlib>  // std::strtod

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

void fail(const std::string& name, const std::string& rule, double value) {
  throw InputError(name + " must be " + rule + ", got " + format_number(value));
}

bool is_whole_number_in(double value, std::int64_t min_value, std::int64_t max_value) {
  return std::isfinite(value) && value == std::trunc(value) && value >= static_cast<double>(min_value) &&
         value <= static_cast<double>(max_value);
}

std::int64_t checked_integer(const std::string& name, double value, std::int64_t min_value,
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

std::string element_name(const std::string& array, Eigen::Index index) {
  return array + "[" + std::to_string(index) + "]";
}

}  // namespace

std::int64_t checked_element(const std::string& array, Eigen::Index index, double value,
                             std::int64_t min_value, std::int64_t max_value) {
  if (!is_whole_number_in(value, min_value, max_value))
    checked_integer(element_name(array, index), value, min_value, max_value);  // throws, naming it
  return static_cast<std::int64_t>(value);
}

void require_positive_element(const std::string& array, Eigen::Index index, double value) {
  if (!std::isfinite(value) || value <= 0) require_positive(element_name(array, index), value);
}

void require_even_dimension(const std::string& name, std::int64_t d) {
  if (d <= 0) fail(name, "positive", static_cast<double>(d));
  if (d % 2 != 0) fail(name, "even", static_cast<double>(d));
  if (d > kMaxOutputDoubles) {
    fail(name, "at most " + format_number(static_cast<double>(kMaxOutputDoubles)), static_cast<double>(d));
  }
}

void require_non_negative(const std::string& name, std::int64_t n) {
  if (n < 0) fail(name, "non-negative", static_cast<double>(n));
}

void require_finite(const std::string& name, double value) {
  if (!std::isfinite(value)) fail(name, "finite", value);
}

void require_positive(const std::string& name, double value) {
  if (!std::isfinite(value) || value <= 0) fail(name, "a finite number > 0", value);
}

void require_base(const std::string& name, double base) {
  if (!std::isfinite(base) || base <= 0) fail(name, "a finite number > 0", base);
  if (base == 1) fail(name, "different from 1 (every pair would turn at the same speed)", base);
}

void require_all_finite(const std::string& name, const Eigen::Ref<const Vector>& values) {
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) fail(name + "[" + std::to_string(i) + "]", "finite", values[i]);
  }
}

void require_all_finite(const std::string& name, const Eigen::Ref<const Matrix>& values) {
  for (Eigen::Index r = 0; r < values.rows(); ++r) {
    for (Eigen::Index c = 0; c < values.cols(); ++c) {
      if (!std::isfinite(values(r, c))) {
        fail(name + "[" + std::to_string(r) + "][" + std::to_string(c) + "]", "finite", values(r, c));
      }
    }
  }
}

void require_output_size(const std::string& what, std::int64_t rows, std::int64_t cols) {
  // Compare without multiplying first so huge operands cannot overflow.
  if (rows > 0 && cols > 0 && rows > kMaxOutputDoubles / cols) {
    throw InputError(what + " would hold " + format_number(static_cast<double>(rows)) + " × " +
                     format_number(static_cast<double>(cols)) + " numbers, more than the cap of " +
                     format_number(static_cast<double>(kMaxOutputDoubles)) + " (2^24)");
  }
}

void require_work(const std::string& what, std::initializer_list<std::int64_t> factors, std::int64_t cap) {
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
    throw InputError(what + " would take " + product + " steps, more than the cap of " +
                     format_number(static_cast<double>(cap)));
  }
}

}  // namespace positional
