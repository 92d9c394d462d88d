"""Writes the committed seed corpus of the fuzz targets (tests/fuzz/corpus/fuzz_<topic>/).

Each seed is a valid-looking call in the byte encoding of tests/fuzz/fuzz_input.hpp, so that the
fuzzers start from inputs that reach deep into every function. Rerun after changing the encoding:
    /usr/bin/python3 tests/fuzz/make-seed-corpus.py
"""

import hashlib
import pathlib
import struct

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "configs"


def small(n: int) -> bytes:
    """FuzzInput::integer() for 0 <= n <= 187."""
    return bytes([12 + n])


def raw(x: float) -> bytes:
    """FuzzInput::number() as the raw bits of x."""
    return bytes([255]) + struct.pack(">d", x)


def whole(x: int) -> bytes:
    """FuzzInput::number() for a whole number -32 <= x <= 99."""
    return bytes([28 + 32 + x])


def tame(values) -> bytes:
    """FuzzInput::tame_vector(): one byte per value (value*16 + 128)."""
    return bytes(int(v * 16 + 128) & 0xFF for v in values)


def write(target: str, seeds: list[bytes]) -> None:
    folder = HERE / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for seed in seeds:
        (folder / hashlib.sha1(seed).hexdigest()).write_bytes(seed)


def core_seeds() -> list[bytes]:
    seeds = [
        bytes([0]) + small(3) + small(4) + bytes([1]),             # sinusoidal_encoding(3, 4)
        bytes([0]) + small(100) + small(32) + bytes([0]) + raw(500.0),
        bytes([1]) + small(20) + small(8) + bytes([1]),            # concatenated
        bytes([2]) + whole(10) + whole(13) + small(32) + bytes([1]),  # sinusoidal_dot
        bytes([3]) + bytes([1]) + small(64),                       # rope_frequencies(64)
        bytes([3 + 8]) + bytes([1, 0, 8]) + tame([1, 0, 0.5, -1, 2, 3, -0.25, 1]) + whole(3),
        bytes([3 + 16]) + bytes([1, 4, 4, 1]) + tame(range(16)) + bytes([0]) + tame([0, 1, 2, 3]),
        bytes([3 + 24]) + bytes([1, 1, 80, 3]),                     # apply_rope_sequence, 160 × 8
        bytes([7]) + bytes([1, 0, 100, 7]),                         # angle-addition path, 200 × 16
        bytes([3 + 32]) + bytes([4, 4, 1]) + tame(range(16)) + tame([0, 1, 2, 3]) + bytes([0]) + tame([1, 0.5]),
        bytes([3 + 40, 1, 8]) + tame(range(8)) + bytes([0, 8]) + tame(range(8, 0, -1)) + bytes([3]) + whole(0)
        + raw(100.0) + raw(1000.0) + small(59),                    # rope_scores_over_distance
        bytes([3 + 48, 1, 8]) + b"".join(whole(p) for p in range(8)) + bytes([4]) + b"".join(whole(p) for p in (0, 4, 12, 31))
        + small(64) + bytes([1]),                                  # rope_pair_angles
        bytes([4, 6, 4, 1]) + tame([0.1 * i for i in range(24)]) + bytes([1, 1, 1]),  # attention, shared q = k = v
        bytes([4, 5, 3, 1]) + tame(range(15)) + bytes([0, 5, 3, 1]) + tame(range(15)) + bytes([0, 5, 2, 1]) + tame(range(10)) + bytes([1]),
        bytes([5, 4]) + whole(1) + whole(2) + whole(3) + whole(4) + bytes([0, 4]) + whole(2) + whole(2) + whole(2) + whole(2),
        bytes([6, 4]) + whole(0) + whole(8) + whole(16) + whole(99) + raw(4096.0) + raw(32768.0),  # interpolate_positions
        bytes([6 + 8]) + raw(10000.0) + whole(8) + small(128),     # ntk_scaled_base
    ]
    return seeds


def widget_seeds() -> list[bytes]:
    return [
        bytes([0]) + small(8),                                    # alibi_slopes(8)
        bytes([0]) + small(12),
        bytes([1]) + raw(0.25) + small(16),                       # alibi_bias
        bytes([2]) + small(64) + bytes([1]) + small(100),         # rope_decay_curve
        bytes([3]) + small(64) + bytes([1]) + small(100),         # rope_ones_scores
        bytes([4]) + small(128) + bytes([1]) + raw(4096.0) + bytes([1, 1]),
        bytes([6]) + whole(8),
        bytes([7, 1]) + whole(8) + small(128) + raw(40000.0) + raw(4096.0),
        bytes([8, 4]) + whole(1) + raw(0.1) + raw(0.01) + raw(0.001),
        bytes([9]) + small(128) + bytes([1]) + raw(4096.0) + raw(32768.0),
        bytes([10, 4]) + whole(0) + whole(64) + whole(99) + raw(32704.0) + raw(4096.0) + raw(32768.0) + small(128) + bytes([1]),
        bytes([11, 3]) + whole(0) + raw(1e6) + raw(2e9) + bytes([2]) + whole(0) + whole(10) + small(128) + bytes([1]),
        bytes([12, 0, 4]) + tame([1, 0, 0.5, -1, 2, 3, -0.25, 1]) + whole(3) + bytes([1]),
        bytes([13, 0, 4]) + tame([1, 0, 0.5, -1, 2, 3, -0.25, 1]) + bytes([1]) + whole(5) + small(20) + bytes([1]),
        bytes([14]) + whole(1) + whole(0) + whole(0) + whole(1) + whole(3) + whole(7) + bytes([1]),
        bytes([15]) + small(10) + small(16),
        bytes([16, 4]) + whole(1) + whole(2) + whole(3) + whole(4) + bytes([4, 1, 2, 2, 1]) + tame([1, 2, 3, 4]) + bytes([1]),
    ]


def lesson_seeds() -> list[bytes]:
    sentences = ["dog bites man", "man bites dog", "the quick brown fox jumps over the lazy dog",
                 "  leading\tand\u3000unicode\u2028spaces  ", "caf\u00e9 na\u00efve \u65e5\u672c\u8a9e \U0001F600", ""]
    seeds = [bytes([0]) + s.encode() for s in sentences]
    seeds += [bytes([1, 1]) + w.encode() for w in ("dog", "", "\u00e9t\u00e9")]
    seeds += [bytes([1, 0]) + small(64) + b"word"]
    for scheme in range(3):
        for causal in range(2):
            seeds.append(bytes([2, scheme, causal]) + b"dog bites man")
            seeds.append(bytes([3, scheme, causal]) + b"man bites dog and runs")
            seeds.append(bytes([4, scheme, causal]) + b"dog bites man\xffman bites dog")
    seeds.append(bytes([5]) + b"dog bites man\xffman bites dog")
    seeds.append(bytes([3, 0, 0]) + b"bad \xc3\x28 utf8")
    return seeds


def model_config_seeds() -> list[bytes]:
    seeds = []
    for folder in ("valid", "broken"):
        for path in sorted((FIXTURES / folder).glob("*.json")):
            seeds.append(bytes([1]) + path.read_bytes())
    seeds.append(bytes([0]) + small(100) + (FIXTURES / "valid" / "dynamic-llama.json").read_bytes())
    return seeds


def main() -> None:
    write("fuzz_core", core_seeds())
    write("fuzz_widgets", widget_seeds())
    write("fuzz_lesson", lesson_seeds())
    write("fuzz_model_config", model_config_seeds())


if __name__ == "__main__":
    main()
