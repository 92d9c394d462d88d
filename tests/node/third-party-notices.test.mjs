// The third-party notices (third-party-notices.html, web/site-builder/third-party-notices.mjs): written
// beside every page the build makes, they list every font face the site ships, every npm package
// bundled into the pages' scripts and every library the WebAssembly links, with licence texts read
// from the installed packages; a missing licence or an unknown library stops the build, naming it.
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import {
  bundledPackages,
  collectNotices,
  linkMapInputs,
  noticesBody,
  packageLicenceFile,
  wasmContents,
  WASM_MODULES,
} from '../../web/site-builder/third-party-notices.mjs';
import { readDebianCopyright } from '../../web/site-builder/debian-copyright.mjs';
import { singleFileBundle } from '../../web/site-builder/build-site.mjs';
import { shellBundle } from '../../web/site-builder/course-package.mjs';
import { distDir as dist } from './engine-loader.mjs';

const repo = new URL('../../', import.meta.url).pathname;
const engineDir = join(repo, 'build', 'wasm');
const NOTICES = 'third-party-notices.html';
const read = (file) => readFileSync(file, 'utf8');
const escaped = (text) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const site = read(join(dist, NOTICES));

test('the notices are written beside the site, the single files and the course content', () => {
  for (const dir of [dist, join(dist, '..', 'dist-single'), join(dist, '..', 'dist-course')]) {
    const page = read(join(dir, NOTICES));
    assert.match(page, /<h1>Third-party notices<\/h1>/, dir);
    // One generation: the same body everywhere (only the style's delivery and the way back differ).
    const main = (html) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    assert.equal(main(page), main(site), dir);
  }
});

test('every font face the site ships is listed with its family, copyright and licence text', () => {
  const css = read(join(dist, 'css', 'site.css'));
  const families = new Map(
    [...css.matchAll(/@font-face\s*\{([^}]*)\}/g)].flatMap(([, rule]) => {
      const file = /url\(\.\.\/fonts\/([\w-]+\.woff2)\)/.exec(rule)?.[1];
      const family = /font-family:\s*['"]?([^;'"]+)/.exec(rule)?.[1].trim();
      return file ? [[file, family]] : [];
    }),
  );
  const shipped = readdirSync(join(dist, 'fonts')).filter((f) => f.endsWith('.woff2'));
  assert.ok(shipped.length >= 3, `fonts shipped: ${shipped}`);
  for (const file of shipped) {
    assert.ok(families.has(file), `site.css names no family for fonts/${file}`);
    const entry = new RegExp(`<code>fonts/${file.replace(/\./g, '\\.')}</code>: ${families.get(file)}\\b`);
    assert.match(site, entry, `fonts/${file} (${families.get(file)}) is not listed`);
  }
  assert.match(site, /SIL OPEN FONT LICENSE Version 1\.1/);
  assert.match(site, /with Reserved Font Name ‘Source’/, "Source Serif 4's own copyright line");
  // The maths faces come from Debian's fonts-dejavu-extra: their own copyright line (the name table)
  // and the Bitstream Vera licence from the package's copyright file.
  assert.match(site, /DejaVu changes are in public domain, math extensions are in public domain/);
  assert.match(site, /<code>\/usr\/share\/doc\/fonts-dejavu-extra\/copyright<\/code>/);
  assert.match(
    site,
    /are renamed to names not containing either the words &quot;Bitstream&quot; or the word\s+&quot;Vera&quot;/,
  );
});

test('every npm package bundled into the single file and the course shell is listed, with its licence file', async () => {
  const bundles = [(await singleFileBundle(engineDir)).metafile, (await shellBundle()).metafile];
  for (const metafile of bundles) assert.ok(Object.keys(metafile.inputs).length > 3, 'the metafile lists the inputs');
  for (const name of bundles.flatMap(bundledPackages)) {
    assert.match(site, new RegExp(`<h3 id="package-[^"]*">${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} `), name);
    assert.ok(site.includes(escaped(read(packageLicenceFile(name)).trim())), `${name}'s licence text`);
  }
});

