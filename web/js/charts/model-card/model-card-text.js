// The words of the "Read your model's card" widget: pure functions from the engine's
// readModelConfig report to the summary's sentences, the headings and the short description,
// in the lesson's terms (learned table, sinusoidal codes, RoPE pairs, ALiBi, buckets, none).

import { grouped, sciUnicode, sentences as joined, significant, trimmed } from '../../locale/format.js';
import { t, tn } from '../../locale/i18n.js';

const MAX_SHOWN_TEXT = 80; // longest model_type or message fragment echoed into the summary

/** Shortens text to max characters, ending with an ellipsis. */
export const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A length or count as the lesson prints it: "131,072". */
const count = (n) => grouped(n);

/** A number of tokens with the noun in agreement: "1 token", "4,096 tokens". */
export const tokens = (n) => tn('{count} token', '{count} tokens', n, { count: count(n) });

/** A positive quantity with thousands separators when large, a few decimals when small. */
export function quantity(x) {
  if (x >= 1000) return grouped(x);
  return trimmed(x, 2);
}

/** A per-pair number for the data table: 6 significant digits, separators, U+2212, ×10ⁿ when tiny. */
export function formatPairValue(v) {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && Math.abs(v) < 1e-3) return sciUnicode(v, 5);
  return significant(v, 6);
}

/** Pair indices where flags[i] is set, as ranges: "46–63" or "3, 7–9". */
export function pairRanges(flags) {
  const parts = [];
  for (let i = 0; i < flags.length; i++) {
    if (!flags[i]) continue;
    let j = i;
    while (j + 1 < flags.length && flags[j + 1]) j++;
    parts.push(i === j ? String(i) : `${i}–${j}`);
    i = j;
  }
  return parts.join(', ');
}

function ratio(a, b) {
  return trimmed(a / b, a / b >= 10 ? 0 : 1);
}

/** Each rope_type's method in a sentence or two; `factor` is the scaling factor as printed. */
const METHODS = {
  linear: (r, factor) =>
    t(
      'Position interpolation: every pair turns {factor} times slower, so the stretched positions map back into the trained range.',
      { factor },
    ),
  dynamic: (r) =>
    r.dynamicBase > r.base
      ? t(
          'Dynamic NTK: the base grows only once a prompt passes the trained length; at {tokens} it is {dynamicBase} instead of {base}.',
          { tokens: tokens(r.promptLength), dynamicBase: quantity(r.dynamicBase), base: quantity(r.base) },
        )
      : t(
          'Dynamic NTK: the base grows only once a prompt passes the trained length, so at this prompt length nothing changes.',
        ),
  yarn: (r, factor) =>
    r.softmaxScaleFactor !== 1
      ? t(
          'YaRN: the fast pairs keep their speed, the slow pairs turn {factor} times slower, a ramp joins them, and cos and sin are multiplied by {attention}; the attention’s softmax scale is also multiplied by {softmax} (mscale_all_dim, squared).',
          {
            factor,
            attention: trimmed(r.attentionFactor, 3),
            softmax: trimmed(r.softmaxScaleFactor, 3),
          },
        )
      : t(
          'YaRN: the fast pairs keep their speed, the slow pairs turn {factor} times slower, a ramp joins them, and cos and sin are multiplied by {attention}.',
          { factor, attention: trimmed(r.attentionFactor, 3) },
        ),
  longrope: (r) =>
    r.longropeLongFactor
      ? t(
          'LongRoPE: one divisor per pair, from the long list at this prompt length, and cos and sin are multiplied by {attention}.',
          { attention: trimmed(r.attentionFactor, 3) },
        )
      : t(
          'LongRoPE: one divisor per pair, from the short list at this prompt length, and cos and sin are multiplied by {attention}.',
          { attention: trimmed(r.attentionFactor, 3) },
        ),
  proportional: (r, factor) =>
    t('Proportional RoPE with every turning pair {factor} times slower (its factor).', { factor }),
  llama3: (r, factor) =>
    r.lowFreqFactor === r.highFreqFactor
      ? // Llama 4 Scout Instruct: transformers' medium band is empty when the two factors are equal.
        t(
          'Llama 3’s recipe with equal low_freq_factor and high_freq_factor ({low}): pairs whose wavelength exceeds {original} tokens turn {factor} times slower, the others keep their speed, and no ramp joins them (transformers’ blend band is empty).',
          { factor, low: trimmed(r.lowFreqFactor, 3), original: count(r.trainedLength) },
        )
      : t(
          'Llama 3’s recipe: the slow pairs turn {factor} times slower, the fast pairs keep their speed, and a ramp joins them.',
          { factor },
        ),
};

/** Layer indices as a short list: "4, 12, 20, 28"; a long one keeps its first four and its last: "3, 7, 11, 15, …, 47". */
const layerList = (layers) =>
  layers.length <= 6 ? layers.join(', ') : `${layers.slice(0, 4).join(', ')}, …, ${layers[layers.length - 1]}`;

/** The summary's term for one kind of layer: "12 full_attention layers (3, 7, 11, 15, …, 47)". */
export function layerKindTerm(kind) {
  // The indexer of sparse attention is part of each layer it serves, not a layer of its own.
  if (kind.layerType === 'indexer')
    return tn('The indexer of {count} layer ({layers})', 'The indexers of {count} layers ({layers})', kind.layerCount, {
      count: count(kind.layerCount),
      layers: layerList(kind.layers),
    });
  if (kind.layerType === 'all')
    return kind.layers.length > 0
      ? tn('{count} layer', 'All {count} layers', kind.layerCount, { count: count(kind.layerCount) })
      : t('Every layer');
  return tn('{count} {type} layer ({layers})', '{count} {type} layers ({layers})', kind.layerCount, {
    count: count(kind.layerCount),
    type: clip(kind.layerType, MAX_SHOWN_TEXT),
    layers: layerList(kind.layers),
  });
}

/** Which pairs read which axis in M-RoPE, as ranges: { time: "0–15", height: "16–39", width: "40–63" }. */
function mropeRanges(axes) {
  const of = (axis) => pairRanges(Array.from(axes, (a) => a === axis));
  return { time: of(0), height: of(1), width: of(2) };
}

/** Whether a kind of layer turns rotary pairs (not a kind without positions, nor one the reader did not understand). */
export const turnsPairs = (kind) => kind.positions !== 'none' && kind.positions !== 'unknown';

