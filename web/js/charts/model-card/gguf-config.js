// What a GGUF file's metadata says about positions, written as the config.json the engine's model
// reader takes, and what a GGUF file cannot say. The key names are llama.cpp's
// (gguf-py/gguf/constants.py: Keys.General, Keys.LLM, Keys.Attention, Keys.Rope); the reader only
// renames, and every recipe stays in the engine. The notes are in the page’s language (i18n.js): the page shows them.

import { t } from '../../locale/i18n.js';
import { grouped } from '../../locale/format.js';

/**
 * llama.cpp architecture names whose transformers model_type is spelled otherwise (LLM_ARCH_NAMES).
 * Without a prototype: an architecture named after an Object property (__proto__, constructor) is
 * then just a name the table does not hold.
 */
const MODEL_TYPES = Object.assign(Object.create(null), {
  gemma3: 'gemma3_text',
  gptneox: 'gpt_neox',
  'command-r': 'cohere',
  deepseek2: 'deepseek_v2',
  deepseek4: 'deepseek_v4',
  'glm-dsa': 'glm_moe_dsa',
  qwen2moe: 'qwen2_moe',
  qwen3moe: 'qwen3_moe',
  phi2: 'phi',
  rwkv6: 'rwkv',
  rwkv7: 'rwkv',
  granitehybrid: 'granitemoehybrid',
  'kimi-linear': 'kimi_linear',
});

/** What convert_hf_to_gguf.py writes as context_length for a hybrid without RoPE (Granite 4.0-H): 2^20. */
const HYBRID_NOPE_CONTEXT = 2 ** 20;

/** llama.cpp's fixed values for Gemma 3's local layers (llama-model.cpp), used when the file names none. */
const GEMMA3_LOCAL_BASE = 10000;
const GEMMA3_PATTERN = 6;

const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);

/** A metadata value as an error message shows it: a number as itself (NaN, -Infinity), text quoted and cut. */
function described(v) {
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (Array.isArray(v)) {
    const bad = v.findIndex((x) => !isNumber(x));
    return bad < 0 ? 'an empty list' : `a list whose element ${bad} is ${described(v[bad])}`;
  }
  return v === null || v === undefined ? String(v) : typeof v;
}

/**
 * The period of a per-layer sliding-window pattern (true: a local layer) when every period-th layer,
 * and only those, is global; 0 when the pattern is not of that shape.
 */
function globalEvery(pattern) {
  const globals = pattern.flatMap((local, i) => (local ? [] : [i]));
  if (globals.length === 0) return 0;
  const every = globals[0] + 1;
  return globals.every((g, i) => g === every * (i + 1) - 1) && pattern.length - 1 - globals.at(-1) < every ? every : 0;
}

/**
 * Granite 4.0-H (llama.cpp's granitehybrid), as convert_hf_to_gguf.py writes it: attention.head_count_kv one
 * value per layer, 0 for a Mamba layer; rope.scaling.finetuned, llama.cpp's switch for RoPE in the attention
 * layers (true when absent), false for every hybrid with Mamba layers but Bamba; and then 2^20 as
 * context_length rather than the config's length.
 */
function graniteHybrid(metadata, key, kvHeadList, config, notes) {
  if (Array.isArray(kvHeadList)) config.layer_types = kvHeadList.map((h) => (h > 0 ? 'attention' : 'mamba'));
  const switchKey = key('rope.scaling.finetuned');
  const rope = metadata.get(switchKey);
  if (rope !== undefined && typeof rope !== 'boolean') {
    throw new Error(`GGUF: ${switchKey} must be true or false, got ${described(rope)}`);
  }
  config.position_embedding_type = rope === false ? 'nope' : 'rope';
  if (rope === false && config.max_position_embeddings === HYBRID_NOPE_CONTEXT) {
    notes.push(
      t(
        '{key} is {value}: llama.cpp’s converter writes that for a hybrid without RoPE, not the length the model was set up for, which only its config.json states.',
        { key: key('context_length'), value: grouped(HYBRID_NOPE_CONTEXT) },
      ),
    );
  }
}

