// Sinusoidal position codes: the table, its concatenated layout, and the dot product of two rows.
#include "positional/sinusoidal.hpp"

#include <algorithm>  // std::max
#include <cmath>

#include "angle_addition.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {

// ω_i = base^(−2i/d), computed as the lesson does: pow(base, −(2i)/d).
double pair_frequency(std::int64_t i, std::int64_t d, double base) {
  return std::pow(base, -static_cast<double>(2 * i) / static_cast<double>(d));
}

// The fastest pair's speed: pair 0 (ω = 1) for base > 1, the last pair for base < 1.
double fastest_frequency(std::int64_t d, double base) {
  return std::max(1.0, pair_frequency(d / 2 - 1, d, base));
}

void check_table_arguments(std::int64_t n, std::int64_t d, double base) {
  require_non_negative("n", n);
  require_even_dimension("d", d);
  require_base("base", base);
  require_output_size("the position table", n, d);
  if (n > 0) detail::require_finite_angles("(n − 1)", static_cast<double>(n - 1), fastest_frequency(d, base));
}

// Every pair's ω_i.
Vector pair_frequencies(std::int64_t d, double base) {
  const std::int64_t pairs = d / 2;
  Vector omega(pairs);
  for (std::int64_t i = 0; i < pairs; ++i) omega[i] = pair_frequency(i, d, base);
  return omega;
}

}  // namespace

// [snippet:sinusoidal_encoding]
Matrix sinusoidal_encoding(std::int64_t n, std::int64_t d, double base) {
  check_table_arguments(n, d, base);
  const Vector omega = pair_frequencies(d, base);  // pair i's speed, radians per position
  Matrix table(n, d);
  for (std::int64_t pos = 0; pos < n; ++pos) {
    double* row = table.row(pos).data();
    const std::int64_t k = pos % detail::kAngleBlock;  // rows come in blocks of kAngleBlock
    if (pos < detail::kAngleBlock || k == 0) {
      for (std::int64_t i = 0; i < d / 2; ++i) {
        const double angle = static_cast<double>(pos) * omega[i];
        row[2 * i] = std::sin(angle);      // column 2i: sine
        row[2 * i + 1] = std::cos(angle);  // column 2i+1: cosine
      }
    } else {
      // sin and cos are the slow part. Shifting a position by k turns every pair by k·ω_i, so
      // this row is its block's first row turned by row k (angle addition, see add_angles).
      detail::add_angles(table.row(pos - k).data(), table.row(k).data(), row, d / 2);
    }
  }
  return table;
}
// [/snippet]

Matrix sinusoidal_encoding_concatenated(std::int64_t n, std::int64_t d, double base) {
  const Matrix interleaved = sinusoidal_encoding(n, d, base);
  const std::int64_t half = d / 2;
  Matrix table(n, d);
  for (std::int64_t pos = 0; pos < n; ++pos) {
    for (std::int64_t i = 0; i < half; ++i) {
      table(pos, i) = interleaved(pos, 2 * i);
      table(pos, half + i) = interleaved(pos, 2 * i + 1);
    }
  }
  return table;
}

double sinusoidal_dot(double position_a, double position_b, std::int64_t d, double base) {
  require_finite("position_a", position_a);
  require_finite("position_b", position_b);
  require_even_dimension("d", d);
  require_base("base", base);
  const double fastest = fastest_frequency(d, base);
  detail::require_finite_angles("position_a", position_a, fastest);
  detail::require_finite_angles("position_b", position_b, fastest);
  const Vector omega = pair_frequencies(d, base);
  // Summed as the row dot product is, term by term, so it equals PE(a)·PE(b) from the table.
  double sum = 0;
  for (std::int64_t i = 0; i < d / 2; ++i) {
    const double a = position_a * omega[i];
    const double b = position_b * omega[i];
    sum += std::sin(a) * std::sin(b) + std::cos(a) * std::cos(b);
  }
  return sum;
}

}  // namespace positional