/** What positions one kind of layer has, in a sentence or three: its recipe, its span, and its pairs past training. */
export function layerKindText(kind, r) {
  const rotating = kind.rotaryDim / 2;
  const values = {
    base: quantity(kind.base),
    last: count(rotating - 1),
    pairs: count(kind.invFreq.length),
    rotaryDim: count(kind.rotaryDim),
    headDim: count(kind.headDim),
    ropeType: kind.ropeType,
    still: count(kind.invFreq.length - rotating),
    window: tokens(kind.window),
    chunk: tokens(kind.chunk),
    longest: count(kind.longestDistance),
    beyond: count(kind.beyondCount),
    ranges: pairRanges(kind.beyond),
    temperature: trimmed(kind.queryTemperature, 3),
    tokens: tokens(r.promptLength),
    topK: count(kind.topK ?? 0),
    heads: count(kind.heads ?? 0),
    half: count(rotating),
    rest: count(kind.headDim - kind.rotaryDim),
    rawWindow: tokens(kind.rawWindow ?? 0),
    ratio: count(kind.compressRatio ?? 0),
  };
  const sentences = [];
  if (kind.positions === 'unknown')
    return t(
      'not understood: the reader does not know the layer type “{type}”, so it cannot say what positions these layers have and draws none for them; the other layers are read as usual.',
      { type: clip(kind.layerType, MAX_SHOWN_TEXT) },
    );
  if (kind.positions === 'none') {
    if (kind.noneReason === 'recurrence') {
      sentences.push(
        t(
          'no positions: Mamba layers carry a running state from token to token, so the recurrence orders the tokens; no position field applies to them.',
        ),
      );
    } else if (kind.noneReason === 'linear_attention') {
      sentences.push(
        t(
          'no positions: linear attention carries a running state from token to token, so order is built into it, as in a state-space layer.',
        ),
      );
    } else {
      sentences.push(
        t(
          'no positions (NoPE): attention over the whole prompt without any position encoding; order reaches these layers only through the layers around them.',
        ),
      );
      if (kind.queryTemperature !== 1)
        sentences.push(
          t(
            'At {tokens} their queries are multiplied by {temperature} (attn_temperature_tuning), which keeps attention sharp as the prompt grows.',
            values,
          ),
        );
    }
    return joined(...sentences);
  }
  if (kind.layerType === 'indexer') {
    sentences.push(...indexerSentences(kind, values));
  } else if (kind.positions === 'proportional') {
    sentences.push(
      t(
        'proportional RoPE (p-RoPE) at base {base}, rope_type proportional: pairs 0–{last} of {pairs} turn, spaced as the first pairs of a {headDim}-wide head would be; the other {still} never turn (frequency 0), so those dimensions carry no position.',
        values,
      ),
    );
  } else if (kind.positions === 'mrope') {
    Object.assign(values, mropeRanges(kind.mropeAxes));
    sentences.push(
      t(
        'M-RoPE at base {base} (rotary_dim {rotaryDim} of head_dim {headDim}): pairs {time} turn by the time position, {height} by the height and {width} by the width. For text the three are the token’s index, so text turns as plain RoPE.',
        values,
      ),
    );
  } else {
    sentences.push(
      t(
        'RoPE at base {base}, rope_type {ropeType}: pairs 0–{last} turn (rotary_dim {rotaryDim} of head_dim {headDim}).',
        values,
      ),
    );
  }
  // DeepSeek-V4's compressed layers (transformers' DeepseekV4Compressor): a compressed entry pools its block of
  // tokens and is turned at the block's first position.
  if (kind.layerType === 'indexer')
    sentences.push(
      kind.compressRatio > 0
        ? t('It scores every compressed entry of the prompt, one per {ratio} tokens.', values)
        : t('It scores every earlier token of the prompt.'),
    );
  else if (kind.compressRatio > 0)
    sentences.push(
      kind.topK > 0
        ? t(
            'It attends within a window of {rawWindow} and, beyond it, to one compressed entry per {ratio} tokens, each turned at the position of its block’s first token; its indexer keeps {topK} of those entries per query, so it reaches {longest} tokens back.',
            values,
          )
        : t(
            'It attends within a window of {rawWindow} and, beyond it, to every compressed entry, one per {ratio} tokens, each turned at the position of its block’s first token, so it reaches {longest} tokens back.',
            values,
          ),
    );
  else if (kind.window > 0)
    sentences.push(
      t('It attends within a window of {window}, so it never spans more than {longest} tokens back.', values),
    );
  else if (kind.chunk > 0)
    sentences.push(
      t('It attends within chunks of {chunk}, so it never spans more than {longest} tokens back.', values),
    );
  else if (kind.topK > 0)
    sentences.push(
      // A prompt no longer than index_topk: the indexer keeps every token, so there is no choice to tell.
      kind.longestDistance < kind.topK
        ? t(
            'Each query attends to at most {topK} tokens (index_topk), those its layer’s indexer ranks highest, wherever they lie; a prompt of {tokens} holds no more, so every query sees every earlier token.',
            values,
          )
        : t(
            'Each query attends to at most {topK} tokens (index_topk), those its layer’s indexer ranks highest, wherever they lie: no window, so it still spans up to {longest} tokens back, and while the prompt holds no more than {topK} tokens it sees them all.',
            values,
          ),
    );
  else sentences.push(t('It attends over the whole prompt.'));
  sentences.push(
    kind.beyondCount > 0
      ? t('At {tokens}, {beyond} of its pairs ({ranges}) need angles beyond what training showed.', values)
      : t('At {tokens}, none of its pairs needs an angle beyond what training showed.', values),
  );
  return joined(...sentences);
}

/**
 * What the indexer of sparse attention (DeepSeek-V3.2, GLM-5, DeepSeek-V4) does with positions: its heads, the
 * part of each that turns (the attention's own frequencies, as DeepSeek's inference/model.py and transformers'
 * GlmMoeDsaIndexer pass it the same angles) and how its pairs are laid out.
 */
function indexerSentences(kind, values) {
  const compressed = kind.compressRatio > 0;
  const heads = compressed
    ? t(
        '{heads} indexer heads score the compressed entries, and the layer’s attention sees only the entries they rank highest.',
        values,
      )
    : kind.heads > 0
      ? t(
          '{heads} indexer heads score every earlier token, and the layer’s attention sees only the tokens they rank highest.',
          values,
        )
      : t('The indexer scores every earlier token, and the layer’s attention sees only the tokens it ranks highest.');
  const turning =
    kind.headDim === 0
      ? t(
          'RoPE at base {base}, rope_type {ropeType}, with the attention’s own frequencies: pairs 0–{last} turn (rotary_dim {rotaryDim}); the config gives no index_head_dim, so how much of each head carries no position it does not say.',
          values,
        )
      : kind.rotaryPart === 'last'
        ? t(
            'RoPE at base {base}, rope_type {ropeType}, with the attention’s own frequencies: pairs 0–{last} turn, the last {rotaryDim} of each head’s {headDim} dimensions; the other {rest} carry no position.',
            values,
          )
        : t(
            'RoPE at base {base}, rope_type {ropeType}, with the attention’s own frequencies: pairs 0–{last} turn, the first {rotaryDim} of each head’s {headDim} dimensions; the other {rest} carry no position.',
            values,
          );
  const layout =
    kind.pairLayout === 'split-half'
      ? t('Its pairs are split-half: dimension i turns with dimension i + {half}.', values)
      : compressed
        ? t(
            'Its pairs are interleaved, as its layer’s attention lays them out (DeepSeek’s inference code; no config field says so): dimension 2i turns with 2i + 1.',
          )
        : t('Its pairs are interleaved (indexer_rope_interleave): dimension 2i turns with 2i + 1.');
  return [heads, turning, layout];
}