/**
 * Kimi Linear (llama.cpp's kimi-linear), as its converter writes it: attention.head_count_kv one value per
 * layer, 0 for a linear-attention (Kimi Delta Attention) layer and the head count for an MLA layer, which
 * llama.cpp turns without RoPE (LLAMA_ROPE_TYPE_NONE), as the config's mla_use_nope says. Written as the
 * config's linear_attn_config (layers counted from 1) and mla_use_nope.
 */
function kimiLinear(kvHeadList, config) {
  if (!Array.isArray(kvHeadList)) return;
  config.mla_use_nope = true;
  config.linear_attn_config = { full_attn_layers: kvHeadList.flatMap((heads, i) => (heads > 0 ? [i + 1] : [])) };
}

/**
 * Multi-head latent attention as llama.cpp stores it (deepseek2: DeepSeek-V2 and V3, Kimi K2): each
 * query and key head's width is attention.key_length_mla in newer converters (whose key_length is
 * then the latent-plus-rotary width llama.cpp attends over) or key_length in older ones, and its
 * rotary part is rope.dimension_count (`rotary`). Written as the config's qk_rope_head_dim and
 * qk_nope_head_dim, so the card reads it as it reads the model's own config.json.
 */
function latentAttention(architecture, number, rotary, config) {
  const mlaWidth = number('attention.key_length_mla');
  if (!(architecture === 'deepseek2' || isNumber(mlaWidth)) || !isNumber(rotary)) return;
  const width = isNumber(mlaWidth) ? mlaWidth : config.head_dim;
  if (!isNumber(width) || width < rotary) return;
  config.qk_rope_head_dim = rotary;
  config.qk_nope_head_dim = width - rotary;
  delete config.head_dim;
  delete config.rotary_dim;
}

/**
 * DeepSeek Sparse Attention as llama.cpp stores it (llama-arch.cpp; deepseek4 for DeepSeek-V4, glm-dsa for
 * GLM-5): the indexer's heads, width and top-k under attention.indexer, written as the config's index_*
 * fields. llama.cpp turns both indexers' pairs interleaved (LLAMA_ROPE_TYPE_NORM), as both models' configs
 * say. DeepSeek-V4 adds each layer's compression (attention.compress_ratios, its config's list as it stands)
 * and the compressed layers' base (attention.compress_rope_freq_base); its rotary part is
 * rope.dimension_count of the head_dim that key_length gives, as its config's qk_rope_head_dim is.
 */
function sparseAttention(architecture, number, config) {
  const heads = number('attention.indexer.head_count');
  const width = number('attention.indexer.key_length');
  const topK = number('attention.indexer.top_k');
  if (isNumber(heads)) config.index_n_heads = heads;
  if (isNumber(width)) config.index_head_dim = width;
  if (isNumber(topK)) config.index_topk = topK;
  if (architecture === 'glm-dsa' && isNumber(topK)) config.indexer_rope_interleave = true;
  if (architecture !== 'deepseek4') return;
  const ratios = number('attention.compress_ratios');
  if (ratios !== undefined) config.compress_ratios = Array.isArray(ratios) ? ratios : [ratios];
  const compressBase = number('attention.compress_rope_freq_base');
  if (isNumber(compressBase)) config.compress_rope_theta = compressBase;
  if (isNumber(config.rotary_dim)) {
    config.qk_rope_head_dim = config.rotary_dim;
    delete config.rotary_dim;
  }
}

/**
 * rope.scaling.type yarn: the factor, the original length, YaRN's attention factor and betas, Ministral 3's
 * query scale and DeepSeek's log multiplier, as config.json's rope_scaling would hold them.
 */
