"""The length lab's model in numpy, written independently of the C++ (positional/length_lab.hpp): the same
tasks drawn from the same PCG64 streams, the same initialisation from numpy's default_rng, a forward pass
in matrix form, its backward pass by hand, and the same Adam with clipping and learning-rate schedule.
build-scripts/make-length-lab-fixtures.py runs it to write tests/fixtures/numpy/length_lab.json.

Where the C++ uses its own exp, log, sin and cos (bit-for-bit the same on every platform), this uses
numpy's; they differ in the last bit, so the comparison is to a tolerance, not to the bit.
"""

import numpy as np

LAYER_NORM_EPSILON = 1e-5
GELU_SCALE = np.sqrt(2 / np.pi)
GELU_CUBIC = 0.044715
ADAM_BETA1, ADAM_BETA2, ADAM_EPSILON, GRADIENT_CLIP = 0.9, 0.99, 1e-8, 1.0
SCHEMES = ("none", "learned", "sinusoidal", "rope", "alibi", "rnope-swa", "drope", "cope")
TASKS = ("lookup", "copy", "last-write")


# ---- data ---------------------------------------------------------------------------------------------

def training_stream(seed):
    """PCG64(SeedSequence([seed, 1])): every training batch of a run, in order."""
    return np.random.PCG64(np.random.SeedSequence([seed, 1]))


def draw_below(bits, bound):
    return int(bits.random_raw()) % bound


def make_sequence(cfg, length, copy_length, bits):
    """One sequence of cfg['task'] (tokens, targets with -1 for none), drawn as the C++ draws it."""
    s = cfg["symbols"]
    bos, sep = s, s + 1
    if cfg["task"] == "lookup":
        k = cfg["lookup_distance"]
        tokens = [bos] + [draw_below(bits, s) for _ in range(length - 1)]
        targets = [tokens[t - k] if t >= k + 1 else -1 for t in range(length)]
    elif cfg["task"] == "copy":
        n = copy_length
        content = [draw_below(bits, s) for _ in range(n)]
        tokens = [bos] + content + [sep] + content
        targets = [tokens[t - n] if n + 1 <= t <= 2 * n else -1 for t in range(2 * n + 2)]
    else:  # last-write
        writes = s // 2
        noise = s - writes
        tokens = [bos, draw_below(bits, writes)]
        targets = [-1, -1]
        latest = tokens[1]
        for _ in range(2, length):
            r = int(bits.random_raw())
            if r % 4 == 0:
                latest = (r >> 2) % writes
                tokens.append(latest)
                targets.append(-1)
            else:
                tokens.append(writes + (r >> 2) % noise)
                targets.append(latest)
    return np.array(tokens), np.array(targets)


