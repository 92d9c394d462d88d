// Embind adapter for the length lab (positional/length_lab.hpp): one call trains a model and scores it at
// 1×…8× its trained length, reporting each step to a JavaScript callback that may stop it (a Worker's
// progress bar and stop button). The lab is a module of its own (engine-lab): the page's first screen
// does not wait for it. The result is plain numbers, Float64Arrays, strings and objects: nothing for the
// caller to .delete().
#include <string>

#include "js_declaration.hpp"
#include "js_interop.hpp"
#include "positional/length_lab.hpp"
#include "positional/limits.hpp"

namespace positional::js {
namespace {

// The options object as the facade hands it over: every field present, each within its declared range.
// The engine checks what they mean and how they combine (check_lab_config: d_model against heads,
// lookup_distance against train_length, the work cap) when the run starts.
LabConfig lab_config_from_js(const val& options) {
  const auto field = [&](const char* name) { return options[name].as<double>(); };
  LabConfig c;
  c.scheme = parse_lab_scheme(options["scheme"].as<std::string>(), "options.scheme");
  c.task = parse_lab_task(options["task"].as<std::string>(), "options.task");
  c.seed = static_cast<std::uint64_t>(whole(field("seed")));
  c.symbols = whole(field("symbols"));
  c.train_length = whole(field("trainLength"));
  c.layers = whole(field("layers"));
  c.d_model = whole(field("dModel"));
  c.heads = whole(field("heads"));
  c.mlp_width = whole(field("mlpWidth"));
  c.batch = whole(field("batch"));
  c.steps = whole(field("steps"));
  c.learning_rate = field("learningRate");
  c.lookup_distance = whole(field("lookupDistance"));
  c.eval_sequences = whole(field("evalSequences"));
  c.max_eval_factor = whole(field("maxEvalFactor"));
  c.rope_base = field("ropeBase");
  c.length_scaled_softmax = options["lengthScaledSoftmax"].as<bool>();
  c.window = whole(field("window"));
  c.recalibration_steps = whole(field("recalibrationSteps"));
  return c;
}

// on_progress: null, or the facade's relay of the caller's function (step, loss) → false to stop. The
// relay never throws: a JavaScript exception crossing the engine's frames would skip their destructors.
val train_length_lab_js(val options, val on_progress) {
  return guarded([&] {
    const LabConfig config = lab_config_from_js(options);
    LabProgress progress;
    if (!on_progress.isNull()) {
      progress = [&on_progress](std::int64_t step, double loss) {
        return !on_progress(static_cast<double>(step), loss).isFalse();
      };
    }
    const LabResult r = run_length_lab(config, progress);
    return js_object({{"losses", to_float64_array(r.losses)},
                      {"stopped", r.stopped},
                      {"evalLengths", to_float64_array(r.eval_lengths)},
                      {"variants", strings_to_js(r.variants)},
                      {"accuracy", matrix_to_js(r.accuracy)},
                      {"sinkShare", matrix_to_js(r.sink_share)},
                      {"parameterCount", static_cast<double>(r.parameters.size())},
                      {"work", static_cast<double>(r.work)},
                      {"fingerprint", lab_fingerprint(r)}});
  });
}

}  // namespace

POSITIONAL_TOPIC(length_lab) {
  // The options' defaults are the page's run, LabConfig's own; their ranges the caps of limits.hpp. The
  // names of the default scheme and task are the engine's spellings (string literals, so NUL-terminated).
  static const LabConfig defaults;
  static const Param fields[] = {
      text("scheme", kMaxSchemeBytes, lab_scheme_name(defaults.scheme).data()),
      text("task", kMaxSchemeBytes, lab_task_name(defaults.task).data()),
      integer("seed", 0, kMaxLabSeed, static_cast<std::int64_t>(defaults.seed)),
      integer("symbols", kMinLabSymbols, kMaxLabSymbols, defaults.symbols),
      integer("trainLength", kMinLabTrainLength, kMaxLabTrainLength, defaults.train_length),
      integer("layers", 1, kMaxLabLayers, defaults.layers),
      integer("dModel", kMinLabModelWidth, kMaxLabModelWidth, defaults.d_model),
      integer("heads", 1, kMaxLabHeads, defaults.heads),
      integer("mlpWidth", 1, kMaxLabMlpWidth, defaults.mlp_width),
      integer("batch", 1, kMaxLabBatch, defaults.batch),
      integer("steps", 0, kMaxLabSteps, defaults.steps),
      number("learningRate", defaults.learning_rate),
      integer("lookupDistance", 1, kMaxLabTrainLength, defaults.lookup_distance),
      integer("evalSequences", 1, kMaxLabEvalSequences, defaults.eval_sequences),
      integer("maxEvalFactor", 1, kMaxLabEvalFactor, defaults.max_eval_factor),
      number("ropeBase", defaults.rope_base),
      boolean("lengthScaledSoftmax", defaults.length_scaled_softmax),
      integer("window", 1, kMaxLabTrainLength * kMaxLabEvalFactor, defaults.window),
      integer("recalibrationSteps", 0, kMaxLabSteps, defaults.recalibration_steps),
  };
  topic.function(
      "trainLengthLab", &train_length_lab_js,
      "trains a small decoder-only transformer on a synthetic task with one position scheme (options.scheme: "
      "none, learned, sinusoidal, rope, alibi, rnope-swa (NoPE global + RoPE over a window of options.window "
      "keys), drope (RoPE, then its last options.recalibrationSteps steps without positions), cope "
      "(contextual "
      "positions: gated counts); options.task: "
      "lookup, copy, last-write; options.lengthScaledSoftmax: SSMax's s·ln n on every score) and scores it "
      "at 1×…8× its trained length: { losses, stopped, evalLengths, variants, accuracy (variants × lengths), "
      "sinkShare (layers × lengths: attention on position 0), parameterCount, work, fingerprint }; RoPE also "
      "as rope+pi, rope+ntk and rope+yarn; "
      "onProgress(step, loss) after every step, false stops the run; the whole run ≤ 2^36 multiply-adds",
      {options("options", fields), callback("onProgress")},
      // a run of two steps on a tiny model: about a millisecond
      R"([{"scheme": "rope", "symbols": 4, "trainLength": 8, "layers": 1, "dModel": 8, "heads": 2,)"
      R"( "mlpWidth": 8, "batch": 2, "steps": 2, "lookupDistance": 2, "evalSequences": 1,)"
      R"( "maxEvalFactor": 2}, null])");
  topic.limit("maxLabSteps", kMaxLabSteps);  // trainLengthLab's steps
  topic.limit("maxLabWork", kMaxLabWork);    // its multiply-adds, training and evaluation together
}

}  // namespace positional::js
