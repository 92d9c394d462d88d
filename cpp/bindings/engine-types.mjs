#!/usr/bin/env node
// Writes engine.d.ts (and engine.d.mts, which points TypeScript's reading of engine.mjs at it), the TypeScript declaration of the facade (engine.mjs), from the engine's own
// declaration: each function's parameters from its binding's declaration (engine-api.json), and what it
// returns from the shape of its result when the facade runs the declaration's ordinary call. The facade's
// own members (views, into, the loaders, heapBytes, …) are written here, beside the rules that map kinds.
// CMake runs it after describe-engine.mjs and the facade's copy (CMakeLists.txt):
//   node cpp/bindings/engine-types.mjs --dir build/wasm
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({ options: { dir: { type: 'string' } } });
const api = JSON.parse(readFileSync(join(opts.dir, 'engine-api.json'), 'utf8'));
const { default: createEngine } = await import(pathToFileURL(join(opts.dir, 'engine.mjs')).href);
const engine = await createEngine({
  wasmBinary: readFileSync(join(opts.dir, 'engine-core.wasm')),
  modelConfigWasmBinary: readFileSync(join(opts.dir, 'engine-config.wasm')),
  lengthLabWasmBinary: readFileSync(join(opts.dir, 'engine-lab.wasm')),
});
await Promise.all([engine.loadModelConfigReader(), engine.loadLengthLab()]);

const identifier = /^[A-Za-z_$][\w$]*$/;
const key = (name) => (identifier.test(name) ? name : JSON.stringify(name));

/** A parameter's TypeScript type, by its declared kind (engine-facade.mjs checks each kind). */
function paramType(p) {
  switch (p.kind) {
    case 'int':
    case 'num':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'text':
      return 'string';
    case 'seed':
      return 'number | string';
    case 'vec':
      return 'NumberArray';
    case 'optionalVec':
      return 'NumberArray | null';
    case 'mat':
      return 'MatrixInput';
    case 'callback':
      return '(...args: any[]) => unknown';
    case 'options':
      return `{ ${p.fields.map((f) => `${key(f.name)}${'default' in f ? '?' : ''}: ${paramType(f)}`).join('; ')} }`;
    default:
      throw new Error(`engine-types: ${p.name} has the kind ${p.kind}, which has no TypeScript type here`);
  }
}

/**
 * A value's TypeScript type, from its shape: a { rows, cols, data } with a Float64Array is a Matrix; an
 * array's type is the union of its elements'; null says nothing about the other calls, so it is unknown.
 */
function valueType(value, depth = 0) {
  if (value === null || value === undefined) return 'unknown';
  if (value instanceof Float64Array) return 'Float64Array';
  if (ArrayBuffer.isView(value)) return value.constructor.name;
  switch (typeof value) {
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'object':
      break;
    default:
      return 'unknown';
  }
  if (Array.isArray(value)) {
    const types = [...new Set(value.map((v) => valueType(v, depth + 1)))];
    if (types.length === 0) return 'unknown[]';
    return types.length === 1 ? `${types[0]}[]` : `(${types.join(' | ')})[]`;
  }
  const keys = Object.keys(value);
  if (
    keys.length === 3 &&
    keys.every((k) => ['rows', 'cols', 'data'].includes(k)) &&
    value.data instanceof Float64Array
  )
    return 'Matrix';
  const pad = '  '.repeat(depth + 2);
  const fields = keys.map((k) => `${pad}${key(k)}: ${valueType(value[k], depth + 1)};`);
  return `{\n${fields.join('\n')}\n${'  '.repeat(depth + 1)}}`;
}

/** What a function returns: the type of its ordinary call's result. */
function returnType(name, example) {
  const result = engine[name](...example);
  if (result && typeof result.then === 'function') throw new Error(`engine-types: ${name} returned a promise`);
  return valueType(result);
}

