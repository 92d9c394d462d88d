// The length lab's results file: every task × scheme at the page's default size and at a larger one, over
// several seeds, natively; medians and spread of accuracy per evaluation length (tests/bench/results/
// length-lab.json). Run by hand, not in CI (about 15 minutes on one core):
//
//   cmake --preset native && cmake --build --preset native --target length_lab_results
//   build/native/tests/length_lab_results --out tests/bench/results/length-lab.json
//
// Options: --seeds N (default 5), --sizes default,larger (default both), --out PATH (default stdout),
// --models LIST (default every scheme, and every scheme with SSMax at the default size: "rope+ssmax"),
// --merge PATH (start from that results file and replace only the runs made now).
#include <algorithm>
#include <chrono>
#include <cmath>  // std::ceil, std::round
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "positional/length_lab.hpp"

namespace {

using nlohmann::json;
using positional::LabConfig;
using positional::LabResult;
using positional::LabScheme;
using positional::LabTask;

// The page's default size, and a larger one: twice the width (four times the weights), twice the batch and
// twice the steps, at a learning rate suited to the wider model.
LabConfig size_config(const std::string& size) {
  LabConfig c;  // the defaults are the page's
  if (size == "larger") {
    c.d_model = 64;
    c.heads = 4;
    c.mlp_width = 128;
    c.batch = 16;
    c.steps = 600;
    c.learning_rate = 3e-3;
    c.eval_sequences = 16;
  }
  return c;
}

// Nearest-rank quantile of a sorted sample (q in [0, 1]).
double quantile(const std::vector<double>& sorted, double q) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(q * n)));
  return sorted[std::min(rank, sorted.size()) - 1];
}

json summary(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {{"median", quantile(values, 0.5)},
          {"q1", quantile(values, 0.25)},
          {"q3", quantile(values, 0.75)},
          {"min", values.front()},
          {"max", values.back()}};
}