function yarnScaling(number, key, notes) {
  const factor = number('rope.scaling.factor');
  const original = number('rope.scaling.original_context_length');
  const scaling = { rope_type: 'yarn' };
  if (isNumber(factor)) scaling.factor = factor;
  if (isNumber(original)) scaling.original_max_position_embeddings = original;
  const attention = number('rope.scaling.attn_factor');
  if (isNumber(attention)) scaling.attention_factor = attention;
  const fast = number('rope.scaling.yarn_beta_fast');
  const slow = number('rope.scaling.yarn_beta_slow');
  if (isNumber(fast)) scaling.beta_fast = fast;
  if (isNumber(slow)) scaling.beta_slow = slow;
  // Ministral 3: convert_hf_to_gguf.py writes rope_parameters.llama_4_scaling_beta as attention.temperature_scale.
  const temperature = number('attention.temperature_scale');
  if (isNumber(temperature) && temperature > 0) scaling.llama_4_scaling_beta = temperature;
  const logMultiplier = number('rope.scaling.yarn_log_multiplier');
  if (isNumber(logMultiplier) && logMultiplier > 0) {
    // convert_hf_to_gguf.py writes 0.1 × mscale_all_dim (DeepSeek's convention).
    scaling.mscale_all_dim = Number((logMultiplier / 0.1).toPrecision(7));
    scaling.mscale = scaling.mscale_all_dim;
    notes.push(
      t(
        '{key} is {value}: read as mscale and mscale_all_dim = {value} / 0.1, DeepSeek’s convention; a few converters store mscale_all_dim itself.',
        { key: key('rope.scaling.yarn_log_multiplier'), value: String(logMultiplier) },
      ),
    );
  }
  return scaling;
}

/**
 * Maps the header readGgufHeader returned to { config, architecture, name, notes }: config is a
 * config.json-shaped object for engine.readModelConfig (model_type, max_position_embeddings,
 * hidden_size, num_attention_heads, num_key_value_heads, head_dim, num_hidden_layers, rope_theta,
 * rotary_dim, sliding_window, rope_scaling …); notes are sentences in the page's language on what
 * the file cannot tell. Throws an Error (English, naming the key) when general.architecture is
 * missing, a key the card needs has the wrong type, or the scaling type is one llama.cpp does not have.
 */
