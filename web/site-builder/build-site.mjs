#!/usr/bin/env node
// Builds the static lesson site: dist/ (index.html, css/, fonts/, js/, engine.mjs + engine.wasm)
// and dist-single/positional-lesson.html (everything inlined, works from file:// offline).
// and dist-course/ (what the course packages carry: web/site-builder/course-package.mjs), each with the
// lesson's plain pages beside it: instructor guide, accessibility statement, third-party notices.
//   node web/site-builder/build-site.mjs --engine-dir <wasm build dir> --out <dist dir> [--single-out <file>]
//                                 [--course-out <dir>] [--allow-missing-engine]
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hoistInlineStyles, renderLesson } from './render-lesson.mjs';
import { extractCppSnippets } from './cpp-snippets.mjs';
import { SYSTEM_TEXT_LANGUAGES, TEXT_FACES, dropUnusedFaces, pageFonts } from './fonts.mjs';
import { COMPRESSIBLE_EXTENSIONS, CONTENT_SECURITY_POLICY, cspHash, THEME_INIT_SCRIPT } from './serve.mjs';
import {
  computeEngineResults,
  LIVE_PARAMETERS,
  LIVE_QUANTITIES,
  liveText,
  PARAMETER_ECHOES,
  LIVE_CLAIMS,
} from '../js/prose/live-values.js';
import { CHARTS } from '../js/charts/index.js';
import { chartParts } from './chart-parts.mjs';
import { buildCoursePackage } from './course-package.mjs';
import { infoPage, INFO_PAGES, pagesCss } from './info-pages.mjs';
import { withSystemDarkTheme } from './dark-theme.mjs';
import { collectNotices, noticesPageBody } from './third-party-notices.mjs';
import { instructorGuideBody } from './instructor-guide.mjs';
import { accessibilityContact, accessibilityStatementBody } from './accessibility-statement.mjs';
import { roundedMinutes, sectionMinutes, timeOnTask } from './time-on-task.mjs';
import { MASTERY_SCORE, SELF_TEST_ITEMS } from '../js/self-test/self-test-items.js';
import { packageFile, schemaDir } from './package-lms.mjs';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(WEB, '..');
// The engine as the page loads it (build file → dist file): the facade engine.mjs (with the engine's
// declaration it is built from) over the Emscripten module engine-core.mjs, whose .wasm is served as
// engine.wasm. The single-file build bundles engine-single.mjs (the same facade over
// engine-core-single.mjs, its .wasm inlined gzip-compressed).
export const PAGE_ENGINE_FILES = {
  'engine.mjs': 'engine.mjs',
  'engine-facade.mjs': 'engine-facade.mjs',
  'engine-declaration.mjs': 'engine-declaration.mjs',
  'engine-core.mjs': 'engine-core.mjs',
  'engine-core.wasm': 'engine.wasm',
  // The model-config reader, fetched when the model card mounts (engine.loadModelConfigReader()).
  'engine-config.mjs': 'engine-config.mjs',
  'engine-config.wasm': 'engine-config.wasm',
  // The length lab, fetched by engine.loadLengthLab().
  'engine-lab.mjs': 'engine-lab.mjs',
  'engine-lab.wasm': 'engine-lab.wasm',
  // The whole declaration, with what each function returns and an ordinary call: read by no page, kept
  // beside the engine for people embedding it and for the Node suite.
  'engine-api.json': 'engine-api.json',
  // The facade's TypeScript declaration (cpp/bindings/engine-types.mjs), for callers that type-check.
  'engine.d.ts': 'engine.d.ts',
  'engine.d.mts': 'engine.d.mts',
};
const SINGLE_ENGINE_FILES = ['engine-single.mjs', 'engine-core-single.mjs', 'engine-core-single.wasm'];
export const ENGINE_FILES = [...Object.keys(PAGE_ENGINE_FILES), ...SINGLE_ENGINE_FILES];

/**
 * The lesson's languages, found from the files: web/lesson/lesson.md is English, at the site's root;
 * each web/lesson/lesson.LANG.md is LANG (a BCP 47 tag, e.g. zh-Hans), built into dist/LANG/. Each
 * needs its interface strings, web/i18n/page.LANG.json. English first.
 */
export function lessonLanguages() {
  const files = readdirSync(join(WEB, 'lesson')).filter((f) =>
    /^lesson(\.[A-Za-z]{2,3}(-[A-Za-z0-9]+)*)?\.md$/.test(f),
  );
  return files
    .map((file) => {
      const code = file === 'lesson.md' ? 'en' : file.slice('lesson.'.length, -'.md'.length);
      const stringsFile = join(WEB, 'i18n', `page.${code}.json`);
      if (!existsSync(stringsFile))
        throw new Error(
          `web/lesson/${file} has no interface strings: add web/i18n/page.${code}.json (web/i18n/page.en.json lists the keys)`,
        );
      return {
        code,
        file,
        dir: code === 'en' ? '' : code,
        strings: JSON.parse(readFileSync(stringsFile, 'utf8')),
        interface: interfaceStrings(code),
      };
    })
    .sort((a, b) => (a.code === 'en' ? -1 : b.code === 'en' ? 1 : a.code.localeCompare(b.code)));
}

