// The engine's matrix products: attention's q·kᵀ and weights·v, and the demo layer's x·W.
//
// Natively this is Eigen's product, which uses the CPU's vector registers (SSE2 at least on
// x86-64). Eigen 3.4 has no WebAssembly SIMD128 path, so in WebAssembly its product runs scalar,
// and its SSE2 path compiled through Emscripten's SSE headers (-msse2) was no faster. The kernel
// below, four rows by four columns of two-double vectors, is quicker than either, and than Eigen
// natively (BENCHMARKS.md, Measurements behind the code).
//
// Every entry of the WebAssembly product is the sum over k in order, from zero:
//     c(i, j) = (…((0 + a(i,0)·b(0,j)) + a(i,1)·b(1,j)) + …) + a(i,d−1)·b(d−1,j),
// each product and sum rounded once (WebAssembly has no fused multiply-add to contract them).
// The vector lanes are different entries of c, never parts of one sum, so the vector and scalar
// loops give the same bits. Eigen's own order differs (it may split the sum into blocks), so the
// two builds can differ in the last bits of an entry; both are within the usual bound of a dot
// product, d·2^−53·Σ|a(i,k)·b(k,j)|, of the exact value.
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "positional/types.hpp"

namespace positional::detail {

#if defined(__wasm_simd128__)

// Rows rows of c = a·b, starting at the given row pointers: four columns at a time (two vectors
// per row), then two, then one. Strides are in doubles between consecutive rows.
template <int Rows>
inline void product_rows(const double* a, Eigen::Index a_stride, const double* b, Eigen::Index b_stride,
                         double* c, Eigen::Index c_stride, Eigen::Index depth, Eigen::Index cols) {
  Eigen::Index j = 0;
  for (; j + 4 <= cols; j += 4) {
    v128_t left[Rows];
    v128_t right[Rows];
    for (int r = 0; r < Rows; ++r) left[r] = right[r] = wasm_f64x2_splat(0.0);
    for (Eigen::Index k = 0; k < depth; ++k) {
      const v128_t b_left = wasm_v128_load(b + k * b_stride + j);
      const v128_t b_right = wasm_v128_load(b + k * b_stride + j + 2);
      for (int r = 0; r < Rows; ++r) {
        const v128_t x = wasm_f64x2_splat(a[r * a_stride + k]);
        left[r] = wasm_f64x2_add(left[r], wasm_f64x2_mul(x, b_left));
        right[r] = wasm_f64x2_add(right[r], wasm_f64x2_mul(x, b_right));
      }
    }
    for (int r = 0; r < Rows; ++r) {
      wasm_v128_store(c + r * c_stride + j, left[r]);
      wasm_v128_store(c + r * c_stride + j + 2, right[r]);
    }
  }
  for (; j + 2 <= cols; j += 2) {
    v128_t sums[Rows];
    for (int r = 0; r < Rows; ++r) sums[r] = wasm_f64x2_splat(0.0);
    for (Eigen::Index k = 0; k < depth; ++k) {
      const v128_t row_of_b = wasm_v128_load(b + k * b_stride + j);
      for (int r = 0; r < Rows; ++r)
        sums[r] = wasm_f64x2_add(sums[r], wasm_f64x2_mul(wasm_f64x2_splat(a[r * a_stride + k]), row_of_b));
    }
    for (int r = 0; r < Rows; ++r) wasm_v128_store(c + r * c_stride + j, sums[r]);
  }
  for (; j < cols; ++j) {
    for (int r = 0; r < Rows; ++r) {
      double sum = 0.0;
      for (Eigen::Index k = 0; k < depth; ++k) sum += a[r * a_stride + k] * b[k * b_stride + j];
      c[r * c_stride + j] = sum;
    }
  }
}

#endif

// a (n × d) · b (d × m). The callers check the shapes and the size of the result. A and B are any
// Eigen expressions: natively they go to Eigen's product as they are (kᵀ is read in place, not
// copied); the WebAssembly kernel reads row-major memory, so there an operand that is not (kᵀ) is
// copied into a row-major matrix first.
template <class A, class B>
Matrix product(const A& a_expression, const B& b_expression) {
#if defined(__wasm_simd128__)
  const Eigen::Ref<const Matrix> a(a_expression);
  const Eigen::Ref<const Matrix> b(b_expression);
  eigen_assert(a.cols() == b.rows());
  Matrix c(a.rows(), b.cols());
  const Eigen::Index depth = a.cols();
  const Eigen::Index cols = b.cols();
  Eigen::Index i = 0;
  for (; i + 4 <= a.rows(); i += 4) {
    product_rows<4>(a.data() + i * a.outerStride(), a.outerStride(), b.data(), b.outerStride(),
                    c.data() + i * cols, cols, depth, cols);
  }
  for (; i < a.rows(); ++i) {
    product_rows<1>(a.data() + i * a.outerStride(), a.outerStride(), b.data(), b.outerStride(),
                    c.data() + i * cols, cols, depth, cols);
  }
  return c;
#else
  return a_expression * b_expression;
#endif
}

}  // namespace positional::detail
