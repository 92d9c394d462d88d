// Sampled rows of the sinusoidal position table (see positional/sampling.hpp).
#include "positional/sampling.hpp"

#include <cmath>
#include <string>
#include <utility>  // std::pair, std::move
#include <vector>

#include "angle_addition.hpp"
#include "positional/validate.hpp"

namespace positional {

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
  // ω_i exactly as sinusoidal_encoding computes it: pow(base, −(2i)/d).
  Vector omega(pairs);
  double fastest = 0;
  for (std::int64_t i = 0; i < pairs; ++i) {
    omega[i] = std::pow(base, -static_cast<double>(2 * i) / static_cast<double>(d));
    if (omega[i] > fastest) fastest = omega[i];
  }
  // sin(inf) is NaN: a base far below 1 makes the last pair's speed huge.
  if (!std::isfinite(fastest) || !std::isfinite(largest_position * fastest)) {
    throw InputError("the angle positions · speed overflows (" + format_number(largest_position) + " × " +
                     format_number(fastest) + "): use a base closer to 1 or smaller positions");
  }
  Matrix table(rows, d);
  // sin and cos dominate (about 0.1 µs each under WASM), so a row reuses the row before it:
  // shifting the position by δ turns every pair by δ·ω_i, and
  //   sin(a + b) = sin a · cos b + cos a · sin b,   cos(a + b) = cos a · cos b − sin a · sin b.
  // A heatmap's positions step forward by one or two distinct δ, whose (sin, cos) rows are
  // computed once; a step back, or a new δ beyond the few kept, starts afresh.
  // Each step adds at most ~6·2^−53 of error, so every kRestart-th row starts afresh from sin and
  // cos: the error stays below kRestart·6·2^−53 ≈ 1e−14 and nothing accumulates beyond that.
  constexpr std::int64_t kRestart = 16;
  constexpr std::size_t kMaxOffsets = 8;
  std::vector<std::pair<double, Vector>> offsets;  // (δ, interleaved sin/cos of δ·ω_i)
  const auto direct = [&](double p, double* row) {
    for (std::int64_t i = 0; i < pairs; ++i) {
      const double angle = p * omega[i];
      row[2 * i] = std::sin(angle);
      row[2 * i + 1] = std::cos(angle);
    }
  };
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
