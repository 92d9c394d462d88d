// The sink's share of a causal softmax, SSMax's length scale and the gated head of the worked example.
#include "positional/attention_sinks.hpp"

#include <cmath>

#include "positional/validate.hpp"

namespace positional {
namespace {

void require_keys(double keys, double least) {
  if (!std::isfinite(keys) || keys < least) {
    fail("keys", "a finite number ≥ " + format_number(least), keys);
  }
}

void require_scale(std::string_view name, double value) {
  if (!std::isfinite(value) || value < 0) fail(name, "a finite number ≥ 0", value);
}

}  // namespace

double ssmax_scale(double keys, double s) {
  require_keys(keys, 1);
  require_scale("s", s);
  return s * std::log(keys);
}

double ssmax_s_for_length(double length) {
  if (!std::isfinite(length) || length <= 1) fail("length", "a finite number > 1", length);
  return 1.0 / std::log(length);
}

double sink_share(double keys, double lead, double scale) {
  require_keys(keys, 1);
  require_finite("lead", lead);
  require_scale("scale", scale);
  if (keys == 1.0) return 1.0;  // the sink alone (and 0 · e^(−scale·lead) could be 0 · ∞)
  // e^(−scale·lead) may overflow for a large negative lead: the share then underflows to 0, as it should.
  const double others = (keys - 1.0) * std::exp(-scale * lead);
  return 1.0 / (1.0 + others);
}

SilentHead silent_head(double keys, double residual) {
  require_keys(keys, 2);
  if (!(residual > 0.0 && residual <= 0.5)) fail("residual", "a number in (0, 0.5]", residual);
  SilentHead head;
  head.ungated_sink_share = 1.0 - residual;
  head.ungated_lead = std::log((keys - 1.0) * (1.0 - residual) / residual);
  head.gated_sink_share = 1.0 / keys;
  head.gate = residual * keys / (keys - 1.0);
  return head;
}

}  // namespace positional