/** Whether the card lists the layers kind by kind: more than one kind, or one whose positions are not plain RoPE. */
export const showsLayerKinds = (r) =>
  (r.layerKinds?.length ?? 0) > 1 || (r.layerKinds?.length === 1 && r.layerKinds[0].positions !== 'rope');

/** What the reader did with each kind of field it did not understand (the engine's effect codes). */
const NOT_UNDERSTOOD_EFFECTS = {
  no_scheme: () => t('no known family, and no field names a position scheme: only the lengths are read'),
  embedding_type: () => t('a position scheme the reader does not know: only the lengths are read'),
  rope_type: () => t('a scaling recipe the reader does not know: the frequencies are drawn unscaled'),
  recipe_incomplete: () => t('missing, and the recipe needs it: the frequencies are drawn unscaled'),
  scaling_field: () => t('a scaling field the reader does not know: ignored'),
  layer_type: () => t('a layer type the reader does not know: its layers are listed but not drawn'),
  query_scale_incomplete: () => t('missing, and llama_4_scaling_beta needs it: the query scale is not shown'),
  position_field: () => t('a position field the reader does not know (a second RoPE, a new knob): ignored'),
};

/** One phrase per field the reader did not understand: "rope_scaling.rope_type = "foo": a scaling recipe …". */
export function notUnderstoodPhrases(r) {
  return (r.notUnderstood ?? []).map((item) =>
    t('{field} = {value}: {effect}', {
      field: clip(item.field, MAX_SHOWN_TEXT),
      value: clip(item.value, MAX_SHOWN_TEXT),
      effect: NOT_UNDERSTOOD_EFFECTS[item.effect]?.() ?? item.effect,
    }),
  );
}

/** Where runtimes read this config differently, beyond the factors runtimeLine lists: one sentence each. */
export function runtimeNotes(r) {
  const notes = [];
  const kinds = r.layerKinds ?? [];
  if (kinds.some((k) => k.positions === 'proportional'))
    notes.push(
      t(
        'Proportional RoPE is transformers 5’s recipe (rope_type proportional). A runtime that reads partial_rotary_factor as ordinary partial RoPE spaces the turning pairs over the turning dimensions alone, so they turn faster than the model was trained with: check that yours implements proportional.',
      ),
    );
  if (kinds.some((k) => k.positions === 'mrope'))
    notes.push(
      t(
        'M-RoPE matters for image and video tokens: vLLM and SGLang implement it as a rotary embedding of its own (MRotaryEmbedding). A runtime that ignores mrope_section still gives text the right angles, but not images.',
      ),
    );
  if (kinds.some((k) => k.noneReason === 'nope' && k.queryTemperature !== 1))
    notes.push(
      t(
        'transformers scales the NoPE layers’ queries as the model config says; vLLM’s Llama 4 recipe asks for --override-generation-config \'{"attn_temperature_tuning": true}\' for long contexts, so check that your server does it.',
      ),
    );
  if (r.modelType === 'smollm3' && kinds.some((k) => k.noneReason === 'nope'))
    // llama.cpp's SmolLM3 hyperparameters: n_no_rope_layer_step = 4, set in code, not read from the file.
    notes.push(
      t(
        'transformers reads no_rope_layers layer by layer; llama.cpp does not read it and makes every fourth layer NoPE (n_no_rope_layer_step 4, fixed in its code), so a GGUF keeps this pattern only while it is SmolLM3’s own.',
      ),
    );
  const indexer = kinds.find((k) => k.layerType === 'indexer');
  if (indexer?.pairLayout === 'split-half')
    // DeepSeek-V3.2-Exp's README, update of 2025-11-17: the indexer's RoPE input is not interleaved, MLA's is.
    notes.push(
      t(
        'DeepSeek-V3.2’s indexer lays its pairs out split-half while its MLA interleaves them; DeepSeek’s own inference demo used one layout for both until a fix of 17 November 2025, and a runtime that does so ranks tokens by angles the model never trained with: check that yours follows the config (GLM-5 states indexer_rope_interleave).',
      ),
    );
  if (indexer?.pairLayout === 'interleaved' && !(indexer.compressRatio > 0))
    // transformers' PRs #46372 and #46842 (2026: the indexer, then its configured layout) and llama.cpp's PR
    // #25407 (GLM 5.2 indexer support: interleaved, LLAMA_ROPE_TYPE_NORM; dense attention before it).
    notes.push(
      t(
        'This indexer interleaves its pairs (indexer_rope_interleave), where DeepSeek-V3.2’s splits them in halves: a runtime that carries V3.2’s layout over ranks tokens by angles the model never trained with. Older runtimes skipped the indexer and let every layer attend to every token (transformers before its PR #46372, llama.cpp before its PR #25407). Either difference shows only once a prompt holds more than index_topk tokens: until then every token is kept.',
      ),
    );
  if (kinds.some((k) => k.compressRatio > 0 && k.layerType !== 'indexer'))
    // DeepSeek's inference/model.py (original_seq_len 0 and rope_theta for window-only layers), transformers'
    // DeepseekV4 rope_parameters {main, compress}, llama.cpp's deepseek4 (attention.compress_rope_freq_base;
    // window layers: freq_base, ext_factor 0); SGLang PR #34788; vLLM deepseek_v4.py at f1b76c19 switches the
    // base per layer and sets rope_type deepseek_yarn for every layer.
    notes.push(
      t(
        'DeepSeek’s inference code, transformers and llama.cpp turn the window layers at rope_theta without YaRN, and the compressed layers and their indexers at compress_rope_theta with YaRN (a GGUF keeps the second base as attention.compress_rope_freq_base). A runtime that changes only the base from layer to layer and keeps YaRN on the window layers (SGLang before its PR #34788; vLLM’s deepseek_v4.py as read in December 2026) turns those layers’ slower pairs at other angles than training did.',
      ),
    );
  if (r.queryScalingBeta > 0)
    notes.push(
      t(
        'transformers (Ministral 3) and vLLM (_get_llama_4_scaling in its DeepSeek-V2 model code) compute llama_4_scaling_beta’s scale the same way; llama.cpp takes β from GGUF’s attention.temperature_scale, so a GGUF converted without that key runs with no query scale.',
      ),
    );
  if (r.ropeType === 'dynamic')
    notes.push(
      t(
        'llama.cpp has no dynamic NTK (GGUF’s rope.scaling.type is none, linear, yarn or longrope), so a GGUF of this model runs without it.',
      ),
    );
  if (r.ropeType === 'yarn')
    notes.push(
      r.modelType.startsWith('qwen')
        ? t(
            'YaRN here is static: transformers and vLLM use the stretched frequencies for every prompt, short ones included, and Qwen’s model cards warn that this may hurt short texts: add the block only when long texts need it.',
          )
        : t(
            'YaRN here is static: transformers and vLLM use the stretched frequencies for every prompt, short ones included.',
          ),
    );
  return notes;
}

