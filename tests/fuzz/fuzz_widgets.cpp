// libFuzzer target for the widgets' maths (alibi, rope_scaling, precision, conventions, rope, attention):
// ALiBi, RoPE scaling (YaRN, dynamic NTK, extension curves), float32 angle errors, the two RoPE layouts, the
// clock and permutations. Contract: finite results or positional::InputError (fuzz_input.hpp); the
// extension table must also agree with each recipe's function, and the five curves with the lesson's three.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "fuzz_input.hpp"
#include "positional/alibi.hpp"
#include "positional/attention.hpp"
#include "positional/conventions.hpp"
#include "positional/precision.hpp"
#include "positional/rope.hpp"
#include "positional/rope_scaling.hpp"

namespace positional::fuzz {
namespace {

Permutation permutation_from(FuzzInput& in, int max_length) {
  const int n = in.byte() % (max_length + 1);
  Permutation p(n);
  const bool identity_like = in.boolean();
  for (int i = 0; i < n; ++i) p[i] = identity_like ? (n - 1 - i) : in.integer();
  return p;
}

// extension_inverse_frequencies builds each row with its recipe's own function at scale = new_len /
// trained_len (the interpolation row is linear_scaled_frequencies' θ / scale), so each row must equal
// that function's result to the bit.
void check_rows_against_recipes(const Matrix& rows, std::int64_t d, double base, double trained,
                                double fresh) {
  const double scale = fresh / trained;
  try {
    const Vector raw = rope_frequencies(d, base);
    const Vector recipes[kExtensionMethodCount] = {
        raw,
        linear_scaled_frequencies(raw, scale),
        rope_frequencies(d, ntk_scaled_base(base, scale, d)),
        yarn_inverse_frequencies(d, base, scale, trained),
        rope_frequencies(d, dynamic_ntk_base(base, scale, d, fresh, trained)),
    };
    for (int method = 0; method < kExtensionMethodCount; ++method) {
      if (rows.row(method).transpose() != recipes[method]) {
        finding("extension_inverse_frequencies",
                "row " + std::to_string(method) + " differs from its recipe");
      }
    }
  } catch (const InputError& e) {
    finding("extension_inverse_frequencies",
            std::string("a recipe refused what the table accepted: ") + e.what());
  }
}

// The lesson's three curves are the chart's rows raw, interpolation and NTK. Raw, NTK and trained_max
// multiply the same two numbers in both, so they are equal to the bit. Interpolation multiplies the
// same three numbers in another order, p · (trained/new) · θ against p · (θ / (new/trained)), so the two
// agree to within 4 ulps; when a partial product is subnormal, the bits it loses are worth at most
// (1 + |p|)(1 + |θ|) · denorm_min.
void check_lesson_rows(const ContextExtensionCurves& lesson, const ExtensionCurves& chart,
                       const Vector& positions, std::int64_t d, double base) {
  if (lesson.trained_max != chart.trained_max) {
    finding("context_extension_curves", "trained_max differs from extension_curves'");
  }
  const double theta = std::abs(rope_frequencies(d, base)[d / 2 - 1]);
  const double eps = std::numeric_limits<double>::epsilon();
  const double denorm = std::numeric_limits<double>::denorm_min();
  const int lesson_rows[] = {static_cast<int>(ExtensionMethod::kRaw),
                             static_cast<int>(ExtensionMethod::kInterpolation),
                             static_cast<int>(ExtensionMethod::kNtk)};
  for (int row = 0; row < 3; ++row) {
    for (Eigen::Index j = 0; j < positions.size(); ++j) {
      const double a = lesson.angles(row, j);
      const double b = chart.angles(lesson_rows[row], j);
      const bool reordered = lesson_rows[row] == static_cast<int>(ExtensionMethod::kInterpolation);
      const double slack = reordered ? 4 * eps * std::max(std::abs(a), std::abs(b)) +
                                           (1 + std::abs(positions[j])) * denorm * (1 + theta)
                                     : 0.0;
      if (std::abs(a - b) > slack) {
        finding("context_extension_curves",
                "row " + std::to_string(row) + " differs from extension_curves' row " +
                    std::to_string(lesson_rows[row]) + " at position " + std::to_string(j));
      }
    }
  }
}

}  // namespace

void fuzz_one_input(FuzzInput& in) {
  const std::uint8_t selector = in.byte();
  switch (selector % 17) {
    case 0: {
      const std::int64_t heads = in.integer();
      must_return_finite("alibi_slopes", [&] { return alibi_slopes(heads); });
      break;
    }
    case 1: {
      const double slope = in.number();
      const std::int64_t length = in.integer();
      if (over_budget(length, length)) return;
      must_return_finite("alibi_bias", [&] { return alibi_bias(slope, length); });
      break;
    }
    case 2:
    case 3: {
      const std::int64_t d = in.integer();
      const double base = in.base();
      const std::int64_t max_distance = in.integer();
      // Over the work cap with every other argument valid: refused before any work.
      if (d > 0 && d % 2 == 0 && d <= kMaxOutputDoubles && max_distance >= 0 &&
          max_distance <= kMaxDecayDistance && work_of({d / 2, plus_one(max_distance)}) > kMaxWorkSteps) {
        must_refuse_over_cap("rope_decay_curve", [&] { (void)rope_decay_curve(d, 10000.0, max_distance); });
        must_refuse_over_cap("rope_ones_scores", [&] { (void)rope_ones_scores(d, 10000.0, max_distance); });
      }
      if (over_budget(d, plus_one(max_distance))) return;
      if (selector % 17 == 2) {
        must_return_finite("rope_decay_curve", [&] { return rope_decay_curve(d, base, max_distance); });
      } else {
        must_return_finite("rope_ones_scores", [&] { return rope_ones_scores(d, base, max_distance); });
      }
      break;
    }
    case 4: {
      const std::int64_t d = in.integer();
      const double base = in.base();
      const double trained = in.number();
      const double beta_fast = in.boolean() ? 32.0 : in.number();
      const double beta_slow = in.boolean() ? 1.0 : in.number();
      if (over_budget(d, 1)) return;
      under_contract("yarn_correction_range", [&] {
        const YarnCorrectionRange r = yarn_correction_range(d, base, trained, beta_fast, beta_slow);
        require_finite_result("yarn_correction_range low", r.low);
        require_finite_result("yarn_correction_range high", r.high);
      });
      must_return_finite("yarn_extrapolation_weights",
                         [&] { return yarn_extrapolation_weights(d, base, trained, beta_fast, beta_slow); });
      break;
    }
    case 6: {
      const double scale = in.number();
      must_return_finite("yarn_attention_factor", [&] { return yarn_attention_factor(scale); });
      break;
    }
    case 7: {
      const double base = in.base();
      const double scale = in.number();
      const std::int64_t d = in.integer();
      const double seq_len = in.number();
      const double trained = in.number();
      must_return_finite("dynamic_ntk_base",
                         [&] { return dynamic_ntk_base(base, scale, d, seq_len, trained); });
      break;
    }
    case 8: {
      const Vector inv_freq = in.vector(16);
      must_return_finite("pair_wavelengths", [&] { return pair_wavelengths(inv_freq); });
      break;
    }
    case 5:  // yarn_inverse_frequencies is the table's YaRN row: one property for both
    case 9: {
      const std::int64_t d = in.integer();
      const double base = in.base();
      const double trained = in.number();
      const double fresh = in.number();
      if (over_budget(d, 5)) return;
      // Every scale, including those below 1 that the table refuses before YaRN sees them.
      must_return_finite("yarn_inverse_frequencies",
                         [&] { return yarn_inverse_frequencies(d, base, fresh / trained, trained); });
      under_contract("extension_inverse_frequencies", [&] {
        const Matrix rows = extension_inverse_frequencies(d, base, trained, fresh);
        require_finite_result("extension_inverse_frequencies", rows);
        check_rows_against_recipes(rows, d, base, trained, fresh);
      });
      break;
    }
    case 10: {
      const Vector positions = in.vector(32);
      const double trained = in.number();
      const double fresh = in.number();
      const std::int64_t d = in.integer();
      const double base = in.base();
      if (over_budget(d, 5)) return;
      std::optional<ContextExtensionCurves> lesson;
      std::optional<ExtensionCurves> chart;
      under_contract("context_extension_curves", [&] {
        lesson = context_extension_curves(positions, trained, fresh, d, base);
        require_finite_result("context_extension_curves angles", lesson->angles);
        require_finite_result("context_extension_curves trained_max", lesson->trained_max);
      });
      under_contract("extension_curves", [&] {
        chart = extension_curves(positions, trained, fresh, d, base);
        require_finite_result("extension_curves angles", chart->angles);
        require_finite_result("extension_curves trained_max", chart->trained_max);
        require_finite_result("extension_curves ntk_base", chart->ntk_base);
        require_finite_result("extension_curves attention_factor", chart->attention_factor);
      });
      // The chart checks more than the lesson (new_len ≥ trained_len, positions ≥ 0, YaRN's range,
      // dynamic NTK's overflow, a work cap), never less: so the lesson may accept alone, the chart not.
      if (chart && !lesson) finding("context_extension_curves", "refused an input extension_curves accepts");
      if (chart && lesson) check_lesson_rows(*lesson, *chart, positions, d, base);
      break;
    }
    case 11: {
      const Vector positions = in.vector(16);
      const Vector pairs = in.vector(8);
      const std::int64_t d = in.integer();
      const double base = in.base();
      if (over_budget(d, 1)) return;
      under_contract("float32_angle_errors", [&] {
        const Float32AngleErrors e = float32_angle_errors(positions, pairs, d, base);
        require_finite_result("float32_angle_errors angle_error", e.angle_error);
        require_finite_result("float32_angle_errors rotation_error", e.rotation_error);
        require_finite_result("float32_angle_errors theta", e.theta);
      });
      break;
    }
    case 12: {
      const Vector x = in.boolean() ? in.vector(16) : in.tame_vector(2 * (in.byte() % 9));
      const double position = in.number();
      const double base = in.base();
      must_return_finite("apply_rope_half", [&] { return apply_rope_half(x, position, base); });
      break;
    }
    case 13: {
      const Vector q = in.boolean() ? in.vector(16) : in.tame_vector(2 * (in.byte() % 9));
      const Vector k = in.boolean() ? q : in.tame_vector(q.size());
      const double start = in.number();
      const std::int64_t max_distance = in.integer();
      const double base = in.base();
      if (q.size() > 0 && q.size() % 2 == 0 && max_distance >= 0 && max_distance <= kMaxConventionsDistance &&
          work_of({plus_one(max_distance), q.size() + 32}) > kMaxWorkSteps) {
        const Vector ones = Vector::Ones(q.size());
        must_refuse_over_cap("compare_rope_conventions",
                             [&] { (void)compare_rope_conventions(ones, ones, 0.0, max_distance, 10000.0); });
      }
      if (over_budget(plus_one(max_distance), q.size() + 1)) return;
      under_contract("compare_rope_conventions", [&] {
        const ConventionComparison c = compare_rope_conventions(q, k, start, max_distance, base);
        require_finite_parts("compare_rope_conventions", c.interleaved_scores, c.half_scores,
                             c.unpermuted_half_scores, c.max_score_difference, c.max_unpermuted_difference,
                             c.sinusoidal_max_difference);
      });
      break;
    }
    case 14: {
      const Eigen::Vector2d q(in.number(), in.number());
      const Eigen::Vector2d k(in.number(), in.number());
      const double m = in.number();
      const double n = in.number();
      const double theta = in.boolean() ? 1.0 : in.number();
      under_contract("rope_clock", [&] {
        const RopeClock c = rope_clock(q, k, m, n, theta);
        require_finite_parts("rope_clock", c.q_rotated[0], c.q_rotated[1], c.k_rotated[0], c.k_rotated[1],
                             c.q_angle, c.k_angle, c.angle_between, c.score, c.relative_score);
      });
      break;
    }
    case 15: {
      const std::int64_t n = in.integer();
      const std::int64_t d = in.integer();
      if (over_budget(n, 1) || over_budget(d, 1)) return;
      under_contract("reversal_permutation", [&] { (void)reversal_permutation(n); });
      under_contract("interleaved_to_half_permutation", [&] { (void)interleaved_to_half_permutation(d); });
      break;
    }
    default: {
      const Vector x = in.vector(12);
      const Permutation p = permutation_from(in, 12);
      const Matrix a = in.matrix(8);
      const Matrix b = in.boolean() ? a : in.matrix(8);
      must_return_finite("permute", [&] { return permute(x, p); });
      must_return_finite("permute_columns", [&] { return permute_columns(a, p); });
      must_return_finite("max_permuted_difference", [&] { return max_permuted_difference(a, b, p); });
      break;
    }
  }
}

}  // namespace positional::fuzz
