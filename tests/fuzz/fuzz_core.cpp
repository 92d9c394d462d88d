// libFuzzer target for the core maths (sinusoidal.hpp, rope.hpp, attention.hpp, rope_scaling.hpp): sinusoidal
// codes, RoPE, attention, cosine similarity, position interpolation and the NTK-aware base, with arguments
// decoded from the fuzz bytes. Contract: finite results or positional::InputError (see fuzz_input.hpp).
// The lesson's context-extension curves are fuzzed in fuzz_widgets.cpp, against the five-curve chart.
#include <cstdint>

#include "fuzz_input.hpp"
#include "positional/attention.hpp"
#include "positional/rope.hpp"
#include "positional/rope_scaling.hpp"
#include "positional/sinusoidal.hpp"

namespace positional::fuzz {
namespace {

void fuzz_sinusoidal(FuzzInput& in, std::uint8_t which) {
  const std::int64_t n = in.integer();
  const std::int64_t d = in.integer();
  const double base = in.base();
  if (over_budget(n, d)) return;
  if (which == 0) {
    must_return_finite("sinusoidal_encoding", [&] { return sinusoidal_encoding(n, d, base); });
  } else {
    must_return_finite("sinusoidal_encoding_concatenated",
                       [&] { return sinusoidal_encoding_concatenated(n, d, base); });
  }
}

void fuzz_sinusoidal_dot(FuzzInput& in) {
  const double a = in.number();
  const double b = in.number();
  const std::int64_t d = in.integer();
  const double base = in.base();
  if (over_budget(d, 1)) return;
  must_return_finite("sinusoidal_dot", [&] { return sinusoidal_dot(a, b, d, base); });
}

void fuzz_rope(FuzzInput& in, std::uint8_t which) {
  const double base = in.base();
  switch (which) {
    case 0: {
      const std::int64_t d = in.integer();
      if (over_budget(d, 1)) return;
      must_return_finite("rope_frequencies", [&] { return rope_frequencies(d, base); });
      break;
    }
    case 1: {
      const Vector x = in.boolean() ? in.vector() : in.tame_vector(in.byte() % 33);
      const double position = in.number();
      must_return_finite("apply_rope", [&] { return apply_rope(x, position, base); });
      break;
    }
    case 2: {
      const Matrix x = in.matrix();
      const Vector positions = in.boolean() ? in.vector(32) : in.tame_vector(x.rows());
      must_return_finite("apply_rope(matrix)", [&] { return apply_rope(x, positions, base); });
      break;
    }
    case 3: {
      // Long enough to cross several angle-addition blocks.
      const Matrix x =
          in.boolean() ? in.matrix() : Matrix(Matrix::Constant(in.byte() * 2, 2 * (1 + in.byte() % 8), 0.75));
      must_return_finite("apply_rope_sequence", [&] { return apply_rope_sequence(x, base); });
      break;
    }
    case 4: {
      const Matrix x = in.matrix();
      const Vector positions = in.tame_vector(x.rows());
      const Vector inv_freq = in.boolean() ? in.vector(16) : in.tame_vector(x.cols() / 2);
      must_return_finite("apply_rope_with_frequencies",
                         [&] { return apply_rope_with_frequencies(x, positions, inv_freq); });
      break;
    }
    case 5: {
      const Vector q = in.vector(16);
      const Vector k = in.boolean() ? q : in.vector(16);
      const Vector starts = in.vector(8);
      const std::int64_t max_distance = in.integer();
      if (q.size() > 0 && q.size() % 2 == 0 && max_distance >= 0 && max_distance < kMaxOutputDoubles &&
          starts.size() * plus_one(max_distance) <= kMaxOutputDoubles &&
          work_of({starts.size(), plus_one(max_distance), q.size() / 2}) > kMaxWorkSteps) {
        const Vector ones = Vector::Ones(q.size());
        const Vector zeros = Vector::Zero(starts.size());
        must_refuse_over_cap("rope_scores_over_distance", [&] {
          (void)rope_scores_over_distance(ones, ones, zeros, max_distance, 10000.0);
        });
      }
      if (over_budget(starts.size(), plus_one(max_distance))) return;
      must_return_finite("rope_scores_over_distance",
                         [&] { return rope_scores_over_distance(q, k, starts, max_distance, base); });
      break;
    }
    default: {
      const Vector positions = in.vector(32);
      const Vector pairs = in.vector(8);
      const std::int64_t d = in.integer();
      const bool wrapped = in.boolean();
      if (over_budget(d, 1)) return;
      must_return_finite("rope_pair_angles",
                         [&] { return rope_pair_angles(positions, pairs, d, base, wrapped); });
      break;
    }
  }
}

void fuzz_attention(FuzzInput& in) {
  const Matrix q = in.matrix(12);
  const Matrix k = in.boolean() ? q : in.matrix(12);
  const Matrix v = in.boolean() ? k : in.matrix(12);
  const bool causal = in.boolean();
  under_contract("scaled_dot_product_attention", [&] {
    const AttentionResult r = scaled_dot_product_attention(q, k, v, causal);
    require_finite_result("attention output", r.output);
    require_finite_result("attention weights", r.weights);
    require_finite_result("attention scores", r.scores);
    require_finite_result("attention scaled_scores", r.scaled_scores);
  });
}

void fuzz_cosine(FuzzInput& in) {
  const Vector a = in.vector(16);
  const Vector b = in.boolean() ? a : in.vector(16);
  under_contract("cosine_similarity", [&] {
    const double c = cosine_similarity(a, b);
    require_finite_result("cosine_similarity", c);
    if (c < -1.0 - 1e-12 || c > 1.0 + 1e-12) finding("cosine_similarity", "result outside [-1, 1]");
  });
}

void fuzz_extension(FuzzInput& in, std::uint8_t which) {
  switch (which) {
    case 0: {
      const Vector positions = in.vector(32);
      const double trained = in.number();
      const double fresh = in.number();
      must_return_finite("interpolate_positions",
                         [&] { return interpolate_positions(positions, trained, fresh); });
      break;
    }
    default: {
      const double base = in.number();
      const double scale = in.number();
      const std::int64_t d = in.integer();
      must_return_finite("ntk_scaled_base", [&] { return ntk_scaled_base(base, scale, d); });
      break;
    }
  }
}

}  // namespace

void fuzz_one_input(FuzzInput& in) {
  const std::uint8_t selector = in.byte();
  const std::uint8_t group = selector % 8;
  const std::uint8_t variant = selector / 8;  // which entry point of the group
  switch (group) {
    case 0:
    case 1:
      fuzz_sinusoidal(in, group);
      break;
    case 2:
      fuzz_sinusoidal_dot(in);
      break;
    case 3:
      fuzz_rope(in, variant % 7);
      break;
    case 4:
      fuzz_attention(in);
      break;
    case 5:
      fuzz_cosine(in);
      break;
    case 6:
      fuzz_extension(in, variant % 2);
      break;
    default:
      fuzz_rope(in, 3);
      break;  // the angle-addition path gets its own share
  }
}

}  // namespace positional::fuzz