/** One line per runtime where they read the config differently: factor, cos/sin factor, length. */
export function runtimeLine(readings) {
  const parts = readings.map((reading) => {
    const values = {
      runtime: reading.runtime,
      factor: trimmed(reading.factor, 3),
      attention: trimmed(reading.attentionFactor, 3),
      tokens: tokens(reading.length),
    };
    // vLLM and SGLang's dynamic NTK by alpha: one enlarged base for every prompt.
    if (reading.alpha > 0)
      return t('{runtime} read alpha {alpha}: base {base} for every prompt, {tokens} as the limit', {
        ...values,
        alpha: quantity(reading.alpha),
        base: quantity(reading.base),
      });
    const scaled = reading.attentionFactor !== 1;
    const limited = reading.length > 0;
    // "transformers 4.4x–4.5x and 5" (the engine's name for two runtimes) takes the plural verb.
    if (reading.runtime.includes(' and ')) {
      if (scaled && limited)
        return t('{runtime} use factor {factor}, cos and sin × {attention}, takes {tokens} as the limit', values);
      if (scaled) return t('{runtime} use factor {factor}, cos and sin × {attention}', values);
      if (limited) return t('{runtime} use factor {factor}, takes {tokens} as the limit', values);
      return t('{runtime} use factor {factor}', values);
    }
    if (scaled && limited)
      return t('{runtime} uses factor {factor}, cos and sin × {attention}, takes {tokens} as the limit', values);
    if (scaled) return t('{runtime} uses factor {factor}, cos and sin × {attention}', values);
    if (limited) return t('{runtime} uses factor {factor}, takes {tokens} as the limit', values);
    return t('{runtime} uses factor {factor}', values);
  });
  return t('{readings}. This reader follows transformers 5; check which one serves your model.', {
    readings: parts.join(t('; ')),
  });
}

function learnedItems(r, type, add) {
  const n = r.promptLength;
  const A = r.advertisedLength;
  add(
    t('Scheme'),
    r.learnedOffset > 0
      ? t(
          'a learned position table ({type}): one trained vector per position, {length} of them (the table holds {rows} rows: this family shifts every position by {offset}, so the first {offset} rows are never a token’s position).',
          { type, length: count(A), rows: count(r.learnedTableRows), offset: r.learnedOffset },
        )
      : t('a learned position table ({type}): one trained vector per position, {length} of them.', {
          type,
          length: count(A),
        }),
  );
  add(
    t('Limit'),
    t(
      'hard. There is no vector for position {length} or later, so a longer input fails or is truncated; no scaling setting changes that.',
      { length: count(A) },
    ),
  );
  if (n <= A) {
    return {
      prompt: tn(
        '{tokens} fits in the table, with {spare} to spare.',
        '{tokens} fit in the table, with {spare} to spare.',
        n,
        {
          tokens: tokens(n),
          spare: tn('{count} position', '{count} positions', A - n, { count: count(A - n) }),
        },
      ),
      advice: t('nothing for this length. Longer documents: chunk them to at most {tokens} each.', {
        tokens: tokens(A),
      }),
    };
  } else {
    return {
      prompt: t(
        '{tokens} is {excess} more than the table has rows ({ratio}× its length): the model cannot read it in one piece.',
        { tokens: tokens(n), excess: count(n - A), ratio: ratio(n, A) },
      ),
      advice: t(
        'chunk the input to at most {tokens} per piece (retrieve the chunks that matter), or choose a model with a longer window.',
        { tokens: tokens(A) },
      ),
    };
  }
}

function sinusoidalItems(r, type, add) {
  const n = r.promptLength;
  const L = r.trainedLength;
  add(
    t('Scheme'),
    t('fixed sinusoidal codes ({type}): a code exists for every position, so there is no table to run out of.', {
      type,
    }),
  );
  add(t('Trained length'), t('{length} positions.', { length: count(L) }));
  if (n <= L) {
    return {
      prompt: t('{tokens} is within the trained length.', { tokens: tokens(n) }),
      advice: t('nothing for this length; evaluate at the length you will run.'),
    };
  } else {
    return {
      prompt: t(
        '{tokens} goes {excess} past the positions the model saw in training: the codes exist, but the model never learned to read them.',
        { tokens: tokens(n), excess: count(n - L) },
      ),
      advice: t('chunk to {trained}, or test at {tokens} before relying on it.', {
        trained: tokens(L),
        tokens: tokens(n),
      }),
    };
  }
}

function alibiItems(r, type, add) {
  const n = r.promptLength;
  const L = r.trainedLength;
  add(
    t('Scheme'),
    t(
      'ALiBi ({type}): no position vectors; each score is lowered in proportion to the distance between the two tokens.',
      { type },
    ),
  );
  let prompt;
  if (L > 0) {
    add(t('Trained length'), t('{tokens}.', { tokens: tokens(L) }));
    prompt =
      n <= L
        ? t('{tokens} is within the trained length.', { tokens: tokens(n) })
        : t(
            '{tokens} is {ratio}× the trained length. ALiBi was designed to run past it, but its penalty favours nearby tokens, so distant text counts for little.',
            { tokens: tokens(n), ratio: ratio(n, L) },
          );
  } else {
    add(t('Trained length'), t('the config states none.'));
    prompt = t('{tokens}; with no trained length on the card, there is nothing to compare it with.', {
      tokens: tokens(n),
    });
  }
  return {
    prompt,
    advice: t(
      'evaluate at the length you will run, with the answer placed at the start, the middle and the end of the prompt.',
    ),
  };
}

function relativeItems(r, type, add) {
  const n = r.promptLength;
  const reach = r.relativeMaxDistance;
  const perDirection = r.relativeBuckets / 2;
  add(
    t('Scheme'),
    t(
      'relative position buckets ({type}): no position vectors; each head adds a learned bias to a score, chosen by the bucket of the distance between the two tokens. {buckets} buckets (relative_attention_num_buckets): the encoder gives {perDirection} to each direction, distances 0–{encoderExact} one bucket each, then buckets that widen logarithmically up to {reach} (relative_attention_max_distance); the decoder looks one way only, with distances 0–{decoderExact} exact and the same reach.',
      {
        type,
        buckets: count(r.relativeBuckets),
        perDirection: count(perDirection),
        encoderExact: count(r.relativeExactEncoder - 1),
        reach: count(reach),
        decoderExact: count(r.relativeExactDecoder - 1),
      },
    ),
  );
  add(
    t('Limit'),
    t(
      'none from a table: any length can be fed. But every distance of {reach} tokens or more shares the last bucket, so beyond that reach the model cannot tell near from far.',
      { reach: count(reach) },
    ),
  );
  return {
    prompt:
      n - 1 < reach
        ? t('{tokens}: every distance in it (at most {longest}) falls inside the buckets’ reach.', {
            tokens: tokens(n),
            longest: count(n - 1),
          })
        : t(
            '{tokens}: distances from {reach} to {longest} all land in one bucket, so order over those spans is only “far”.',
            { tokens: tokens(n), reach: count(reach), longest: count(n - 1) },
          ),
    advice: t(
      'for tasks that need exact order over long spans, keep the relevant text within {tokens} of each other, and evaluate at the length you will run.',
      { tokens: tokens(reach) },
    ),
  };
}