/**
 * The scripts' words in language `code`: every web/i18n/CODE/*.json merged (English text →
 * translation; split by area so translators can work side by side). English has none: its text is
 * the key. A text given two different translations is an error naming both files.
 */
export function interfaceStrings(code) {
  const dir = join(WEB, 'i18n', code);
  const table = {};
  const from = {};
  if (code === 'en' || !existsSync(dir)) return table;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    for (const [english, text] of Object.entries(JSON.parse(readFileSync(join(dir, file), 'utf8')))) {
      if (english in table && JSON.stringify(table[english]) !== JSON.stringify(text)) {
        throw new Error(`web/i18n/${code}/${file} and ${from[english]} translate "${english}" differently`);
      }
      table[english] = text;
      from[english] = file;
    }
  }
  return table;
}

/** The page's interface table as a JSON data block for web/js/locale/i18n.js ('' in English), safe inside HTML. */
function interfaceBlock(language) {
  if (!Object.keys(language.interface).length) return '';
  const json = JSON.stringify(language.interface).replace(/</g, '\\u003c');
  return `<script type="application/json" id="ui-strings">${json}</script>`;
}

function fail(message) {
  console.error(`build-site: ${message}`);
  process.exit(1);
}

function options() {
  const { values } = parseArgs({
    options: {
      'engine-dir': { type: 'string' },
      out: { type: 'string' },
      'single-out': { type: 'string' },
      'course-out': { type: 'string' },
      'allow-missing-engine': { type: 'boolean', default: false },
    },
  });
  if (!values['engine-dir'])
    fail(
      '--engine-dir <dir holding the wasm build: engine.mjs, engine-core.mjs, engine-core.wasm, engine-single.mjs …> is required',
    );
  if (!values.out) fail('--out <dist dir> is required');
  const out = resolve(values.out);
  return {
    engineDir: resolve(values['engine-dir']),
    out,
    singleOut: resolve(values['single-out'] ?? join(out, '..', 'dist-single', 'positional-lesson.html')),
    courseOut: resolve(values['course-out'] ?? join(out, '..', 'dist-course')),
    allowMissingEngine: values['allow-missing-engine'],
  };
}

function siteCss(hoisted) {
  const own = ['base.css', 'lesson.css', 'charts.css', 'course.css', 'print.css'].map(
    (f) => `/* ---- ${f} ---- */\n${withSystemDarkTheme(readFileSync(join(WEB, 'css', f), 'utf8'))}`,
  );
  return [
    "/* The lesson page's stylesheet, assembled by web/site-builder/build-site.mjs: the classes that replace",
    "   inline styles, then the page's own styles. */",
    '/* ---- inline styles, hoisted into classes (the CSP forbids style attributes) ---- */',
    hoisted,
    ...own,
  ].join('\n');
}

function fillTemplate(template, slots) {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in slots)) throw new Error(`page.html: no value for {{${key}}}`);
    return slots[key];
  });
}

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The served page's policy as a meta tag: the header's directives less frame-ancestors, which a
 * meta tag cannot carry (browsers ignore it there and warn). The page keeps its policy when it is
 * saved or hosted somewhere that sends no header.
 */
export function metaPolicy(policy = CONTENT_SECURITY_POLICY) {
  return policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !d.startsWith('frame-ancestors'))
    .join('; ');
}

/**
 * The single file's policy: from file:// 'self' names nothing useful, so each inline script and
 * style is allowed by its hash and nothing else loads (fonts and images are data: URLs inside).
 */
export function singleFilePolicy({ scripts, styles }) {
  return [
    "default-src 'none'",
    `script-src ${scripts.map(cspHash).join(' ')} 'wasm-unsafe-eval'`,
    `style-src ${styles.map(cspHash).join(' ')}`,
    'font-src data:',
    // The engine's loader fetches its own inlined wasm (a data: URL) before decoding it by hand.
    'connect-src data:',
    'img-src data: blob:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');
}

/**
 * The site's address, web/site-config.json's "siteUrl": null when it is not known, else the
 * absolute http(s) address of the folder that holds the English index.html, returned ending in /.
 * Anything else throws, naming the field and the rule.
 */