json config_json(const LabConfig& c) {
  return {{"symbols", c.symbols},
          {"train_length", c.train_length},
          {"layers", c.layers},
          {"d_model", c.d_model},
          {"heads", c.heads},
          {"mlp_width", c.mlp_width},
          {"batch", c.batch},
          {"steps", c.steps},
          {"learning_rate", c.learning_rate},
          {"lookup_distance", c.lookup_distance},
          {"eval_sequences", c.eval_sequences},
          {"max_eval_factor", c.max_eval_factor},
          {"rope_base", c.rope_base},
          {"window", c.window},
          {"recalibration_steps", c.recalibration_steps}};
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 5;
  std::vector<std::string> sizes{"default", "larger"};
  std::vector<std::string> models;
  std::string out_path;
  std::string merge_path;
  const auto split = [](const std::string& list) {
    std::vector<std::string> items;
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      items.push_back(list.substr(at, comma - at));
      at = comma + 1;
    }
    return items;
  };
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--seeds") seeds = std::atoi(argv[i + 1]);
    if (flag == "--out") out_path = argv[i + 1];
    if (flag == "--sizes") sizes = split(argv[i + 1]);
    if (flag == "--models") models = split(argv[i + 1]);
    if (flag == "--merge") merge_path = argv[i + 1];
  }
  const LabTask tasks[] = {LabTask::kLookup, LabTask::kCopy, LabTask::kLastWrite};
  const std::vector<std::string> schemes{"none",  "learned",   "sinusoidal", "rope",
                                         "alibi", "rnope-swa", "drope"};
  json doc;
  if (!merge_path.empty()) doc = json::parse(std::ifstream(merge_path));
  doc["about"] =
      "Accuracy (fraction of targets whose argmax is right, every target of the sequence) of the length lab "
      "at 1x..8x the trained length, per task, model (a scheme, +ssmax with length-scaled softmax) and "
      "evaluation variant, over seeds 0..n-1: median, quartiles (nearest rank), min and max; sink_share: "
      "per layer, the median attention share on position 0 at each length. Native build; ms_per_step is the "
      "median wall time of one training step on the machine that wrote the file (shared and noisy: a guide, "
      "not a benchmark).";
  doc["command"] =
      "cmake --preset native && cmake --build --preset native --target length_lab_results && "
      "build/native/tests/length_lab_results --out tests/bench/results/length-lab.json";
  doc["seeds"] = seeds;
  const auto started = std::chrono::steady_clock::now();
  for (const std::string& size : sizes) {
    const LabConfig base = size_config(size);
    json size_doc = doc["sizes"].value(size, json::object());
    size_doc["config"] = config_json(base);
    std::vector<std::string> sized_models = models;
    if (sized_models.empty()) {
      sized_models = schemes;
      if (size == "default")
        for (const std::string& scheme : schemes) sized_models.push_back(scheme + "+ssmax");
    }
    for (const LabTask task : tasks) {
      for (const std::string& model : sized_models) {
        LabConfig c = base;
        c.task = task;
        const bool ssmax = model.size() > 6 && model.compare(model.size() - 6, 6, "+ssmax") == 0;
        c.scheme =
            positional::parse_lab_scheme(ssmax ? model.substr(0, model.size() - 6) : model, "--models");
        c.length_scaled_softmax = ssmax;
        std::vector<LabResult> runs;
        std::vector<double> ms_per_step, final_loss;
        for (int seed = 0; seed < seeds; ++seed) {
          c.seed = static_cast<std::uint64_t>(seed);
          const auto t0 = std::chrono::steady_clock::now();
          auto t_trained = t0;
          runs.push_back(positional::run_length_lab(c, [&](std::int64_t step, double) {
            if (step == c.steps) t_trained = std::chrono::steady_clock::now();
            return true;
          }));
          ms_per_step.push_back(std::chrono::duration<double, std::milli>(t_trained - t0).count() /
                                static_cast<double>(c.steps));
          final_loss.push_back(runs.back().losses.tail(10).mean());
        }
        json entry;
        entry["final_loss"] = summary(final_loss);
        entry["ms_per_step"] = summary(ms_per_step)["median"];
        entry["eval_lengths"] = std::vector<double>(
            runs[0].eval_lengths.data(), runs[0].eval_lengths.data() + runs[0].eval_lengths.size());
        for (std::size_t v = 0; v < runs[0].variants.size(); ++v) {
          json per_length = json::array();
          for (Eigen::Index f = 0; f < runs[0].accuracy.cols(); ++f) {
            std::vector<double> values;
            for (const LabResult& r : runs) values.push_back(r.accuracy(static_cast<Eigen::Index>(v), f));
            json s = summary(values);
            s["seeds"] = values;
            per_length.push_back(s);
          }
          entry["accuracy"][runs[0].variants[v]] = per_length;
        }
        // The sink diagnostic: each layer's attention on position 0 at each length, median over seeds.
        for (Eigen::Index l = 0; l < runs[0].sink_share.rows(); ++l) {
          json per_length = json::array();
          for (Eigen::Index f = 0; f < runs[0].sink_share.cols(); ++f) {
            std::vector<double> values;
            for (const LabResult& r : runs) values.push_back(r.sink_share(l, f));
            per_length.push_back(summary(values)["median"]);
          }
          entry["sink_share"].push_back(per_length);
        }
        size_doc["runs"][std::string(positional::lab_task_name(task))][model] = entry;
        std::fprintf(stderr, "%-7s %-10s %-16s medians:", size.c_str(),
                     std::string(positional::lab_task_name(task)).c_str(), model.c_str());
        for (const auto& [variant, lengths] : entry["accuracy"].items()) {
          std::fprintf(stderr, " %s", variant.c_str());
          for (const json& s : lengths) std::fprintf(stderr, " %.2f", s["median"].get<double>());
        }
        std::fprintf(stderr, "  (%.1f ms/step)\n", entry["ms_per_step"].get<double>());
      }
    }
    doc["sizes"][size] = size_doc;
  }
  // With --merge, the time of the runs made now.
  doc["total_seconds"] =
      std::round(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  const std::string text = doc.dump(1) + "\n";
  if (out_path.empty()) {
    std::cout << text;
  } else {
    std::ofstream(out_path) << text;
  }
  return 0;
}
