"""The lesson's maths in numpy, written the way the lesson (positional.py) writes it: the one
reference that the fixture generator (build-scripts/make-numpy-fixtures.py) and the numpy
benchmark (tests/bench/bench_numpy.py) both import.

The lesson module imports a sibling module that is not part of this project
(primer.ml.attention: scaled_dot_product_attention, causal_mask), so its few lines are
re-implemented here too: the standard attention softmax(Q K^T / sqrt(d)) V in which masked
scores are left out of the softmax (weight exactly 0), each row's maximum subtracted first.
make-numpy-fixtures.py --lesson checks this module against the lesson bit for bit.
"""

import hashlib

import numpy as np

D_DEMO = 16
"""Width of the demo layer's word vectors and weight matrices."""
WEIGHTS_SEED = 7
"""The seed of the demo layer's W_Q, W_K, W_V (drawn in that order)."""
ORDER_CASES = [("none", "none", False), ("sinusoidal", "sinusoidal", False), ("rope", "rope", False),
               ("causal", "none", True)]
"""The order-blindness demo's cases: (label, position scheme, causal mask)."""

_rng = np.random.default_rng(WEIGHTS_SEED)
W_Q, W_K, W_V = (_rng.normal(0, 1 / np.sqrt(D_DEMO), (D_DEMO, D_DEMO)) for _ in range(3))


def word_vector(word, d=D_DEMO):
    """A word's vector: d standard normals from numpy's default_rng seeded by md5(word)[:8]."""
    seed = int(hashlib.md5(word.encode()).hexdigest()[:8], 16)
    return np.random.default_rng(seed).standard_normal(d)


def rope_frequencies(d, base=10000.0):
    """omega_i = base^(-2i/d) for i = 0 .. d/2 - 1 (also the sinusoidal code's frequencies)."""
    return base ** (-np.arange(0, d, 2) / d)


def sinusoidal_encoding(n_positions, d, base=10000.0):
    """The sinusoidal table: row p is (sin p*omega_0, cos p*omega_0, sin p*omega_1, ...)."""
    pos = np.arange(n_positions)[:, None]
    angles = pos * rope_frequencies(d, base)
    pe = np.empty((n_positions, d))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def apply_rope(x, base=10000.0):
    """Rows of x rotated at positions 0..n-1 (the lesson's apply_rope with position=None)."""
    position = np.arange(x.shape[0])
    angles = np.asarray(position, dtype=float)[..., None] * rope_frequencies(x.shape[-1], base)
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def causal_mask(n):
    """True where query i may see key j (j <= i)."""
    return np.tril(np.ones((n, n), dtype=bool))


def scaled_dot_product_attention(Q, K, V, mask=None):
    """(softmax(Q K^T / sqrt(d)) V, the weights); keys where mask is False get weight 0."""
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)  # exp(-inf) = 0: masked keys drop out
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ V, weights


def encode_sentence(sentence, scheme="none", causal=False):
    """The demo layer: one attention layer over the sentence's word vectors, with positions
    added (sinusoidal), rotated into Q and K (rope) or absent (none)."""
    X = np.stack([word_vector(w) for w in sentence.split()])
    n = X.shape[0]
    if scheme == "sinusoidal":
        X = X + sinusoidal_encoding(n, D_DEMO)
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    if scheme == "rope":
        Q, K = apply_rope(Q), apply_rope(K)
    out, _ = scaled_dot_product_attention(Q, K, V, mask=causal_mask(n) if causal else None)
    return out


def cosine(a, b):
    """Cosine similarity of two vectors."""
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def order_similarities(a, b):
    """label → cosine of the two sentences' mean demo-layer outputs, for each of ORDER_CASES."""
    return {label: cosine(encode_sentence(a, scheme, causal).mean(axis=0),
                          encode_sentence(b, scheme, causal).mean(axis=0))
            for label, scheme, causal in ORDER_CASES}


def ntk_scaled_base(base, scale, d):
    """NTK-aware scaling: the base that stretches the slowest frequency by `scale`."""
    return base * scale ** (d / (d - 2))


def context_extension_curves(positions, trained, new, d, base=10000.0):
    """Angles of the slowest pair at `positions`, raw, interpolated and NTK-scaled (rows), and
    the largest angle seen in training."""
    slow = rope_frequencies(d, base)[-1]
    slow_ntk = rope_frequencies(d, ntk_scaled_base(base, new / trained, d))[-1]
    angles = np.stack([positions * slow, positions * (trained / new) * slow, positions * slow_ntk])
    return angles, trained * slow
