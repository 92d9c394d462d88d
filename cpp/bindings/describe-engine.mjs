#!/usr/bin/env node
// Writes the engine's declaration for the JavaScript facade. Runs engine-described in Node, the module the
// build links from every binding file with its declarations (POSITIONAL_DECLARATION, js_declaration.hpp),
// and asks it what the bindings declare (describeEngine()); runs each module the site ships and finds what
// it binds; checks that the two agree (every declared function bound by one module with the arguments its
// declaration lists, every bound function declared, the single file's module binding them all); and
// writes beside the modules
//   engine-declaration.mjs  what the facade needs (engine-facade.mjs imports it): each function's module,
//                           parameters with their ranges and defaults, zero-copy variant or scratch path;
//                           the caps; the constants;
//   engine-api.json         all of it, with each function's topic, what it returns and an ordinary call,
//                           and the modules' internal functions (the Node suite reads it);
//   engine-api.md           that as tables for people.
// CMake runs it after linking (CMakeLists.txt):
//   node cpp/bindings/describe-engine.mjs --dir build/wasm --described engine-described
//        --module core=engine-core --module config=engine-config --module lab=engine-lab
//        --single engine-core-single
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
  options: {
    dir: { type: 'string' },
    described: { type: 'string' },
    module: { type: 'string', multiple: true },
    single: { type: 'string' },
  },
});
const problems = [];
const problem = (text) => problems.push(text);

/** A built module, instantiated in Node. */
async function instantiate(file) {
  const { default: create } = await import(pathToFileURL(join(opts.dir, `${file}.mjs`)).href);
  return create({ wasmBinary: readFileSync(join(opts.dir, `${file}.wasm`)) });
}

/** What a module binds: Embind marks its functions with their argument count. */
const bound = (module) =>
  new Map(
    Object.keys(module)
      .filter((k) => typeof module[k] === 'function' && typeof module[k].argCount === 'number')
      .map((k) => [k, module[k].argCount]),
  );

const requiredCount = (params) => {
  let required = params.length;
  while (required > 0 && 'default' in params[required - 1]) required -= 1;
  return required;
};

// ---- the declaration, as engine-described records it ----------------------------------------------
const described = await instantiate(opts.described);
const declared = JSON.parse(described.describeEngine());
const entries = new Map();
for (const entry of declared.functions) {
  if (entries.has(entry.name)) problem(`${entry.name} is declared twice`);
  entries.set(entry.name, entry);
}
for (const entry of entries.values()) {
  const { name, params, arity, viewOf } = entry;
  if (viewOf) {
    const of = entries.get(viewOf);
    if (!of) problem(`${name} is the view of ${viewOf}, which is not declared`);
    else if (of.params.length !== arity) problem(`${name} takes ${arity} arguments, ${viewOf} ${of.params.length}`);
  }
  if (!params) continue;
  if (!entry.scratch && params.length !== arity)
    problem(`${name}'s adapter takes ${arity} arguments, its declaration lists ${params.length}`);
  if (new Set(params.map((p) => p.name)).size !== params.length) problem(`${name} names a parameter twice`);
  try {
    entry.example = JSON.parse(entry.example);
  } catch (error) {
    problem(`${name}'s example is not JSON: ${error.message}`);
    continue;
  }
  if (
    !Array.isArray(entry.example) ||
    entry.example.length < requiredCount(params) ||
    entry.example.length > params.length
  )
    problem(`${name}'s example must be an array of ${requiredCount(params)} to ${params.length} arguments`);
}
const describedBinds = bound(described);
for (const name of describedBinds.keys()) {
  if (name !== 'describeEngine' && !entries.has(name))
    problem(`${opts.described} binds ${name} but does not declare it (bind it through its Topic)`);
}

// ---- what each shipped module binds ------------------------------------------------------------------
// A function is in the module that binds it (Embind, or its scratch kernel's export); one bound by every
// module (heapBytes) is each module's own report.
const parts = (opts.module ?? []).map((spec) => spec.split('='));
const shipped = await Promise.all(parts.map(async ([id, file]) => ({ id, file, module: await instantiate(file) })));
const binds = (module, entry) =>
  entry.scratch ? typeof module[entry.scratch.export] === 'function' : module[entry.name]?.argCount === entry.arity;
const modulesOf = new Map();
for (const entry of entries.values()) {
  const ids = shipped.filter(({ module }) => binds(module, entry)).map(({ id }) => id);
  if (ids.length === 0) problem(`no module binds ${entry.name} as declared (${entry.arity ?? 'scratch'} arguments)`);
  else if (ids.length > 1 && ids.length < shipped.length) problem(`${entry.name} is bound by ${ids.join(' and ')}`);
  modulesOf.set(entry.name, ids);
}
for (const { file, module } of [...shipped, { file: opts.single, module: await instantiate(opts.single) }]) {
  for (const [name, argCount] of bound(module)) {
    if (!entries.has(name)) problem(`${file} binds ${name}, which no binding declares`);
    else if (entries.get(name).arity !== argCount) problem(`${file} binds ${name} with ${argCount} arguments`);
  }
}
const single = await instantiate(opts.single);
for (const entry of entries.values())
  if (!binds(single, entry)) problem(`${opts.single} does not bind ${entry.name}, which every module together does`);