def next_batch(cfg, bits):
    batch = []
    for _ in range(cfg["batch"]):
        n = 1 + draw_below(bits, (cfg["train_length"] - 2) // 2) if cfg["task"] == "copy" else 0
        batch.append(make_sequence(cfg, cfg["train_length"], n, bits))
    return batch


# ---- parameters ---------------------------------------------------------------------------------------

def parameter_groups(cfg):
    """(name, shape, std or None, constant) in the documented order."""
    d, m, vocab, layers = cfg["d_model"], cfg["mlp_width"], cfg["symbols"] + 2, cfg["layers"]
    depth = 2.0 * layers
    groups = [("token_embedding", (vocab, d), 1.0, 0.0)]
    if cfg["scheme"] == "learned":
        groups.append(("position_table", (cfg["train_length"] * cfg["max_eval_factor"], d), 1.0, 0.0))
    for layer in range(layers):
        p = f"layer{layer}."
        groups += [(p + "ln1_gain", (d,), None, 1.0), (p + "ln1_bias", (d,), None, 0.0),
                   (p + "wq", (d, d), 1.0 / np.sqrt(d), 0.0), (p + "wk", (d, d), 1.0 / np.sqrt(d), 0.0),
                   (p + "wv", (d, d), 1.0 / np.sqrt(d), 0.0), (p + "wo", (d, d), 1.0 / np.sqrt(d * depth), 0.0)]
        if cfg["scheme"] == "cope":
            width = d // cfg["heads"]
            groups.append((p + "cope_positions", (cfg["train_length"] + 1, width), 1.0 / np.sqrt(width), 0.0))
        if cfg.get("length_scaled_softmax"):
            groups.append((p + "ssmax_scale", (cfg["heads"],), None, 1.0 / np.log(cfg["train_length"])))
        groups += [(p + "ln2_gain", (d,), None, 1.0), (p + "ln2_bias", (d,), None, 0.0),
                   (p + "w1", (d, m), 1.0 / np.sqrt(d), 0.0), (p + "b1", (m,), None, 0.0),
                   (p + "w2", (m, d), 1.0 / np.sqrt(m * depth), 0.0), (p + "b2", (d,), None, 0.0)]
    groups += [("final_gain", (d,), None, 1.0), ("final_bias", (d,), None, 0.0),
               ("unembed", (d, vocab), 1.0 / np.sqrt(d), 0.0), ("unembed_bias", (vocab,), None, 0.0)]
    return groups


def initial_parameters(cfg):
    """A dict of arrays: std * default_rng(seed).standard_normal in group order, or constants."""
    rng = np.random.default_rng(cfg["seed"])
    params = {}
    for name, shape, std, constant in parameter_groups(cfg):
        params[name] = std * rng.standard_normal(int(np.prod(shape))).reshape(shape) if std else np.full(shape, constant)
    return params


def flatten(cfg, tensors):
    return np.concatenate([tensors[name].ravel() for name, *_ in parameter_groups(cfg)])


# ---- positions ----------------------------------------------------------------------------------------

def alibi_slopes(n):
    """Press et al.'s slopes for a power-of-two head count (the fixtures use 2 heads)."""
    assert n & (n - 1) == 0
    return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)


def rope_tables(cfg, length):
    width = cfg["d_model"] // cfg["heads"]
    theta = cfg["rope_base"] ** (-np.arange(0, width, 2) / width)
    angles = np.arange(length)[:, None] * theta
    return np.cos(angles), np.sin(angles)


