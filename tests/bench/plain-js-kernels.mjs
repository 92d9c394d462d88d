// The benchmark kernels written the straightforward way in plain JavaScript (Float64Array and
// loops, sin and cos per entry, as the lesson's numpy code reads): the baseline the WASM engine
// is compared with in BENCHMARKS.md. Matrices are { rows, cols, data } (row-major), like the engine's.

/** The 100-word benchmark sentence (and its reversal), the same as in bench_engine.cpp and bench_numpy.py. */
export function benchmarkSentence(reversed = false) {
  const vocabulary = [
    'dog',
    'bites',
    'man',
    'the',
    'a',
    'quick',
    'brown',
    'fox',
    'jumps',
    'over',
    'lazy',
    'cat',
    'sees',
    'bird',
    'under',
    'tree',
    'near',
    'river',
    'small',
    'house',
    'red',
    'green',
    'blue',
    'old',
    'young',
  ];
  const words = Array.from({ length: 100 }, (_, i) => vocabulary[(7 * i + 3) % 25]);
  if (reversed) words.reverse();
  return words.join(' ');
}

/** Deterministic standard normal numbers (mulberry32 + Box–Muller) for inputs whose values do not matter. */
export function normalSource(seed) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** A rows × cols matrix of standard normal numbers. */
export function randomMatrix(rows, cols, seed) {
  const next = normalSource(seed);
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < data.length; i += 1) data[i] = next();
  return { rows, cols, data };
}

/** Column 2i: sin(pos·ω_i), column 2i+1: cos(pos·ω_i), ω_i = base^(−2i/d). */
export function sinusoidalEncoding(n, d, base = 10000) {
  const data = new Float64Array(n * d);
  const omega = new Float64Array(d / 2);
  for (let i = 0; i < d / 2; i += 1) omega[i] = base ** (-(2 * i) / d);
  for (let pos = 0; pos < n; pos += 1) {
    const row = pos * d;
    for (let i = 0; i < d / 2; i += 1) {
      const angle = pos * omega[i];
      data[row + 2 * i] = Math.sin(angle);
      data[row + 2 * i + 1] = Math.cos(angle);
    }
  }
  return { rows: n, cols: d, data };
}

/** Row r's (even, odd) pairs turned by r·θ_i. */
export function applyRopeSequence(x, base = 10000) {
  const { rows, cols } = x;
  const theta = new Float64Array(cols / 2);
  for (let i = 0; i < cols / 2; i += 1) theta[i] = base ** (-(2 * i) / cols);
  const data = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r += 1) {
    const row = r * cols;
    for (let i = 0; i < cols / 2; i += 1) {
      const angle = r * theta[i];
      const c = Math.cos(angle);
      const s = Math.sin(angle);
      const even = x.data[row + 2 * i];
      const odd = x.data[row + 2 * i + 1];
      data[row + 2 * i] = even * c - odd * s;
      data[row + 2 * i + 1] = even * s + odd * c;
    }
  }
  return { rows, cols, data };
}

/** a (n × k) times b (k × m). */
export function matmul(a, b) {
  const out = new Float64Array(a.rows * b.cols);
  for (let i = 0; i < a.rows; i += 1) {
    for (let p = 0; p < a.cols; p += 1) {
      const aip = a.data[i * a.cols + p];
      const bRow = p * b.cols;
      const outRow = i * b.cols;
      for (let j = 0; j < b.cols; j += 1) out[outRow + j] += aip * b.data[bRow + j];
    }
  }
  return { rows: a.rows, cols: b.cols, data: out };
}