test('a package bundled tomorrow would be listed: the notices follow the metafile', () => {
  const metafile = { inputs: { 'web/js/main.js': {}, 'node_modules/fflate/esm/browser.js': {} } };
  assert.deepEqual(bundledPackages(metafile), ['fflate']);
  assert.deepEqual(bundledPackages({ inputs: { 'node_modules/@scope/pkg/x.js': {}, 'a.js': {} } }), ['@scope/pkg']);
  const notices = collectNotices({ fonts: new Map(), html: '', bundles: [metafile] });
  const { html } = noticesBody(notices);
  assert.match(html, /<h3 id="package-fflate">fflate \d/);
  assert.ok(html.includes(escaped(read(join(repo, 'node_modules', 'fflate', 'LICENSE')).trim())));
  assert.doesNotMatch(
    html,
    /fflate [\d.]+ \(MIT\): writes the course packages/,
    'no longer among the build-only tools',
  );
});

test('KaTeX (its MathML) and highlight.js (markup only) are listed with their own licence files', () => {
  for (const name of ['katex', 'highlight.js']) {
    assert.ok(site.includes(escaped(read(packageLicenceFile(name)).trim())), name);
  }
  assert.match(site, /highlight\.js [\d.]+<\/h3>\s*<p>What ships: the markup it wrote/);
  assert.match(site, /katex [\d.]+<\/h3>\s*<p>What ships: the MathML it rendered every formula into/);
  // markdown-it renders at build time: named, honestly, as shipping no code.
  assert.match(
    site,
    /markdown-it [\d.]+ \(MIT\): renders the lesson’s markdown to HTML at build time; none of its code ships/,
  );
});

test('every library member and header the WebAssembly links is attributed, from the linker maps', () => {
  const { files } = wasmContents(engineDir);
  const archives = new Set();
  for (const module of ['engine-core', 'engine-config', 'engine-core-single']) {
    const { members } = linkMapInputs(read(join(engineDir, `${module}.map`)));
    assert.ok(members.length > 50, `${module}.map lists its library members`);
    for (const { archive } of members) if (archive.includes('/sysroot/')) archives.add(archive.split('/').pop());
  }
  for (const archive of archives)
    assert.match(site, new RegExp(`linked from [^<]*${archive.replace(/[+.]/g, '\\$&')}`), archive);
  for (const file of files)
    assert.ok(site.includes(`<code>${escaped(file.path)}</code>`), `${file.kind}: ${file.path}`);
  // The parts the issue names, each with its licence.
  for (const [part, licence] of [
    ['Eigen, 3.4', /MPL-2/],
    ['JSON for Modern C\\+\\+ \\(nlohmann\\/json\\), 3\\.11', /Expat/],
    ['musl libc', /Expat/],
    ['libc\\+\\+ \\(LLVM’s C\\+\\+ standard library\\)', /Apache-2\.0 with LLVM exception/],
    ['libc\\+\\+abi', /Apache-2\.0 with LLVM exception/],
    ['compiler-rt', /Apache-2\.0 with LLVM exception/],
    ['emmalloc', /Expat or NCSA~Mozilla/],
    ['Emscripten’s JavaScript runtime', /Expat/],
  ]) {
    const section = new RegExp(`<h3 id="wasm-[^"]+">${part}[^<]*</h3>([\\s\\S]*?)</section>`).exec(site);
    assert.ok(section, `no section for ${part}`);
    assert.match(section[1], licence, part);
  }
  // The build links emmalloc, not dlmalloc: only what the wasm contains is named.
  assert.doesNotMatch(site, /id="wasm-dlmalloc"/);
  // Full texts, from Debian's files: the MPL's and Apache's from /usr/share/common-licenses.
  assert.ok(
    site.includes(escaped(read('/usr/share/common-licenses/Apache-2.0').trim().split('\n').slice(0, 3).join('\n'))),
  );
  assert.match(site, /Mozilla Public License Version 2\.0/);
});