const fns = Object.entries(api.functions);
const lines = [
  "// The engine's functions as TypeScript sees them: the facade engine.mjs exports. Written by",
  "// cpp/bindings/engine-types.mjs from the engine's declaration (engine-api.json): do not edit. A result's",
  '// type is the shape of the function’s result for the ordinary call in engine-api.json; where that call',
  '// returned null, the field is unknown.',
  '',
  '/** Numbers in: an array, a typed array, or anything array-like (copied once into the engine). */',
  'export type NumberArray = ArrayLike<number>;',
  '/** A row-major matrix as the engine takes it. */',
  'export interface MatrixInput {',
  '  rows: number;',
  '  cols: number;',
  '  data: NumberArray;',
  '}',
  '/** A row-major matrix as the engine returns it. */',
  'export interface Matrix {',
  '  rows: number;',
  '  cols: number;',
  '  data: Float64Array;',
  '}',
  '',
  '/** Each function: its arguments checked by the facade, which throws an Error naming the argument and the rule. */',
  'export interface EngineFunctions {',
];
for (const [name, { doc, params, example }] of fns) {
  // A defaulted parameter before a required one is passed as undefined to take its default.
  const args = params
    .map((p, i) => {
      const optional = params.slice(i).every((q) => 'default' in q);
      const type = paramType(p);
      return optional ? `${key(p.name)}?: ${type}` : `${key(p.name)}: ${type}${'default' in p ? ' | undefined' : ''}`;
    })
    .join(', ');
  lines.push(`  /** ${doc.replaceAll('*/', '*\\/')} */`);
  lines.push(`  ${name}(${args}): ${returnType(name, example)};`);
}
lines.push('}', '');
const viewed = fns.filter(([, f]) => f.view || f.scratch).map(([name]) => name);
lines.push(
  '/** The zero-copy variants: the same arguments; the result’s data is valid until the next call into the engine. */',
  `export type EngineViews = Pick<EngineFunctions, ${viewed.map((n) => JSON.stringify(n)).join(' | ')}> & {`,
  '  release(): void;',
  '};',
  '',
  '/** The facade createEngine() resolves to. */',
  'export interface Engine extends EngineFunctions {',
  '  readonly views: EngineViews;',
  '  readonly into: Record<string, (...args: any[]) => unknown>;',
  '  loadModelConfigReader(): Promise<void>;',
  '  loadLengthLab(): Promise<void>;',
  '  count_emval_handles(): number;',
  '  readonly maxOutputDoubles: number;',
  '  readonly limits: EngineLimits;',
  '}',
  '',
  `export interface EngineLimits {\n${Object.keys(api.limits)
    .map((k) => `  readonly ${key(k)}: number;`)
    .join('\n')}\n}`,
  '',
  '/** Emscripten’s module options, and the bytes of the modules loaded on demand (Node). */',
  'export interface EngineOptions {',
  '  wasmBinary?: ArrayBuffer | ArrayBufferView;',
  '  modelConfigWasmBinary?: ArrayBuffer | ArrayBufferView;',
  '  lengthLabWasmBinary?: ArrayBuffer | ArrayBufferView;',
  '  locateFile?: (path: string, prefix: string) => string;',
  '  [option: string]: unknown;',
  '}',
  '',
  'export default function createEngine(options?: EngineOptions): Promise<Engine>;',
  'export const limits: EngineLimits;',
  `export const signatures: Readonly<Record<keyof EngineFunctions, readonly object[]>>;`,
  'export const viewSignatures: Readonly<Partial<Record<keyof EngineFunctions, readonly object[]>>>;',
  'export const engineDeclaration: Readonly<{ functions: object; limits: EngineLimits; constants: object }>;',
  'export const DEFAULT_BASE: number;',
  'export const MODEL_CONFIG_FUNCTIONS: readonly (keyof EngineFunctions)[];',
  'export const LENGTH_LAB_FUNCTIONS: readonly (keyof EngineFunctions)[];',
  '',
);
writeFileSync(join(opts.dir, 'engine.d.ts'), lines.join('\n'));
// TypeScript pairs an import of './engine.mjs' with engine.d.mts, never with engine.d.ts: this hands it over.
writeFileSync(
  join(opts.dir, 'engine.d.mts'),
  '// The types of engine.mjs (TypeScript reads this file for it): engine.d.ts. Written by cpp/bindings/engine-types.mjs.\n' +
    "export * from './engine.js';\nexport { default } from './engine.js';\n",
);
console.log(`engine-types: engine.d.ts with ${fns.length} functions`);
