// The words of the "Read your model's card" widget: pure functions from the engine's
// readModelConfig report to the summary's sentences, the headings and the short description,
// in the lesson's terms (learned table, sinusoidal codes, RoPE pairs, ALiBi, buckets, none).

import { grouped, sciUnicode, trimmed } from '../format.js';

const MAX_SHOWN_TEXT = 80; // longest model_type or message fragment echoed into the summary

/** Shortens text to max characters, ending with an ellipsis. */
export const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A length or count as the lesson prints it: "131,072". */
const count = (n) => grouped(n);

/** A number of tokens with the noun in agreement: "1 token", "4,096 tokens". */
export const tokens = (n) => `${count(n)} ${n === 1 ? 'token' : 'tokens'}`;

/** A positive quantity with thousands separators when large, a few decimals when small. */
export function quantity(x) {
  if (x >= 1000) return grouped(x);
  return trimmed(x, 2);
}

/** A per-pair number for the data table: 6 significant digits, separators, U+2212, ×10ⁿ when tiny. */
export function formatPairValue(v) {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && Math.abs(v) < 1e-3) return sciUnicode(v, 5);
  return v.toLocaleString('en-US', { maximumSignificantDigits: 6 }).replace('-', '\u2212');
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

const METHODS = {
  linear: () =>
    'Position interpolation: every pair turns factor times slower, so the stretched positions map back into the trained range.',
  dynamic: (r) =>
    `Dynamic NTK: the base grows only once a prompt passes the trained length${
      r.dynamicBase > r.base
        ? `; at ${tokens(r.promptLength)} it is ${quantity(r.dynamicBase)} instead of ${quantity(r.base)}`
        : ', so at this prompt length nothing changes'
    }.`,
  yarn: (r) =>
    `YaRN: the fast pairs keep their speed, the slow pairs turn factor times slower, a ramp joins them, and cos and sin are multiplied by ${trimmed(r.attentionFactor, 3)}${
      r.softmaxScaleFactor !== 1
        ? `; the attention’s softmax scale is also multiplied by ${trimmed(r.softmaxScaleFactor, 3)} (mscale_all_dim, squared)`
        : ''
    }.`,
  longrope: (r) =>
    `LongRoPE: one divisor per pair, from the ${r.longropeLongFactor ? 'long' : 'short'} list at this prompt length, and cos and sin are multiplied by ${trimmed(r.attentionFactor, 3)}.`,
  llama3: () =>
    'Llama 3’s recipe: the slow pairs turn factor times slower, the fast pairs keep their speed, and a ramp joins them.',
};

/** Layer indices as a short list: "4, 12, 20, 28". */
const layerList = (layers) => layers.join(', ');

/** One line per runtime where they read the config differently: factor, cos/sin factor, length. */
export function runtimeLine(readings) {
  const parts = readings.map((reading) => {
    const scale = reading.attentionFactor !== 1 ? `, cos and sin × ${trimmed(reading.attentionFactor, 3)}` : '';
    const length = reading.length > 0 ? `, takes ${tokens(reading.length)} as the limit` : '';
    const verb = reading.runtime.includes(' and ') ? 'use' : 'uses';
    return `${reading.runtime} ${verb} factor ${trimmed(reading.factor, 3)}${scale}${length}`;
  });
  return `${parts.join('; ')}. This reader follows transformers 5; check which one serves your model.`;
}

function learnedItems(r, type, add) {
  const n = r.promptLength;
  const A = r.advertisedLength;
  const rows =
    r.learnedOffset > 0
      ? ` (the table holds ${count(r.learnedTableRows)} rows: this family shifts every position by ${r.learnedOffset}, so the first ${r.learnedOffset} rows are never a token’s position)`
      : '';
  add('Scheme', `a learned position table (${type}): one trained vector per position, ${count(A)} of them${rows}.`);
  add(
    'Limit',
    `hard. There is no vector for position ${count(A)} or later, so a longer input fails or is truncated; no scaling setting changes that.`,
  );
  if (n <= A) {
    add(
      'Your prompt',
      `${tokens(n)} ${n === 1 ? 'fits' : 'fit'} in the table, with ${count(A - n)} positions to spare.`,
    );
    add('What to do', `nothing for this length. Longer documents: chunk them to at most ${tokens(A)} each.`);
  } else {
    add(
      'Your prompt',
      `${tokens(n)} is ${count(n - A)} more than the table has rows (${ratio(n, A)}× its length): the model cannot read it in one piece.`,
    );
    add(
      'What to do',
      `chunk the input to at most ${tokens(A)} per piece (retrieve the chunks that matter), or choose a model with a longer window.`,
    );
  }
}