export function siteAddress(value) {
  if (value === null || value === undefined) return null;
  const wrong = () =>
    new Error(
      'web/site-config.json "siteUrl" must be null or the absolute http(s) address of the folder that ' +
        `holds index.html, with no query or fragment (e.g. "https://example.org/positional/"), not ${JSON.stringify(value)}`,
    );
  if (typeof value !== 'string' || !URL.canParse(value)) throw wrong();
  const url = new URL(value);
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password)
    throw wrong();
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

/**
 * The <link rel="alternate" hreflang> lines that tell search engines the lesson's languages: one per
 * language and x-default (English), each a full address under `siteUrl` (search engines ignore
 * relative ones). None when the site's address is not known, or when there is one language.
 */
export function languageAlternates(languages, siteUrl) {
  if (!siteUrl || languages.length < 2) return '';
  const english = languages.find((l) => l.code === 'en');
  const address = (l) => escapeAttr(new URL(`${l.dir ? `${l.dir}/` : ''}index.html`, siteUrl).href);
  return [
    ...languages.map((l) => `<link rel="alternate" hreflang="${l.code}" href="${address(l)}">`),
    `<link rel="alternate" hreflang="x-default" href="${address(english)}">`,
  ].join('\n');
}

/**
 * The page of `language` among `languages`: its lang, its interface strings, and the links to the
 * same lesson in the other languages: in the header for the reader (to each language's
 * `switchFile`: index.html on the site, positional-lesson.html between the single files of a
 * course package; none for a single file that stands alone, `single` without a switchFile), and in
 * <head> for search engines when the site's address (`siteUrl`) is known.
 */
function renderPage(
  lesson,
  bodyHtml,
  head,
  scripts,
  policy,
  {
    language,
    languages,
    single = false,
    siteUrl = null,
    switchFile = single ? null : 'index.html',
    pagesPath = language.dir ? '../' : '',
  },
) {
  const english = languages.find((l) => l.code === 'en');
  const path = (from, to) =>
    from.dir === to.dir ? switchFile : `${from.dir ? '../' : ''}${to.dir ? `${to.dir}/` : ''}${switchFile}`;
  const ui = Object.fromEntries(
    Object.keys(english.strings).map((key) => {
      if (!(key in language.strings)) throw new Error(`web/i18n/page.${language.code}.json lacks "${key}"`);
      return [`ui_${key}`, language.strings[key]];
    }),
  );
  const others = !switchFile || languages.length < 2 ? [] : languages;
  const alternates = single ? '' : languageAlternates(languages, siteUrl);
  const languageSwitch = others.length
    ? `<nav class="language-switch" aria-label="${escapeAttr(language.strings.language)}">` +
      others
        .map((l) =>
          l === language
            ? `<a href="${path(language, l)}" lang="${l.code}" aria-current="page">${l.strings.name}</a>`
            : `<a href="${path(language, l)}" lang="${l.code}" hreflang="${l.code}">${l.strings.name}</a>`,
        )
        .join('') +
      '</nav>'
    : '';
  return fillTemplate(readFileSync(join(WEB, 'lesson', 'page.html'), 'utf8'), {
    lang: language.code,
    alternates,
    uiStrings: interfaceBlock(language),
    languageSwitch,
    ...ui,
    // The plain pages (INFO_PAGES) sit at the root of the site, of dist-single/ and of the course content.
    pagesPath,
    pagesHreflang: language.code === 'en' ? '' : ' hreflang="en"',
    csp: `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(policy)}">`,
    title: lesson.title,
    titleHtml: lesson.titleHtml,
    summary: escapeAttr(lesson.summaryText),
    head,
    toc: lesson.tocHtml,
    header: bodyHtml.header,
    body: bodyHtml.body,
    scripts,
  });
}

/**
 * The live numbers' texts as the page shows them, from the engine build in `engineDir` run in Node
 * (the same registry and formatting the browser uses): (name, format) → text. Null without an engine.
 */
export async function prerenderedLiveText(engineDir) {
  const files = ['engine.mjs', 'engine-facade.mjs', 'engine-declaration.mjs', 'engine-core.mjs', 'engine-core.wasm'];
  if (!files.every((f) => existsSync(join(engineDir, f)))) return null;
  const { default: createEngine } = await import(pathToFileURL(join(engineDir, 'engine.mjs')).href);
  const engine = await createEngine({ wasmBinary: readFileSync(join(engineDir, 'engine-core.wasm')) });
  const results = computeEngineResults(engine);
  return (name, format) => liveText(name, results, format);
}

/** Chart id → its highlightable parts, read once from the chart modules (top-level await). */
const CHART_PARTS = await chartParts();

/**
 * Renders lesson.md (or `file`) and returns the page parts with any style attributes hoisted.
 * `language` (from lessonLanguages()) is the page's language, for the texts the renderer writes.
 */