def rotate(x, cos, sin, heads, inverse=False):
    """Turn each head's interleaved pairs of x (T x d) by the table's angles (back again if inverse)."""
    t, d = x.shape
    x = x.reshape(t, heads, d // heads)
    even, odd = x[..., 0::2], x[..., 1::2]
    c, s = cos[:, None, :], (-sin if inverse else sin)[:, None, :]
    out = np.empty_like(x)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = even * s + odd * c
    return out.reshape(t, d)


def sinusoidal_codes(length, d):
    angles = np.arange(length)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    codes = np.empty((length, d))
    codes[:, 0::2], codes[:, 1::2] = np.sin(angles), np.cos(angles)
    return codes


# ---- forward and backward -----------------------------------------------------------------------------

def layer_norm(x, gain, bias):
    mean = x.mean(axis=1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + LAYER_NORM_EPSILON)
    xhat = (x - mean) * rstd
    return xhat * gain + bias, (xhat, rstd)


def layer_norm_backward(dy, cache, gain):
    xhat, rstd = cache
    dxhat = dy * gain
    dx = rstd * (dxhat - dxhat.mean(axis=1, keepdims=True) - xhat * (dxhat * xhat).mean(axis=1, keepdims=True))
    return dx, (dy * xhat).sum(axis=0), dy.sum(axis=0)


def running_scheme(cfg, dropped):
    """What the forward pass runs: DroPE is RoPE until its positions are dropped, then NoPE."""
    if cfg["scheme"] == "drope":
        return "none" if dropped else "rope"
    return cfg["scheme"]


def layer_is_local(cfg, layer):
    """RNoPE-SWA: every layer but the last and every fourth is local RoPE."""
    return cfg["scheme"] == "rnope-swa" and layer + 1 != cfg["layers"] and (layer + 1) % 4 != 0


def sequence_loss(cfg, P, tokens, targets, grads=None, dropped=False, sinks=None):
    """Sum of cross-entropies over the targets of one sequence; adds d(sum)/d(params) * scale into grads
    (a dict of arrays, with grads['_scale'] the factor) when given; adds each layer's summed attention on
    key 0 of the queries t >= 1 (over heads) into sinks when given."""
    T, d, H = len(tokens), cfg["d_model"], cfg["heads"]
    width = d // H
    scheme = running_scheme(cfg, dropped)
    ssmax = bool(cfg.get("length_scaled_softmax"))
    scale = 1.0 / np.sqrt(width)
    x = P["token_embedding"][tokens].copy()
    if scheme == "learned":
        x += P["position_table"][:T]
    if scheme == "sinusoidal":
        x += sinusoidal_codes(T, d)
    if scheme in ("rope", "rnope-swa"):
        cos, sin = rope_tables(cfg, T)
    distance = np.arange(T)[:, None] - np.arange(T)[None, :]
    slopes = alibi_slopes(H) if scheme == "alibi" else np.zeros(H)
    caches = []
    for layer in range(cfg["layers"]):
        p = f"layer{layer}."
        local = layer_is_local(cfg, layer)
        rotated = scheme == "rope" or local
        visible = (distance >= 0) & (distance < cfg["window"] if local else True)
        log_n = np.log(visible.sum(axis=1))[:, None]  # ln of the keys each query sees
        a, ln1 = layer_norm(x, P[p + "ln1_gain"], P[p + "ln1_bias"])
        q, k, v = a @ P[p + "wq"], a @ P[p + "wk"], a @ P[p + "wv"]
        if rotated:
            q, k = rotate(q, cos, sin, H), rotate(k, cos, sin, H)
        probs = np.zeros((H, T, T))
        raws = np.zeros((H, T, T))
        copes = [None] * H
        o = np.zeros((T, d))
        for h in range(H):
            cols = slice(h * width, (h + 1) * width)
            raw = q[:, cols] @ k[:, cols].T * scale - slopes[h] * distance
            if scheme == "cope":
                # CoPE: gates sigma(raw), counts summed from each key up to the query, clamped to the
                # table, and q . e(count) interpolated between the rows either side.
                table = P[p + "cope_positions"]
                last = table.shape[0] - 1
                gate = np.where(visible, 1.0 / (1.0 + np.exp(-raw)), 0.0)
                count = np.minimum(np.cumsum(gate[:, ::-1], axis=1)[:, ::-1], last)
                lo = np.floor(count).astype(int)
                hi = np.minimum(lo + 1, last)
                frac = count - lo
                qe = q[:, cols] @ table.T
                rows_ = np.arange(T)[:, None]
                e_lo, e_hi = qe[rows_, lo], qe[rows_, hi]
                raw = raw + ((1 - frac) * e_lo + frac * e_hi) * scale
                copes[h] = (gate, count, lo, hi, frac, e_lo, e_hi, last)
            raws[h] = np.where(visible, raw, 0.0)
            s = raw * (P[p + "ssmax_scale"][h] * log_n) if ssmax else raw
            s = np.where(visible, s, -np.inf)
            e = np.exp(s - s.max(axis=1, keepdims=True))
            probs[h] = e / e.sum(axis=1, keepdims=True)
            o[:, cols] = probs[h] @ v[:, cols]
        if sinks is not None:
            sinks[layer] += probs[:, 1:, 0].sum()
        x_mid = x + o @ P[p + "wo"]
        b, ln2 = layer_norm(x_mid, P[p + "ln2_gain"], P[p + "ln2_bias"])
        z = b @ P[p + "w1"] + P[p + "b1"]
        th = np.tanh(GELU_SCALE * (z + GELU_CUBIC * z ** 3))
        g = 0.5 * z * (1 + th)
        caches.append((a, ln1, q, k, v, probs, raws, log_n, rotated, copes, o, ln2, b, z, th, g))
        x = x_mid + g @ P[p + "w2"] + P[p + "b2"]
    f, lnf = layer_norm(x, P["final_gain"], P["final_bias"])
    rows = np.flatnonzero(targets >= 0)
    logits = f[rows] @ P["unembed"] + P["unembed_bias"]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    total = -log_softmax[np.arange(len(rows)), targets[rows]].sum()
    if grads is None:
        return total
    dlogits = np.exp(log_softmax)
    dlogits[np.arange(len(rows)), targets[rows]] -= 1.0
    dlogits *= grads["_scale"]
    grads["unembed"] += f[rows].T @ dlogits
    grads["unembed_bias"] += dlogits.sum(axis=0)
    df = np.zeros((T, d))
    df[rows] = dlogits @ P["unembed"].T
    dx, dgain, dbias = layer_norm_backward(df, lnf, P["final_gain"])
    grads["final_gain"] += dgain
    grads["final_bias"] += dbias
    for layer in reversed(range(cfg["layers"])):
        p = f"layer{layer}."
        a, ln1, q, k, v, probs, raws, log_n, rotated, copes, o, ln2, b, z, th, g = caches[layer]
        grads[p + "w2"] += g.T @ dx
        grads[p + "b2"] += dx.sum(axis=0)
        dz = (dx @ P[p + "w2"].T) * (0.5 * (1 + th) + 0.5 * z * (1 - th ** 2) * GELU_SCALE * (1 + 3 * GELU_CUBIC * z ** 2))
        grads[p + "w1"] += b.T @ dz
        grads[p + "b1"] += dz.sum(axis=0)
        d_mid, dgain, dbias = layer_norm_backward(dz @ P[p + "w1"].T, ln2, P[p + "ln2_gain"])
        grads[p + "ln2_gain"] += dgain
        grads[p + "ln2_bias"] += dbias
        d_mid += dx
        grads[p + "wo"] += o.T @ d_mid
        do = d_mid @ P[p + "wo"].T
        dq, dk, dv = np.zeros((T, d)), np.zeros((T, d)), np.zeros((T, d))
        for h in range(H):
            cols = slice(h * width, (h + 1) * width)
            dp = do[:, cols] @ v[:, cols].T
            dv[:, cols] = probs[h].T @ do[:, cols]
            d_raw = probs[h] * (dp - (probs[h] * dp).sum(axis=1, keepdims=True))
            if ssmax:
                grads[p + "ssmax_scale"][h] += (d_raw * raws[h] * log_n).sum()
                d_raw = d_raw * (P[p + "ssmax_scale"][h] * log_n)
            ds = d_raw * scale
            if scheme == "cope":
                gate, count, lo, hi, frac, e_lo, e_hi, last = copes[h]
                table = P[p + "cope_positions"]
                causal = distance >= 0
                dmix = np.where(causal, ds, 0.0)  # d loss / d (q . e(count))
                mixed = (1 - frac)[:, :, None] * table[lo] + frac[:, :, None] * table[hi]
                dq[:, cols] += np.einsum("tu,tui->ti", dmix, mixed)
                np.add.at(grads[p + "cope_positions"], lo, (dmix * (1 - frac))[:, :, None] * q[:, cols][:, None, :])
                np.add.at(grads[p + "cope_positions"], hi, (dmix * frac)[:, :, None] * q[:, cols][:, None, :])
                d_count = np.where(causal & (count < last), dmix * (e_hi - e_lo), 0.0)
                d_gate = np.cumsum(d_count, axis=1)
                ds = ds + np.where(causal, d_gate * gate * (1 - gate), 0.0) * scale
            dq[:, cols] += ds @ k[:, cols]
            dk[:, cols] = ds.T @ q[:, cols]
        if rotated:
            dq, dk = rotate(dq, cos, sin, H, inverse=True), rotate(dk, cos, sin, H, inverse=True)
        grads[p + "wq"] += a.T @ dq
        grads[p + "wk"] += a.T @ dk
        grads[p + "wv"] += a.T @ dv
        da = dq @ P[p + "wq"].T + dk @ P[p + "wk"].T + dv @ P[p + "wv"].T
        d_in, dgain, dbias = layer_norm_backward(da, ln1, P[p + "ln1_gain"])
        grads[p + "ln1_gain"] += dgain
        grads[p + "ln1_bias"] += dbias
        dx = d_mid + d_in
    np.add.at(grads["token_embedding"], tokens, dx)
    if scheme == "learned":
        grads["position_table"][:T] += dx
    return total


def batch_loss(cfg, P, batch, with_gradient=False, dropped=False):
    """Mean cross-entropy over every target of the batch, and its gradient (a dict) when asked."""
    count = sum(int((targets >= 0).sum()) for _, targets in batch)
    grads = None
    if with_gradient:
        grads = {name: np.zeros_like(value) for name, value in P.items()}
        grads["_scale"] = 1.0 / count
    total = sum(sequence_loss(cfg, P, tokens, targets, grads, dropped) for tokens, targets in batch)
    if grads is not None:
        del grads["_scale"]
    return total / count, grads


# ---- training -----------------------------------------------------------------------------------------

def learning_rate(cfg, step):
    warmup = max(1, cfg["steps"] // 10)
    if step < warmup:
        return cfg["learning_rate"] * (step + 1) / warmup
    span = max(1, cfg["steps"] - 1 - warmup)
    return cfg["learning_rate"] * (1.0 - 0.9 * min((step - warmup) / span, 1.0))


class Adam:
    def __init__(self, size):
        self.m, self.v, self.step = np.zeros(size), np.zeros(size), 0

    def update(self, params, gradient, lr):
        norm = np.sqrt((gradient ** 2).sum())
        g = gradient * (GRADIENT_CLIP / norm if norm > GRADIENT_CLIP else 1.0)
        self.step += 1
        self.m = ADAM_BETA1 * self.m + (1 - ADAM_BETA1) * g
        self.v = ADAM_BETA2 * self.v + (1 - ADAM_BETA2) * g * g
        m_hat = self.m / (1 - ADAM_BETA1 ** self.step)
        v_hat = self.v / (1 - ADAM_BETA2 ** self.step)
        return params - lr * m_hat / (np.sqrt(v_hat) + ADAM_EPSILON)


def unflatten(cfg, flat):
    out, at = {}, 0
    for name, shape, *_ in parameter_groups(cfg):
        size = int(np.prod(shape))
        out[name] = flat[at:at + size].reshape(shape)
        at += size
    return out


def train(cfg):
    """cfg['steps'] steps from the initial parameters; returns what the fixture records."""
    tensors = initial_parameters(cfg)
    flat = flatten(cfg, tensors)
    bits = training_stream(cfg["seed"])
    adam = Adam(flat.size)
    losses, first_batch, first_gradient = [], None, None
    drop_at = cfg["steps"] - cfg["recalibration_steps"] if cfg["scheme"] == "drope" else cfg["steps"] + 1
    for step in range(cfg["steps"]):
        batch = next_batch(cfg, bits)
        loss, grads = batch_loss(cfg, unflatten(cfg, flat), batch, with_gradient=True, dropped=step >= drop_at)
        gradient = flatten(cfg, grads)
        if step == 0:
            first_batch, first_gradient = batch, gradient
        losses.append(loss)
        flat = adam.update(flat, gradient, learning_rate(cfg, step))
    # Each layer's attention share on position 0 of the trained model over the first batch (as evaluated:
    # a DroPE model without positions), the mean over heads and queries t >= 1.
    sinks = np.zeros(cfg["layers"])
    final = unflatten(cfg, flat)
    for tokens, targets in first_batch:
        sequence_loss(cfg, final, tokens, targets, dropped=cfg["scheme"] == "drope", sinks=sinks)
    queries = sum((len(tokens) - 1) * cfg["heads"] for tokens, _ in first_batch)
    return {"initial": flatten(cfg, tensors), "first_batch": first_batch, "first_gradient": first_gradient,
            "losses": losses, "final": flat, "sink_share": sinks / queries}