function sinusoidalItems(r, type, add) {
  const n = r.promptLength;
  const L = r.trainedLength;
  add(
    'Scheme',
    `fixed sinusoidal codes (${type}): a code exists for every position, so there is no table to run out of.`,
  );
  add('Trained length', `${count(L)} positions.`);
  if (n <= L) {
    add('Your prompt', `${tokens(n)} is within the trained length.`);
    add('What to do', 'nothing for this length; evaluate at the length you will run.');
  } else {
    add(
      'Your prompt',
      `${tokens(n)} goes ${count(n - L)} past the positions the model saw in training: the codes exist, but the model never learned to read them.`,
    );
    add('What to do', `chunk to ${tokens(L)}, or test at ${tokens(n)} before relying on it.`);
  }
}

function alibiItems(r, type, add) {
  const n = r.promptLength;
  const L = r.trainedLength;
  add(
    'Scheme',
    `ALiBi (${type}): no position vectors; each score is lowered in proportion to the distance between the two tokens.`,
  );
  if (L > 0) {
    add('Trained length', `${tokens(L)}.`);
    add(
      'Your prompt',
      n <= L
        ? `${tokens(n)} is within the trained length.`
        : `${tokens(n)} is ${ratio(n, L)}× the trained length. ALiBi was designed to run past it, but its penalty favours nearby tokens, so distant text counts for little.`,
    );
  } else {
    add('Trained length', 'the config states none.');
    add('Your prompt', `${tokens(n)}; with no trained length on the card, there is nothing to compare it with.`);
  }
  add(
    'What to do',
    'evaluate at the length you will run, with the answer placed at the start, the middle and the end of the prompt.',
  );
}

function relativeItems(r, type, add) {
  const n = r.promptLength;
  const reach = r.relativeMaxDistance;
  const perDirection = r.relativeBuckets / 2;
  add(
    'Scheme',
    `relative position buckets (${type}): no position vectors; each head adds a learned bias to a score, chosen by the bucket of the distance between the two tokens. ` +
      `${count(r.relativeBuckets)} buckets (relative_attention_num_buckets): the encoder gives ${count(perDirection)} to each direction, distances 0–${count(r.relativeExactEncoder - 1)} one bucket each, then buckets that widen logarithmically up to ${count(reach)} (relative_attention_max_distance); the decoder looks one way only, with distances 0–${count(r.relativeExactDecoder - 1)} exact and the same reach.`,
  );
  add(
    'Limit',
    `none from a table: any length can be fed. But every distance of ${count(reach)} tokens or more shares the last bucket, so beyond that reach the model cannot tell near from far.`,
  );
  add(
    'Your prompt',
    n - 1 < reach
      ? `${tokens(n)}: every distance in it (at most ${count(n - 1)}) falls inside the buckets’ reach.`
      : `${tokens(n)}: distances from ${count(reach)} to ${count(n - 1)} all land in one bucket, so order over those spans is only “far”.`,
  );
  add(
    'What to do',
    `for tasks that need exact order over long spans, keep the relevant text within ${tokens(reach)} of each other, and evaluate at the length you will run.`,
  );
}

function noneItems(r, type, add) {
  const n = r.promptLength;
  const hybrid = r.attentionLayers.length > 0;
  add(
    'Scheme',
    hybrid
      ? `none (${type}): a hybrid of state-space (Mamba) layers and attention layers. The state-space layers read the tokens in order through a recurrence, so order is built into them; the attention layers (${layerList(r.attentionLayers)}: ${count(r.attentionLayers.length)} of ${count(r.numLayers)}) have no position encoding at all and learn order only from the layers around them.`
      : `none (${type}): a state-space model. It reads the tokens one after another through a recurrence, so order is built in, and no position encoding exists: no table, no codes, no rotary pairs.`,
  );
  add(
    'Limit',
    'nothing in the config caps the length: there are no positions to run out of. How much of a long prompt the model keeps is a matter of its fixed-size state, which no position field describes.',
  );
  add(
    'Your prompt',
    `${tokens(n)}${r.advertisedLength > 0 ? `; the config states max_position_embeddings ${count(r.advertisedLength)}, a length it was set up for rather than a position table` : ''}.`,
  );
  add(
    'What to do',
    'evaluate at the length you will run, with the answer at the start, the middle and the end: the recurrence can forget early text however the positions are handled.',
  );
}