export function buildLesson({ liveText, file = 'lesson.md', classPrefix = 'ks', language } = {}) {
  const markdown = readFileSync(join(WEB, 'lesson', file), 'utf8');
  const diagrams = JSON.parse(readFileSync(join(WEB, 'lesson', 'diagrams.json'), 'utf8'));
  const { links } = JSON.parse(readFileSync(join(WEB, 'site-config.json'), 'utf8'));
  const cppSnippets = extractCppSnippets(join(REPO, 'cpp', 'src'));
  const known = {
    liveQuantities: Object.keys(LIVE_QUANTITIES),
    charts: Object.keys(CHARTS),
    liveParameters: LIVE_PARAMETERS,
    parameterEchoes: PARAMETER_ECHOES,
    liveClaims: LIVE_CLAIMS,
    chartParts: CHART_PARTS,
  };
  // Times are read from the English, which every translation follows section by section.
  const english = readFileSync(join(WEB, 'lesson', 'lesson.md'), 'utf8');
  const readingMinutes = sectionMinutes(english);
  const levelMinutes = {
    'level-1': roundedMinutes(timeOnTask(english, SELF_TEST_ITEMS).level1Minutes),
    'level-2': roundedMinutes(readingMinutes['level-2']),
  };
  const lesson = renderLesson(markdown, {
    diagrams,
    links,
    cppSnippets,
    ...known,
    liveText,
    language,
    readingMinutes,
    levelMinutes,
  });
  const marker = '<!--split-header-body-->';
  const { html, css } = hoistInlineStyles(
    `${lesson.headerHtml}${marker}${lesson.bodyHtml}${marker}${lesson.tocHtml}`,
    classPrefix,
  );
  const [header, body, toc] = html.split(marker);
  lesson.tocHtml = toc;
  return { lesson, parts: { header, body }, hoistedCss: css };
}

/**
 * Files the page's modules name relative to themselves (new URL(…, import.meta.url)), and how each
 * reads from the site bundle's folder (SITE_BUNDLE_DIR, one folder below the site's root): the
 * engine beside the page, the lab's Worker among the unbundled modules under js/.
 */
const BUNDLE_RELATIVE_PATHS = {
  'engine/engine-source.js': [["'../../engine", "'../engine"]],
  'lab/lab-worker-source.js': [["'./lab-worker.js'", "'../js/lab/lab-worker.js'"]],
};

/** The folder of the site's bundled modules, under the site's root. */
export const SITE_BUNDLE_DIR = 'bundle';

/**
 * The page's modules for the site as esbuild bundles them into `out`/bundle/: main.js with what it
 * imports, the chunks it shares with what it imports later (after-engine.js), and the charts'
 * modules one chunk loaded when the first figure nears the viewport. A load of the lesson with one
 * chart drawn made 51 requests with a module each (44 of them scripts); bundled, it makes 20. The
 * unbundled modules stay under js/: the lab's Worker loads from there. Returns { main
 * (bundle/main.js), preloads (the chunks main.js imports, for <link rel="modulepreload">), metafile }.
 */