function noneItems(r, type, add) {
  const n = r.promptLength;
  const hybrid = r.attentionLayers.length > 0;
  add(
    t('Scheme'),
    hybrid && r.recurrentKind === 'kda'
      ? t(
          'none ({type}): a hybrid of linear-attention layers (Kimi Delta Attention) and attention layers whose rotary part is never turned (mla_use_nope). The linear-attention layers read the tokens in order through a gated recurrence that fades older tokens, so order is built into them; the attention layers ({layers}: {attention} of {total}) have no position encoding at all and learn order only from the layers around them.',
          {
            type,
            layers: layerList(r.attentionLayers),
            attention: count(r.attentionLayers.length),
            total: count(r.numLayers),
          },
        )
      : hybrid
        ? t(
            'none ({type}): a hybrid of state-space (Mamba) layers and attention layers. The state-space layers read the tokens in order through a recurrence, so order is built into them; the attention layers ({layers}: {attention} of {total}) have no position encoding at all and learn order only from the layers around them.',
            {
              type,
              layers: layerList(r.attentionLayers),
              attention: count(r.attentionLayers.length),
              total: count(r.numLayers),
            },
          )
        : t(
            'none ({type}): a state-space model. It reads the tokens one after another through a recurrence, so order is built in, and no position encoding exists: no table, no codes, no rotary pairs.',
            { type },
          ),
  );
  add(
    t('Limit'),
    hybrid
      ? t(
          'nothing in the config caps the length: there are no positions to run out of. How much of a long prompt the model uses is a matter of its recurrent layers’ fixed-size state and of how far its attention layers learned to look, which no position field describes.',
        )
      : t(
          'nothing in the config caps the length: there are no positions to run out of. How much of a long prompt the model keeps is a matter of its fixed-size state, which no position field describes.',
        ),
  );
  if (r.modelType === 'granitemoehybrid')
    // transformers' GraniteMoeHybrid and vLLM build a rotary embedding only for position_embedding_type "rope";
    // convert_hf_to_gguf.py writes rope.scaling.finetuned false (llama.cpp's switch) for a hybrid with Mamba layers.
    add(
      t('Runtimes differ'),
      t(
        'transformers and vLLM turn RoPE in these attention layers only when position_embedding_type is rope; llama.cpp reads its switch from the GGUF’s rope.scaling.finetuned, which its converter sets to false for a hybrid with Mamba layers, and writes {length} as the context length, so a GGUF’s length is not this config’s.',
        { length: count(2 ** 20) },
      ),
    );
  return {
    prompt:
      r.advertisedLength > 0
        ? t(
            '{tokens}; the config states max_position_embeddings {advertised}, a length it was set up for rather than a position table.',
            { tokens: tokens(n), advertised: count(r.advertisedLength) },
          )
        : t('{tokens}.', { tokens: tokens(n) }),
    advice: t(
      'evaluate at the length you will run, with the answer at the start, the middle and the end: the recurrence can forget early text however the positions are handled.',
    ),
  };
}

function unknownItems(r, type, add) {
  add(
    t('Scheme'),
    t(
      'not understood ({type}): nothing in this config names a position scheme the reader knows, so it cannot say how positions are encoded; only the lengths the config states are read.',
      { type },
    ),
  );
  return {
    prompt:
      r.advertisedLength > 0
        ? t('{tokens}; the config states max_position_embeddings {advertised}.', {
            tokens: tokens(r.promptLength),
            advertised: count(r.advertisedLength),
          })
        : t('{tokens}.', { tokens: tokens(r.promptLength) }),
    advice: t(
      'read the model’s own modelling code or documentation for how it encodes positions, and evaluate at the length you will run.',
    ),
  };
}

/**
 * The field a RoPE report's base comes from: DeepSeek-V4's compressed layers turn compress_rope_theta, its
 * window layers rope_theta (their own, local base).
 */
const baseField = (r) => (r.modelType === 'deepseek_v4' && r.localBase > 0 ? 'compress_rope_theta' : 'rope_theta');

