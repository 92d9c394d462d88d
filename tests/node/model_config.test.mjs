// The config.json reader through its JavaScript binding (readModelConfig in dist/engine.mjs):
// every preset, every broken fixture with the same message as natively, bad arguments, and
// the module still answering after each error.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import {
  layerKindTerm,
  modelCardSummary,
  runtimeLine,
  runtimeNotes,
  shortDescription,
  summaryHeading,
} from '../../web/js/charts/model-card/model-card-text.js';
import { loadEngine } from './engine-loader.mjs';

const repo = new URL('../../', import.meta.url);
const presetsDir = new URL('web/presets/', repo);
const brokenDir = new URL('tests/fixtures/configs/broken/', repo);
const degradedDir = new URL('tests/fixtures/configs/degraded/', repo);
const readText = (url) => readFileSync(url, 'utf8');

let engine;
before(async () => {
  engine = await loadEngine();
});

/** The card as one text, each entry "term: text" on a line of its own. */
const cardText = (r) =>
  modelCardSummary(r)
    .map((entry) => `${entry.term}: ${entry.text}`)
    .join('\n');

/** θ_i = base^(−2i/dims) for every pair, relative 1e-12 (the engine and this line compute the same power). */
function assertDefaultRope(invFreq, base, dims) {
  invFreq.forEach((theta, i) => {
    const expected = base ** ((-2 * i) / dims);
    assert.ok(Math.abs(theta - expected) <= 1e-12 * expected, `pair ${i}`);
  });
}

// Each preset's published figures (see each file's _source), one table shared with tests/cpp/test_model_config.cpp.
const PRESETS = JSON.parse(readText(new URL('tests/fixtures/configs/presets-expected.json', repo))).expected;

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
    const pairs = e.rotary_dim / 2;
    test(`${id}: scheme, lengths and per-pair arrays`, () => {
      const r = engine.readModelConfig(readText(new URL(`${id}.json`, presetsDir)), 1000);
      assert.equal(r.scheme, e.scheme);
      assert.equal(r.ropeType, e.rope_type);
      assert.equal(r.trainedLength, e.trained);
      assert.equal(r.advertisedLength, e.advertised);
      assert.equal(r.stretch, e.stretch);
      assert.equal(r.headDim, e.head_dim);
      assert.equal(r.rotaryDim, e.rotary_dim);
      for (const key of ['invFreq', 'baseInvFreq', 'wavelengths', 'baseWavelengths']) {
        assert.ok(r[key] instanceof Float64Array, key);
        assert.equal(r[key].length, pairs, key);
      }
      assert.ok(r.beyond instanceof Uint8Array);
      assert.equal(r.beyond.length, pairs);
      assert.equal(r.beyondCount, 0, 'a 1000-token prompt is inside every preset');
      assert.ok(Array.isArray(r.notes));
      // Wavelength is 2π/θ for every pair (relative 1e-12: one division apart).
      r.invFreq.forEach((theta, i) => {
        assert.ok(Math.abs(r.wavelengths[i] * theta - 2 * Math.PI) < 1e-12 * 2 * Math.PI, `pair ${i}`);
      });
    });
  }

  // A width the card states is never less than the part of it that turns: "rotary_dim 64 of
  // head_dim 56" (DeepSeek-V3.2 with head_dim read as hidden_size / heads) is false in its own words.
  test('every width on every card holds the pairs that turn in it (model and each kind of layer)', () => {
    for (const id of Object.keys(PRESETS))
      for (const prompt of [1000, 400000]) {
        const r = engine.readModelConfig(readText(new URL(`${id}.json`, presetsDir)), prompt);
        if (r.scheme === 'rope') assert.ok(r.rotaryDim <= r.headDim, `${id}: rotary ${r.rotaryDim} of ${r.headDim}`);
        for (const kind of r.layerKinds)
          if (kind.rotaryDim > 0)
            assert.ok(kind.rotaryDim <= kind.headDim, `${id} ${kind.layerType}: ${kind.rotaryDim} of ${kind.headDim}`);
        const words = modelCardSummary(r)
          .map(({ text }) => text)
          .join(' ');
        for (const [claim, part, whole] of words.matchAll(
          /(?:rotary_dim|qk_rope_head_dim) ([\d,]+) of (?:the )?head_dim ([\d,]+)/g,
        ))
          assert.ok(
            Number(part.replace(/,/g, '')) <= Number(whole.replace(/,/g, '')),
            `${id} at ${prompt}: "${claim}"`,
          );
      }
  });

  test('every card states one head width: the scheme line’s is each layer’s that turns the same frequencies', () => {
    // GLM-5 states head_dim 64 (its rotary part) beside qk_head_dim 256: the scheme line said 256 while the
    // layer line said "rotary_dim 64 of head_dim 64".
    const number = (text) => Number(text.replace(/,/g, ''));
    for (const id of Object.keys(PRESETS)) {
      const r = engine.readModelConfig(readText(new URL(`${id}.json`, presetsDir)), 1000);
      if (r.scheme !== 'rope' || r.mlaQkHeadDim === 0) continue;
      const entries = modelCardSummary(r);
      const scheme = entries[0].text;
      const width = scheme.match(/of the head_dim ([\d,]+) dimensions|each ([\d,]+)-dimensional query/);
      assert.ok(width, `${id}: no head width in "${scheme}"`);
      const stated = number(width[1] ?? width[2]);
      assert.equal(stated, r.headDim, `${id}: scheme line`);
      for (const { text } of entries.slice(1))
        for (const [claim, whole] of text.matchAll(/rotary_dim [\d,]+ of head_dim ([\d,]+)/g))
          assert.equal(number(whole), stated, `${id}: "${claim}" beside "${scheme}"`);
    }
  });

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
    assert.equal(
      llama.beyondCount,
      llama.beyond.reduce((a, b) => a + b, 0),
    );
    assert.equal(llama.promptBeyondTrained, true);
    const gpt2 = engine.readModelConfig(readText(new URL('gpt2.json', presetsDir)), 2048);
    assert.equal(gpt2.promptBeyondAdvertised, true);
  });
});

