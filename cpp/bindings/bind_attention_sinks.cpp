// Embind adapters for attention sinks (positional/attention_sinks.hpp): SSMax's scale, the sink's
// share of a causal softmax, and the silent head with and without an output gate.
// Every result is a number or a plain object: nothing for the caller to .delete().
#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/attention_sinks.hpp"

namespace positional::js {
namespace {

val ssmax_scale_js(double keys, double s) {
  return guarded([&] { return ssmax_scale(keys, s); });
}

val ssmax_s_for_length_js(double length) {
  return guarded([&] { return ssmax_s_for_length(length); });
}

val sink_share_js(double keys, double lead, double scale) {
  return guarded([&] { return sink_share(keys, lead, scale); });
}

val silent_head_js(double keys, double residual) {
  return guarded([&] {
    const SilentHead head = silent_head(keys, residual);
    return js_object({{"ungatedSinkShare", head.ungated_sink_share},
                      {"ungatedLead", head.ungated_lead},
                      {"gatedSinkShare", head.gated_sink_share},
                      {"gate", head.gate}});
  });
}

}  // namespace

POSITIONAL_TOPIC(attention_sinks) {
  topic.function("ssmaxScale", &ssmax_scale_js,
                 "SSMax's factor on the scores of a query seeing keys keys: s · ln keys",
                 {number("keys"), number("s")}, "[4096, 0.12]");
  topic.function("ssmaxSForLength", &ssmax_s_for_length_js,
                 "the s that makes SSMax's factor 1 at length keys: 1 / ln length", {number("length")},
                 "[4096]");
  topic.function("sinkShare", &sink_share_js,
                 "the first key's softmax weight when it leads keys − 1 equal keys by lead, scores × scale",
                 {number("keys"), number("lead"), number("scale", 1.0)}, "[1024, 8, 1]");
  topic.function("silentHead", &silent_head_js,
                 "a head leaving residual × v: { ungatedSinkShare, ungatedLead, gatedSinkShare, gate }",
                 {number("keys"), number("residual")}, "[1024, 0.01]");
}

}  // namespace positional::js