function ropeItems(r, type, add) {
  const n = r.promptLength;
  const L = r.trainedLength;
  const A = r.advertisedLength;
  const pairs = r.rotaryDim / 2;
  const stretched = A !== L && A > 0;
  const width =
    r.mlaQkHeadDim > 0
      ? `multi-head latent attention: ${count(pairs)} rotary pairs turn the qk_rope_head_dim ${count(r.rotaryDim)} dimensions of each ${count(r.mlaQkHeadDim)}-dimensional query and key; the other ${count(r.mlaQkHeadDim - r.rotaryDim)} (qk_nope_head_dim) carry no position`
      : `${count(pairs)} rotary pairs per head (rotary_dim ${count(r.rotaryDim)} of head_dim ${count(r.headDim)})`;
  add('Scheme', `RoPE (${type}): ${width}, base rope_theta ${quantity(r.base)}.`);
  add(
    'Lengths',
    stretched
      ? `trained ${tokens(L)} (original_max_position_embeddings); advertised ${count(A)} (max_position_embeddings), ${ratio(A, L)}× longer.`
      : `trained and advertised ${tokens(L)} (max_position_embeddings).`,
  );
  if (r.localBase > 0) {
    const pattern =
      r.globalEvery > 0
        ? `one layer in every ${count(r.globalEvery)} is global, the others local`
        : 'the layers alternate between global and local';
    add(
      'Local layers',
      `${pattern}. A local layer attends only within a window of ${tokens(r.localWindow)} and turns its pairs at base ${quantity(r.localBase)}${
        r.localBase !== r.base
          ? ` (the global layers use ${quantity(r.base)})`
          : ' (the same base as the global layers)'
      }; its slowest pair’s wavelength is ${quantity(r.localWavelengths[r.localWavelengths.length - 1])} tokens. Only the global layers see distances beyond the window, so only they can run past the trained angles.`,
    );
  }
  if (r.ropeType === 'default') {
    add(
      'Stretch',
      stretched
        ? 'the config names no scaling method, yet advertises more than it was trained at: treat the advertised length as untested.'
        : 'none: no scaling entry, so the model runs at the frequencies it was trained with.',
    );
  } else {
    const factor = trimmed(r.scalingFactor, 3);
    const method = METHODS[r.ropeType](r).replace('factor times', `${factor} times`);
    const mismatch =
      stretched && Math.abs(r.scalingFactor - A / L) > 1e-9 * (A / L)
        ? ` Note that the factor (${factor}) is not the ratio of the two lengths (${ratio(A, L)}).`
        : '';
    add(
      'Stretch',
      `rope_type ${r.ropeType} with factor ${factor}. ${method} An entry with a factor means the model was trained shorter and stretched, so test it at the lengths you will use rather than trusting the stretched number.${mismatch}`,
    );
  }
  if (r.runtimeReadings.length > 0) add('Runtimes disagree', runtimeLine(r.runtimeReadings));
  const past = A > 0 && n > A ? ` It is also past the advertised ${count(A)}.` : '';
  if (r.beyondCount > 0) {
    add(
      'Your prompt',
      `${tokens(n)}: ${count(r.beyondCount)} of ${count(pairs)} pairs (${pairRanges(r.beyond)}) need angles beyond what training showed. They are the slow pairs, which never completed a turn in ${tokens(L)}.${past}`,
    );
    add(
      'What to do',
      r.ropeType === 'default'
        ? `do not raise the serving engine’s context limit on its own: past the trained angles RoPE degrades silently. Keep prompts within ${tokens(L)}, or set a scaling (linear, dynamic or YaRN) and test before shipping; for long documents, interpolation or YaRN plus a short fine-tune on long text.`
        : `the config’s scaling does not keep these pairs inside the angles of the original ${count(L)}-token training. A long-context fine-tune after the stretch may have shown them to the model, which the config cannot say: evaluate at ${tokens(n)}, with the answer at the start, the middle and the end, before relying on it.`,
    );
  } else if (n <= L) {
    add('Your prompt', `${tokens(n)} is within the trained length: every pair’s angles are ones training showed.`);
    add('What to do', 'nothing for this length; evaluate at the length you will run anyway.');
  } else {
    add(
      'Your prompt',
      `${tokens(n)} is past the trained ${count(L)}, but with the config’s scaling no pair needs an angle beyond what training showed.${past}`,
    );
    add(
      'What to do',
      A > 0 && n > A
        ? `the advertised length is ${count(A)}: a serving engine refuses longer prompts unless its limit is raised, and raising it alone is what breaks. Test at ${tokens(n)} before relying on it.`
        : `serve it with this scaling entry exactly as given (a dropped or mistyped entry makes it read positions it never learned), and test at ${tokens(n)} rather than trusting the advertised ${count(A)}.`,
    );
  }
}