if (problems.length) {
  console.error(`describe-engine: the engine's bindings and their declaration disagree:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

// ---- the files ------------------------------------------------------------------------------------------
const runtime = {}; // what the facade needs
const api = {}; // all of it
const internal = {};
const views = new Map([...entries.values()].filter((e) => e.viewOf).map((e) => [e.viewOf, e.name]));
for (const entry of entries.values()) {
  const [module] = modulesOf.get(entry.name);
  const everyModule = modulesOf.get(entry.name).length > 1 ? { everyModule: true } : {};
  if (entry.internal || entry.viewOf) {
    internal[entry.name] = { module, topic: entry.topic, ...(entry.viewOf ? { viewOf: entry.viewOf } : {}) };
    continue;
  }
  const { name, topic, doc, params, example, scratch } = entry;
  const extra = {
    ...(views.has(name) ? { view: views.get(name) } : {}),
    ...(scratch ? { scratch } : {}),
    ...everyModule,
  };
  runtime[name] = { module, params, ...extra };
  api[name] = { module, topic, doc, params, example, ...extra };
}
const { limits, constants } = declared;
writeFileSync(
  join(opts.dir, 'engine-declaration.mjs'),
  "// The engine's declaration of its JavaScript API, as its bindings declare it (engine-api.json has it with\n" +
    '// what each function returns and an ordinary call). Written by cpp/bindings/describe-engine.mjs: do not edit.\n' +
    `export default ${JSON.stringify({ functions: runtime, limits, constants })};\n`,
);
const everything = { functions: api, internal, limits, constants };
writeFileSync(join(opts.dir, 'engine-api.json'), `${JSON.stringify(everything, null, 2)}\n`);
writeFileSync(join(opts.dir, 'engine-api.md'), reference(everything));
console.log(
  `describe-engine: ${Object.keys(runtime).length} functions in ${parts.length} modules, ${Object.keys(limits).length} caps`,
);

/** A number as people read it: powers of two from 2^10 as 2^k. */
function show(value) {
  if (Number.isInteger(value) && value >= 1024) {
    const k = Math.log2(value);
    if (Number.isInteger(k)) return `2^${k}`;
    if (Number.isInteger(Math.log2(value + 1))) return `2^${Math.log2(value + 1)} − 1`;
  }
  return String(value);
}

function paramText(p) {
  const fallback = 'default' in p ? ` = ${JSON.stringify(p.default)}` : '';
  switch (p.kind) {
    case 'int':
      return `\`${p.name}${fallback}\` (whole, ${show(p.min)} to ${show(p.max)})`;
    case 'text':
      return `\`${p.name}${fallback}\` (text ≤ ${show(p.cap)} bytes)`;
    case 'seed':
      return `\`${p.name}\` (a whole number, or ≤ ${show(p.cap)} decimal digits)`;
    case 'vec':
      return `\`${p.name}\` (numbers)`;
    case 'optionalVec':
      return `\`${p.name}${fallback}\` (numbers or null)`;
    case 'mat':
      return `\`${p.name}\` ({ rows, cols, data })`;
    case 'options':
      return `\`${p.name}${fallback}\`: { ${p.fields.map(paramText).join(', ')} }`;
    case 'callback':
      return `\`${p.name}${fallback}\` (a function)`;
    default:
      return `\`${p.name}${fallback}\``;
  }
}

/** engine-api.md: per topic, each function's call, parameters, result and caps; then the caps. */
function reference({ functions: fns, limits: caps }) {
  const lines = [
    '# The engine’s functions',
    '',
    'Generated by `cpp/bindings/describe-engine.mjs` from the declaration each binding makes',
    '(`cpp/bindings/bind_<module>.cpp`). Module: where the function lives (`core`: engine.wasm, from the',
    'start; `config` and `lab`: loaded by `loadModelConfigReader()` and `loadLengthLab()`).',
    '',
  ];
  const topics = [...new Set(Object.values(fns).map((f) => f.topic))];
  for (const topic of topics) {
    lines.push(`## ${topic}`, '', '| function | parameters | returns, caps | module |', '| --- | --- | --- | --- |');
    for (const [name, f] of Object.entries(fns).filter(([, g]) => g.topic === topic)) {
      const call = `\`${name}(${f.params.map((p) => p.name).join(', ')})\``;
      const views = f.view || f.scratch ? ` (also \`views.${name}\` and \`into.${name}(target, …)\`)` : '';
      const cell = (text) => text.replaceAll('|', '\\|');
      lines.push(
        `| ${call}${views} | ${cell(f.params.map(paramText).join('; ') || 'none')} | ${cell(f.doc)} | ${f.module}${f.everyModule ? ' (each module)' : ''} |`,
      );
    }
    lines.push('');
  }
  lines.push('## Caps (`limits`)', '', '| cap | value |', '| --- | --- |');
  for (const [name, value] of Object.entries(caps)) lines.push(`| \`${name}\` | ${show(value)} (${value}) |`);
  return `${lines.join('\n')}\n`;
}