/** softmax(Q Kᵀ / √d) V with an optional causal mask; masked weights are exactly 0. */
export function attention(q, k, v, causal = false) {
  const n = q.rows;
  const m = k.rows;
  const d = q.cols;
  const scale = 1 / Math.sqrt(d);
  const weights = new Float64Array(n * m);
  const output = new Float64Array(n * v.cols);
  for (let i = 0; i < n; i += 1) {
    const last = causal ? Math.min(i, m - 1) : m - 1;
    let max = -Infinity;
    for (let j = 0; j <= last; j += 1) {
      let dot = 0;
      for (let c = 0; c < d; c += 1) dot += q.data[i * d + c] * k.data[j * d + c];
      const score = dot * scale;
      weights[i * m + j] = score;
      if (score > max) max = score;
    }
    let sum = 0;
    for (let j = 0; j <= last; j += 1) {
      const e = Math.exp(weights[i * m + j] - max);
      weights[i * m + j] = e;
      sum += e;
    }
    for (let j = 0; j <= last; j += 1) {
      const w = weights[i * m + j] / sum;
      weights[i * m + j] = w;
      for (let c = 0; c < v.cols; c += 1) output[i * v.cols + c] += w * v.data[j * v.cols + c];
    }
  }
  return { output: { rows: n, cols: v.cols, data: output }, weights: { rows: n, cols: m, data: weights } };
}

/**
 * The lesson's encode_sentence: embeddings (looked up with `embed(word)` → Float64Array(16)),
 * plus sinusoidal codes or RoPE on q and k, through one attention layer with weights { wQ, wK, wV }.
 */
export function encodeSentence(sentence, scheme, causal, embed, weights) {
  const words = sentence.split(/\s+/).filter((w) => w.length > 0);
  const d = weights.wQ.rows;
  const x = { rows: words.length, cols: d, data: new Float64Array(words.length * d) };
  words.forEach((word, r) => x.data.set(embed(word), r * d));
  if (scheme === 'sinusoidal') {
    const pe = sinusoidalEncoding(words.length, d);
    for (let i = 0; i < x.data.length; i += 1) x.data[i] += pe.data[i];
  }
  let q = matmul(x, weights.wQ);
  let k = matmul(x, weights.wK);
  const v = matmul(x, weights.wV);
  if (scheme === 'rope') {
    q = applyRopeSequence(q);
    k = applyRopeSequence(k);
  }
  return attention(q, k, v, causal).output;
}

function meanOfRows(m) {
  const mean = new Float64Array(m.cols);
  for (let r = 0; r < m.rows; r += 1) for (let c = 0; c < m.cols; c += 1) mean[c] += m.data[r * m.cols + c];
  for (let c = 0; c < m.cols; c += 1) mean[c] /= m.rows;
  return mean;
}

/** Cosine similarity of two vectors. */
export function cosineSimilarity(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / (Math.sqrt(na) * Math.sqrt(nb));
}

/** The lesson's four order-similarity cases for sentences a and b. */
export function orderSimilarities(a, b, embed, weights) {
  const pooled = (sentence, scheme, causal) => meanOfRows(encodeSentence(sentence, scheme, causal, embed, weights));
  const similarity = (scheme, causal) => cosineSimilarity(pooled(a, scheme, causal), pooled(b, scheme, causal));
  return {
    none: similarity('none', false),
    sinusoidal: similarity('sinusoidal', false),
    rope: similarity('rope', false),
    causal: similarity('none', true),
  };
}

/** The slowest pair's angle at each position: raw, position interpolation, NTK-aware base. */
export function contextExtensionCurves(positions, trainedLen, newLen, d, base = 10000) {
  const slow = base ** (-(d - 2) / d);
  const ntkBase = base * (newLen / trainedLen) ** (d / (d - 2));
  const slowNtk = ntkBase ** (-(d - 2) / d);
  const n = positions.length;
  const data = new Float64Array(3 * n);
  for (let p = 0; p < n; p += 1) {
    data[p] = positions[p] * slow;
    data[n + p] = positions[p] * (trainedLen / newLen) * slow;
    data[2 * n + p] = positions[p] * slowNtk;
  }
  return { angles: { rows: 3, cols: n, data }, trainedMax: trainedLen * slow };
}
