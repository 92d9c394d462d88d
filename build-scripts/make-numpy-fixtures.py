#!/usr/bin/python3
"""Writes the numpy reference data the engine's numpy-compatible randomness and the
lesson's order-blindness demo are tested against (tests/fixtures/numpy/*.json).

Run with Debian's python3 (numpy 1.24):  /usr/bin/python3 build-scripts/make-numpy-fixtures.py
Optional: --lesson PATH/positional.py also loads the lesson module itself (with its missing
sibling modules stubbed) and checks that this script's demo layer reproduces it exactly.

64-bit integers are written as hexadecimal strings so JSON keeps every bit; doubles are
written by json (repr), which round-trips exactly.

The demo layer itself (word vectors, weights, encode_sentence, attention) comes from the numpy
reference module tests/reference/numpy_reference.py, which the numpy benchmark shares.
"""

import argparse
import hashlib
import importlib.util
import json
import os
import sys
import types

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "reference"))
from numpy_reference import (D_DEMO, ORDER_CASES as CASES, W_K, W_Q, W_V, WEIGHTS_SEED,  # noqa: E402
                             causal_mask, encode_sentence, order_similarities, scaled_dot_product_attention,
                             word_vector)
OUT_DIR = os.path.join(ROOT, "tests", "fixtures", "numpy")

RAW_SEEDS = [0, 1, 7, 2**32 - 1, 2**63 + 5, 2**64 + 12345, 3**100]  # the last has six 32-bit words
RAW_DRAWS = 1000
NORMAL_DRAWS = 10**6
NORMAL_HEAD = 1000
NORMAL_STRIDE = 997
WORDS = [
    "dog", "bites", "man",
    "",                                             # empty: md5 of no bytes
    "a" * 55, "a" * 56, "a" * 64,                   # MD5 padding boundaries
    "pneumonoultramicroscopicsilicovolcanoconiosis" * 3,  # long: three MD5 blocks
    "café", "naïve", "Ångström",                    # accented (two-byte UTF-8)
    "猫", "注意力",                                  # CJK (three-byte UTF-8)
    "🐕", "👩‍💻",                                      # emoji (four bytes; a ZWJ sequence)
]
SENTENCES = ("dog bites man", "man bites dog")


def hex64(value):
    return f"{int(value):016x}"


def hex128(value):
    return f"{int(value):032x}"


# ---- fixture builders ------------------------------------------------------------------------

def seed_sequences():
    entries = []
    for seed in RAW_SEEDS:
        ss = np.random.SeedSequence(seed)
        bit_generator = np.random.PCG64(seed)
        state = bit_generator.state["state"]
        entries.append({
            "seed": str(seed),
            "pool": [int(w) for w in ss.pool],
            "generate_state_uint32": [int(w) for w in ss.generate_state(8, np.uint32)],
            "generate_state_uint64": [hex64(w) for w in ss.generate_state(4, np.uint64)],
            "pcg64_state": hex128(state["state"]),
            "pcg64_inc": hex128(state["inc"]),
            "raw": [hex64(w) for w in bit_generator.random_raw(RAW_DRAWS)],
            "doubles": [float(v) for v in np.random.Generator(np.random.PCG64(seed)).random(16)],
        })
    return {"draws": RAW_DRAWS, "seeds": entries}


def compact(values):
    """First NORMAL_HEAD values, every NORMAL_STRIDE-th (1-based positions), and the last."""
    return {
        "head": [float(v) for v in values[:NORMAL_HEAD]],
        "strided": [float(v) for v in values[NORMAL_STRIDE - 1::NORMAL_STRIDE]],
        "last": float(values[-1]),
    }


def normal_streams():
    word = "dog"
    word_seed = int(hashlib.md5(word.encode()).hexdigest()[:8], 16)
    streams = []
    for label, seed in (("7", 7), ("0", 0), (f"md5('{word}')[:8]", word_seed), ("2^64+12345", 2**64 + 12345)):
        values = np.random.default_rng(seed).standard_normal(NORMAL_DRAWS)
        streams.append({"label": label, "seed": str(seed), **compact(values)})
    return {"count": NORMAL_DRAWS, "head_count": NORMAL_HEAD, "stride": NORMAL_STRIDE, "streams": streams}


