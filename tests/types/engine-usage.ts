// Calls the engine as a TypeScript caller would, against dist/engine.d.ts: the right calls compile,
// and each wrong one must be refused (a @ts-expect-error that no error meets fails the check).
import createEngine, { DEFAULT_BASE, limits } from './engine.mjs';
import type { Matrix } from './engine.mjs';

const engine = await createEngine({ wasmBinary: new Uint8Array(0) });

const frequencies: Float64Array = engine.ropeFrequencies(128, DEFAULT_BASE);
const scores: Matrix = engine.ropeScoresOverDistance([1, 0], [1, 0], [3, 0, 103], 4);
const newBase: number = engine.ntkScaledBase(10000, 8, 128);
const decay: Float64Array = engine.ropeDecayCurve(8, undefined, 16);
const { output, weights } = engine.attention(scores, scores, scores, true);
const seeded: Float64Array = engine.standardNormal('7', 5, { sample: 'all' });
await engine.loadModelConfigReader();
const config = engine.readModelConfig('{"model_type": "gpt2"}', 100);
const trained: number = config.trainedLength;
const cap: number = limits.maxOutputDoubles + engine.limits.maxPromptLength;
const view = engine.views.sinusoidalEncoding(4, 8);
engine.views.release();

// @ts-expect-error a dimension is a number, not a string
engine.ropeFrequencies('128');
// @ts-expect-error positions, trained length and new length are all required
engine.interpolatePositions([32000], 4096);
// @ts-expect-error the facade has no such function
engine.ropeFrequency(128);
// @ts-expect-error a matrix is { rows, cols, data }
engine.attention([1, 0], scores, scores);
// @ts-expect-error cosineSimilarity returns a number
const wrong: string = engine.cosineSimilarity([1], [2]);
// @ts-expect-error the options take only their declared fields' types
engine.standardNormal(7, 5, { sample: 3 });

export const used = [frequencies, newBase, decay, output, weights, seeded, trained, cap, view, wrong];
