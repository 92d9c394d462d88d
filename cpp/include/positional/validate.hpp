// Argument checks shared by every engine entry point. Each throws InputError
// with a message that names the argument and the rule, e.g. "d must be even, got 7".
// Names arrive as std::string_view: a check that passes builds no string (a name of more than ten
// characters would otherwise be a heap allocation in WebAssembly's libc++, on every call).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

#include "positional/limits.hpp"  // kMaxOutputDoubles and the other caps
#include "positional/types.hpp"

namespace positional {

// Thrown for any argument outside a function's documented domain.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Formats a number for an error message: integers without a decimal point,
// others with up to 17 significant digits, and "nan", "inf", "-inf".
std::string format_number(double value);

// Throws InputError("<name> must be <rule>, got <value>").
[[noreturn]] void fail(std::string_view name, std::string_view rule, double value);

// A count or index that arrived as a double (JavaScript numbers do): must be
// finite, whole and within [min_value, max_value].
std::int64_t checked_integer(std::string_view name, double value, std::int64_t min_value,
                             std::int64_t max_value);

// Whether checked_integer accepts `value`. Checks cost no formatting on the way through: messages
// are built only when a check fails.
bool is_whole_number_in(double value, std::int64_t min_value, std::int64_t max_value);

// checked_integer and require_positive for element `index` of an array named `array`: the element's
// name ("pairs[3]") is built only when it fails, so loops over many elements pay nothing for it.
std::int64_t checked_element(std::string_view array, Eigen::Index index, double value, std::int64_t min_value,
                             std::int64_t max_value);
void require_positive_element(std::string_view array, Eigen::Index index, double value);

// d: a positive, even dimension no larger than kMaxOutputDoubles.
void require_even_dimension(std::string_view name, std::int64_t d);

// n: a non-negative count.
void require_non_negative(std::string_view name, std::int64_t n);

// A value that must be finite (not NaN or ±infinity).
void require_finite(std::string_view name, double value);

// A value that must be finite and > 0.
void require_positive(std::string_view name, double value);

// A RoPE or sinusoidal base: finite, > 0 and not 1 (base 1 gives every pair the same speed).
void require_base(std::string_view name, double base);

// Every element finite; names the first offending index.
void require_all_finite(std::string_view name, const Eigen::Ref<const Vector>& values);
void require_all_finite(std::string_view name, const Eigen::Ref<const Matrix>& values);
// require_all_finite for a vector that also returns its largest |value| (0 when it is empty): the
// one number an overflow check of products value · c needs, since rounding is monotonic.
double largest_finite_magnitude(std::string_view name, const Eigen::Ref<const Vector>& values);

// rows × cols must not exceed kMaxOutputDoubles.
void require_output_size(std::string_view what, std::int64_t rows, std::int64_t cols);

// The work a call would do, factors multiplied without overflow, must not exceed `cap` steps.
// Throws InputError("<what> would take a × b × … steps, more than the cap of <cap>").
void require_work(std::string_view what, std::initializer_list<std::int64_t> factors, std::int64_t cap);

}  // namespace positional