def words():
    entries = []
    for word in WORDS:
        digest = hashlib.md5(word.encode()).hexdigest()
        entries.append({"word": word, "utf8_bytes": len(word.encode()), "md5": digest,
                        "seed": str(int(digest[:8], 16)), "vector": [float(v) for v in word_vector(word)]})
    return {"d": D_DEMO, "words": entries}


def demo():
    a = encode_sentence(SENTENCES[0], "none")
    b = encode_sentence(SENTENCES[1], "none")
    outputs = {}
    for label, scheme, causal in CASES:
        outputs[label] = {s: [float(v) for v in encode_sentence(s, scheme, causal).ravel()] for s in SENTENCES}
    return {
        "d": D_DEMO,
        "weights_seed": WEIGHTS_SEED,
        "W_Q": [float(v) for v in W_Q.ravel()],
        "W_K": [float(v) for v in W_K.ravel()],
        "W_V": [float(v) for v in W_V.ravel()],
        "sentences": list(SENTENCES),
        "order_similarities": order_similarities(*SENTENCES),
        "dog_row_max_difference": float(np.abs(a[0] - b[2]).max()),
        "encoded": outputs,
    }


def check_against_lesson(path):
    """Loads the lesson with its sibling modules stubbed by this script's versions and
    checks word vectors, weights and encodings agree bit for bit."""
    primer = types.ModuleType("primer")
    show = types.ModuleType("primer._show")
    for name in ("banner", "matrix", "say", "table", "takeaway"):
        setattr(show, name, lambda *a, **k: None)
    ml = types.ModuleType("primer.ml")
    attention = types.ModuleType("primer.ml.attention")
    attention.causal_mask = causal_mask
    attention.scaled_dot_product_attention = scaled_dot_product_attention
    sys.modules.update({"primer": primer, "primer._show": show, "primer.ml": ml, "primer.ml.attention": attention})
    spec = importlib.util.spec_from_file_location("lesson_positional", path)
    lesson = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lesson)
    for word in WORDS:
        assert np.array_equal(lesson.word_vector(word), word_vector(word)), word
    for mine, theirs in ((W_Q, lesson._W_Q), (W_K, lesson._W_K), (W_V, lesson._W_V)):
        assert np.array_equal(mine, theirs)
    for _, scheme, causal in CASES:
        for s in SENTENCES:
            assert np.array_equal(lesson.encode_sentence(s, scheme, causal), encode_sentence(s, scheme, causal))
    theirs = list(lesson.order_similarity().values())
    assert theirs == list(order_similarities(*SENTENCES).values()), theirs
    print(f"checked against the lesson module {path}: identical")


def main():
    parser = argparse.ArgumentParser(description="numpy fixtures for the engine's tests")
    parser.add_argument("--lesson", help="path of the lesson's positional.py to cross-check against")
    args = parser.parse_args()
    if args.lesson:
        check_against_lesson(args.lesson)
    os.makedirs(OUT_DIR, exist_ok=True)
    outputs = {"seed_sequence.json": seed_sequences(), "standard_normal.json": normal_streams(),
               "word_vectors.json": words(), "demo_layer.json": demo()}
    for name, data in outputs.items():
        data = {"numpy_version": np.__version__, **data}
        path = os.path.join(OUT_DIR, name)
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, separators=(",", ":"))
            fh.write("\n")
        print(f"wrote {os.path.relpath(path, ROOT)} ({os.path.getsize(path) // 1024} KB)")
    sims = outputs["demo_layer.json"]["order_similarities"]
    print("order similarities: " + ", ".join(f"{k} {v:.3f}" for k, v in sims.items()))


if __name__ == "__main__":
    main()