// Through ccache (CCACHE_BASEDIR) the compiler writes the project's headers into the dependency files
// relative to the build folder, where the compile ran: the notices must read them from there.
test('dependency files naming headers relative to the build folder give the same contents', () => {
  const copy = mkdtempSync(join(repo, 'build', 'notices-relative-'));
  try {
    cpSync(engineDir, copy, {
      recursive: true,
      // Only what wasmContents reads: the linker maps and the dependency files, in their folders.
      filter: (from) => statSync(from).isDirectory() || /\.(map|d)$/.test(from),
    });
    // The project's headers, named relatively in every dependency file (a build through ccache
    // already writes them so; the others are rewritten here).
    let relativeHeaders = 0;
    for (const entry of readdirSync(copy, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.o.d')) continue;
      const file = join(entry.parentPath ?? entry.path, entry.name);
      const text = read(file).replace(/(?<=\s)\/\S+/g, (path) =>
        path.startsWith(join(repo, 'cpp')) ? relative(copy, path) : path,
      );
      relativeHeaders += (text.match(/(?<=\s)\.\.\/\S*cpp\//g) ?? []).length;
      writeFileSync(file, text);
    }
    assert.ok(relativeHeaders > 0, "the copy names the project's headers relatively");
    assert.deepEqual(wasmContents(copy).files, wasmContents(engineDir).files);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test('an unknown system library in a linker map stops the build, naming it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'positional-notices-'));
  const fake = '/usr/share/emscripten/cache/sysroot/lib/wasm32-emscripten/libmystery.a';
  for (const module of Object.keys(WASM_MODULES))
    writeFileSync(join(dir, `${module}.map`), `       -      e41       35         ${fake}(thing.o):(thing)\n`);
  mkdirSync(join(dir, 'CMakeFiles'));
  writeFileSync(join(dir, 'CMakeFiles', 'x.cpp.o.d'), 'x.o: x.cpp\n');
  assert.throws(
    () => wasmContents(dir),
    /links libmystery\.a, which web\/site-builder\/third-party-notices\.mjs does not know/,
  );
  // And a build whose link wrote no maps is told how to get them.
  assert.throws(
    () => wasmContents(mkdtempSync(join(tmpdir(), 'positional-notices-'))),
    /engine-core\.map.*missing.*link-map\.mjs/s,
  );
});

test('a licence that cannot be found stops the build, naming the file or the package', () => {
  assert.throws(() => readDebianCopyright('/nonexistent/doc/copyright'), /\/nonexistent\/doc\/copyright is missing/);
  assert.throws(() => packageLicenceFile('no-such-package-anywhere'), /no-such-package-anywhere is not installed/);
  // KaTeX's fonts (no longer shipped, still installed) are OFL, and the katex package has no copy of
  // the OFL: without another font package to take the text from, the build must stop rather than ship
  // them without it.
  const katexOnly = new Map([
    ['KaTeX_Main-Regular.woff2', join(repo, 'node_modules/katex/dist/fonts/KaTeX_Main-Regular.woff2')],
  ]);
  assert.throws(
    () => collectNotices({ fonts: katexOnly, html: '' }),
    /katex's fonts are under the SIL Open Font License, and no installed font package carries its text/,
  );
});

test('outside text is shown as text: a licence with markup in it is escaped', () => {
  const notices = {
    shipped: [
      {
        kind: 'npm',
        name: 'evil<b>',
        version: '1',
        what: '<img src=x onerror=alert(1)>',
        where: ['<i>'],
        licence: 'MIT',
        licenceFile: 'x',
        licenceText: '<script>alert(1)</script>',
      },
    ],
    buildOnly: [],
    engineBuilt: true,
  };
  const { html } = noticesBody(notices);
  assert.doesNotMatch(html, /<script|<img|<b>|<i>/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
});

test('the page loads nothing and runs nothing: its policy allows its one style, by hash or from the site', async () => {
  const { createHash } = await import('node:crypto');
  assert.doesNotMatch(site, /<script/i);
  assert.match(site, /content="default-src 'none'; style-src 'self';/);
  assert.match(site, /<link rel="stylesheet" href="css\/pages\.css">/);
  assert.ok(existsSync(join(dist, 'css', 'pages.css')));
  for (const dir of ['dist-single', 'dist-course']) {
    const page = read(join(dist, '..', dir, NOTICES));
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)[1];
    const hash = `'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`;
    assert.ok(page.includes(`style-src ${hash};`), `${dir}: the inline style's hash is the one the policy allows`);
    assert.doesNotMatch(page, /<script|<link rel="stylesheet"/i, dir);
  }
});
