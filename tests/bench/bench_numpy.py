"""Times the engine's benchmark kernels written in numpy the way the lesson (positional.py) writes them
(tests/reference/numpy_reference.py, the module the fixtures are generated with).

Run with Debian's python: `env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3
tests/bench/bench_numpy.py [--samples N] [--json FILE]` (run-benchmarks.mjs does). Medians of
repeated timings in one process, in milliseconds, under the same kernel keys as bench_engine.cpp.
"""

import argparse
import ctypes
import json
import os
import platform
import re
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
from numpy_reference import (apply_rope, causal_mask, context_extension_curves,  # noqa: E402
                             encode_sentence, order_similarities, scaled_dot_product_attention,
                             sinusoidal_encoding)


def benchmark_sentence(reversed_: bool = False) -> str:
    """The 100-word sentence of bench_engine.cpp and plain-js-kernels.mjs."""
    vocabulary = ["dog", "bites", "man", "the", "a", "quick", "brown", "fox", "jumps", "over", "lazy", "cat",
                  "sees", "bird", "under", "tree", "near", "river", "small", "house", "red", "green", "blue",
                  "old", "young"]
    words = [vocabulary[(7 * i + 3) % 25] for i in range(100)]
    return " ".join(reversed(words) if reversed_ else words)


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool):
    """The reference attention with the causal mask switched on or off, as bench_engine.cpp calls it."""
    return scaled_dot_product_attention(q, k, v, mask=causal_mask(q.shape[0]) if causal else None)


def measure(fn, samples: int, min_sample_ms: float = 10.0, warmup_ms: float = 150.0) -> dict:
    """Median time of one call in ms; calls batched so a sample lasts at least min_sample_ms."""
    end = time.perf_counter() + warmup_ms / 1000
    calls = 0
    while time.perf_counter() < end or calls < 3:
        fn()
        calls += 1
    batch = 1
    while True:
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        if (time.perf_counter() - start) * 1000 >= min_sample_ms or batch >= 1 << 20:
            break
        batch *= 2
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        times.append((time.perf_counter() - start) * 1000 / batch)
    return {"medianMs": statistics.median(times), "minMs": min(times), "maxMs": max(times), "samples": samples,
            "callsPerSample": batch}


def blas_info() -> dict:
    """Which BLAS numpy runs, three ways: what numpy was built against (numpy.show_config's
    blas_opt_info), the library file actually loaded into this process (/proc/self/maps), and, if
    that library is OpenBLAS, its own report of the core it chose (openblas_get_config/_corename).
    threadpoolctl gives the same when it is installed (it is not on a fresh machine)."""
    info = {"built": "unknown", "loaded": [], "openblas": None, "threadpoolctl": None}
    try:
        built = np.__config__.get_info("blas_opt_info") or np.__config__.get_info("blas_info")
        info["built"] = ", ".join(dict.fromkeys(built.get("libraries", []))) or "unknown"
    except Exception:  # numpy's config API changes between versions
        pass
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if "/" in line and re.search(r"blas|lapack", line)}
        info["loaded"] = sorted(os.path.realpath(p) for p in paths)
    except OSError:
        pass
    for path in info["loaded"]:
        try:
            library = ctypes.CDLL(path)
            if hasattr(library, "openblas_get_config"):
                library.openblas_get_config.restype = ctypes.c_char_p
                library.openblas_get_corename.restype = ctypes.c_char_p
                info["openblas"] = {"config": library.openblas_get_config().decode(),
                                    "core": library.openblas_get_corename().decode()}
        except OSError:
            continue
    try:
        import threadpoolctl  # noqa: PLC0415 (optional)
        info["threadpoolctl"] = threadpoolctl.threadpool_info()
    except ImportError:
        pass
    return info


def memory_info() -> dict:
    """Whether numpy asks the kernel for huge pages (madvise MADV_HUGEPAGE on every array of 4 MiB or
    more, on Linux 4.6 and newer; NUMPY_MADVISE_HUGEPAGE=0 turns it off) and the kernel's transparent
    huge page mode. A fresh 32 MiB array then takes 16 page faults of 2 MiB instead of 8,192 of 4 KiB."""
    info = {"numpyMadvisesHugepages": None, "transparentHugepage": None,
            "NUMPY_MADVISE_HUGEPAGE": os.environ.get("NUMPY_MADVISE_HUGEPAGE")}
    try:
        info["numpyMadvisesHugepages"] = bool(np.core.multiarray._get_madvise_hugepage())
    except AttributeError:  # not a numpy that has the switch
        pass
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled", encoding="utf-8") as mode:
            chosen = re.search(r"\[(\w+)\]", mode.read())
            info["transparentHugepage"] = chosen.group(1) if chosen else None
    except OSError:
        pass
    return info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--json")
    parser.add_argument("--only")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4096, 128))
    q, k, v = (rng.standard_normal((512, 64)) for _ in range(3))
    a, b = benchmark_sentence(False), benchmark_sentence(True)
    positions = np.arange(512, dtype=float) * 64
    kernels = {
        "sinusoidal_32768x128": lambda: sinusoidal_encoding(32768, 128),
        "sinusoidal_4096x512": lambda: sinusoidal_encoding(4096, 512),
        "rope_sequence_4096x128": lambda: apply_rope(x),
        "attention_512x64": lambda: attention(q, k, v, True),
        "demo_layer_100": lambda: encode_sentence(a, "rope"),
        "order_similarities_100": lambda: order_similarities(a, b),
        "extension_curves_512": lambda: context_extension_curves(positions, 4096, 32768, 128),
    }
    # A fresh array of the large table's size, filled: the allocation and first-touch cost alone.
    fills = {"fresh_32768x128": lambda: np.empty(32768 * 128).fill(1.0)}
    only = set(args.only.split(",")) if args.only else None
    result = {"impl": "numpy", "numpy": np.__version__, "python": platform.python_version(), "blas": blas_info(),
              "environment": {k: os.environ.get(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")},
              "memory": memory_info(), "kernels": {}, "fills": {}}
    for section, table in (("kernels", kernels), ("fills", fills)):
        for key, fn in table.items():
            if only and key not in only:
                continue
            result[section][key] = measure(fn, args.samples)
            print(f"numpy {key:<26} {result[section][key]['medianMs']:.4f} ms", file=sys.stderr)
    # The lesson's own figures for the 100-word pair, for a cross-check against the engine.
    result["order_similarities_100"] = order_similarities(a, b)
    text = json.dumps(result, indent=2) + "\n"
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