const SCHEME_ITEMS = {
  learned: learnedItems,
  sinusoidal: sinusoidalItems,
  alibi: alibiItems,
  relative: relativeItems,
  none: noneItems,
  rope: ropeItems,
};

/**
 * The plain-words reading of a readModelConfig report, following the lesson's "How to choose" and
 * "What breaks": [{ term, text }] (scheme, lengths, stretch, runtimes, the prompt, what to do, notes).
 */
export function modelCardSummary(r) {
  const type = r.modelType ? `model_type “${clip(r.modelType, MAX_SHOWN_TEXT)}”` : 'no model_type';
  const items = [];
  const add = (term, text) => items.push({ term, text });
  SCHEME_ITEMS[r.scheme](r, type, add);
  if (r.slidingWindow > 0 && !(r.localBase > 0))
    add('Window', `each token attends to at most the previous ${tokens(r.slidingWindow)} (sliding_window).`);
  if (r.notes.length)
    add('Reader’s notes', `${r.notes.map((note) => clip(note, 2 * MAX_SHOWN_TEXT + 80)).join('; ')}.`);
  return items;
}

/** The summary's heading: "Llama 2 7B, for a prompt of 4,096 tokens:". */
export const summaryHeading = (name, r) => `${name}, for a prompt of ${tokens(r.promptLength)}:`;

/** The heading while the config does not read; the message itself is shown once, below the text box. */
export const errorHeading = () =>
  'Nothing to report until the config reads cleanly: the message below the text box says what to fix.';

/** The chart description while the config does not read (without repeating the message). */
export const errorSummary = () => 'The config could not be read; the message below the text box says what to fix.';

const SCHEME_WORDS = {
  learned: 'learned position table',
  sinusoidal: 'sinusoidal codes',
  alibi: 'ALiBi',
  relative: 'relative position buckets',
  none: 'no position encoding',
};

/** One line for screen readers: the scheme, the lengths and what the chart shows. */
export function shortDescription(r, name) {
  const n = tokens(r.promptLength);
  if (r.scheme === 'rope') {
    return (
      `${name}: RoPE, rope_type ${r.ropeType}, trained ${count(r.trainedLength)}, advertised ${count(r.advertisedLength)}. ` +
      `At ${n} ${count(r.beyondCount)} of ${count(r.rotaryDim / 2)} pairs need angles beyond training` +
      `${r.beyondCount ? ` (pairs ${pairRanges(r.beyond)})` : ''}. Wavelengths after scaling run from ${quantity(r.wavelengths[0])} to ${quantity(r.wavelengths[r.wavelengths.length - 1])} tokens.`
    );
  }
  if (!(r.trainedLength > 0))
    return `${name}: ${SCHEME_WORDS[r.scheme]}; the config states no length to compare a prompt of ${n} with.`;
  return `${name}: ${SCHEME_WORDS[r.scheme]}, trained at ${count(r.trainedLength)} positions; a prompt of ${n} ${
    r.promptLength > r.trainedLength ? `goes ${count(r.promptLength - r.trainedLength)} past it` : 'fits'
  }.`;
}

/** What the chart says where a scheme states no length to draw against. */
export function noLengthMessage(r) {
  if (r.scheme === 'relative')
    return `No length to draw: T5’s buckets reach ${tokens(r.relativeMaxDistance)}, and any prompt length can be fed.`;
  if (r.scheme === 'none') return 'No positions to draw: a state-space model carries order in its recurrence.';
  return 'The config states no trained length: nothing to compare the prompt with.';
}
