// The config.json reader through its JavaScript binding (readModelConfig in dist/engine.mjs):
// every preset, every broken fixture with the same message as natively, bad arguments, and
// the module still answering after each error.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { loadEngine } from './engine-loader.mjs';

const repo = new URL('../../', import.meta.url);
const presetsDir = new URL('web/presets/', repo);
const brokenDir = new URL('tests/fixtures/configs/broken/', repo);
const readText = (url) => readFileSync(url, 'utf8');

let engine;
before(async () => {
  engine = await loadEngine();
});

// Expected figures per preset: the published lengths (see each file's _source).
const PRESETS = {
  'gpt2': { scheme: 'learned', ropeType: null, trained: 1024, advertised: 1024, stretch: 1, pairs: 0 },
  'bert-base-uncased': { scheme: 'learned', ropeType: null, trained: 512, advertised: 512, stretch: 1, pairs: 0 },
  'llama-2-7b': { scheme: 'rope', ropeType: 'default', trained: 4096, advertised: 4096, stretch: 1, pairs: 64 },
  'llama-3.1-8b': { scheme: 'rope', ropeType: 'llama3', trained: 8192, advertised: 131072, stretch: 16, pairs: 64 },
  'mistral-7b-v0.1': { scheme: 'rope', ropeType: 'default', trained: 32768, advertised: 32768, stretch: 1, pairs: 64 },
  'qwen2-7b-instruct': {
    scheme: 'rope', ropeType: 'default', trained: 32768, advertised: 32768, stretch: 1, pairs: 64,
  },
  'yarn-llama-2-7b-64k': { scheme: 'rope', ropeType: 'yarn', trained: 4096, advertised: 65536, stretch: 16, pairs: 64 },
  'phi-3.5-mini-instruct': {
    scheme: 'rope', ropeType: 'longrope', trained: 4096, advertised: 131072, stretch: 32, pairs: 48,
  },
};

describe('presets through the binding', () => {
  test('index.json lists exactly the preset files, each with a Hugging Face source', () => {
    const index = JSON.parse(readText(new URL('index.json', presetsDir)));
    assert.deepEqual(index.presets.map((p) => p.id).sort(), Object.keys(PRESETS).sort());
    for (const p of index.presets) {
      assert.equal(typeof p.label, 'string');
      const config = JSON.parse(readText(new URL(p.file, presetsDir)));
      assert.match(config._source, /^https:\/\/huggingface\.co\/.+\/config\.json$/);
    }
  });

  for (const [id, e] of Object.entries(PRESETS)) {
    test(`${id}: scheme, lengths and per-pair arrays`, () => {
      const r = engine.readModelConfig(readText(new URL(`${id}.json`, presetsDir)), 1000);
      assert.equal(r.scheme, e.scheme);
      assert.equal(r.ropeType, e.ropeType);
      assert.equal(r.trainedLength, e.trained);
      assert.equal(r.advertisedLength, e.advertised);
      assert.equal(r.stretch, e.stretch);
      for (const key of ['invFreq', 'baseInvFreq', 'wavelengths', 'baseWavelengths']) {
        assert.ok(r[key] instanceof Float64Array, key);
        assert.equal(r[key].length, e.pairs, key);
      }
      assert.ok(r.beyond instanceof Uint8Array);
      assert.equal(r.beyond.length, e.pairs);
      assert.equal(r.beyondCount, 0, 'a 1000-token prompt is inside every preset');
      assert.ok(Array.isArray(r.notes));
      // Wavelength is 2π/θ for every pair (relative 1e-12: one division apart).
      r.invFreq.forEach((theta, i) => {
        assert.ok(Math.abs(r.wavelengths[i] * theta - 2 * Math.PI) < 1e-12 * 2 * Math.PI, `pair ${i}`);
      });
    });
  }

  test('Llama 3.1: fast pairs unchanged, slow pairs divided by 8, base 500000', () => {
    const r = engine.readModelConfig(readText(new URL('llama-3.1-8b.json', presetsDir)), 8192);
    assert.equal(r.base, 500000);
    assert.equal(r.scalingFactor, 8);
    assert.equal(r.invFreq[0], r.baseInvFreq[0]);
    assert.ok(Math.abs(r.invFreq[63] * 8 - r.baseInvFreq[63]) <= 1e-15 * r.baseInvFreq[63]);
  });

  test('a prompt past training flags pairs; GPT-2 past its table says so', () => {
    const llama = engine.readModelConfig(readText(new URL('llama-2-7b.json', presetsDir)), 8192);
    assert.ok(llama.beyondCount > 0);
    assert.equal(llama.beyondCount, llama.beyond.reduce((a, b) => a + b, 0));
    assert.equal(llama.promptBeyondTrained, true);
    const gpt2 = engine.readModelConfig(readText(new URL('gpt2.json', presetsDir)), 2048);
    assert.equal(gpt2.promptBeyondAdvertised, true);
  });
});

