// Embind adapter for the length lab (positional/length_lab.hpp): one call trains a model and scores it at
// 1×…8× its trained length, reporting each step to a JavaScript callback that may stop it (a Worker's
// progress bar and stop button). The result is plain numbers, Float64Arrays, strings and objects: nothing
// for the caller to .delete().
#include <string>

#include "engine_core_adapters.hpp"
#include "js_interop.hpp"
#include "positional/length_lab.hpp"
#include "positional/limits.hpp"

namespace positional::js {
namespace {

// The options object as the facade hands it over: every field present (engine-facade.mjs fills in the
// defaults), named in camelCase. Each range is checked here as well; check_lab_config then checks how the
// fields combine (d_model against heads, the work cap).
LabConfig lab_config_from_js(const val& options) {
  if (options.isNull() || options.typeOf().as<std::string>() != "object") {
    throw InputError("options must be an object of the lab's settings");
  }
  auto whole = [&](const char* name, std::int64_t low, std::int64_t high) {
    return integer_arg(std::string("options.") + name, options[name], low, high);
  };
  LabConfig c;
  c.scheme =
      parse_lab_scheme(string_arg("options.scheme", options["scheme"], kMaxSchemeBytes), "options.scheme");
  c.task = parse_lab_task(string_arg("options.task", options["task"], kMaxSchemeBytes), "options.task");
  c.seed = static_cast<std::uint64_t>(whole("seed", 0, 0xFFFFFFFFLL));
  c.symbols = whole("symbols", 4, kMaxLabSymbols);
  c.train_length = whole("trainLength", 8, kMaxLabTrainLength);
  c.layers = whole("layers", 1, kMaxLabLayers);
  c.d_model = whole("dModel", 4, kMaxLabModelWidth);
  c.heads = whole("heads", 1, kMaxLabHeads);
  c.mlp_width = whole("mlpWidth", 1, kMaxLabMlpWidth);
  c.batch = whole("batch", 1, kMaxLabBatch);
  c.steps = whole("steps", 0, kMaxLabSteps);
  c.learning_rate = number_arg("options.learningRate", options["learningRate"]);
  c.lookup_distance = whole("lookupDistance", 1, kMaxLabTrainLength);
  c.eval_sequences = whole("evalSequences", 1, kMaxLabEvalSequences);
  c.max_eval_factor = whole("maxEvalFactor", 1, kMaxLabEvalFactor);
  c.rope_base = number_arg("options.ropeBase", options["ropeBase"]);
  check_lab_config(c);
  return c;
}

}  // namespace

// on_progress: null, or a function (step, loss) → false to stop. The facade passes its own relay, which
// never throws: a JavaScript exception crossing the engine's frames would skip their destructors.
val train_length_lab_js(val options, val on_progress) {
  return guarded([&] {
    const LabConfig config = lab_config_from_js(options);
    const bool reports = !on_progress.isNull();
    if (reports && on_progress.typeOf().as<std::string>() != "function") {
      throw InputError("onProgress must be a function or null, got " +
                       on_progress.typeOf().as<std::string>());
    }
    LabProgress progress;
    if (reports) {
      progress = [&on_progress](std::int64_t step, double loss) {
        return !on_progress(static_cast<double>(step), loss).isFalse();
      };
    }
    const LabResult r = run_length_lab(config, progress);
    val out = val::object();
    out.set("losses", to_float64_array(r.losses));
    out.set("stopped", r.stopped);
    out.set("evalLengths", to_float64_array(r.eval_lengths));
    val variants = val::array();
    for (const std::string& name : r.variants) variants.call<void>("push", name);
    out.set("variants", variants);
    out.set("accuracy", matrix_to_js(r.accuracy));
    out.set("parameterCount", static_cast<double>(r.parameters.size()));
    out.set("work", static_cast<double>(r.work));
    out.set("fingerprint", lab_fingerprint(r));
    return out;
  });
}

}  // namespace positional::js