export async function siteBundle(out) {
  const esbuild = await import('esbuild');
  const relocate = {
    name: 'bundle-relative-paths',
    setup(build) {
      build.onLoad({ filter: /[\\/](engine-source|lab-worker-source)\.js$/ }, ({ path }) => {
        const name = relative(join(WEB, 'js'), path).split(sep).join('/');
        let contents = readFileSync(path, 'utf8');
        for (const [from, to] of BUNDLE_RELATIVE_PATHS[name]) {
          if (!contents.includes(from))
            throw new Error(`web/js/${name} no longer names ${from}: say where it points from bundle/`);
          contents = contents.replaceAll(from, to);
        }
        return { contents, loader: 'js' };
      });
    },
  };
  // The charts' modules as one chunk, fetched when the first figure nears the viewport: split one
  // per chart, each chart's load was its chunk and four to seven chunks of the chart kit it shares
  // with others in a different mix.
  // The chart Worker (chart-kit/paint-worker.js) loads the same chunk.
  const chartLoaders = {
    [join(WEB, 'js', 'charts', 'index.js')]: 'import(`./${id}.js`)',
    [join(WEB, 'js', 'chart-kit', 'paint-worker.js')]: 'import(`../charts/${id}.js`)',
  };
  const oneChunk = {
    name: 'charts-as-one-chunk',
    setup(build) {
      build.onLoad({ filter: /[\\/](charts[\\/]index|chart-kit[\\/]paint-worker)\.js$/ }, ({ path }) => {
        const contents = readFileSync(path, 'utf8');
        const perChart = chartLoaders[path];
        const name = relative(join(WEB, 'js'), path).split(sep).join('/');
        if (!perChart || !contents.includes(perChart))
          throw new Error(`web/js/${name} no longer loads a chart by ${perChart}`);
        return {
          contents: contents.replace(perChart, "import('positional:charts').then((all) => all.CHART_MODULES[id])"),
          loader: 'js',
        };
      });
      build.onResolve({ filter: /^positional:charts$/ }, () => ({ path: 'charts', namespace: 'positional' }));
      build.onLoad({ filter: /^charts$/, namespace: 'positional' }, () => {
        const ids = Object.keys(CHARTS);
        return {
          contents:
            ids.map((id, i) => `import * as chart${i} from './${id}.js';`).join('\n') +
            `\nexport const CHART_MODULES = { ${ids.map((id, i) => `${JSON.stringify(id)}: chart${i}`).join(', ')} };\n`,
          resolveDir: join(WEB, 'js', 'charts'),
          loader: 'js',
        };
      });
    },
  };
  const result = await esbuild.build({
    // The chart Worker is an entry of its own, bundle/paint-worker.js (paint-worker-source.js names it
    // beside itself), sharing the page's chunks.
    entryPoints: { main: join(WEB, 'js', 'main.js'), 'paint-worker': join(WEB, 'js', 'chart-kit', 'paint-worker.js') },
    outdir: join(out, SITE_BUNDLE_DIR),
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    chunkNames: '[name]-[hash]',
    plugins: [relocate, oneChunk],
    logLevel: 'error',
    metafile: true,
  });
  const outputs = result.metafile.outputs;
  const built = (entry) => Object.keys(outputs).find((file) => outputs[file].entryPoint?.endsWith(entry));
  const main = built('web/js/main.js');
  /** The chunks `file` imports statically, and theirs, less those in `known`. */
  const staticImports = (file, known = []) => {
    const found = [];
    const visit = (from) => {
      for (const { path, kind } of outputs[from].imports)
        if (kind === 'import-statement' && !found.includes(path) && !known.includes(path)) {
          found.push(path);
          visit(path);
        }
    };
    visit(file);
    return found;
  };
  const preloads = staticImports(main);
  const under = (file) => relative(out, resolve(file)).split(sep).join('/');
  return { main: under(main), preloads: preloads.map(under), metafile: result.metafile };
}

function copyDir(from, to) {
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}

/** Whether `language`'s prose is set in the text faces (not one of SYSTEM_TEXT_LANGUAGES). */
const usesTextFaces = (language) => !SYSTEM_TEXT_LANGUAGES.includes(language.code.split('-')[0]);

/**
 * `css` with each ../fonts/FILE.woff2 it names replaced by a data: URL of that font's subset bytes
 * (`fonts`: Map file → bytes, from pageFonts). A font the map lacks is an error, not a silent
 * fallback.
 */
export function inlineFonts(css, fonts) {
  return css.replace(/url\(\.\.\/fonts\/([\w-]+\.woff2)\)/g, (_, file) => {
    if (!fonts.has(file)) throw new Error(`site.css names fonts/${file}, which the page's font set lacks`);
    return `url(data:font/woff2;base64,${Buffer.from(fonts.get(file)).toString('base64')})`;
  });
}

/**
 * The page's script for the single file (web/js/main.js and all it imports, the engine inlined), as
 * esbuild bundles it: { js, metafile } (the metafile says which files went in; the third-party
 * notices list every npm package among them).
 */
export async function singleFileBundle(engineDir) {
  const esbuild = await import('esbuild');
  const engineSingle = join(engineDir, 'engine-single.mjs');
  const swapEngine = {
    name: 'single-file-engine',
    setup(build) {
      build.onResolve({ filter: /engine-source\.js$/ }, () => ({ path: 'engine-source', namespace: 'single' }));
      // No second file to start the length lab's Worker from: the lab trains on the page's thread.
      build.onResolve({ filter: /lab-worker-source\.js$/ }, () => ({ path: 'lab-worker-source', namespace: 'single' }));
      build.onLoad({ filter: /^lab-worker-source$/, namespace: 'single' }, () => ({
        contents: 'export function labWorkerUrl() { return null; }\n',
        loader: 'js',
      }));
      // Nor the charts' Worker: the charts paint on the page's thread.
      build.onResolve({ filter: /paint-worker-source\.js$/ }, () => ({
        path: 'paint-worker-source',
        namespace: 'single',
      }));
      build.onLoad({ filter: /^paint-worker-source$/, namespace: 'single' }, () => ({
        contents: 'export function paintWorkerUrl() { return null; }\n',
        loader: 'js',
      }));
      build.onResolve({ filter: /engine-single-wasm\.mjs$/ }, () => ({
        path: 'engine-single-wasm',
        namespace: 'single',
      }));
      build.onLoad({ filter: /^engine-source$/, namespace: 'single' }, () => ({
        contents: `import createEngine from ${JSON.stringify(engineSingle)};\nexport async function loadEngineFactory() { return createEngine; }\nexport function engineFiles() { return []; }\n`,
        resolveDir: dirname(engineSingle),
        loader: 'js',
      }));
      // The single module's WebAssembly, gzip -9 and base64 (engine-single.mjs unpacks it).
      build.onLoad({ filter: /^engine-single-wasm$/, namespace: 'single' }, () => ({
        contents: `export const WASM_GZIP_BASE64 = ${JSON.stringify(gzipSync(readFileSync(join(engineDir, 'engine-core-single.wasm')), { level: 9 }).toString('base64'))};\n`,
        loader: 'js',
      }));
    },
  };
  const bundle = await esbuild.build({
    entryPoints: [join(WEB, 'js', 'main.js')],
    bundle: true,
    format: 'esm',
    write: false,
    minify: true,
    target: 'es2022',
    plugins: [swapEngine],
    logLevel: 'error',
    metafile: true,
  });
  return { js: bundle.outputFiles[0].text.replace(/<\/script/gi, '<\\/script'), metafile: bundle.metafile };
}

