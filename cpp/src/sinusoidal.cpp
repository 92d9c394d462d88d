// Sinusoidal position codes: the table, its concatenated layout, the dot product of two rows, and
// sampled rows.
#include "positional/sinusoidal.hpp"

#include <algorithm>  // std::max
#include <cmath>
#include <string>
#include <utility>  // std::pair, std::move
#include <vector>

#include "angle_addition.hpp"
#include "pair_frequency.hpp"
#include "positional/validate.hpp"

namespace positional {
namespace {

using detail::pair_frequency;  // ω_i = base^(−2i/d)

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
        const auto [sine, cosine] = detail::sin_and_cos(static_cast<double>(pos) * omega[i]);
        row[2 * i] = sine;        // column 2i: sin(pos·ω_i)
        row[2 * i + 1] = cosine;  // column 2i+1: cos(pos·ω_i)
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

// ---- sampled rows -------------------------------------------------------------------------------

Matrix sinusoidal_encoding_rows(const Eigen::Ref<const Vector>& positions, std::int64_t d, double base) {
  require_even_dimension("d", d);
  require_base("base", base);
  const std::int64_t rows = positions.size();
  require_output_size("the sampled position table", rows, d);
  double largest_position = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const double p = positions[r];
    if (!std::isfinite(p)) fail("positions[" + std::to_string(r) + "]", "finite", p);
    if (p < 0 || p != std::floor(p)) fail("positions[" + std::to_string(r) + "]", "a whole number ≥ 0", p);
    if (p > largest_position) largest_position = p;
  }
  const std::int64_t pairs = d / 2;
  const Vector omega = pair_frequencies(d, base);  // ω_i exactly as sinusoidal_encoding computes it
  const double fastest = omega.maxCoeff();
  // sin(inf) is NaN: a base far below 1 makes the last pair's speed huge.
  if (!std::isfinite(fastest) || !std::isfinite(largest_position * fastest)) {
    throw InputError("the angle positions · speed overflows (" + format_number(largest_position) + " × " +
                     format_number(fastest) + "): use a base closer to 1 or smaller positions");
  }
  Matrix table(rows, d);
  // sin and cos dominate the cost (figures: BENCHMARKS.md, Measurements), so a row reuses the row before it:
  // shifting the position by δ turns every pair by δ·ω_i, and
  //   sin(a + b) = sin a · cos b + cos a · sin b,   cos(a + b) = cos a · cos b − sin a · sin b.
  // A heatmap's positions step forward by one or two distinct δ, whose (sin, cos) rows are
  // computed once; a step back, or a new δ beyond the few kept, starts afresh.
  // Each step adds at most ~6·2^−53 of error, so every kRestart-th row starts afresh from sin and
  // cos: the error stays below kRestart·6·2^−53 ≈ 1e−14 and nothing accumulates beyond that.
  constexpr std::int64_t kRestart = 16;
  constexpr std::size_t kMaxOffsets = 8;
  std::vector<std::pair<double, Vector>> offsets;  // (δ, interleaved sin/cos of δ·ω_i)
  const auto direct = [&](double p, double* row) { detail::sin_cos_row(p, omega.data(), row, pairs); };
  const auto offset_row = [&](double delta) -> const double* {
    for (const auto& entry : offsets) {
      if (entry.first == delta) return entry.second.data();
    }
    if (offsets.size() == kMaxOffsets) return nullptr;
    Vector row(d);
    direct(delta, row.data());
    offsets.emplace_back(delta, std::move(row));
    return offsets.back().second.data();
  };
  for (std::int64_t r = 0; r < rows; ++r) {
    const double p = positions[r];
    double* row = table.row(r).data();
    // Only forward steps chain: every angle along the chain is then at most p·ω_i, so its
    // rounding is no worse than the full table's for this row.
    const bool chain = r % kRestart != 0 && p > positions[r - 1];
    const double* offset = chain ? offset_row(p - positions[r - 1]) : nullptr;
    if (offset == nullptr) {
      direct(p, row);
      continue;
    }
    detail::add_angles(table.row(r - 1).data(), offset, row, pairs);
  }
  return table;
}

}  // namespace positional