describe('families of 2025–26 through the binding', () => {
  const preset = (file, n) => engine.readModelConfig(readText(new URL(file, presetsDir)), n);

  test('Llama 4 Scout Instruct: equal llama3 factors keep or divide every pair, as transformers computes', () => {
    const r = preset('llama-4-scout-17b-16e-instruct.json', 100000);
    assert.equal(r.ropeType, 'llama3');
    assert.deepEqual(r.notUnderstood, []);
    // transformers' _compute_llama3_parameters with factor 16, low = high = 1, original 8192: no pair
    // falls in the medium band, so a pair is divided by 16 when its wavelength exceeds 8192, else kept.
    // 1e-12 relative: the same power and one division.
    r.invFreq.forEach((theta, i) => {
      const base = 500000 ** ((-2 * i) / 128);
      const expected = (2 * Math.PI) / base > 8192 ? base / 16 : base;
      assert.ok(Math.abs(theta - expected) <= 1e-12 * expected, `pair ${i}: ${theta} vs ${expected}`);
    });
    assert.ok(r.invFreq.some((theta, i) => theta < r.baseInvFreq[i]));
  });

  test('SmolLM3: NoPE layers without chunks beside RoPE layers over the whole prompt', () => {
    const r = preset('smollm3-3b.json', 100000);
    assert.deepEqual(r.notUnderstood, []);
    assert.equal(r.layerKinds.length, 2);
    const [rope, nope] = r.layerKinds;
    assert.equal(rope.positions, 'rope');
    assert.equal(rope.chunk, 0);
    assert.equal(rope.layerCount, 27);
    assert.equal(nope.positions, 'none');
    assert.equal(nope.noneReason, 'nope');
    assert.deepEqual(Array.from(nope.layers), [3, 7, 11, 15, 19, 23, 27, 31, 35]);
    assertDefaultRope(rope.invFreq, 5e6, 128);
    const summary = cardText(r);
    assert.match(summary, /9 full_attention layers \(3, 7, 11, 15, …, 35\): no positions \(NoPE\)/);
    assert.doesNotMatch(summary, /chunk/);
    assert.match(
      summary,
      /Runtimes differ: transformers reads no_rope_layers layer by layer; llama\.cpp does not read it/,
    );
  });

  test('llama_4_scaling_beta (Ministral 3): a query scale on every RoPE layer, named on the card', () => {
    const text = JSON.stringify({
      model_type: 'ministral3',
      hidden_size: 4096,
      num_attention_heads: 32,
      head_dim: 128,
      num_hidden_layers: 34,
      max_position_embeddings: 262144,
      rope_parameters: {
        rope_type: 'yarn',
        rope_theta: 1e6,
        factor: 16,
        original_max_position_embeddings: 16384,
        llama_4_scaling_beta: 0.1,
      },
    });
    const r = engine.readModelConfig(text, 100000);
    assert.equal(r.queryScalingBeta, 0.1);
    assert.equal(r.queryScalingLength, 16384);
    // transformers' _get_llama_4_attn_scale at position 99,999: 1 + 0.1·ln(1 + 6); 1e-15 relative.
    const expected = 1 + 0.1 * Math.log(1 + Math.floor(99999 / 16384));
    assert.ok(Math.abs(r.layerKinds[0].queryTemperature - expected) <= 1e-15 * expected);
    const summary = modelCardSummary(r);
    const scale = summary.find((entry) => entry.term === 'Query scale');
    assert.ok(scale, 'the card has a query-scale entry');
    assert.match(scale.text, /At 100,000 tokens it is 1\.195/);
    assert.ok(summary.find((entry) => entry.term === 'Runtimes differ').text.includes('attention.temperature_scale'));
  });

  test('Kimi Linear (mla_use_nope): no layer turns pairs, and the card draws no panel', () => {
    const r = engine.readModelConfig(
      JSON.stringify({
        model_type: 'kimi_linear',
        hidden_size: 2304,
        num_attention_heads: 32,
        num_hidden_layers: 4,
        max_position_embeddings: 1048576,
        qk_rope_head_dim: 64,
        qk_nope_head_dim: 128,
        mla_use_nope: true,
        rope_theta: 10000,
        layer_types: ['linear_attention', 'linear_attention', 'linear_attention', 'full_attention'],
      }),
      100000,
    );
    assert.deepEqual(
      r.layerKinds.map((k) => [k.layerType, k.positions, k.noneReason]),
      [
        ['linear_attention', 'none', 'linear_attention'],
        ['full_attention', 'none', 'nope'],
      ],
    );
    assert.equal(r.beyondCount, 0);
  });

  test('DeepSeek-V4: compressed layers turn the second RoPE over the whole prompt, described and drawn', () => {
    const r = engine.readModelConfig(
      readText(new URL('degraded/deepseek-v4-described.json', new URL('tests/fixtures/configs/', repo))),
      100000,
    );
    assert.equal(r.rotaryDim, 64);
    assert.deepEqual(
      r.notUnderstood.map((item) => [item.field, item.effect]),
      [['compress_rope_parameters', 'position_field']],
    );
    const [sliding, csa, hca] = r.layerKinds;
    assert.equal(sliding.window, 128);
    assert.equal(sliding.base, 10000);
    assert.deepEqual([csa.base, csa.compressRatio, csa.rawWindow, csa.window], [160000, 4, 128, 0]);
    assert.deepEqual([hca.compressRatio, hca.longestDistance], [128, 99999]);
    // Pair i of the compressed layers at compress_rope_theta, unscaled here (the file's yarn block is not
    // DeepseekV4Config's spelling): 1e-12 relative, one power each.
    assertDefaultRope(csa.invFreq, 160000, 64);
    const summary = cardText(r);
    assert.match(
      summary,
      /2 compressed_sparse_attention layers \(1, 3\): RoPE at base 160,000.*beyond it, to one compressed entry per 4 tokens, each turned at the position of its block’s first token/,
    );
    assert.match(
      summary,
      /1 heavily_compressed_attention layer \(2\): .*to every compressed entry, one per 128 tokens/,
    );
    assert.doesNotMatch(summary, /have no positions at all|it cannot say/);
  });

  test('DeepSeek-V4-Flash as published: compress_ratios lay out window, sparse and heavy layers', () => {
    const r = preset('deepseek-v4-flash.json', 100000);
    assert.deepEqual(r.notUnderstood, []);
    assert.equal(r.layerTypesField, 'compress_ratios');
    const kinds = r.layerKinds.map((k) => [k.layerType, k.layerCount, k.base, k.compressRatio, k.topK]);
    assert.deepEqual(kinds, [
      ['sliding_attention', 2, 10000, 0, 0],
      ['compressed_sparse_attention', 21, 160000, 4, 512],
      ['heavily_compressed_attention', 20, 160000, 128, 0],
      ['indexer', 21, 160000, 4, 0],
    ]);
    // The window layers turn rope_theta unscaled: 1e-12 relative, one power each.
    assertDefaultRope(r.layerKinds[0].invFreq, 10000, 64);
    const summary = cardText(r);
    assert.match(summary, /turn qk_rope_head_dim 64 of the head_dim 512 dimensions .* the other 448 carry no position/);
    assert.match(summary, /base compress_rope_theta 160,000/);
    assert.match(summary, /21 compressed_sparse_attention layers \(2, 4, 6, 8, …, 42\)/);
    assert.match(summary, /those past the first 43 belong to the multi-token-prediction layers, which are not drawn/);
  });

  test('Mistral Medium 3.5: a Mistral 3 text model, YaRN with beta_fast 4 and no query scale', () => {
    const r = preset('mistral-medium-3.5-128b.json', 100000);
    assert.deepEqual(r.notUnderstood, []);
    assert.equal(r.textField, 'text_config');
    assert.equal(r.queryScalingBeta, 0);
    assert.ok(r.layerKinds.every((k) => k.queryTemperature === 1));
    // transformers' get_mscale(64): mscale_all_dim 0.0 is falsy, so the plain branch (1e-15: one log).
    assert.ok(Math.abs(r.attentionFactor - (0.1 * Math.log(64) + 1)) <= 1e-15);
    // Pairs 0–23 turn a full 4 times or more over 4,096 tokens: kept at their speed, exactly.
    for (let i = 0; i <= 23; i++) assert.equal(r.invFreq[i], r.baseInvFreq[i], `pair ${i}`);
    assert.ok(r.invFreq[24] < r.baseInvFreq[24]);
    const summary = cardText(r);
    assert.doesNotMatch(summary, /llama_4_scaling_beta|query/i);
  });

  test('DeepSeek-V3.2-Exp: the sparse-attention indexer is a kind of its own, turning the same pairs', () => {
    const r = preset('deepseek-v3.2-exp.json', 400000);
    assert.deepEqual(r.notUnderstood, []);
    assert.equal(r.layerKinds.length, 2);
    const [mla, indexer] = r.layerKinds;
    assert.equal(mla.topK, 2048);
    assert.equal(mla.longestDistance, 399999);
    assert.equal(indexer.layerType, 'indexer');
    assert.equal(indexer.heads, 64);
    assert.equal(indexer.headDim, 128);
    assert.equal(indexer.rotaryDim, 64);
    assert.equal(indexer.pairLayout, 'split-half');
    // The indexer turns MLA's own YaRN frequencies: equal to the last bit (the same vector, copied).
    assert.deepEqual(Array.from(indexer.invFreq), Array.from(mla.invFreq));
    assert.deepEqual(Array.from(indexer.beyond), Array.from(r.beyond));
    const summary = cardText(r);
    assert.match(
      summary,
      /The indexers of 61 layers \(0, 1, 2, 3, …, 60\): 64 indexer heads score every earlier token/,
    );
    assert.match(summary, /the first 64 of each head’s 128 dimensions; the other 64 carry no position/);
    assert.match(summary, /split-half: dimension i turns with dimension i \+ 32/);
    assert.match(summary, /at most 2,048 tokens \(index_topk\)/);
    assert.match(summary, /until a fix of 17 November 2025/);
  });

  test('sparse attention within index_topk: the card says every token is kept, not "spans up to 0 tokens back"', () => {
    const line = (prompt) =>
      modelCardSummary(preset('deepseek-v3.2-exp.json', prompt))
        .map((entry) => entry.text)
        .find((text) => text.includes('(index_topk)'));
    for (const prompt of [1, 2048])
      assert.match(line(prompt), /holds no more, so every query sees every earlier token/, `prompt ${prompt}`);
    assert.match(line(2049), /no window, so it still spans up to 2,048 tokens back/);
    assert.doesNotMatch(line(1), /spans up to 0/);
  });

  test('GLM-5: a 256-wide head of which 64 turn, and an indexer that interleaves its pairs', () => {
    const r = preset('glm-5.json', 400000);
    assert.deepEqual(r.notUnderstood, []);
    assert.equal(r.headDimField, 'qk_head_dim');
    const [mla, indexer] = r.layerKinds;
    assert.equal(mla.headDim, 256);
    assert.equal(indexer.pairLayout, 'interleaved');
    assert.equal(indexer.rotaryPart, 'first');
    // rope_theta 1,000,000 unscaled, re-derived: 1e-12 relative, one power each.
    assertDefaultRope(mla.invFreq, 1e6, 64);
    const summary = cardText(r);
    assert.match(
      summary,
      /turn the qk_rope_head_dim 64 dimensions of each 256-dimensional query and key; the other 192/,
    );
    assert.match(summary, /rotary_dim 64 of head_dim 256/);
    assert.match(summary, /32 indexer heads score every earlier token/);
    assert.match(summary, /Its pairs are interleaved \(indexer_rope_interleave\)/);
    const notes = runtimeNotes(r).join('\n');
    assert.match(notes, /where DeepSeek-V3.2’s splits them in halves/);
    assert.match(notes, /transformers before its PR #46372, llama\.cpp before its PR #25407/);
    assert.doesNotMatch(notes, /DeepSeek-V3.2’s indexer lays its pairs out split-half/, 'that note is V3.2’s');
  });

  test('DeepSeek-V4-Flash: the sparse layers’ indexer is a kind of its own, on the compressed RoPE', () => {
    const r = preset('deepseek-v4-flash.json', 100000);
    const csa = r.layerKinds.find((k) => k.layerType === 'compressed_sparse_attention');
    const indexer = r.layerKinds.find((k) => k.layerType === 'indexer');
    assert.deepEqual(Array.from(indexer.layers), Array.from(csa.layers));
    assert.deepEqual([indexer.base, indexer.compressRatio, indexer.rotaryPart], [160000, 4, 'last']);
    // Its layer's own table (DeepSeek's inference/model.py shares freqs_cis): the same vector, copied.
    assert.deepEqual(Array.from(indexer.invFreq), Array.from(csa.invFreq));
    const summary = cardText(r);
    assert.match(
      summary,
      /The indexers of 21 layers \(2, 4, 6, 8, …, 42\): 64 indexer heads score the compressed entries/,
    );
    assert.match(summary, /the last 64 of each head’s 128 dimensions/);
    assert.match(summary, /It scores every compressed entry of the prompt, one per 4 tokens\./);
    const notes = runtimeNotes(r).join('\n');
    assert.match(
      notes,
      /turn the window layers at rope_theta without YaRN, and the compressed layers and their indexers at compress_rope_theta with YaRN/,
    );
    assert.match(notes, /attention\.compress_rope_freq_base/);
    assert.doesNotMatch(notes, /indexer_rope_interleave|split-half/);
  });

  test('Kimi Linear as published: linear attention and MLA without RoPE, no positions and no length needed', () => {
    // Before: refused ("max_position_embeddings is missing"), and without rope_theta "not understood".
    const r = preset('kimi-linear-48b-a3b-instruct.json', 100000);
    assert.equal(r.scheme, 'none');
    assert.equal(r.recurrentKind, 'kda');
    assert.deepEqual(Array.from(r.attentionLayers), [3, 7, 11, 15, 19, 23, 26]);
    assert.deepEqual(r.notUnderstood, []);
    const summary = modelCardSummary(r)
      .map((entry) => entry.text)
      .join(' ');
    assert.match(summary, /a hybrid of linear-attention layers \(Kimi Delta Attention\) and attention layers/);
    assert.match(summary, /3, 7, 11, 15, …, 26: 7 of 27/);
    assert.doesNotMatch(summary, /Mamba/);
    // Its MLA layers keep every token: the length is not a matter of a fixed-size state alone.
    assert.match(summary, /recurrent layers’ fixed-size state and of how far its attention layers learned to look/);
  });

  test('Granite 4.0-H: Mamba layers and NoPE attention layers, no positions anywhere', () => {
    const r = preset('granite-4.0-h-350m.json', 40000);
    assert.equal(r.scheme, 'none');
    assert.deepEqual(Array.from(r.attentionLayers), [10, 13, 17, 27]);
    assert.deepEqual(r.notUnderstood, []);
    const summary = modelCardSummary(r)
      .map((entry) => entry.text)
      .join(' ');
    assert.match(summary, /10, 13, 17, 27: 4 of 32/);
    assert.match(
      summary,
      /rope\.scaling\.finetuned, which its converter sets to false .* writes 1,048,576 as the context length/,
    );
  });
});

describe('what the reader does not understand, through the binding', () => {
  const { expected } = JSON.parse(readText(new URL('expected.json', degradedDir)));
  const files = readdirSync(degradedDir).filter((f) => f !== 'expected.json');

  test('every degraded file is listed', () => {
    assert.deepEqual(files.sort(), Object.keys(expected).sort());
  });

  for (const file of files) {
    test(`${file} reads, names what it did not understand, and the card says so`, () => {
      const r = engine.readModelConfig(readText(new URL(file, degradedDir)), 1000);
      assert.equal(r.scheme, expected[file].scheme);
      assert.deepEqual(
        r.notUnderstood.map((item) => [item.field, item.value, item.effect]),
        expected[file].notUnderstood,
      );
      const item = modelCardSummary(r).find((entry) => entry.term === 'Not understood');
      assert.ok(item, 'the summary has a "Not understood" entry');
      for (const { field } of r.notUnderstood) assert.ok(item.text.includes(field), field);
      assert.ok(
        !/undefined|NaN/.test(
          modelCardSummary(r)
            .map((entry) => entry.text)
            .join(' '),
        ),
      );
    });
  }

  test('an unknown layer kind is its own kind, listed and not drawn; the others turn as before', () => {
    const r = engine.readModelConfig(readText(new URL('layer-types-unknown.json', degradedDir)), 100000);
    const unknown = r.layerKinds.find((k) => k.positions === 'unknown');
    assert.equal(unknown.layerType, 'global');
    assert.deepEqual(Array.from(unknown.layers), [2]);
    assert.equal(unknown.invFreq.length, 0);
    const full = r.layerKinds.find((k) => k.layerType === 'full_attention');
    // θ_i = 150000^(−2i/64), relative 1e-12 (the engine and this line compute the same power).
    assertDefaultRope(full.invFreq, 150000, 64);
    const summary = modelCardSummary(r)
      .map((entry) => `${entry.term} ${entry.text}`)
      .join('\n');
    assert.match(summary, /1 global layer \(2\) not understood/);
  });

  // Every preset with its recipe renamed to one the reader does not know, and (where it lists layer
  // types) its last layer's kind replaced: each still reads, with the same lengths, and says what it did not read.
  const presets = JSON.parse(readText(new URL('index.json', presetsDir))).presets;
  const textModel = (config) =>
    ['text_config', 'language_config', 'llm_config'].map((k) => config[k]).find((v) => v && Object.keys(v).length) ??
    config;
  for (const { file } of presets) {
    test(`${file} with an unknown recipe or layer kind still reads`, () => {
      const original = readText(new URL(file, presetsDir));
      const before = engine.readModelConfig(original, 4096);
      let variants = 0;
      const config = JSON.parse(original);
      const model = textModel(config);
      const block = model.rope_parameters ?? model.rope_scaling;
      if (block && typeof block === 'object') {
        for (const key of ['rope_type', 'type']) if (key in block) block[key] = 'future_rope';
        const r = engine.readModelConfig(JSON.stringify(config), 4096);
        assert.equal(r.advertisedLength, before.advertisedLength);
        assert.equal(r.scheme, before.scheme);
        variants += 1;
      }
      const variant = JSON.parse(original);
      const types = textModel(variant).layer_types;
      if (Array.isArray(types)) {
        types[types.length - 1] = 'future_attention';
        const r = engine.readModelConfig(JSON.stringify(variant), 4096);
        assert.equal(r.advertisedLength, before.advertisedLength);
        assert.ok(r.notUnderstood.some((item) => item.effect === 'layer_type' && item.value === '"future_attention"'));
        variants += 1;
      }
      const renamed = JSON.parse(original);
      textModel(renamed).position_embedding_type = 'future_positions';
      const r = engine.readModelConfig(JSON.stringify(renamed), 4096);
      assert.equal(r.scheme, 'unknown');
      assert.equal(r.advertisedLength, before.advertisedLength);
      variants += 1;
      assert.ok(variants >= 1);
    });
  }
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
      assert.throws(
        () => engine.readModelConfig(text, 100),
        (error) => {
          assert.ok(error instanceof Error);
          assert.ok(error.message.includes(expected[file]), `${file}: "${error.message}" lacks "${expected[file]}"`);
          return true;
        },
      );
      const after = engine.readModelConfig(readText(new URL('gpt2.json', presetsDir)), 10);
      assert.equal(after.trainedLength, 1024);
    });
  }

  test('invalid-utf8.json decoded by JavaScript reads as a family the reader does not know', () => {
    const text = readText(new URL('invalid-utf8.json', brokenDir));
    assert.ok(text.includes('\uFFFD'));
    const r = engine.readModelConfig(text, 100);
    assert.equal(r.scheme, 'unknown');
    assert.deepEqual(
      r.notUnderstood.map((item) => [item.field, item.effect]),
      [['model_type', 'no_scheme']],
    );
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

// One test per family: the complete preset through the binding, the numbers checked against the
// family's own formula, and the sentences the card shows for it (model-card-text.js).
describe('every family the card explains', () => {
  const read = (id, prompt) => engine.readModelConfig(readText(new URL(`${id}.json`, presetsDir)), prompt);
  const summary = (r) => Object.fromEntries(modelCardSummary(r).map(({ term, text }) => [term, text]));
  // Relative 1e-12: the engine and this re-derivation are one or two roundings apart in float64.
  const close = (a, b) => Math.abs(a - b) <= 1e-12 * Math.abs(b);

  test('learned table, OPT: 2,048 positions in a table of 2,050 rows', () => {
    const r = read('opt-125m', 3000);
    assert.equal(r.learnedTableRows, 2050);
    assert.equal(r.learnedOffset, 2);
    const s = summary(r);
    assert.match(s.Scheme, /2,048 of them \(the table holds 2,050 rows: this family shifts every position by 2/);
    assert.match(s['Your prompt'], /3,000 tokens is 952 more than the table has rows/);
  });

  test('relative buckets, T5: 16 per direction, 0–7 exact, reach 128', () => {
    const r = read('t5-v1_1-base', 512);
    assert.equal(r.relativeBuckets, 32);
    assert.equal(r.relativeExactEncoder, 8);
    assert.equal(r.relativeExactDecoder, 16);
    assert.equal(r.relativeMaxDistance, 128);
    const s = summary(r);
    assert.match(
      s.Scheme,
      /32 buckets \(relative_attention_num_buckets\): the encoder gives 16 to each direction, distances 0–7 one bucket each/,
    );
    assert.match(s['Your prompt'], /distances from 128 to 511 all land in one bucket/);
    assert.match(summary(read('t5-v1_1-base', 100))['Your prompt'], /every distance in it \(at most 99\) falls inside/);
  });

  test('global/local RoPE, ModernBERT: base 160,000 globally, 10,000 in 128-token windows', () => {
    const r = read('modernbert-base', 8192);
    assert.equal(r.base, 160000);
    assert.equal(r.localBase, 10000);
    r.localInvFreq.forEach((theta, i) => assert.ok(close(theta, 10000 ** (-(2 * i) / 64)), `local pair ${i}`));
    r.invFreq.forEach((theta, i) => assert.ok(close(theta, 160000 ** (-(2 * i) / 64)), `global pair ${i}`));
    assert.match(
      summary(r)['Local layers'],
      /one layer in every 3 is global, the others local\. A local layer attends only within a window of 128 tokens and turns its pairs at base 10,000 \(the global layers use 160,000\)/,
    );
  });

  test('MLA + YaRN, DeepSeek-V3: 32 pairs of qk_rope_head_dim 64, softmax × mscale²', () => {
    const r = read('deepseek-v3', 4096);
    assert.equal(r.rotaryDim, 64);
    assert.equal(r.mlaQkHeadDim, 192);
    assert.equal(r.headDim, 192, 'a head is qk_nope + qk_rope wide, not hidden_size / heads = 56');
    const m = 0.1 * Math.log(40) + 1;
    assert.ok(close(r.softmaxScaleFactor, m * m));
    assert.equal(r.attentionFactor, 1);
    const s = summary(r);
    assert.match(
      s.Scheme,
      /32 rotary pairs turn the qk_rope_head_dim 64 dimensions of each 192-dimensional query and key; the other 128 \(qk_nope_head_dim\) carry no position/,
    );
    assert.match(s.Stretch, /softmax scale is also multiplied by 1\.874/);
    assert.equal(s['Runtimes disagree'], undefined, 'the runtimes agree on this config');
    assert.match(s.Lengths, /advertised 163,840 \(max_position_embeddings\), 40× longer/);
  });

  test('YaRN as Qwen2.5’s card says: a line of its own where runtimes disagree', () => {
    const r = read('qwen2.5-7b-instruct-yarn', 100000);
    assert.equal(r.scalingFactor, 4);
    assert.deepEqual(
      r.runtimeReadings.map((x) => [x.runtime, x.factor, x.length]),
      [
        ['transformers 5', 4, 32768],
        ['transformers 4.4x–4.5x', 1, 32768],
        ['vLLM', 4, 131072],
      ],
    );
    assert.equal(summary(r)['Runtimes disagree'], runtimeLine(r.runtimeReadings));
    assert.match(
      summary(r)['Runtimes disagree'],
      /transformers 4\.4x–4\.5x uses factor 1, takes 32,768 tokens as the limit; vLLM uses factor 4, cos and sin × 1\.139, takes 131,072 tokens as the limit/,
    );
  });

  test('ALiBi, BLOOM: no position vectors, and no length stated', () => {
    const r = read('bloom-560m', 4096);
    assert.equal(r.scheme, 'alibi');
    assert.equal(r.headDim, 64);
    const s = summary(r);
    assert.match(
      s.Scheme,
      /^ALiBi \(model_type “bloom”\): no position vectors; each score is lowered in proportion to the distance/,
    );
    assert.equal(s['Trained length'], 'the config states none.');
  });

  test('none, Mamba: no positions, no table, no frequencies', () => {
    const r = read('mamba-130m', 20000);
    assert.equal(r.invFreq.length, 0);
    const s = summary(r);
    assert.match(s.Scheme, /none \(model_type “mamba”\): a state-space model/);
    assert.match(s.Limit, /nothing in the config caps the length/);
    assert.match(shortDescription(r, 'Mamba'), /no position encoding/);
  });

  test('a prompt of one token reads “1 token”', () => {
    const r = read('gpt2', 1);
    assert.equal(summaryHeading('GPT-2', r), 'GPT-2, for a prompt of 1 token:');
    assert.match(summary(r)['Your prompt'], /^1 token fits in the table/);
  });
});

// The reader ships as a module of its own (engine-config.wasm) so the first screen waits only for
// the kernels (engine.wasm); the page loads it when the model card mounts.
describe('the reader as a module of its own', () => {
  const dist = new URL(`${process.env.POSITIONAL_DIST ?? new URL('dist/', repo).pathname}/`, 'file:');
  const bytes = (name) => readFileSync(new URL(name, dist));
  const fresh = async (options) => (await import(new URL('engine.mjs', dist).href)).default(options);

  test('the kernels module does not carry it; the reader module carries nothing else', async () => {
    const { default: createCore } = await import(new URL('engine-core.mjs', dist).href);
    const core = await createCore({ wasmBinary: bytes('engine.wasm') });
    assert.equal(typeof core.readModelConfig, 'undefined');
    assert.equal(typeof core.sinusoidalEncoding, 'function');
    const { default: createConfig } = await import(new URL('engine-config.mjs', dist).href);
    const config = await createConfig({ wasmBinary: bytes('engine-config.wasm') });
    assert.equal(typeof config.readModelConfig, 'function');
    assert.equal(typeof config.sinusoidalEncoding, 'undefined');
  });

  test('readModelConfig says how to load it until loadModelConfigReader() has, then reads as the loaded engine does', async () => {
    const lazy = await fresh({ wasmBinary: bytes('engine.wasm'), modelConfigWasmBinary: bytes('engine-config.wasm') });
    const gpt2 = readText(new URL('gpt2.json', presetsDir));
    assert.throws(() => lazy.readModelConfig(gpt2, 10), /readModelConfig: .*await engine\.loadModelConfigReader\(\)/);
    assert.equal(lazy.ropeFrequencies(4, 10000)[1], 0.01, 'the kernels answer meanwhile');
    const first = lazy.loadModelConfigReader();
    assert.equal(lazy.loadModelConfigReader(), first, 'one load, however often it is asked for');
    await first;
    assert.deepEqual(lazy.readModelConfig(gpt2, 10), engine.readModelConfig(gpt2, 10));
    // The facade's checks and the error rethrow hold for the loaded reader as for the kernels.
    assert.throws(() => lazy.readModelConfig(gpt2, 0), /readModelConfig: promptLength/);
    assert.throws(() => lazy.readModelConfig('{', 10), /^Error: readModelConfig: /);
    await lazy.loadModelConfigReader(); // resolves again once loaded
  });

  test('a reader that fails to load says so, leaves the kernels working, and may be tried again', async () => {
    const broken = await fresh({ wasmBinary: bytes('engine.wasm'), modelConfigWasmBinary: new Uint8Array([0, 1, 2]) });
    await assert.rejects(
      broken.loadModelConfigReader(),
      /loadModelConfigReader: the model-config module could not be loaded/,
    );
    assert.throws(() => broken.readModelConfig('{}', 10), /loadModelConfigReader/);
    assert.equal(broken.ropeFrequencies(4, 10000)[0], 1);
    await assert.rejects(broken.loadModelConfigReader(), /could not be loaded/, 'a second try runs again');
  });
});

// The 2025–26 families' per-pair frequencies, re-derived here from transformers 5's
// modeling_rope_utils.py (each _compute_*_parameters function typed again in float64) and from
// each family's configuration_*.py for which layers get which recipe, without the engine's code.
// Tolerance: relative 1e-12. Both sides compute in float64 but in a different order (the engine's
// pow(base, −2i/d) against 1 / base ** (2i/d) here, YaRN's blend of two terms), which moves the last
// few bits (about 1e-15); any slip in a formula moves a frequency by far more than 1e-6.
describe('2025–26 families: each kind of layer against transformers 5', () => {
  const read = (id, prompt) => engine.readModelConfig(readText(new URL(`${id}.json`, presetsDir)), prompt);
  const config = (id) => JSON.parse(readText(new URL(`${id}.json`, presetsDir)));
  const text = (id) => config(id).text_config ?? config(id);
  const summary = (r) => Object.fromEntries(modelCardSummary(r).map(({ term, text }) => [term, text]));
  const kind = (r, type) => r.layerKinds.find((k) => k.layerType === type);

  // _compute_default_rope_parameters: 1 / base ** (arange(0, dim, 2) / dim).
  const ropeDefault = (base, dim) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));
  // _compute_proportional_rope_parameters: rope_angles = int(p * head_dim // 2) turning pairs spaced over
  // head_dim, zeros for the other head_dim // 2 − rope_angles, all divided by factor.
  const ropeProportional = (base, headDim, p, factor = 1) => {
    const angles = Math.floor((p * headDim) / 2);
    return Array.from({ length: headDim / 2 }, (_, i) => (i < angles ? 1 / base ** ((2 * i) / headDim) : 0) / factor);
  };
  // _compute_llama3_parameters.
  const ropeLlama3 = (
    base,
    dim,
    { factor, low_freq_factor: low, high_freq_factor: high, original_max_position_embeddings: old },
  ) =>
    ropeDefault(base, dim).map((f) => {
      const wavelen = (2 * Math.PI) / f;
      if (wavelen < old / high) return f;
      if (wavelen > old / low) return f / factor;
      const smooth = (old / wavelen - low) / (high - low);
      return (1 - smooth) * (f / factor) + smooth * f;
    });
  // _compute_yarn_parameters (find_correction_range with truncate, linear_ramp_factor).
  const ropeYarn = (
    base,
    dim,
    { factor, original_max_position_embeddings: old, beta_fast = 32, beta_slow = 1, truncate = true },
  ) => {
    const correction = (rotations) => (dim * Math.log(old / (rotations * 2 * Math.PI))) / (2 * Math.log(base));
    let low = correction(beta_fast);
    let high = correction(beta_slow);
    if (truncate) [low, high] = [Math.floor(low), Math.ceil(high)];
    low = Math.max(low, 0);
    high = Math.min(high, dim - 1);
    if (low === high) high += 0.001;
    return ropeDefault(base, dim).map((f, i) => {
      const extrapolation = 1 - Math.min(1, Math.max(0, (i - low) / (high - low)));
      return (f / factor) * (1 - extrapolation) + f * extrapolation;
    });
  };
  const assertClose = (actual, expected, what) => {
    assert.equal(actual.length, expected.length, `${what}: pairs`);
    expected.forEach((e, i) => {
      const ok = e === 0 ? actual[i] === 0 : Math.abs(actual[i] - e) <= 1e-12 * Math.abs(e);
      assert.ok(ok, `${what} pair ${i}: ${actual[i]} against ${e}`);
    });
  };

  test('Llama 4 Scout: text_config read; RoPE (llama3) in 8,192-token chunks, NoPE in every fourth layer', () => {
    const r = read('llama-4-scout-17b-16e', 131072);
    const c = text('llama-4-scout-17b-16e');
    assert.equal(r.textField, 'text_config');
    assert.match(r.notes[0], /the text model is read from text_config: the top level \(model_type "llama4"\)/);
    const rope = kind(r, 'chunked_attention');
    const nope = kind(r, 'full_attention');
    assertClose(rope.invFreq, ropeLlama3(c.rope_theta, c.head_dim, c.rope_scaling), 'chunked layers');
    assert.equal(rope.chunk, c.attention_chunk_size);
    assert.equal(rope.layerCount, 36);
    assert.deepEqual(
      nope.layers,
      [...Array(12).keys()].map((k) => 4 * k + 3),
    );
    assert.equal(nope.positions, 'none');
    assert.equal(nope.invFreq.length, 0);
    // Llama4TextAttention: log1p(floor((position + 1) / floor_scale)) * attn_scale + 1 at position 131071.
    const temperature = Math.log1p(Math.floor(131072 / c.floor_scale)) * c.attn_scale + 1;
    assert.ok(Math.abs(nope.queryTemperature - temperature) <= 1e-12 * temperature);
    const s = summary(r);
    assert.match(s[layerKindTerm(nope)], /^no positions \(NoPE\).*multiplied by 1\.283 \(attn_temperature_tuning\)/);
    assert.match(
      s[layerKindTerm(rope)],
      /within chunks of 8,192 tokens, so it never spans more than 8,191 tokens back/,
    );
    assert.match(s['Your prompt'], /no layer with RoPE spans the whole prompt/);
    assert.match(s['Runtimes differ'], /attn_temperature_tuning/);
    // The one-line description says the same as the card, and so does the engine's own count: it
    // reads the longest distance a layer turns pairs over (the chunk's), not the prompt's.
    assert.equal(r.beyondCount, 0);
    assert.match(shortDescription(r, 'Llama 4 Scout'), /At 131,072 tokens no pair needs an angle beyond training/);
    assert.doesNotMatch(shortDescription(r, 'Llama 4 Scout'), /pairs need angles beyond training/);
  });

  test('Mistral 7B v0.1: a 4,096-token window in every layer keeps every pair inside training at any length', () => {
    const r = read('mistral-7b-v0.1', 100000);
    assert.equal(r.beyondCount, 0);
    assert.ok(r.promptBeyondTrained);
    assert.match(
      summary(r)['Your prompt'],
      /^100,000 tokens is past the trained 32,768, but every layer attends to at most the previous 4,096 tokens, so no pair needs/,
    );
    assert.match(summary(r)['What to do'], /^the advertised length is 32,768: a serving engine refuses longer prompts/);
    assert.match(shortDescription(r, 'Mistral 7B v0.1'), /At 100,000 tokens 0 of 64 pairs need angles beyond training/);
  });

  test('Gemma 3 27B: nested, class defaults said, local 10,000 in 1,024-token windows, global 1e6 / 8', () => {
    const r = read('gemma-3-27b-it', 32768);
    const c = text('gemma-3-27b-it');
    assert.ok(r.notes.some((n) => n.startsWith('max_position_embeddings is absent: Gemma3TextConfig')));
    const local = kind(r, 'sliding_attention');
    const global = kind(r, 'full_attention');
    assertClose(local.invFreq, ropeDefault(10000, c.head_dim), 'local layers');
    assertClose(
      global.invFreq,
      ropeDefault(1e6, c.head_dim).map((f) => f / c.rope_scaling.factor),
      'global layers',
    );
    assert.equal(local.window, 1024);
    assert.equal(local.layerCount, 52);
    assert.equal(global.layerCount, 10);
    assert.match(summary(r)[layerKindTerm(global)], /rope_type linear/);
  });

  test('Gemma 4: per-layer-type rope_parameters; proportional RoPE over a 512-wide head, 64 of 256 pairs turning', () => {
    const r = read('gemma-4-26b-a4b-it', 32768);
    const c = text('gemma-4-26b-a4b-it');
    const full = c.rope_parameters.full_attention;
    const global = kind(r, 'full_attention');
    const local = kind(r, 'sliding_attention');
    assert.equal(global.positions, 'proportional');
    assertClose(
      global.invFreq,
      ropeProportional(full.rope_theta, c.global_head_dim, full.partial_rotary_factor),
      'full-attention layers',
    );
    assertClose(local.invFreq, ropeDefault(c.rope_parameters.sliding_attention.rope_theta, c.head_dim), 'local layers');
    assert.equal(global.rotaryDim, 128);
    assert.ok(global.wavelengths.slice(64).every((w) => w === Infinity));
    assert.deepEqual(global.layers, [5, 11, 17, 23, 29]);
    assert.match(
      summary(r)[layerKindTerm(global)],
      /pairs 0–63 of 256 turn, spaced as the first pairs of a 512-wide head/,
    );
    assert.match(summary(r)['Runtimes differ'], /Proportional RoPE is transformers 5’s recipe/);
  });

  test('gpt-oss-20b: YaRN 32× (truncate false) on both kinds; 128-token windows every other layer', () => {
    const r = read('gpt-oss-20b', 300000);
    const c = config('gpt-oss-20b');
    const expected = ropeYarn(c.rope_theta, c.head_dim, c.rope_scaling);
    assertClose(kind(r, 'sliding_attention').invFreq, expected, 'sliding layers');
    assertClose(kind(r, 'full_attention').invFreq, expected, 'full layers');
    assert.equal(kind(r, 'sliding_attention').window, 128);
    assert.equal(kind(r, 'sliding_attention').beyondCount, 0);
    assert.ok(kind(r, 'full_attention').beyondCount > 0);
    assert.equal(kind(r, 'full_attention').beyondCount, r.beyondCount);
  });

  test('Qwen3 8B with the card’s YaRN: static, and the card’s warning about short texts', () => {
    const r = read('qwen3-8b-yarn', 1000);
    const c = config('qwen3-8b-yarn');
    assertClose(r.layerKinds[0].invFreq, ropeYarn(c.rope_theta, c.head_dim, c.rope_scaling), 'every layer');
    assert.match(
      summary(r)['Runtimes differ'],
      /YaRN here is static.*Qwen’s model cards warn that this may hurt short texts/,
    );
  });

  test('Qwen2.5-VL: mrope read as default frequencies, pairs 0–15 time, 16–39 height, 40–63 width', () => {
    const r = read('qwen2.5-vl-7b-instruct', 1000);
    const c = config('qwen2.5-vl-7b-instruct');
    assert.deepEqual(r.mropeSection, [16, 24, 24]);
    const all = r.layerKinds[0];
    assert.equal(all.positions, 'mrope');
    assertClose(all.invFreq, ropeDefault(c.rope_theta, c.hidden_size / c.num_attention_heads), 'every layer');
    assert.deepEqual(Array.from(all.mropeAxes), [...Array(16).fill(0), ...Array(24).fill(1), ...Array(24).fill(2)]);
    assert.match(
      summary(r)[layerKindTerm(all)],
      /pairs 0–15 turn by the time position, 16–39 by the height and 40–63 by the width/,
    );
    assert.ok(r.notes.some((n) => n.includes('rope_scaling.type "mrope" is read as default frequencies')));
  });

  test('Qwen3-VL: mrope_interleaved cycles time, height and width over the pairs, as apply_interleaved_mrope', () => {
    const c = {
      model_type: 'qwen3_vl',
      text_config: {
        model_type: 'qwen3_vl_text',
        head_dim: 128,
        num_attention_heads: 32,
        num_hidden_layers: 36,
        max_position_embeddings: 262144,
        rope_scaling: { rope_type: 'default', mrope_section: [24, 20, 20], mrope_interleaved: true },
        rope_theta: 5000000,
      },
    };
    const r = engine.readModelConfig(JSON.stringify(c), 1000);
    // transformers' Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope: start from time's frequencies,
    // then pair i reads height where i % 3 == 1 and i < 3 · section[1], width where i % 3 == 2 and i < 3 · section[2].
    const [, h, w] = c.text_config.rope_scaling.mrope_section;
    const axes = Array.from({ length: 64 }, (_, i) =>
      i % 3 === 1 && i < 3 * h ? 1 : i % 3 === 2 && i < 3 * w ? 2 : 0,
    );
    assert.equal(r.mropeInterleaved, true);
    const all = r.layerKinds[0];
    assert.equal(all.positions, 'mrope');
    assert.equal(all.layerCount, 36);
    assert.deepEqual(Array.from(all.mropeAxes), axes);
    assertClose(all.invFreq, ropeDefault(c.text_config.rope_theta, c.text_config.head_dim), 'every layer');
  });

  test('Dynamic NTK by alpha (Hunyuan’s rope_scaling): vLLM and SGLang’s fixed base beside transformers’ factor', () => {
    const hunyuan = {
      model_type: 'hunyuan',
      hidden_size: 4096,
      num_attention_heads: 32,
      head_dim: 128,
      max_position_embeddings: 32768,
      rope_theta: 10000,
      rope_scaling: { alpha: 1000, factor: 1, type: 'dynamic' },
    };
    const r = engine.readModelConfig(JSON.stringify(hunyuan), 100000);
    assert.deepEqual(
      r.runtimeReadings.map((x) => [x.runtime, x.alpha, x.length]),
      [
        ['transformers 4.4x–4.5x and 5', 0, 32768],
        ['vLLM and SGLang', 1000, 32768],
      ],
    );
    // vLLM's DynamicNTKAlphaRotaryEmbedding._compute_cos_sin_cache: base · alpha ** (d / (d − 2)), then
    // 1 / base' ** (arange(0, d, 2) / d). transformers' dynamic recipe (_compute_dynamic_ntk_parameters)
    // grows the base past the trained length: base · (factor · n / L − (factor − 1)) ** (d / (d − 2)).
    const [transformers, vllm] = r.runtimeReadings;
    const alphaBase = 10000 * 1000 ** (128 / 126);
    assert.ok(Math.abs(vllm.base - alphaBase) <= 1e-12 * alphaBase);
    assertClose(vllm.invFreq, ropeDefault(alphaBase, 128), 'alpha');
    assertClose(transformers.invFreq, ropeDefault(10000 * (100000 / 32768) ** (128 / 126), 128), 'factor 1');
    assert.match(
      summary(r)['Runtimes disagree'],
      /vLLM and SGLang read alpha 1,000: base 11,158,840 for every prompt, 32,768 tokens as the limit/,
    );
    // Without a factor transformers cannot read the block, but vLLM and SGLang can: read, with a note.
    const { factor, ...withoutFactor } = hunyuan.rope_scaling;
    assert.equal(factor, 1);
    const bare = engine.readModelConfig(JSON.stringify({ ...hunyuan, rope_scaling: withoutFactor }), 1000);
    assert.ok(bare.notes.some((n) => n.includes('rope_scaling.factor is absent: vLLM and SGLang read alpha instead')));
    assert.throws(
      () => engine.readModelConfig(JSON.stringify({ ...hunyuan, rope_scaling: { ...withoutFactor, alpha: -2 } }), 1000),
      /rope_scaling\.alpha/,
    );
  });

  test('Qwen3-Next: three linear-attention layers to one full layer turning a quarter of its head', () => {
    const r = read('qwen3-next-80b-a3b-instruct', 1000);
    const c = config('qwen3-next-80b-a3b-instruct');
    const full = kind(r, 'full_attention');
    assertClose(full.invFreq, ropeDefault(c.rope_theta, c.head_dim * c.partial_rotary_factor), 'full layers');
    assert.equal(kind(r, 'linear_attention').layerCount, 36);
    assert.match(summary(r)[layerKindTerm(kind(r, 'linear_attention'))], /^no positions: linear attention/);
  });

  test('MiniMax-Text-01: attn_type_list read, seven lightning-attention layers to one turning half its head', () => {
    const r = read('minimax-text-01', 1000);
    const c = config('minimax-text-01');
    assert.equal(r.layerTypesField, 'attn_type_list');
    const full = kind(r, 'full_attention');
    assertClose(full.invFreq, ropeDefault(c.rope_theta, c.rotary_dim), 'softmax layers');
    assert.deepEqual(
      full.layers,
      c.attn_type_list.flatMap((k, i) => (k === 1 ? [i] : [])),
    );
    assert.equal(kind(r, 'linear_attention').layerCount, 70);
    assert.match(summary(r)[layerKindTerm(kind(r, 'linear_attention'))], /^no positions: linear attention/);
    assert.match(summary(r)[layerKindTerm(full)], /pairs 0–31 turn \(rotary_dim 64 of head_dim 128\)/);
  });

  test('proportionalRopeFrequencies in the kernels module agrees with the reader', () => {
    const c = text('gemma-4-26b-a4b-it');
    const kernel = engine.proportionalRopeFrequencies(c.global_head_dim, 1e6, 0.25);
    assertClose(kernel, ropeProportional(1e6, c.global_head_dim, 0.25), 'kernel');
    assert.throws(
      () => engine.proportionalRopeFrequencies(512, 1e6, 1.5),
      /partialRotaryFactor must be a finite number in \(0, 1\]/,
    );
  });

  test('a model_type holding markup is only ever text in the sentences', () => {
    const r = engine.readModelConfig(
      JSON.stringify({ ...config('gpt-oss-20b'), model_type: '<img src=x onerror=alert(1)>' }),
      1000,
    );
    assert.equal(r.modelType, '<img src=x onerror=alert(1)>');
    assert.match(summary(r).Scheme, /model_type “<img src=x onerror=alert\(1\)>”/);
  });
});
