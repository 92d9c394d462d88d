// RoPE scaling: position interpolation and the NTK-aware base (the lesson's two methods), then
// dynamic NTK, YaRN, Llama 3 and LongRoPE, pair wavelengths and the context-extension curves.
#include "positional/rope_scaling.hpp"

#include <algorithm>
#include <cmath>

#include "pair_frequency.hpp"
#include "positional/limits.hpp"
#include "positional/rope.hpp"
#include "positional/validate.hpp"

namespace positional {

// [snippet:interpolate_positions]
Vector interpolate_positions(const Eigen::Ref<const Vector>& positions, double trained_len, double new_len) {
  require_positive("trained_len", trained_len);
  require_positive("new_len", new_len);
  require_output_size("the interpolated positions", 1, positions.size());
  require_all_finite("positions", positions);
  const double ratio = trained_len / new_len;  // 4,096 / 32,768 = 1/8
  Vector scaled = positions * ratio;
  if (!scaled.allFinite()) {
    throw InputError("positions × trained_len / new_len overflows (ratio " + format_number(ratio) +
                     "): the positions or the ratio are too large");
  }
  return scaled;
}
// [/snippet]

// [snippet:ntk_scaled_base]
double ntk_scaled_base(double base, double scale, std::int64_t d) {
  require_base("base", base);
  require_positive("scale", scale);
  require_even_dimension("d", d);
  if (d < 4) fail("d", "at least 4 (d/(d−2) needs a slow pair)", static_cast<double>(d));
  const double result = base * std::pow(scale, static_cast<double>(d) / static_cast<double>(d - 2));
  if (!std::isfinite(result)) {
    throw InputError("base · scale^(d/(d−2)) overflows for base " + format_number(base) + " and scale " +
                     format_number(scale));
  }
  return result;
}
// [/snippet]

double context_extension_curves_into(const Eigen::Ref<const Vector>& positions, double trained_len,
                                     double new_len, std::int64_t d, double base, Eigen::Ref<Matrix> angles) {
  require_output_size("the curves", 3, positions.size());
  require_positive("trained_len", trained_len);
  require_positive("new_len", new_len);
  if (angles.rows() != 3 || angles.cols() != positions.size()) {
    throw InputError("the curves' output must be 3 × " + std::to_string(positions.size()) + ", got " +
                     std::to_string(angles.rows()) + " × " + std::to_string(angles.cols()));
  }
  // The checks interpolate_positions makes, in its order: every position finite, then the scaled
  // positions finite. Rounding is monotonic, so a product p · c overflows for some position exactly
  // when it does for the largest |p|: one check of that position stands for all of them.
  const double largest = largest_finite_magnitude("positions", positions);
  const double ratio = trained_len / new_len;  // 4,096 / 32,768 = 1/8
  if (!std::isfinite(largest * ratio)) {
    throw InputError("positions × trained_len / new_len overflows (ratio " + format_number(ratio) +
                     "): the positions or the ratio are too large");
  }
  const double slow = rope_slowest_frequency(d, base);
  const double slow_ntk = rope_slowest_frequency(d, ntk_scaled_base(base, new_len / trained_len, d));
  const double trained_max = trained_len * slow;
  if (!std::isfinite(largest * slow) || !std::isfinite((largest * ratio) * slow) ||
      !std::isfinite(largest * slow_ntk) || !std::isfinite(trained_max)) {
    throw InputError(
        "the angles position · θ overflow: the positions, trained_len or the base's speeds are too large");
  }
  // Row 0 raw, row 1 interpolated ((p · ratio) · θ, as interpolate_positions and then the product
  // give it), row 2 the NTK base's θ.
  for (Eigen::Index j = 0; j < positions.size(); ++j) {
    const double p = positions[j];
    angles(0, j) = p * slow;
    angles(1, j) = (p * ratio) * slow;
    angles(2, j) = p * slow_ntk;
  }
  return trained_max;
}

ContextExtensionCurves context_extension_curves(const Eigen::Ref<const Vector>& positions, double trained_len,
                                                double new_len, std::int64_t d, double base) {
  require_output_size("the curves", 3, positions.size());
  ContextExtensionCurves curves;
  curves.angles.resize(3, positions.size());
  curves.trained_max = context_extension_curves_into(positions, trained_len, new_len, d, base, curves.angles);
  return curves;
}

// ---- beyond the lesson: dynamic NTK, YaRN, Llama 3, LongRoPE ------------------------------------

namespace {

void check_betas(double beta_fast, double beta_slow) {
  require_positive("beta_fast", beta_fast);
  require_positive("beta_slow", beta_slow);
  if (beta_fast <= beta_slow)
    fail("beta_fast", "greater than beta_slow (" + format_number(beta_slow) + ")", beta_fast);
}

void check_scale_at_least_one(double scale) {
  if (!std::isfinite(scale) || scale < 1) fail("scale", "a finite number ≥ 1", scale);
}

// The pair index that completes `rotations` full turns over trained_len positions.
double correction_pair(double rotations, std::int64_t d, double base, double trained_len) {
  return static_cast<double>(d) * std::log(trained_len / (rotations * kTwoPi)) / (2.0 * std::log(base));
}

}  // namespace

YarnCorrectionRange yarn_ramp_range(std::int64_t d, double base, double trained_len, double beta_fast,
                                    double beta_slow, bool truncate) {
  require_even_dimension("d", d);
  require_base("base", base);
  require_positive("trained_len", trained_len);
  check_betas(beta_fast, beta_slow);
  double low = correction_pair(beta_fast, d, base, trained_len);
  double high = correction_pair(beta_slow, d, base, trained_len);
  // A trained length so small that trained_len / (2π·β) underflows to 0 puts the ramp at ±∞, and the
  // ramp's weights would be ∞/∞ = NaN.
  if (!std::isfinite(low) || !std::isfinite(high)) {
    fail("trained_len", "large enough that YaRN's correction range is finite", trained_len);
  }
  if (truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  YarnCorrectionRange range;
  range.low = std::max(low, 0.0);
  range.high = std::min(high, static_cast<double>(d - 1));
  return range;
}

YarnCorrectionRange yarn_correction_range(std::int64_t d, double base, double trained_len, double beta_fast,
                                          double beta_slow) {
  return yarn_ramp_range(d, base, trained_len, beta_fast, beta_slow, true);
}

namespace {
Vector yarn_weights(std::int64_t d, double base, double trained_len, double beta_fast, double beta_slow,
                    bool truncate) {
  const YarnCorrectionRange range = yarn_ramp_range(d, base, trained_len, beta_fast, beta_slow, truncate);
  double low = range.low;
  double high = range.high;
  if (high == low) high += 0.001;  // Hugging Face's guard against a zero-width ramp
  Vector weights(d / 2);
  for (std::int64_t i = 0; i < d / 2; ++i) {
    const double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    weights[i] = 1.0 - ramp;  // 1 below the ramp: keep the trained speed
  }
  return weights;
}
}  // namespace

Vector yarn_extrapolation_weights(std::int64_t d, double base, double trained_len, double beta_fast,
                                  double beta_slow) {
  return yarn_weights(d, base, trained_len, beta_fast, beta_slow, true);
}

Vector yarn_inverse_frequencies(std::int64_t d, double base, double scale, double trained_len,
                                double beta_fast, double beta_slow) {
  return yarn_scaled_frequencies(d, base, scale, trained_len, beta_fast, beta_slow, true);
}

Vector yarn_scaled_frequencies(std::int64_t d, double base, double scale, double trained_len,
                               double beta_fast, double beta_slow, bool truncate) {
  check_scale_at_least_one(scale);
  const Vector weights = yarn_weights(d, base, trained_len, beta_fast, beta_slow, truncate);
  const Vector theta = rope_frequencies(d, base);
  Vector inv_freq(d / 2);
  for (std::int64_t i = 0; i < d / 2; ++i) {
    inv_freq[i] = theta[i] / scale * (1.0 - weights[i]) + theta[i] * weights[i];
  }
  return inv_freq;
}

double yarn_mscale(double scale, double mscale) {
  require_positive("scale", scale);
  if (!std::isfinite(mscale) || mscale < 0) fail("mscale", "a finite number ≥ 0", mscale);
  if (scale <= 1) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

double yarn_attention_factor(double scale) { return yarn_mscale(scale, 1.0); }

Vector linear_scaled_frequencies(const Eigen::Ref<const Vector>& theta, double factor) {
  require_positive("factor", factor);
  return theta / factor;
}

Vector llama3_scaled_frequencies(const Eigen::Ref<const Vector>& theta, double factor, double low_freq_factor,
                                 double high_freq_factor, double original_len) {
  check_scale_at_least_one(factor);
  require_positive("low_freq_factor", low_freq_factor);
  require_positive("original_len", original_len);
  // Equal factors are legal (Llama 4 Scout Instruct: both 1): the medium band is empty.
  if (!std::isfinite(high_freq_factor) || high_freq_factor < low_freq_factor) {
    fail("high_freq_factor", "at least low_freq_factor (" + format_number(low_freq_factor) + ")",
         high_freq_factor);
  }
  const double low_freq_wavelen = original_len / low_freq_factor;
  const double high_freq_wavelen = original_len / high_freq_factor;
  Vector out(theta.size());
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    const double wavelen = kTwoPi / theta[i];
    if (wavelen < high_freq_wavelen) {
      out[i] = theta[i];
    } else if (wavelen > low_freq_wavelen) {
      out[i] = theta[i] / factor;
    } else if (high_freq_factor == low_freq_factor) {
      // Only a wavelength exactly at the boundary lands here; transformers' smooth factor is then 0/0
      // (NaN), so the pair is kept, as every pair short of the boundary is.
      out[i] = theta[i];
    } else {
      const double smooth = (original_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor);
      out[i] = (1.0 - smooth) * theta[i] / factor + smooth * theta[i];
    }
  }
  return out;
}

Vector longrope_scaled_frequencies(const Eigen::Ref<const Vector>& theta,
                                   const Eigen::Ref<const Vector>& divisors) {
  if (divisors.size() != theta.size()) {
    throw InputError("divisors must hold one number per pair (" + std::to_string(theta.size()) + "), got " +
                     std::to_string(divisors.size()));
  }
  Vector out(theta.size());
  for (Eigen::Index i = 0; i < theta.size(); ++i) {
    require_positive_element("divisors", i, divisors[i]);
    out[i] = theta[i] / divisors[i];
  }
  return out;
}

double longrope_attention_factor(double factor, double original_len) {
  require_positive("factor", factor);
  if (!std::isfinite(original_len) || original_len <= 1)
    fail("original_len", "a finite number > 1", original_len);
  if (factor <= 1.0) return 1.0;
  return std::sqrt(1.0 + std::log(factor) / std::log(original_len));
}

double dynamic_ntk_stretch(double scale, double seq_len, double trained_len) {
  check_scale_at_least_one(scale);
  require_positive("seq_len", seq_len);
  require_positive("trained_len", trained_len);
  const double length = std::max(seq_len, trained_len);
  return scale * length / trained_len - (scale - 1.0);  // 1 at the trained length
}

double dynamic_ntk_base(double base, double scale, std::int64_t d, double seq_len, double trained_len) {
  require_base("base", base);
  check_scale_at_least_one(scale);
  require_even_dimension("d", d);
  if (d < 4) fail("d", "at least 4 (d/(d−2) needs a slow pair)", static_cast<double>(d));
  const double stretch = dynamic_ntk_stretch(scale, seq_len, trained_len);
  // NTK's own formula at the stretch this length asks for. Every argument is checked above, so the one
  // error left is its overflow, which is named here by what the caller set (seq_len and scale).
  try {
    return ntk_scaled_base(base, stretch, d);
  } catch (const InputError&) {
    throw InputError("the dynamic NTK base overflows for seq_len " + format_number(seq_len) + " and scale " +
                     format_number(scale));
  }
}

Vector pair_wavelengths(const Eigen::Ref<const Vector>& inv_freq) {
  require_output_size("the wavelengths", 1, inv_freq.size());
  Vector out(inv_freq.size());
  for (Eigen::Index i = 0; i < inv_freq.size(); ++i) {
    require_positive_element("inv_freq", i, inv_freq[i]);
    out[i] = kTwoPi / inv_freq[i];
    if (!std::isfinite(out[i])) {
      fail("inv_freq[" + std::to_string(i) + "]", "large enough that 2π / inv_freq is finite", inv_freq[i]);
    }
  }
  return out;
}

namespace {
void check_proportional(std::int64_t head_dim, double partial_rotary_factor) {
  require_even_dimension("head_dim", head_dim);
  if (!std::isfinite(partial_rotary_factor) || partial_rotary_factor <= 0 || partial_rotary_factor > 1) {
    fail("partial_rotary_factor", "a finite number in (0, 1]", partial_rotary_factor);
  }
}
}  // namespace

std::int64_t proportional_rotating_pairs(std::int64_t head_dim, double partial_rotary_factor) {
  check_proportional(head_dim, partial_rotary_factor);
  // int(rope_proportion * head_dim // 2): Python's // on a float floors.
  return static_cast<std::int64_t>(std::floor(partial_rotary_factor * static_cast<double>(head_dim) / 2.0));
}

Vector proportional_rope_frequencies(std::int64_t head_dim, double base, double partial_rotary_factor,
                                     double factor) {
  const std::int64_t rotating = proportional_rotating_pairs(head_dim, partial_rotary_factor);
  require_base("base", base);
  require_positive("factor", factor);
  require_output_size("the frequencies", 1, head_dim / 2);
  Vector inv_freq = Vector::Zero(head_dim / 2);
  for (std::int64_t i = 0; i < rotating; ++i) {
    inv_freq[i] = detail::pair_frequency(i, head_dim, base) / factor;
    // A factor near the smallest double passes "> 0" yet overflows the fastest pair (1 / factor).
    if (!std::isfinite(inv_freq[i])) {
      fail("factor", "large enough that every frequency (base^(-2i/head_dim) / factor) is finite", factor);
    }
  }
  return inv_freq;
}

std::vector<std::uint8_t> mrope_pair_axes(const std::vector<std::int64_t>& section, std::int64_t pairs,
                                          bool interleaved) {
  if (section.size() != 3) {
    throw InputError("mrope_section must hold 3 numbers (time, height, width), got " +
                     std::to_string(section.size()));
  }
  std::int64_t sum = 0;
  for (std::size_t k = 0; k < section.size(); ++k) {
    if (section[k] < 0)
      fail("mrope_section[" + std::to_string(k) + "]", "≥ 0", static_cast<double>(section[k]));
    sum += section[k];
  }
  if (sum != pairs) {
    throw InputError("mrope_section must sum to the rotary pairs (" + std::to_string(pairs) + "), got " +
                     std::to_string(sum));
  }
  std::vector<std::uint8_t> axes(static_cast<std::size_t>(pairs), 0);
  for (std::int64_t i = 0; i < pairs; ++i) {
    std::uint8_t axis = 0;
    if (interleaved) {
      if (i % 3 == 1 && i < 3 * section[1]) axis = 1;
      if (i % 3 == 2 && i < 3 * section[2]) axis = 2;
    } else if (i >= section[0] + section[1]) {
      axis = 2;
    } else if (i >= section[0]) {
      axis = 1;
    }
    axes[static_cast<std::size_t>(i)] = axis;
  }
  return axes;
}

double nope_query_temperature(double position, double floor_scale, double attn_scale) {
  if (!std::isfinite(position) || position < 0) fail("position", "a finite number ≥ 0", position);
  require_positive("floor_scale", floor_scale);
  if (!std::isfinite(attn_scale) || attn_scale < 0) fail("attn_scale", "a finite number ≥ 0", attn_scale);
  // A floor_scale near the smallest double passes "> 0" yet makes the step count infinite (and the
  // temperature NaN when attn_scale is 0).
  const double steps = std::floor((position + 1.0) / floor_scale);
  if (!std::isfinite(steps)) {
    fail("floor_scale",
         "large enough that (position + 1) / floor_scale is finite at position " + format_number(position),
         floor_scale);
  }
  const double temperature = 1.0 + attn_scale * std::log1p(steps);
  if (!std::isfinite(temperature)) {
    fail("attn_scale", "small enough that the temperature is finite", attn_scale);
  }
  return temperature;
}

Matrix extension_inverse_frequencies(std::int64_t d, double base, double trained_len, double new_len,
                                     double beta_fast, double beta_slow) {
  require_positive("trained_len", trained_len);
  require_positive("new_len", new_len);
  if (new_len < trained_len) {
    fail("new_len", "at least trained_len (" + format_number(trained_len) + ")", new_len);
  }
  const double scale = new_len / trained_len;
  require_output_size("the frequency table", kExtensionMethodCount, d / 2);
  const Vector raw = rope_frequencies(d, base);
  Matrix out(kExtensionMethodCount, d / 2);
  out.row(static_cast<int>(ExtensionMethod::kRaw)) = raw.transpose();
  out.row(static_cast<int>(ExtensionMethod::kInterpolation)) = raw.transpose() / scale;
  out.row(static_cast<int>(ExtensionMethod::kNtk)) =
      rope_frequencies(d, ntk_scaled_base(base, scale, d)).transpose();
  out.row(static_cast<int>(ExtensionMethod::kYarn)) =
      yarn_inverse_frequencies(d, base, scale, trained_len, beta_fast, beta_slow).transpose();
  out.row(static_cast<int>(ExtensionMethod::kDynamicNtk)) =
      rope_frequencies(d, dynamic_ntk_base(base, scale, d, new_len, trained_len)).transpose();
  return out;
}

ExtensionCurves extension_curves(const Eigen::Ref<const Vector>& positions, double trained_len,
                                 double new_len, std::int64_t d, double base, double beta_fast,
                                 double beta_slow) {
  require_output_size("the curves", kExtensionMethodCount, positions.size());
  require_work("the curves", {positions.size(), 4}, kMaxWorkSteps);
  for (Eigen::Index j = 0; j < positions.size(); ++j) {
    if (!std::isfinite(positions[j]) || positions[j] < 0) {
      fail("positions[" + std::to_string(j) + "]", "a finite number ≥ 0", positions[j]);
    }
  }
  const Matrix inv_freq = extension_inverse_frequencies(d, base, trained_len, new_len, beta_fast, beta_slow);
  const Eigen::Index slowest = d / 2 - 1;
  const double scale = new_len / trained_len;
  // Dynamic NTK's slowest θ = base'^(−(d−2)/d) with base' = base · stretch^(d/(d−2)),
  // which is θ_slowest(base) / stretch: computed directly, without a pow per position.
  const double raw_slowest = inv_freq(static_cast<int>(ExtensionMethod::kRaw), slowest);
  ExtensionCurves curves;
  curves.angles.resize(kExtensionMethodCount, positions.size());
  for (Eigen::Index j = 0; j < positions.size(); ++j) {
    const double p = positions[j];
    for (int method = 0; method < kExtensionMethodCount - 1; ++method) {
      curves.angles(method, j) = p * inv_freq(method, slowest);
    }
    curves.angles(static_cast<int>(ExtensionMethod::kDynamicNtk), j) =
        p * raw_slowest / dynamic_ntk_stretch(scale, p + 1.0, trained_len);
  }
  curves.trained_max = trained_len * raw_slowest;
  curves.ntk_base = ntk_scaled_base(base, scale, d);
  curves.attention_factor = yarn_attention_factor(scale);
  curves.yarn_range = yarn_correction_range(d, base, trained_len, beta_fast, beta_slow);
  if (!curves.angles.allFinite() || !std::isfinite(curves.trained_max)) {
    throw InputError("the angles position · θ overflow: the positions or trained_len are too large");
  }
  return curves;
}

}  // namespace positional
