#!/usr/bin/python3
"""Writes the numpy reference the length lab's training step is tested against
(tests/fixtures/numpy/length_lab.json), from tests/reference/length_lab_reference.py.

Run with Debian's python3 (numpy 1.24):  /usr/bin/python3 build-scripts/make-length-lab-fixtures.py

For each case (every scheme and every task at least once, at a tiny size, SSMax on three): the configuration, the first and
last 64 initial parameters (numpy's standard normals, which the engine reproduces to within a few ulps: its
ziggurat tables are derived, not copied), the first training batch, the loss and full gradient at step 0, the loss of each of three Adam
steps, the parameters after them, and each layer's attention share on position 0 over the first batch. Doubles are written by json (repr), which round-trips exactly.
Before writing, the numpy gradient is itself checked against central finite differences.
"""

import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "reference"))
import length_lab_reference as ref  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "numpy", "length_lab.json")

TINY = {"symbols": 4, "train_length": 8, "layers": 2, "d_model": 8, "heads": 2, "mlp_width": 8, "batch": 3,
        "steps": 3, "learning_rate": 1e-2, "lookup_distance": 2, "eval_sequences": 1, "max_eval_factor": 2,
        "rope_base": 10000.0, "length_scaled_softmax": False, "window": 3, "recalibration_steps": 1}
# (scheme, task, seed, length-scaled softmax): every scheme and task, SSMax over three schemes, DroPE
# recalibrating for its last step.
CASES = [("none", "copy", 11, False), ("learned", "lookup", 12, False), ("sinusoidal", "last-write", 13, False),
         ("rope", "lookup", 14, False), ("alibi", "copy", 15, False), ("rope", "last-write", 16, False),
         ("rope", "copy", 17, True), ("alibi", "last-write", 18, True), ("rnope-swa", "copy", 19, False),
         ("drope", "lookup", 20, False), ("rnope-swa", "lookup", 21, True),
         ("cope", "copy", 22, False), ("cope", "last-write", 23, True)]


def check_reference_gradient(cfg, result):
    """Central differences (h = 1e-6) on every 7th parameter must agree with the numpy backward pass."""
    flat = result["initial"]
    batch = result["first_batch"]
    worst = 0.0
    for i in range(0, flat.size, 7):
        plus, minus = flat.copy(), flat.copy()
        plus[i] += 1e-6
        minus[i] -= 1e-6
        fd = (ref.batch_loss(cfg, ref.unflatten(cfg, plus), batch)[0] -
              ref.batch_loss(cfg, ref.unflatten(cfg, minus), batch)[0]) / 2e-6
        worst = max(worst, abs(fd - result["first_gradient"][i]))
    scale = np.abs(result["first_gradient"]).max()
    assert worst <= 1e-7 * scale, f"numpy gradient off by {worst} (largest entry {scale})"
    return worst / scale


def main():
    cases = []
    for scheme, task, seed, ssmax in CASES:
        cfg = dict(TINY, scheme=scheme, task=task, seed=seed, length_scaled_softmax=ssmax)
        result = ref.train(cfg)
        relative = check_reference_gradient(cfg, result)
        print(f"{scheme:>10} {task:<10} losses {[round(v, 6) for v in result['losses']]}  "
              f"numpy gradient vs finite differences: {relative:.1e} of the largest entry")
        cases.append({
            "config": cfg,
            "initial_head": [float(v) for v in result["initial"][:64]],
            "initial_tail": [float(v) for v in result["initial"][-64:]],
            "first_batch": [{"tokens": [int(v) for v in tokens], "targets": [int(v) for v in targets]}
                            for tokens, targets in result["first_batch"]],
            "first_gradient": [float(v) for v in result["first_gradient"]],
            "losses": [float(v) for v in result["losses"]],
            "final": [float(v) for v in result["final"]],
            "sink_share": [float(v) for v in result["sink_share"]],
        })
    with open(OUT, "w") as out:
        json.dump({"numpy": np.__version__, "cases": cases}, out, indent=None, separators=(",", ":"))
        out.write("\n")
    print(f"wrote {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
