// Test support: the tolerances the numeric tests share, the non-finite values the bad-input tests
// feed, and random vectors and matrices drawn from a seeded generator (same draws on every platform
// that implements std::normal_distribution the same way; the tests check properties, not values).
#pragma once

#include <Eigen/Core>

#include <limits>
#include <random>

#include "positional/types.hpp"

namespace positional::testing_support {

// The lesson prints three decimals; 5e-4 is half a unit in that last place.
inline constexpr double kPrinted3 = 5e-4;
// Identities that hold exactly in real arithmetic differ only by rounding in a
// handful of operations on values of order 1: 1e-12 leaves room for ~10^3 ulps.
inline constexpr double kIdentity = 1e-12;
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// n standard-normal entries.
template <class Rng>
Vector random_vector(Rng& rng, Eigen::Index n) {
  std::normal_distribution<double> normal;
  Vector v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = normal(rng);
  return v;
}

// rows × cols standard-normal entries, filled row by row.
template <class Rng>
Matrix random_matrix(Rng& rng, Eigen::Index rows, Eigen::Index cols) {
  std::normal_distribution<double> normal;
  Matrix m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = normal(rng);
  return m;
}

}  // namespace positional::testing_support
