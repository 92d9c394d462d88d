#!/usr/bin/python3
"""Writes tests/fixtures/configs/expected_inv_freq.json: RoPE inverse frequencies and attention
factors for the presets and the synthetic configs, computed with numpy (float64) from the formulas
of transformers' modeling_rope_utils.py (transformers 5 semantics: YaRN keeps the given factor and
takes max_position_embeddings / original_max_position_embeddings only when it is missing), and,
where runtimes read a config differently, each runtime's reading (transformers 4.4x-4.5x replaces
YaRN's factor by that ratio; vLLM keeps it and serves original x factor tokens; vLLM's dynamic NTK
keeps the base). The runtimes compute in float32; this is the float64 formula. An outside check on
the C++ engine, written independently of it.

Run with Debian's Python (it has numpy):  /usr/bin/python3 build-scripts/make-config-fixtures.py
"""
import json
import math
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
PRESETS = ROOT / "web" / "presets"
VALID = ROOT / "tests" / "fixtures" / "configs" / "valid"
OUT = ROOT / "tests" / "fixtures" / "configs" / "expected_inv_freq.json"

# (file, sequence lengths): dynamic and longrope depend on the length, the others do not.
CASES = [
    (PRESETS / "llama-2-7b.json", [4096]),
    (PRESETS / "llama-3.1-8b.json", [8192]),
    (PRESETS / "mistral-7b-v0.1.json", [1000]),
    (PRESETS / "qwen2-7b-instruct.json", [32768]),
    (PRESETS / "yarn-llama-2-7b-64k.json", [65536]),
    (PRESETS / "phi-3.5-mini-instruct.json", [4096, 4097]),
    (VALID / "linear-llama.json", [100]),
    (VALID / "dynamic-llama.json", [100, 4096, 10000]),
    (VALID / "yarn-factor-one.json", [10]),
    (VALID / "yarn-deepseek-mscale.json", [10]),
    (VALID / "rope-parameters-new.json", [10]),
    (VALID / "partial-rotary-neox.json", [10]),
    (PRESETS / "deepseek-v3.json", [10, 200000]),
    (PRESETS / "qwen2.5-7b-instruct-yarn.json", [32768]),
    (PRESETS / "modernbert-base.json", [8192]),
    (VALID / "gemma3-local-global.json", [1000]),
    (VALID / "gemma2-local-global.json", [1000]),
    (VALID / "phi2-partial-rotary.json", [10]),
    (VALID / "glm-partial-rotary.json", [10]),
    (VALID / "yarn-factor-from-lengths.json", [10]),
    (VALID / "yarn-no-truncate.json", [10]),
]


def block_of(cfg):
    block = cfg.get("rope_parameters") or cfg.get("rope_scaling") or {}
    return block


def geometry(cfg):
    block = block_of(cfg)
    base = (block.get("rope_theta") or cfg.get("rope_theta") or cfg.get("rotary_emb_base")
            or cfg.get("global_rope_theta") or 10000.0)
    if "qk_rope_head_dim" in cfg:  # MLA: only the decoupled part turns
        return float(base), cfg["qk_rope_head_dim"]
    head_dim = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
    partial = cfg.get("partial_rotary_factor", cfg.get("rotary_pct", 1.0))
    dim = int(head_dim * partial)
    return float(base), dim


def local_base(cfg):
    """The local layers' base (Gemma 3, ModernBERT), Gemma 2's shared one, or None."""
    if "rope_local_base_freq" in cfg:
        return float(cfg["rope_local_base_freq"])
    if "local_rope_theta" in cfg:
        return float(cfg["local_rope_theta"])
    if cfg.get("model_type") == "gemma2" and cfg.get("sliding_window"):
        return float(cfg["rope_theta"])
    return None


