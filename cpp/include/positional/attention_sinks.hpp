// Attention sinks and the length of the prompt: the share of attention a causal softmax gives its
// first token (the sink, StreamingLLM, arXiv 2309.17453), length-scaled softmax (SSMax, arXiv
// 2501.19399) and a head with an output gate, on the lesson's closed-form worked example.
#pragma once

#include "positional/types.hpp"

namespace positional {

// SSMax's factor on the scores of a query that sees `keys` keys: s · ln(keys).
// Throws InputError when keys is not finite or < 1, or s is not finite or < 0.
double ssmax_scale(double keys, double s);

// The s that makes SSMax's factor 1 at `length` keys: 1 / ln(length). (SSMax learns s per head; the
// lesson fixes it this way so that the factor is 1 at a model's trained length.)
// Throws InputError when length is not finite or ≤ 1.
double ssmax_s_for_length(double length);

// The worked example's sink share: a causal softmax over `keys` keys in which the first key's score
// leads each of the other keys − 1 (all equal) by `lead`, after every score is multiplied by
// `scale` (1 for a plain softmax, ssmax_scale for SSMax). The share is
// 1 / (1 + (keys − 1) · e^(−scale · lead)), in [0, 1].
// Throws InputError when keys is not finite or < 1, lead is not finite, or scale is not finite or < 0.
double sink_share(double keys, double lead, double scale);

// A head with nothing to add at the token that sees `keys` keys: the first key's value is 0 and the
// others' values are all v, and the head's output must be `residual` · v.
//  - Without a gate the only way is attention on the sink: a share of 1 − residual, which needs the
//    sink's score to lead the others by ln((keys − 1)(1 − residual) / residual).
//  - With an output gate g (a number from 0 to 1 multiplying the head's output, as gated attention
//    does), the scores may stay equal: the sink gets 1 / keys, and g = residual · keys / (keys − 1).
struct SilentHead {
  double ungated_sink_share = 0;  // 1 − residual
  double ungated_lead = 0;        // the sink's score lead that share needs
  double gated_sink_share = 0;    // 1 / keys: attention spread evenly
  double gate = 0;                // the output gate that leaves `residual` · v
};

// Throws InputError when keys is not finite or < 2, or residual is not within (0, 0.5].
SilentHead silent_head(double keys, double residual);

}  // namespace positional