export function configFromGguf({ metadata, tensorNames = [] }) {
  const architecture = metadata.get('general.architecture');
  if (typeof architecture !== 'string' || architecture === '') {
    throw new Error('GGUF: general.architecture is missing or not a string: the file does not say what model it holds');
  }
  const key = (suffix) => `${architecture}.${suffix}`;
  /** A number-valued key, or undefined when absent; another type is an error naming the key. */
  const number = (suffix) => {
    const name = key(suffix);
    if (!metadata.has(name)) return undefined;
    const v = metadata.get(name);
    if (isNumber(v)) return v;
    if (Array.isArray(v) && v.length > 0 && v.every(isNumber)) return v; // per-layer values
    throw new Error(`GGUF: ${name} must be a finite number (or a list of them, one per layer), got ${described(v)}`);
  };
  const notes = [];
  const perLayer = (suffix, value) => {
    if (!Array.isArray(value)) return value;
    notes.push(
      t('{key} gives one value per layer; the card reads the largest, {value}.', {
        key: key(suffix),
        value: grouped(Math.max(...value)),
      }),
    );
    return Math.max(...value);
  };

  const config = { model_type: MODEL_TYPES[architecture] ?? architecture };
  const contextLength = perLayer('context_length', number('context_length'));
  if (contextLength !== undefined) config.max_position_embeddings = contextLength;
  const embedding = perLayer('embedding_length', number('embedding_length'));
  if (embedding !== undefined) config.hidden_size = embedding;
  const heads = perLayer('attention.head_count', number('attention.head_count'));
  if (heads !== undefined) config.num_attention_heads = heads;
  const kvHeadList = number('attention.head_count_kv');
  const kvHeads = perLayer('attention.head_count_kv', kvHeadList);
  if (kvHeads !== undefined) config.num_key_value_heads = kvHeads;
  const keyLength = number('attention.key_length');
  if (isNumber(keyLength)) config.head_dim = keyLength;
  const layers = number('block_count');
  if (isNumber(layers)) config.num_hidden_layers = layers;
  const base = number('rope.freq_base');
  if (isNumber(base)) config.rope_theta = base;
  const headDim = config.head_dim ?? (embedding && heads ? embedding / heads : undefined);
  const ropeDims = number('rope.dimension_count');
  if (isNumber(ropeDims) && ropeDims !== headDim) config.rotary_dim = ropeDims;
  latentAttention(architecture, number, ropeDims, config);
  sparseAttention(architecture, number, config);
  const window = number('attention.sliding_window');
  if (isNumber(window) && window > 0) config.sliding_window = window;
  if (isNumber(number('attention.max_alibi_bias'))) config.alibi = true;

  // Scaling: rope.scaling.type (none, linear, yarn, longrope), or the older rope.scale_linear.
  const typeKey = key('rope.scaling.type');
  const scalingType = metadata.get(typeKey);
  if (scalingType !== undefined && typeof scalingType !== 'string') {
    throw new Error(`GGUF: ${typeKey} must be a string, got ${typeof scalingType}`);
  }
  const factor = number('rope.scaling.factor');
  const scaling = {};
  if (scalingType === 'linear' || (scalingType === undefined && isNumber(number('rope.scale_linear')))) {
    Object.assign(scaling, { rope_type: 'linear', factor: factor ?? number('rope.scale_linear') });
  } else if (scalingType === 'yarn') {
    Object.assign(scaling, yarnScaling(number, key, notes));
  } else if (scalingType === 'longrope') {
    notes.push(
      t(
        'LongRoPE’s divisors, one per pair, are tensors in a GGUF file (rope_factors_long.weight, rope_factors_short.weight), which this reader does not open: the card shows the pairs unscaled.',
      ),
    );
  } else if (scalingType !== undefined && scalingType !== 'none') {
    throw new Error(`GGUF: ${typeKey} is "${scalingType}"; llama.cpp knows none, linear, yarn and longrope`);
  }
  if (Object.keys(scaling).length > 0) config.rope_scaling = scaling;

  if (config.model_type === 'gemma3_text') {
    const localBase = number('rope.freq_base_swa');
    config.rope_local_base_freq = isNumber(localBase) ? localBase : GEMMA3_LOCAL_BASE;
    const pattern = metadata.get(key('attention.sliding_window_pattern'));
    const every = isNumber(pattern) ? pattern : Array.isArray(pattern) ? globalEvery(pattern) : 0;
    config.sliding_window_pattern = every > 0 ? every : GEMMA3_PATTERN;
    if (!isNumber(localBase) || every === 0) {
      notes.push(
        t(
          'The file does not give Gemma 3’s local layers: the card takes llama.cpp’s fixed values, base {base} and one global layer in every {every}.',
          { base: grouped(config.rope_local_base_freq), every: config.sliding_window_pattern },
        ),
      );
    }
  }

  if (architecture === 'granitehybrid') graniteHybrid(metadata, key, kvHeadList, config, notes);
  if (architecture === 'kimi-linear') kimiLinear(kvHeadList, config);
  if (architecture === 'smollm3') {
    notes.push(
      t(
        'llama.cpp makes every fourth layer of SmolLM3 a layer without RoPE (n_no_rope_layer_step 4, fixed in its code): the file carries no no_rope_layers, so the card draws that pattern.',
      ),
    );
  }

  if (tensorNames.includes('rope_freqs.weight')) {
    notes.push(
      architecture === 'llama'
        ? t(
            'Llama 3’s frequency scaling is not in the metadata: the converter baked it into the tensor rope_freqs.weight (one divisor per pair), which this reader does not open. The card shows the pairs unscaled and takes {key} as the trained length, though a model converted this way was trained shorter and stretched.',
            { key: key('context_length') },
          )
        : t(
            'The file carries a tensor rope_freqs.weight (one divisor per pair), which this reader does not open: the card shows the pairs without it.',
          ),
    );
  } else if (!config.rope_scaling && scalingType !== 'longrope') {
    notes.push(
      t(
        'The file names no scaling, so the card takes {key} as the length the model was trained at; a converter may have written the advertised length there.',
        { key: key('context_length') },
      ),
    );
  }
  notes.push(
    t(
      'GGUF has no dynamic NTK: llama.cpp never raises the base as a prompt grows, so a config.json’s rope_type dynamic does not survive conversion.',
    ),
  );

  const name = metadata.get('general.name');
  return { config, architecture, name: typeof name === 'string' ? name : '', notes };
}