def get_mscale(scale, mscale=1.0):
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def yarn(cfg, factor):
    """YaRN's frequencies and cos/sin factor for the given factor (ramp over the original length)."""
    block = block_of(cfg)
    base, dim = geometry(cfg)
    exponents = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim
    original = block.get("original_max_position_embeddings") or cfg["max_position_embeddings"]
    attention = block.get("attention_factor")
    if attention is None:
        if block.get("mscale") and block.get("mscale_all_dim"):
            attention = get_mscale(factor, block["mscale"]) / get_mscale(factor, block["mscale_all_dim"])
        else:
            attention = get_mscale(factor)
    beta_fast = block.get("beta_fast") or 32
    beta_slow = block.get("beta_slow") or 1

    def correction_dim(rotations):
        return (dim * math.log(original / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if block.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)
    extrapolation_factor = 1 - ramp
    pos_freqs = base ** exponents
    inv = (1.0 / (factor * pos_freqs)) * (1 - extrapolation_factor) + (1.0 / pos_freqs) * extrapolation_factor
    return inv, float(attention)


def runtime_readings(cfg, seq_len):
    """How transformers 4.4x-4.5x, transformers 5 and vLLM read the config, where they differ."""
    block = block_of(cfg)
    rope_type = block.get("rope_type", block.get("type", "default"))
    base, dim = geometry(cfg)
    max_pos = cfg["max_position_embeddings"]
    out = []
    if rope_type == "yarn" and block.get("original_max_position_embeddings") and block.get("factor"):
        original = block["original_max_position_embeddings"]
        given, ratio = float(block["factor"]), max_pos / original
        vllm_length = int(original * given)
        if given == ratio and vllm_length == max_pos:
            return out
        for runtime, factor, length in (("transformers 5", given, max_pos),
                                        ("transformers 4.4x\u20134.5x", ratio, max_pos),
                                        ("vLLM", given, vllm_length)):
            inv, attention = yarn(cfg, factor)
            out.append({"runtime": runtime, "factor": factor, "attention_factor": attention,
                        "length": length, "inv_freq": [float(x) for x in inv]})
    elif rope_type == "linear" and block["factor"] != 1:
        # Only the served length is compared (vLLM's linear frequencies are not re-derived here).
        out.append({"runtime": "transformers 4.4x\u20134.5x and 5", "factor": block["factor"], "attention_factor": 1.0,
                    "length": max_pos, "inv_freq": []})
        out.append({"runtime": "vLLM", "factor": block["factor"], "attention_factor": 1.0,
                    "length": int(max_pos * block["factor"]), "inv_freq": []})
    elif rope_type == "dynamic" and block["factor"] != 1:
        exponents = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim
        factor = block["factor"]
        seq = max(seq_len, max_pos)
        dynamic = base * ((factor * seq / max_pos) - (factor - 1)) ** (dim / (dim - 2))
        max_len = max_pos * factor  # vLLM: base * ((max_len / max_pos) - (factor - 1)) ** ..., i.e. base
        vllm_base = base * ((max_len / max_pos) - (factor - 1)) ** (dim / (dim - 2))
        out.append({"runtime": "transformers 4.4x\u20134.5x and 5", "factor": factor, "attention_factor": 1.0,
                    "length": max_pos, "inv_freq": [float(x) for x in 1.0 / dynamic ** exponents]})
        out.append({"runtime": "vLLM", "factor": factor, "attention_factor": 1.0, "length": int(max_len),
                    "inv_freq": [float(x) for x in 1.0 / vllm_base ** exponents]})
    return out


def rope(cfg, seq_len):
    block = block_of(cfg)
    rope_type = block.get("rope_type", block.get("type", "default"))
    if rope_type == "su":
        rope_type = "longrope"
    base, dim = geometry(cfg)
    exponents = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim
    inv = 1.0 / (base ** exponents)
    max_pos = cfg["max_position_embeddings"]
    attention = 1.0
    if rope_type == "linear":
        inv = inv / block["factor"]
    elif rope_type == "dynamic":
        factor = block["factor"]
        seq = max(seq_len, max_pos)
        new_base = base * ((factor * seq / max_pos) - (factor - 1)) ** (dim / (dim - 2))
        inv = 1.0 / (new_base ** exponents)
    elif rope_type == "yarn":
        factor = block.get("factor")
        if factor is None:  # transformers 5: the ratio of the lengths only when the factor is missing
            factor = max_pos / block["original_max_position_embeddings"]
        inv, attention = yarn(cfg, factor)
    elif rope_type == "longrope":
        original = cfg.get("original_max_position_embeddings") or block.get("original_max_position_embeddings")
        if original:
            factor = max_pos / original
        else:
            original, factor = max_pos, block["factor"]
        attention = block.get("attention_factor")
        if attention is None:
            attention = 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(original))
        ext = np.array(block["long_factor"] if seq_len > original else block["short_factor"], dtype=np.float64)
        inv = 1.0 / (ext * base ** exponents)
    elif rope_type == "llama3":
        factor = block["factor"]
        low_ff, high_ff = block["low_freq_factor"], block["high_freq_factor"]
        original = block["original_max_position_embeddings"]
        low_wavelen, high_wavelen = original / low_ff, original / high_ff
        wavelen = 2 * math.pi / inv
        scaled = np.where(wavelen > low_wavelen, inv / factor, inv)
        smooth = (original / wavelen - low_ff) / (high_ff - low_ff)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < high_wavelen) & ~(wavelen > low_wavelen)
        inv = np.where(medium, smoothed, scaled)
    return inv, float(attention)