/** A RoPE model's items about its scheme: the pairs, the lengths, local layers, layer kinds, the stretch, the query scale and the runtimes' readings. */
function ropeSchemeItems(r, type, add) {
  const L = r.trainedLength;
  const A = r.advertisedLength;
  const pairs = r.rotaryDim / 2;
  const stretched = A !== L && A > 0;
  // One set of figures for the three ways of saying the scheme (each template takes those it names).
  const scheme = {
    type,
    pairs: count(pairs),
    rotaryDim: count(r.rotaryDim),
    headDim: count(r.headDim),
    qkHeadDim: count(r.mlaQkHeadDim),
    nope: count(r.mlaQkHeadDim - r.rotaryDim),
    baseField: baseField(r),
    base: quantity(r.base),
  };
  add(
    t('Scheme'),
    // The config's own words: DeepSeek-V4 states the whole width as head_dim, V2/V3 and Kimi state qk_nope_head_dim.
    r.mlaQkHeadDim > 0 && r.headDimField === 'head_dim'
      ? t(
          'RoPE ({type}): multi-head latent attention: {pairs} rotary pairs turn qk_rope_head_dim {rotaryDim} of the head_dim {qkHeadDim} dimensions of each query and key; the other {nope} carry no position, base {baseField} {base}.',
          scheme,
        )
      : r.mlaQkHeadDim > 0
        ? t(
            'RoPE ({type}): multi-head latent attention: {pairs} rotary pairs turn the qk_rope_head_dim {rotaryDim} dimensions of each {qkHeadDim}-dimensional query and key; the other {nope} (qk_nope_head_dim) carry no position, base {baseField} {base}.',
            scheme,
          )
        : t(
            'RoPE ({type}): {pairs} rotary pairs per head (rotary_dim {rotaryDim} of head_dim {headDim}), base {baseField} {base}.',
            scheme,
          ),
  );
  add(
    t('Lengths'),
    stretched
      ? t(
          'trained {tokens} (original_max_position_embeddings); advertised {advertised} (max_position_embeddings), {ratio}× longer.',
          { tokens: tokens(L), advertised: count(A), ratio: ratio(A, L) },
        )
      : t('trained and advertised {tokens} (max_position_embeddings).', { tokens: tokens(L) }),
  );
  // With the layers listed kind by kind, the local layers' summary stays only where a pattern states it.
  if (r.localBase > 0 && !(showsLayerKinds(r) && !(r.globalEvery > 0))) {
    const local = {
      pattern:
        r.globalEvery > 0
          ? t('one layer in every {every} is global, the others local', { every: count(r.globalEvery) })
          : t('the layers alternate between global and local'),
      window: tokens(r.localWindow),
      localBase: quantity(r.localBase),
      base: quantity(r.base),
      wavelength: quantity(r.localWavelengths[r.localWavelengths.length - 1]),
    };
    add(
      t('Local layers'),
      r.localBase !== r.base
        ? t(
            '{pattern}. A local layer attends only within a window of {window} and turns its pairs at base {localBase} (the global layers use {base}); its slowest pair’s wavelength is {wavelength} tokens. Only the global layers see distances beyond the window, so only they can run past the trained angles.',
            local,
          )
        : t(
            '{pattern}. A local layer attends only within a window of {window} and turns its pairs at base {localBase} (the same base as the global layers); its slowest pair’s wavelength is {wavelength} tokens. Only the global layers see distances beyond the window, so only they can run past the trained angles.',
            local,
          ),
    );
  }
  if (showsLayerKinds(r)) for (const kind of r.layerKinds) add(layerKindTerm(kind), layerKindText(kind, r));
  if (r.ropeType === 'default' || (r.ropeType === 'proportional' && r.scalingFactor === 1)) {
    add(
      t('Stretch'),
      stretched
        ? t(
            'the config names no scaling method, yet advertises more than it was trained at: treat the advertised length as untested.',
          )
        : t('none: no scaling entry, so the model runs at the frequencies it was trained with.'),
    );
  } else {
    const factor = trimmed(r.scalingFactor, 3);
    const stretch = { ropeType: r.ropeType, factor, method: METHODS[r.ropeType](r, factor), ratio: ratio(A, L) };
    add(
      t('Stretch'),
      stretched && Math.abs(r.scalingFactor - A / L) > 1e-9 * (A / L)
        ? t(
            'rope_type {ropeType} with factor {factor}. {method} An entry with a factor means the model was trained shorter and stretched, so test it at the lengths you will use rather than trusting the stretched number. Note that the factor ({factor}) is not the ratio of the two lengths ({ratio}).',
            stretch,
          )
        : t(
            'rope_type {ropeType} with factor {factor}. {method} An entry with a factor means the model was trained shorter and stretched, so test it at the lengths you will use rather than trusting the stretched number.',
            stretch,
          ),
    );
  }
  if (r.queryScalingBeta > 0) {
    // Every RoPE layer scales its queries alike; the engine gives the scale at the prompt's last token.
    const temperature = r.layerKinds.find(turnsPairs)?.queryTemperature ?? 1;
    add(
      t('Query scale'),
      t(
        'llama_4_scaling_beta {beta}: every layer multiplies its queries by 1 + {beta}·ln(1 + ⌊position / {length}⌋), as transformers’ Ministral 3 attention does, so the scale steps up each time the position passes another {length} tokens. At {tokens} it is {temperature}. Llama 4 scales only its NoPE layers, by its own formula (attn_scale, floor_scale).',
        {
          beta: trimmed(r.queryScalingBeta, 3),
          length: count(r.queryScalingLength),
          tokens: tokens(r.promptLength),
          temperature: trimmed(temperature, 3),
        },
      ),
    );
  }
  if (r.runtimeReadings.length > 0) add(t('Runtimes disagree'), runtimeLine(r.runtimeReadings));
  const notes = runtimeNotes(r);
  if (notes.length > 0) add(t('Runtimes differ'), joined(...notes));
}

/** What a RoPE model's prompt length asks of its pairs, and the advice for it: { prompt, advice }. */
function ropePromptVerdict(r) {
  const n = r.promptLength;
  const L = r.trainedLength;
  const A = r.advertisedLength;
  const pairs = r.rotaryDim / 2;
  if (noRopeLayerSpansThePrompt(r) && r.layerKinds.some((k) => k.positions === 'unknown'))
    return {
      prompt: t(
        '{tokens}: no layer the reader understands turns pairs over the whole prompt (each attends within a window or a chunk), so none of its pairs needs an angle beyond training; what the layers it does not understand do with positions, it cannot say.',
        { tokens: tokens(n) },
      ),
      advice: t(
        'evaluate at the length you will run, and read the model’s own code for the layer types listed as not understood: they may turn positions this card does not show.',
      ),
    };
  if (noRopeLayerSpansThePrompt(r)) {
    return {
      prompt: t(
        '{tokens}: no layer with RoPE spans the whole prompt (each attends within a window or a chunk), so none of its pairs needs an angle beyond training; the layers that see the whole prompt have no positions at all.',
        { tokens: tokens(n) },
      ),
      advice: t(
        'evaluate at the length you will run: what the layers without positions make of a long prompt is something no config can say.',
      ),
    };
  }
  const pastAdvertised = A > 0 && n > A;
  const values = {
    tokens: tokens(n),
    beyond: count(r.beyondCount),
    pairs: count(pairs),
    ranges: pairRanges(r.beyond),
    trainedTokens: tokens(L),
    trained: count(L),
    advertised: count(A),
  };
  if (r.beyondCount > 0) {
    return {
      prompt: pastAdvertised
        ? t(
            '{tokens}: {beyond} of {pairs} pairs ({ranges}) need angles beyond what training showed. They are the slow pairs, which never completed a turn in {trainedTokens}. It is also past the advertised {advertised}.',
            values,
          )
        : t(
            '{tokens}: {beyond} of {pairs} pairs ({ranges}) need angles beyond what training showed. They are the slow pairs, which never completed a turn in {trainedTokens}.',
            values,
          ),
      advice:
        r.ropeType === 'default' || (r.ropeType === 'proportional' && r.scalingFactor === 1)
          ? t(
              'do not raise the serving engine’s context limit on its own: past the trained angles RoPE degrades silently. Keep prompts within {trainedTokens}, or set a scaling (linear, dynamic or YaRN) and test before shipping; for long documents, interpolation or YaRN plus a short fine-tune on long text.',
              values,
            )
          : t(
              'the config’s scaling does not keep these pairs inside the angles of the original {trained}-token training. A long-context fine-tune after the stretch may have shown them to the model, which the config cannot say: evaluate at {tokens}, with the answer at the start, the middle and the end, before relying on it.',
              values,
            ),
    };
  } else if (n <= L) {
    return {
      prompt: t('{tokens} is within the trained length: every pair’s angles are ones training showed.', values),
      advice: t('nothing for this length; evaluate at the length you will run anyway.'),
    };
  } else {
    // The engine's count reads the longest distance a layer turns pairs over: where a window caps it
    // in every layer, that is why no pair is beyond; otherwise it is the config's scaling.
    const span = windowedSpan(r);
    const windowed = { ...values, window: tokens(span) };
    return {
      prompt:
        span > 0
          ? pastAdvertised
            ? t(
                '{tokens} is past the trained {trained}, but every layer attends to at most the previous {window}, so no pair needs an angle beyond what training showed. It is also past the advertised {advertised}.',
                windowed,
              )
            : t(
                '{tokens} is past the trained {trained}, but every layer attends to at most the previous {window}, so no pair needs an angle beyond what training showed.',
                windowed,
              )
          : pastAdvertised
            ? t(
                '{tokens} is past the trained {trained}, but with the config’s scaling no pair needs an angle beyond what training showed. It is also past the advertised {advertised}.',
                values,
              )
            : t(
                '{tokens} is past the trained {trained}, but with the config’s scaling no pair needs an angle beyond what training showed.',
                values,
              ),
      advice: pastAdvertised
        ? t(
            'the advertised length is {advertised}: a serving engine refuses longer prompts unless its limit is raised, and raising it alone is what breaks. Test at {tokens} before relying on it.',
            values,
          )
        : t(
            'serve it with this scaling entry exactly as given (a dropped or mistyped entry makes it read positions it never learned), and test at {tokens} rather than trusting the advertised {advertised}.',
            values,
          ),
    };
  }
}

