// The live numbers of the section on what position research found since 2024 (lesson.md, #since-2024):
// CoPE's gated counts on the lesson's sentence, FoPE's zeroed pairs, SSMax's scale beside Llama 4's
// query temperature, and the silent head with and without an output gate. Each is an engine call on the
// worked example's inputs, written once here; live-values.js registers them with the rest.

/**
 * The worked examples' inputs (quoted in the prose): CoPE's sentence, read from its last word with a gate
 * that fires on the words ending a sentence; FoPE on a head of 128 numbers at base 10,000 trained on
 * 4,096 tokens; SSMax with s = 1 / ln 4,096 (its factor is 1 at 4,096 keys) beside Llama 4's NoPE
 * temperature (floor_scale 8,192, attn_scale 0.1) at 4,096, 131,072 and 1,048,576 tokens; the silent
 * head at 1,000 keys and 1,000,000 keys leaving 1% of its value.
 */
export const COPE_SENTENCE = 'The cat sat. A dog ran in. Birds sang.';
const FOPE = { headDim: 128, base: 10000, trained: 4096 };
const SSMAX_TRAINED = 4096;
const LLAMA4 = { floorScale: 8192, attnScale: 0.1 };
const LENGTHS = { '4k': 4096, '128k': 131072, '1m': 1048576 };
const SILENT = { keys: 1000, longKeys: 1000000, residual: 0.01 };

/** CoPE on the sentence: { gates, positions (from the last word), query } from the engine. */
function cope(e) {
  const gates = e.sentenceEndGates(COPE_SENTENCE);
  const query = gates.length - 1;
  return { gates, query, positions: e.contextualPositions(gates, query) };
}

/** The words of the first sentence: 0 up to the first gate that fires (the engine's gates). */
const firstSentence = (c) => c.gates.findIndex((g) => g === 1);
/** The first word of the second sentence. */
const secondSentenceStart = (c) => firstSentence(c) + 1;

/** FoPE's rule on the head: the pairs whose wavelength 2π/θ is longer than the trained length. */
const fopeWaves = (e) => e.pairWavelengths(e.ropeFrequencies(FOPE.headDim, FOPE.base));

const ssmax = (length) => ({
  format: 'fixed3',
  value: (e) => e.ssmaxScale(length, e.ssmaxSForLength(SSMAX_TRAINED)),
});
const llama4 = (length) => ({
  format: 'fixed3',
  value: (e) => e.nopeQueryTemperature(length - 1, LLAMA4.floorScale, LLAMA4.attnScale),
});

/** Live name → { format, value(engine, live) }, as LIVE_QUANTITIES takes them. */
export const SINCE_2024_QUANTITIES = {
  'cope.words': { format: 'int', value: (e) => cope(e).gates.length },
  'cope.sentence-ends': { format: 'int', value: (e) => cope(e).gates.reduce((a, b) => a + b, 0) },
  // Every word of the first sentence shares one count; its token distances span the sentence.
  'cope.first-sentence-position': { format: 'int', value: (e) => cope(e).positions[0] },
  'cope.first-sentence-nearest': { format: 'int', value: (e) => cope(e).query - firstSentence(cope(e)) },
  'cope.first-sentence-farthest': { format: 'int', value: (e) => cope(e).query },
  'cope.second-sentence-position': { format: 'int', value: (e) => cope(e).positions[secondSentenceStart(cope(e))] },
  'cope.second-sentence-distance': { format: 'int', value: (e) => cope(e).query - secondSentenceStart(cope(e)) },
  'cope.own-position': { format: 'int', value: (e) => cope(e).positions[cope(e).query] },
  'fope.pairs': { format: 'int', value: (e) => fopeWaves(e).length },
  'fope.zeroed': { format: 'int', value: (e) => fopeWaves(e).filter((w) => w > FOPE.trained).length },
  'fope.first-zeroed': { format: 'int', value: (e) => fopeWaves(e).findIndex((w) => w > FOPE.trained) },
  'ssmax.scale-4k': ssmax(LENGTHS['4k']),
  'ssmax.scale-128k': ssmax(LENGTHS['128k']),
  'ssmax.scale-1m': ssmax(LENGTHS['1m']),
  'llama4.temperature-4k': llama4(LENGTHS['4k']),
  'llama4.temperature-128k': llama4(LENGTHS['128k']),
  'llama4.temperature-1m': llama4(LENGTHS['1m']),
  'sink.ungated-share': { format: 'fixed3', value: (e) => e.silentHead(SILENT.keys, SILENT.residual).ungatedSinkShare },
  'sink.ungated-lead': { format: 'fixed2', value: (e) => e.silentHead(SILENT.keys, SILENT.residual).ungatedLead },
  'sink.ungated-lead-long': {
    format: 'fixed2',
    value: (e) => e.silentHead(SILENT.longKeys, SILENT.residual).ungatedLead,
  },
  'sink.gated-share': { format: 'fixed3', value: (e) => e.silentHead(SILENT.keys, SILENT.residual).gatedSinkShare },
  'sink.gate': { format: 'fixed3', value: (e) => e.silentHead(SILENT.keys, SILENT.residual).gate },
  // The lead the sink needs grows by ln of the growth in keys; SSMax's factor grows by s times that.
  'sink.ssmax-lead-growth': {
    format: 'fixed2',
    value: (e, live) => live('sink.ungated-lead-long') - live('sink.ungated-lead'),
  },
};