/**
 * The single file of `page` (one of the build's pages: its language, lesson and parts), its script
 * bundled from `engineDir` and its style `css` with `fonts` inlined: written to `singleOut` (it
 * stands alone: no language switch, and the plain pages beside it in dist-single/), to `siteCopy`
 * (the site's download, beside index.html) and, for the course packages, to `courseOut` (the same
 * file with the switch between the `languages`' single files, which sit in the package as the
 * site's pages do: positional-lesson.html and LANG/positional-lesson.html). Returns esbuild's
 * metafile of its script.
 */
async function buildSingleFile(
  { language, lesson, parts },
  { singleOut, siteCopy, courseOut },
  { engineDir, css, fonts, languages },
) {
  const { js, metafile } = await singleFileBundle(engineDir);
  // A language whose prose is set in the system's faces carries no text face: nothing on its page
  // draws with one (about 27 KB of the file, which does not compress).
  const textFaces = new Set(TEXT_FACES.map((face) => face.file));
  const faces = usesTextFaces(language)
    ? css
    : dropUnusedFaces(css, new Set([...fonts.keys()].filter((file) => !textFaces.has(file))));
  // Minified by esbuild (the bundler of its script): the stylesheets' comments and spacing are about
  // 4 KB of the gzipped file.
  const esbuild = await import('esbuild');
  const { code: minified } = await esbuild.transform(faces, { loader: 'css', minify: true, logLevel: 'error' });
  const inlinedCss = inlineFonts(minified, fonts);
  const themeInit = readFileSync(join(WEB, 'js', 'page', 'theme-init.js'), 'utf8');
  const [styleText, themeText, moduleText] = [`\n${inlinedCss}\n`, `\n${themeInit}\n`, `\n${js}\n`];
  const head = `<style>${styleText}</style>\n<script>${themeText}</script>`;
  const policy = singleFilePolicy({ scripts: [themeText, moduleText], styles: [styleText] });
  const scripts = `<script type="module">${moduleText}</script>`;
  const html = renderPage(lesson, parts, head, scripts, policy, { language, languages, single: true, pagesPath: '' });
  mkdirSync(dirname(singleOut), { recursive: true });
  writeFileSync(singleOut, html);
  writeFileSync(siteCopy, renderPage(lesson, parts, head, scripts, policy, { language, languages, single: true }));
  const course = renderPage(lesson, parts, head, scripts, policy, {
    language,
    languages,
    single: true,
    switchFile: 'positional-lesson.html',
  });
  mkdirSync(dirname(courseOut), { recursive: true });
  writeFileSync(courseOut, course);
  return metafile;
}

/**
 * Writes FILE.br and FILE.gz beside every text asset (and engine.wasm) under `dir`, for servers that
 * send precompressed copies (web/site-builder/serve.mjs does); a copy no smaller than its file is left out.
 * Returns the number of copies written.
 */
export function writePrecompressed(dir) {
  let written = 0;
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && COMPRESSIBLE_EXTENSIONS.includes(extname(entry.name).toLowerCase()))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
  for (const file of files) {
    const bytes = readFileSync(file);
    const copies = {
      '.br': brotliCompressSync(bytes, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
      '.gz': gzipSync(bytes, { level: 9 }),
    };
    for (const [suffix, compressed] of Object.entries(copies)) {
      if (compressed.length >= bytes.length) continue;
      writeFileSync(file + suffix, compressed);
      written += 1;
    }
  }
  return written;
}