describe('broken configs through the binding', () => {
  const { expected } = JSON.parse(readText(new URL('expected.json', brokenDir)));
  const files = readdirSync(brokenDir).filter((f) => f !== 'expected.json');

  test('the corpus has at least 30 files, each with an expected message', () => {
    assert.ok(files.length >= 30);
    assert.deepEqual(files.sort(), Object.keys(expected).sort());
  });

  // A JavaScript string cannot carry invalid UTF-8: decoding turns the 0xFF byte into U+FFFD
  // before the engine sees it, so that one file is checked natively and, here, for what the
  // decoded text becomes (a model_type no family has).
  const BYTES_ONLY = new Set(['invalid-utf8.json']);

  for (const file of files.filter((f) => !BYTES_ONLY.has(f))) {
    test(`${file} → its message, then the module still works`, () => {
      const text = readText(new URL(file, brokenDir));
      assert.throws(() => engine.readModelConfig(text, 100), (error) => {
        assert.ok(error instanceof Error);
        assert.ok(error.message.includes(expected[file]), `${file}: "${error.message}" lacks "${expected[file]}"`);
        return true;
      });
      const after = engine.readModelConfig(readText(new URL('gpt2.json', presetsDir)), 10);
      assert.equal(after.trainedLength, 1024);
    });
  }

  test('invalid-utf8.json decoded by JavaScript is still refused', () => {
    const text = readText(new URL('invalid-utf8.json', brokenDir));
    assert.ok(text.includes('\uFFFD'));
    assert.throws(() => engine.readModelConfig(text, 100), /config names no position scheme this reader knows/);
  });

  test('over 1 MiB and 100,000 open brackets are refused without a crash', () => {
    const big = `{"model_type": "gpt2", "n_positions": 1024, "pad": "${'x'.repeat(1 << 20)}"}`;
    assert.throws(() => engine.readModelConfig(big, 10), /config must be at most 1 MiB \(1048576 bytes\), got/);
    assert.throws(() => engine.readModelConfig('['.repeat(100000), 10), /deeper than 64 levels/);
    assert.equal(engine.readModelConfig(readText(new URL('gpt2.json', presetsDir)), 10).scheme, 'learned');
  });
});

describe('bad arguments', () => {
  const gpt2 = () => readText(new URL('gpt2.json', presetsDir));
  test('jsonText must be a string', () => {
    assert.throws(() => engine.readModelConfig({ model_type: 'gpt2' }, 10), /jsonText must be a string/);
    assert.throws(() => engine.readModelConfig(undefined, 10), /jsonText must be a string/);
  });
  test('promptLength must be a whole number in range', () => {
    assert.throws(() => engine.readModelConfig(gpt2(), 'ten'), /promptLength/);
    assert.throws(() => engine.readModelConfig(gpt2(), 0), /promptLength/);
    assert.throws(() => engine.readModelConfig(gpt2(), 2.5), /promptLength/);
    assert.throws(() => engine.readModelConfig(gpt2(), NaN), /promptLength/);
    assert.throws(() => engine.readModelConfig(gpt2(), 2 ** 31), /promptLength/);
    assert.equal(engine.readModelConfig(gpt2(), 10).promptLength, 10);
  });
});