function ropeItems(r, type, add) {
  ropeSchemeItems(r, type, add);
  return ropePromptVerdict(r);
}

/**
 * Each scheme's items: scheme → (r, type, add), which adds the card's items for the scheme and returns
 * the two every card then lists, { prompt, advice }: what the reader's prompt meets, and what to do.
 */
const SCHEME_ITEMS = {
  learned: learnedItems,
  sinusoidal: sinusoidalItems,
  alibi: alibiItems,
  relative: relativeItems,
  none: noneItems,
  rope: ropeItems,
  unknown: unknownItems,
};

/**
 * The plain-words reading of a readModelConfig report, following the lesson's "How to choose" and
 * "What breaks": [{ term, text }] (scheme, lengths, stretch, runtimes, the prompt, what to do, notes).
 */
export function modelCardSummary(r) {
  const type = r.modelType
    ? t('model_type “{modelType}”', { modelType: clip(r.modelType, MAX_SHOWN_TEXT) })
    : t('no model_type');
  const items = [];
  const add = (term, text) => items.push({ term, text });
  const unread = notUnderstoodPhrases(r);
  if (unread.length) add(t('Not understood'), `${unread.join(t('; '))}.`);
  const { prompt, advice } = SCHEME_ITEMS[r.scheme](r, type, add);
  add(t('Your prompt'), prompt);
  add(t('What to do'), advice);
  if (r.slidingWindow > 0 && !(r.localBase > 0) && !(r.scheme === 'rope' && showsLayerKinds(r)))
    add(
      t('Window'),
      t('each token attends to at most the previous {tokens} (sliding_window).', { tokens: tokens(r.slidingWindow) }),
    );
  // The notes are the engine's own sentences, in English; each kind the reader writes is said in the
  // page's language (readerNote), the config's names and values kept as they are.
  if (r.notes.length)
    add(
      t('Reader’s notes'),
      `${r.notes.map((note) => clip(readerNote(note), 2 * MAX_SHOWN_TEXT + 80)).join(t('; '))}${t('.')}`,
    );
  return items;
}

/** The summary's heading: "Llama 2 7B, for a prompt of 4,096 tokens:". */
export const summaryHeading = (name, r) =>
  t('{name}, for a prompt of {tokens}:', { name, tokens: tokens(r.promptLength) });

/** The heading while the config does not read; the message itself is shown once, below the text box. */
export const errorHeading = () =>
  t('Nothing to report until the config reads cleanly: the message below the text box says what to fix.');

/** The chart description while the config does not read (without repeating the message). */
export const errorSummary = () => t('The config could not be read; the message below the text box says what to fix.');

/** Each scheme's name in the short description (a function: the words are the page language's). */
const schemeWords = (scheme) =>
  ({
    learned: () => t('learned position table'),
    sinusoidal: () => t('sinusoidal codes'),
    alibi: () => 'ALiBi',
    relative: () => t('relative position buckets'),
    none: () => t('no position encoding'),
    unknown: () => t('a position scheme the reader does not know'),
  })[scheme]?.();

/**
 * Whether every layer that turns pairs attends within a window or a chunk beside layers without
 * positions (Llama 4's chunked RoPE layers and its NoPE ones): the engine's count then reads the
 * chunk's distances, not the prompt's, and the words say why.
 */
const noRopeLayerSpansThePrompt = (r) =>
  showsLayerKinds(r) && !r.layerKinds.some((k) => turnsPairs(k) && k.window === 0 && k.chunk === 0);

/**
 * The window every layer attends within, in tokens, when all of them turn pairs within one window
 * (Mistral 7B v0.1's 4,096): the distance the engine's count reads. 0 otherwise.
 */
function windowedSpan(r) {
  const kinds = r.layerKinds ?? [];
  if (kinds.length === 0 || !kinds.every((k) => turnsPairs(k) && k.window > 0)) return 0;
  return Math.max(...kinds.map((k) => k.longestDistance + 1));
}

/** One line for screen readers: the scheme, the lengths and what the chart shows. */
export function shortDescription(r, name) {
  const values = {
    name,
    tokens: tokens(r.promptLength),
    trained: count(r.trainedLength),
    scheme: schemeWords(r.scheme),
  };
  if (r.scheme === 'rope') {
    Object.assign(values, {
      ropeType: r.ropeType,
      advertised: count(r.advertisedLength),
      beyond: count(r.beyondCount),
      pairs: count(r.rotaryDim / 2),
      ranges: pairRanges(r.beyond),
      fastest: quantity(r.wavelengths[0]),
      slowest: quantity(r.wavelengths[r.wavelengths.length - 1]),
    });
    if (noRopeLayerSpansThePrompt(r))
      return t(
        '{name}: RoPE, rope_type {ropeType}, trained {trained}, advertised {advertised}. At {tokens} no pair needs an angle beyond training: every layer with RoPE attends within a window or a chunk. Wavelengths after scaling run from {fastest} to {slowest} tokens.',
        values,
      );
    return r.beyondCount
      ? t(
          '{name}: RoPE, rope_type {ropeType}, trained {trained}, advertised {advertised}. At {tokens} {beyond} of {pairs} pairs need angles beyond training (pairs {ranges}). Wavelengths after scaling run from {fastest} to {slowest} tokens.',
          values,
        )
      : t(
          '{name}: RoPE, rope_type {ropeType}, trained {trained}, advertised {advertised}. At {tokens} {beyond} of {pairs} pairs need angles beyond training. Wavelengths after scaling run from {fastest} to {slowest} tokens.',
          values,
        );
  }
  if (!(r.trainedLength > 0))
    return t('{name}: {scheme}; the config states no length to compare a prompt of {tokens} with.', values);
  if (r.promptLength > r.trainedLength)
    return t('{name}: {scheme}, trained at {trained} positions; a prompt of {tokens} goes {excess} past it.', {
      ...values,
      excess: count(r.promptLength - r.trainedLength),
    });
  return t('{name}: {scheme}, trained at {trained} positions; a prompt of {tokens} fits.', values);
}