/**
 * The <head> of a page `up` folders below the site's root ('' or '../'): every path from there.
 * `textFaces`: whether the page's prose is set in the text faces (not in SYSTEM_TEXT_LANGUAGES);
 * `siteModules`: the bundle's entry and the chunks it imports (siteBundle).
 */
function pageHead(up, textFaces, siteModules) {
  if (THEME_INIT_SCRIPT.includes('</')) throw new Error('theme-init.js cannot be inlined: its text contains "</"');
  return [
    // The theme script first, inline (the policy allows it by its hash): a classic script after a
    // stylesheet waits for it, and one fetched from the site would hold the parser for a round trip.
    // data-single-file names the page to go to where this one cannot run its modules.
    `<script data-single-file="positional-lesson.html">${THEME_INIT_SCRIPT}</script>`,
    `<link rel="stylesheet" href="${up}css/site.css">`,
    // The text faces, fetched beside the stylesheet rather than after it is parsed and the first
    // text laid out: a face that arrives after the first paint reflows the opening (a layout shift).
    ...(textFaces ? TEXT_FACES : []).map(
      (face) => `<link rel="preload" href="${up}fonts/${face.file}" as="font" type="font/woff2" crossorigin>`,
    ),
    // The chunks the bundled main.js imports, named in <head>: the preload scanner would otherwise
    // see main.js only after 200 KB of lesson HTML, and each chunk only once the one importing it is compiled.
    // Nothing else: the engine (preloadEngine in engine.js) and after-engine.js (its import) are
    // asked for once main.js runs, so that the stylesheet does not share the slow link with them.
    ...[siteModules.main, ...siteModules.preloads].map((f) => `<link rel="modulepreload" href="${up}${f}">`),
  ].join('\n');
}

/**
 * The plain pages' bodies (HTML): the instructor guide (with `time` on task), the accessibility
 * statement (with its `contact`) and the third-party `notices`.
 */
function plainPageBodies({ time, contact, notices }) {
  return {
    guide: instructorGuideBody({
      time,
      items: SELF_TEST_ITEMS,
      mastery: MASTERY_SCORE,
      packages: {
        scorm12: packageFile('scorm12'),
        scorm2004: packageFile('scorm2004'),
        cmi5: packageFile('cmi5'),
      },
    }),
    accessibility: accessibilityStatementBody({ contact }),
    notices: noticesPageBody(notices),
  };
}

