// Shared matrix and vector types of the positional-encoding engine.
#pragma once

#include <Eigen/Dense>

namespace positional {

// Row-major so a (rows × cols) result is one contiguous block in reading order:
// the binding hands it to JavaScript as a Float64Array without reshuffling.
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;

}  // namespace positional