# The 2025-26 families: each kind of layer, at one prompt length. Which layers get which recipe follows
# each family's configuration_*.py in transformers 5 (and vLLM's minimax_text_01.py for attn_type_list);
# the frequencies follow modeling_rope_utils.py. The layer-type names are the card's.
KIND_CASES = [
    (PRESETS / "llama-4-scout-17b-16e.json", 131072),
    (PRESETS / "gemma-3-27b-it.json", 32768),
    (PRESETS / "gemma-4-26b-a4b-it.json", 32768),
    (PRESETS / "gpt-oss-20b.json", 8192),
    (PRESETS / "qwen3-8b-yarn.json", 1000),
    (PRESETS / "qwen2.5-vl-7b-instruct.json", 1000),
    (PRESETS / "qwen3-next-80b-a3b-instruct.json", 1000),
    (PRESETS / "minimax-text-01.json", 1000),
]


def text_model(cfg):
    for key in ("text_config", "language_config", "llm_config"):
        if isinstance(cfg.get(key), dict):
            return cfg[key]
    return cfg


def default_inv(base, dim):
    """_compute_default_rope_parameters: 1 / base ** (arange(0, dim, 2) / dim)."""
    return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))


def proportional_inv(base, head_dim, partial, factor=1.0):
    """_compute_proportional_rope_parameters: int(partial * head_dim // 2) pairs turn, spaced over the
    whole head; the other head_dim // 2 - that pairs get frequency 0; all divided by factor."""
    angles = int(partial * head_dim // 2)
    inv = np.zeros(head_dim // 2)
    inv[:angles] = default_inv(base, head_dim)[:angles]
    return inv / factor


def mrope_axes(section, pairs, interleaved):
    """Qwen2-VL's apply_multimodal_rotary_pos_emb (sections in order: time, height, width) and Qwen3-VL's
    apply_interleaved_mrope (pair i from height when i % 3 == 1 and i < 3 h, width when i % 3 == 2 and
    i < 3 w, else time)."""
    axes = np.zeros(pairs, dtype=np.int64)
    for i in range(pairs):
        if interleaved:
            if i % 3 == 1 and i < 3 * section[1]:
                axes[i] = 1
            elif i % 3 == 2 and i < 3 * section[2]:
                axes[i] = 2
        else:
            axes[i] = 0 if i < section[0] else 1 if i < section[0] + section[1] else 2
    return axes


def layer_types_of(t):
    """Each layer's type, from the config's list or its family's stated pattern."""
    n = t["num_hidden_layers"]
    if "layer_types" in t:
        return list(t["layer_types"])
    if t.get("model_type") == "llama4_text":  # Llama4TextConfig: no_rope_layers[i] == 1 uses RoPE
        flags = t.get("no_rope_layers") or [int((i + 1) % t.get("no_rope_layer_interval", 4) != 0) for i in range(n)]
        return ["chunked_attention" if f else "full_attention" for f in flags]
    if "attn_type_list" in t:  # MiniMax: 1 softmax attention with RoPE, 0 lightning (linear) attention
        return ["full_attention" if k == 1 else "linear_attention" for k in t["attn_type_list"]]
    if "full_attention_interval" in t:  # Qwen3NextConfig
        every = t["full_attention_interval"]
        return ["full_attention" if (i + 1) % every == 0 else "linear_attention" for i in range(n)]
    if "sliding_window_pattern" in t:  # Gemma3TextConfig
        every = t["sliding_window_pattern"]
        return ["full_attention" if (i + 1) % every == 0 else "sliding_attention" for i in range(n)]
    return None


def layer_kinds(cfg, seq_len):
    """[{layer_type, layers, positions, inv_freq[, mrope_axes][, query_temperature]}] for one config."""
    t = text_model(cfg)
    head_dim = t.get("head_dim") or t["hidden_size"] // t["num_attention_heads"]
    types = layer_types_of(t)
    kinds = []
    for layer_type in sorted(set(types)) if types else ["all"]:
        layers = [i for i, x in enumerate(types) if x == layer_type] if types else []
        kind = {"layer_type": layer_type, "layers": layers}
        if layer_type == "linear_attention" or (t.get("model_type") == "llama4_text" and layer_type == "full_attention"):
            kind.update(positions="none", inv_freq=[])
            if t.get("model_type") == "llama4_text" and t.get("attn_temperature_tuning", True):
                # Llama4TextAttention: log1p(floor((position + 1) / floor_scale)) * attn_scale + 1.
                position = seq_len - 1
                kind["query_temperature"] = math.log1p(math.floor((position + 1.0) / t.get("floor_scale", 8192))) \
                    * t.get("attn_scale", 0.1) + 1.0
            kinds.append(kind)
            continue
        per_type = t.get("rope_parameters", {}).get(layer_type) if isinstance(t.get("rope_parameters"), dict) else None
        if per_type is not None:  # Gemma 4: a block per layer type
            width = t["global_head_dim"] if layer_type == "full_attention" and "global_head_dim" in t else head_dim
            if per_type.get("rope_type") == "proportional":
                inv = proportional_inv(per_type["rope_theta"], width, per_type["partial_rotary_factor"],
                                       per_type.get("factor", 1.0))
                kind.update(positions="proportional", inv_freq=[float(x) for x in inv])
            else:
                kind.update(positions="rope", inv_freq=[float(x) for x in default_inv(per_type["rope_theta"], width)])
            kinds.append(kind)
            continue
        if t.get("model_type") == "gemma3_text" and layer_type == "sliding_attention":
            # Gemma3TextConfig: rope_local_base_freq (default 10,000), no scaling on the local layers.
            base = t.get("rope_local_base_freq", 10000.0)
            kind.update(positions="rope", inv_freq=[float(x) for x in default_inv(base, head_dim)])
            kinds.append(kind)
            continue
        if t.get("model_type") == "gemma3_text":
            t = dict(t, rope_theta=t.get("rope_theta", 1000000.0), max_position_embeddings=t.get(
                "max_position_embeddings", 131072))  # Gemma3TextConfig's defaults
        if "rotary_dim" in t:  # an explicit rotated width (MiniMax)
            t = dict(t, partial_rotary_factor=t["rotary_dim"] / head_dim)
        inv, _ = rope(dict(t, head_dim=head_dim), seq_len)
        block = block_of(t)
        if block.get("type") == "mrope" or "mrope_section" in block:
            kind.update(positions="mrope", mrope_axes=[int(a) for a in mrope_axes(
                block["mrope_section"], len(inv), bool(block.get("mrope_interleaved", False)))])
        else:
            kind["positions"] = "rope"
        kind["inv_freq"] = [float(x) for x in inv]
        kinds.append(kind)
    return kinds


def main():
    cases = []
    for path, lengths in CASES:
        cfg = json.loads(path.read_text())
        for seq_len in lengths:
            inv, attention = rope(cfg, seq_len)
            case = {
                "config": str(path.relative_to(ROOT)),
                "seq_len": seq_len,
                "inv_freq": [float(x) for x in inv],
                "attention_factor": attention,
                "runtime_readings": runtime_readings(cfg, seq_len),
            }
            local = local_base(cfg)
            if local is not None:
                _, dim = geometry(cfg)
                exponents = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim
                case["local_inv_freq"] = [float(x) for x in 1.0 / local ** exponents]
            block = block_of(cfg)
            if "qk_rope_head_dim" in cfg and block.get("mscale_all_dim"):
                factor = block.get("factor") or cfg["max_position_embeddings"] / block["original_max_position_embeddings"]
                case["softmax_scale_factor"] = get_mscale(factor, block["mscale_all_dim"]) ** 2
            cases.append(case)
    kind_cases = [{"config": str(path.relative_to(ROOT)), "seq_len": seq_len,
                   "layer_kinds": layer_kinds(json.loads(path.read_text()), seq_len)}
                  for path, seq_len in KIND_CASES]
    OUT.write_text(json.dumps({
        "_about": "Made by build-scripts/make-config-fixtures.py (numpy float64, transformers' formulas).",
        "cases": cases,
        "kind_cases": kind_cases,
    }, indent=1) + "\n")
    print(f"wrote {len(cases)} cases and {len(kind_cases)} configs' layer kinds to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