async function main() {
  const opts = options();
  const siteConfig = JSON.parse(readFileSync(join(WEB, 'site-config.json'), 'utf8'));
  const siteUrl = siteAddress(siteConfig.siteUrl);
  const contact = accessibilityContact(siteConfig.accessibilityContact);
  const missing = ENGINE_FILES.filter((f) => !existsSync(join(opts.engineDir, f)));
  if (missing.length && !opts.allowMissingEngine)
    fail(
      `${opts.engineDir} lacks ${missing.join(', ')}: build the wasm preset first (or pass --allow-missing-engine for a text-only site)`,
    );

  const liveText = await prerenderedLiveText(opts.engineDir);
  const languages = lessonLanguages();
  // Each language's page, its hoisted classes prefixed by language so one stylesheet serves them all.
  const pages = languages.map((language) => ({
    language,
    ...buildLesson({
      liveText,
      file: language.file,
      classPrefix: language.dir ? `ks-${language.code}-` : 'ks',
      language,
    }),
  }));
  for (const { lesson, language } of pages) {
    if (lesson.missingSnippets.length)
      fail(
        `C++ snippets not found in cpp/src (mark them // [snippet:NAME] … // [/snippet]), named in ${language.file}: ${lesson.missingSnippets.join(', ')}`,
      );
  }

  rmSync(opts.out, { recursive: true, force: true });
  mkdirSync(join(opts.out, 'css'), { recursive: true });
  mkdirSync(join(opts.out, 'fonts'), { recursive: true });
  const allText = pages.map(({ parts }) => parts.header + parts.body).join('');
  const allHtml = pages.map(({ parts, lesson }) => parts.header + parts.body + lesson.tocHtml).join('');
  const {
    css,
    files: fonts,
    sources: fontSources,
  } = await pageFonts(allText, siteCss(pages.map((p) => p.hoistedCss).join('\n')));
  writeFileSync(join(opts.out, 'css', 'site.css'), css);
  const infoCss = pagesCss();
  writeFileSync(join(opts.out, 'css', 'pages.css'), infoCss);
  for (const [file, bytes] of fonts) writeFileSync(join(opts.out, 'fonts', file), bytes);
  copyDir(join(WEB, 'js'), join(opts.out, 'js'));
  const siteModules = await siteBundle(opts.out);
  copyDir(join(WEB, 'presets'), join(opts.out, 'presets'));
  for (const [from, to] of Object.entries(PAGE_ENGINE_FILES))
    if (!missing.includes(from)) cpSync(join(opts.engineDir, from), join(opts.out, to));

  const singleMissing = SINGLE_ENGINE_FILES.some((f) => missing.includes(f));
  if (singleMissing) console.warn('build-site: no engine-single.mjs / engine-core-single.mjs, so no single-file build');
  const singles = [];
  const bundles = [siteModules.metafile];
  if (!singleMissing) rmSync(opts.courseOut, { recursive: true, force: true });
  for (const page of pages) {
    const { language, lesson, parts } = page;
    const dir = join(opts.out, language.dir);
    const up = language.dir ? '../' : '';
    mkdirSync(dir, { recursive: true });
    const scripts = `<script type="module" src="${up}${siteModules.main}"></script>`;
    const textFaces = usesTextFaces(language);
    writeFileSync(
      join(dir, 'index.html'),
      renderPage(lesson, parts, pageHead(up, textFaces, siteModules), scripts, metaPolicy(), {
        language,
        languages,
        siteUrl,
      }),
    );
    const manifest = {
      lang: language.code,
      liveNames: [...lesson.liveNames].sort(),
      diagrams: lesson.diagramIds,
      charts: lesson.chartIds,
      snippets: lesson.snippetIds,
      headings: lesson.headings.map(({ id, level, title }) => ({ id, level, title })),
      questions: lesson.questionCount,
      walkthroughSteps: lesson.walkthroughSteps,
    };
    writeFileSync(join(dir, 'lesson-manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    if (!singleMissing) {
      // dist-single/positional-lesson.html, and positional-lesson.LANG.html for each other language.
      const singleOut = language.dir ? opts.singleOut.replace(/\.html$/, `.${language.code}.html`) : opts.singleOut;
      const courseOut = join(opts.courseOut, language.dir, 'positional-lesson.html');
      // Each page links to its single file as a download, so the site carries a copy beside it.
      const siteCopy = join(dir, 'positional-lesson.html');
      const shared = { engineDir: opts.engineDir, css, fonts, languages };
      bundles.push(await buildSingleFile(page, { singleOut, siteCopy, courseOut }, shared));
      singles.push(relative(process.cwd(), singleOut));
    }
  }
  if (!singleMissing) bundles.push(await buildCoursePackage({ courseDir: opts.courseOut, pages }));

  // The plain pages, at the root of the site, of dist-single/ and of the course content.
  const schemas = ['1.2', '2004'].flatMap((edition) =>
    readdirSync(schemaDir(edition))
      .sort()
      .map((f) => join(schemaDir(edition), f)),
  );
  const notices = collectNotices({
    fonts: fontSources,
    html: allHtml,
    bundles,
    schemas,
    engineDir: missing.some((f) => f.endsWith('.wasm')) ? null : opts.engineDir,
  });
  const time = timeOnTask(readFileSync(join(WEB, 'lesson', 'lesson.md'), 'utf8'), SELF_TEST_ITEMS);
  const bodies = plainPageBodies({ time, contact, notices });
  const writePages = (dir, variant, lessonFile) => {
    for (const [name, body] of Object.entries(bodies))
      writeFileSync(
        join(dir, INFO_PAGES[name].file),
        infoPage({ name, body, variant, lesson: lessonFile, css: infoCss }),
      );
  };
  writePages(opts.out, 'site', 'index.html');
  if (!singleMissing) {
    writePages(opts.courseOut, 'inline', 'positional-lesson.html');
    writePages(dirname(opts.singleOut), 'inline', basename(opts.singleOut));
  }
  const precompressed = writePrecompressed(opts.out);
  const [{ lesson }] = pages;
  console.log(
    `build-site: ${relative(process.cwd(), opts.out) || '.'} (${languages.map((l) => l.code).join(', ')}; ${lesson.liveNames.size ?? lesson.liveNames.length} live quantities, ${lesson.diagramIds.length} diagrams, ${lesson.snippetIds.length} snippets, ${precompressed} .br/.gz copies)` +
      (singles.length ? `, ${singles.join(', ')}` : ''),
  );
  console.log(
    `build-site: time on task about ${roundedMinutes(time.level1Minutes)} min for Level 1, ${roundedMinutes(time.bothMinutes)} min for both levels (${time.level1Minutes.toFixed(1)} and ${time.bothMinutes.toFixed(1)} min of reading and self-test); ${notices.shipped.length} third-party components in ${INFO_PAGES.notices.file}`,
  );
}

if (process.argv[1] && basename(process.argv[1]) === 'build-site.mjs') {
  main().catch((error) => fail(error.stack ?? error.message));
}
