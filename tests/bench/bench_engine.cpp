// Google Benchmark of the engine's kernels, natively. tests/bench/run-benchmarks.mjs runs it with
// repetitions and JSON output, next to the same kernels in WASM, numpy and plain JavaScript.
// Benchmark names are the kernel keys the driver matches across the four implementations.
#include <benchmark/benchmark.h>

#include <algorithm>  // std::fill
#include <cmath>
#include <cstring>  // std::memset
#include <random>
#include <string>
#include <vector>

#include "positional/attention.hpp"
#include "positional/demo_layer.hpp"
#include "positional/rope.hpp"
#include "positional/rope_scaling.hpp"
#include "positional/sinusoidal.hpp"

namespace positional {
namespace {

Matrix random_matrix(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Matrix m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = normal(rng);
  return m;
}

// The benchmark sentences, identical in bench_numpy.py and plain-js-kernels.mjs: 100 words from
// a 25-word vocabulary in a fixed shuffled order, and the same words reversed.
std::string benchmark_sentence(bool reversed) {
  static const char* const kVocabulary[] = {"dog",   "bites", "man",  "the",   "a",     "quick", "brown",
                                            "fox",   "jumps", "over", "lazy",  "cat",   "sees",  "bird",
                                            "under", "tree",  "near", "river", "small", "house", "red",
                                            "green", "blue",  "old",  "young"};
  std::vector<std::string> words;
  for (int i = 0; i < 100; ++i) words.emplace_back(kVocabulary[(7 * i + 3) % 25]);
  std::string sentence;
  for (int i = 0; i < 100; ++i) {
    if (i > 0) sentence += ' ';
    sentence += words[reversed ? 99 - i : i];
  }
  return sentence;
}

void set_bytes(benchmark::State& state, std::int64_t doubles) {
  state.SetBytesProcessed(state.iterations() * doubles * static_cast<std::int64_t>(sizeof(double)));
}

// Times building a fresh n × d table per iteration; `build` returns it. ClobberMemory keeps the
// compiler from dropping the writes of a table nobody reads.
template <class Build>
void time_table(benchmark::State& state, std::int64_t n, std::int64_t d, Build build) {
  for (auto _ : state) {
    Matrix table = build();
    benchmark::DoNotOptimize(table.data());
    benchmark::ClobberMemory();
  }
  set_bytes(state, n * d);
}

// The engine's table (sin and cos at block starts, angle addition between).
void sinusoidal(benchmark::State& state, std::int64_t n, std::int64_t d) {
  time_table(state, n, d, [&] { return sinusoidal_encoding(n, d); });
}

// The same table with sin and cos for every entry: what the angle addition is measured against.
Matrix plain_sinusoidal_table(std::int64_t n, std::int64_t d) {
  Matrix table(n, d);
  Vector omega(d / 2);
  for (std::int64_t i = 0; i < d / 2; ++i) {
    omega[i] = std::pow(10000.0, -static_cast<double>(2 * i) / static_cast<double>(d));
  }
  for (std::int64_t pos = 0; pos < n; ++pos) {
    double* row = table.row(pos).data();
    for (std::int64_t i = 0; i < d / 2; ++i) {
      const double angle = static_cast<double>(pos) * omega[i];
      row[2 * i] = std::sin(angle);
      row[2 * i + 1] = std::cos(angle);
    }
  }
  return table;
}

void sinusoidal_plain(benchmark::State& state, std::int64_t n, std::int64_t d) {
  time_table(state, n, d, [&] { return plain_sinusoidal_table(n, d); });
}

// The memory-bandwidth floor for the table: allocate a matrix of the same size and fill it
// with one value (first-touch page faults included, as the table pays them too).
void fill_fresh(benchmark::State& state, std::int64_t n, std::int64_t d) {
  time_table(state, n, d, [&] {
    Matrix table(n, d);
    std::fill(table.data(), table.data() + table.size(), 0.5);
    return table;
  });
}

// The same bytes written into memory that is already mapped: the pure write bandwidth.
void fill_reused(benchmark::State& state, std::int64_t n, std::int64_t d) {
  Matrix table(n, d);
  table.setZero();
  for (auto _ : state) {
    std::memset(table.data(), 0, static_cast<std::size_t>(table.size()) * sizeof(double));
    benchmark::DoNotOptimize(table.data());
    benchmark::ClobberMemory();
  }
  set_bytes(state, n * d);
}

void rope_sequence(benchmark::State& state, std::int64_t rows, std::int64_t d) {
  const Matrix x = random_matrix(rows, d, 1);
  for (auto _ : state) {
    Matrix rotated = apply_rope_sequence(x);
    benchmark::DoNotOptimize(rotated.data());
  }
  set_bytes(state, rows * d);
}

// RoPE with explicit positions 0..rows−1: sin and cos for every entry.
void rope_plain(benchmark::State& state, std::int64_t rows, std::int64_t d) {
  const Matrix x = random_matrix(rows, d, 1);
  const Vector positions = Vector::LinSpaced(rows, 0.0, static_cast<double>(rows - 1));
  for (auto _ : state) {
    Matrix rotated = apply_rope(x, positions);
    benchmark::DoNotOptimize(rotated.data());
  }
  set_bytes(state, rows * d);
}

void attention(benchmark::State& state, std::int64_t n, std::int64_t d) {
  const Matrix q = random_matrix(n, d, 2);
  const Matrix k = random_matrix(n, d, 3);
  const Matrix v = random_matrix(n, d, 4);
  for (auto _ : state) {
    AttentionResult result = scaled_dot_product_attention(q, k, v, true);
    benchmark::DoNotOptimize(result.output.data());
  }
}

void demo_layer(benchmark::State& state) {
  const std::string sentence = benchmark_sentence(false);
  for (auto _ : state) {
    Matrix encoded = encode_sentence(sentence, "rope");
    benchmark::DoNotOptimize(encoded.data());
  }
}

void order_similarity_four_cases(benchmark::State& state) {
  const std::string a = benchmark_sentence(false);
  const std::string b = benchmark_sentence(true);
  for (auto _ : state) {
    OrderSimilarities similarities = order_similarities(a, b);
    benchmark::DoNotOptimize(similarities.none);
  }
}

void extension_curves(benchmark::State& state) {
  const Vector positions = Vector::LinSpaced(512, 0, 511 * 64);
  for (auto _ : state) {
    ContextExtensionCurves curves = context_extension_curves(positions, 4096, 32768, 128);
    benchmark::DoNotOptimize(curves.angles.data());
  }
}

void register_all() {
  using benchmark::kMicrosecond;
  using benchmark::kMillisecond;
  benchmark::RegisterBenchmark("sinusoidal_32768x128", sinusoidal, 32768, 128)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("sinusoidal_4096x512", sinusoidal, 4096, 512)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("sinusoidal_plain_32768x128", sinusoidal_plain, 32768, 128)
      ->Unit(kMillisecond);
  benchmark::RegisterBenchmark("sinusoidal_plain_4096x512", sinusoidal_plain, 4096, 512)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("fill_fresh_32768x128", fill_fresh, 32768, 128)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("fill_reused_32768x128", fill_reused, 32768, 128)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("fill_fresh_4096x512", fill_fresh, 4096, 512)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("fill_reused_4096x512", fill_reused, 4096, 512)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("rope_sequence_4096x128", rope_sequence, 4096, 128)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("rope_plain_4096x128", rope_plain, 4096, 128)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("attention_512x64", attention, 512, 64)->Unit(kMillisecond);
  benchmark::RegisterBenchmark("demo_layer_100", demo_layer)->Unit(kMicrosecond);
  benchmark::RegisterBenchmark("order_similarities_100", order_similarity_four_cases)->Unit(kMicrosecond);
  benchmark::RegisterBenchmark("extension_curves_512", extension_curves)->Unit(kMicrosecond);
}

}  // namespace
}  // namespace positional

int main(int argc, char** argv) {
  positional::register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