/** What the chart says where a scheme states no length to draw against. */
export function noLengthMessage(r) {
  if (r.scheme === 'relative')
    return t('No length to draw: T5’s buckets reach {tokens}, and any prompt length can be fed.', {
      tokens: tokens(r.relativeMaxDistance),
    });
  if (r.scheme === 'none') return t('No positions to draw: a state-space model carries order in its recurrence.');
  if (r.scheme === 'unknown') return t('No positions to draw: the reader does not know this config’s position scheme.');
  return t('The config states no trained length: nothing to compare the prompt with.');
}

/**
 * The engine's note (cpp/src/model_config.cpp, every cfg.notes sentence) in the page's language:
 * each kind of note as a pattern, its names and values carried over. A note of a kind not listed
 * here stays as the engine wrote it.
 */
const READER_NOTES = [
  [
    /^the text model is read from (\w+): the top level \(model_type "(.+)"\) wraps it with other parts \(vision, audio\)$/,
    ([key, type]) =>
      t(
        'the text model is read from {key}: the top level (model_type "{type}") wraps it with other parts (vision, audio)',
        { key, type },
      ),
  ],
  [
    /^the text model is read from (\w+): the top level wraps it with other parts \(vision, audio\)$/,
    ([key]) => t('the text model is read from {key}: the top level wraps it with other parts (vision, audio)', { key }),
  ],
  [
    /^model_type "(.+)" uses a learned position table in transformers$/,
    ([type]) => t('model_type "{type}" uses a learned position table in transformers', { type }),
  ],
  [
    /^(.+) "su" is the older name of longrope; read as longrope$/,
    ([path]) => t('{path} "su" is the older name of longrope; read as longrope', { path }),
  ],
  [
    /^(.+) "mrope" is read as default frequencies with multimodal sections, as transformers does$/,
    ([path]) =>
      t('{path} "mrope" is read as default frequencies with multimodal sections, as transformers does', { path }),
  ],
  [
    /^both rope_parameters and rope_scaling are present: rope_parameters is read$/,
    () => t('both rope_parameters and rope_scaling are present: rope_parameters is read'),
  ],
  [
    /^rope_parameters has one block per layer type: the (.+) block gives the global layers' recipe$/,
    ([type]) =>
      t("rope_parameters has one block per layer type: the {type} block gives the global layers' recipe", { type }),
  ],
  [
    /^rope_theta differs at the top level and in (.+): \1\.rope_theta is used$/,
    ([block]) => t('rope_theta differs at the top level and in {block}: {block}.rope_theta is used', { block }),
  ],
  [
    /^rope_theta is absent: transformers' default (\d+) is used$/,
    ([value]) => t("rope_theta is absent: transformers' default {value} is used", { value: noteNumber(value) }),
  ],
  [
    /^(.+)\.alpha is read only with rope_type dynamic \(vLLM, SGLang\): ignored for (.+)$/,
    ([block, type]) =>
      t('{block}.alpha is read only with rope_type dynamic (vLLM, SGLang): ignored for {type}', { block, type }),
  ],
  [
    /^(.+)\.factor is absent: vLLM and SGLang read alpha instead; transformers' dynamic recipe needs a factor, and 1 is used here$/,
    ([block]) =>
      t(
        "{block}.factor is absent: vLLM and SGLang read alpha instead; transformers' dynamic recipe needs a factor, and 1 is used here",
        { block },
      ),
  ],
  [
    /^(.+)\.original_max_position_embeddings is not used by dynamic scaling in transformers: it scales from max_position_embeddings$/,
    ([block]) =>
      t(
        '{block}.original_max_position_embeddings is not used by dynamic scaling in transformers: it scales from max_position_embeddings',
        { block },
      ),
  ],
  [
    /^(.+)\.factor is absent: max_position_embeddings \/ \1\.original_max_position_embeddings is used, as transformers 5 does$/,
    ([block]) =>
      t(
        '{block}.factor is absent: max_position_embeddings / {block}.original_max_position_embeddings is used, as transformers 5 does',
        { block },
      ),
  ],
  [
    /^layer_types is absent: Gemma4TextConfig's default is used \(every sixth layer and the last attend to the whole prompt\)$/,
    () =>
      t(
        "layer_types is absent: Gemma4TextConfig's default is used (every sixth layer and the last attend to the whole prompt)",
      ),
  ],
  [
    /^attn_temperature_tuning is the number (.+), read as (true|false) \(transformers tests it for truth\)$/,
    ([value, read]) =>
      t('attn_temperature_tuning is the number {value}, read as {read} (transformers tests it for truth)', {
        value,
        read,
      }),
  ],
  [
    /^relative_attention_num_buckets is absent: T5's default 32 is used$/,
    () => t("relative_attention_num_buckets is absent: T5's default 32 is used"),
  ],
  [
    /^relative_attention_max_distance is absent: T5's default 128 is used$/,
    () => t("relative_attention_max_distance is absent: T5's default 128 is used"),
  ],
  [
    /^(.+) is absent: Gemma3TextConfig's default (.+) is used, as transformers does$/,
    ([key, value]) =>
      t("{key} is absent: Gemma3TextConfig's default {value} is used, as transformers does", {
        key,
        value: noteNumber(value),
      }),
  ],
  [
    /^(.+) is absent: DeepseekV4Config's default (.+) is used, as transformers does$/,
    ([key, value]) =>
      t("{key} is absent: DeepseekV4Config's default {value} is used, as transformers does", {
        key,
        value: noteNumber(value),
      }),
  ],
  [
    /^compress_ratios holds (\d+) entries for (\d+) layers: those past the first \d+ belong to the multi-token-prediction layers, which are not drawn$/,
    ([entries, layers]) =>
      t(
        'compress_ratios holds {entries} entries for {layers} layers: those past the first {layers} belong to the multi-token-prediction layers, which are not drawn',
        { entries: noteNumber(entries), layers: noteNumber(layers) },
      ),
  ],
  [
    /^n_ctx differs from n_positions: n_positions \(the table size\) is used$/,
    () => t('n_ctx differs from n_positions: n_positions (the table size) is used'),
  ],
  [
    /^the RoPE scaling block is ignored: the model uses (.+)$/,
    ([scheme]) => t('the RoPE scaling block is ignored: the model uses {scheme}', { scheme }),
  ],
  [
    /^sliding_window is given but use_sliding_window is false: attention is not windowed$/,
    () => t('sliding_window is given but use_sliding_window is false: attention is not windowed'),
  ],
];

/** A whole number the engine wrote in a note, grouped as every number on the page is; anything else as written. */
const noteNumber = (text) => (/^\d{5,}$/.test(text) ? grouped(Number(text)) : text);

/** `note` (one of the engine's notes) in the page's language, or as written where its kind is not listed. */
export function readerNote(note) {
  for (const [pattern, say] of READER_NOTES) {
    const match = pattern.exec(note);
    if (match) return say(match.slice(1));
  }
  return note;
}
