// The third-party notices (third-party-notices.html): every component of others' work the site, the
// single files and the course packages ship, found from what the build actually used (the fonts it
// wrote, the linker's maps of the WebAssembly modules, the compiler's dependency files, esbuild's
// metafiles), each with the copyright and licence text taken from the installed package at build
// time. A licence file that is missing stops the build, naming it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fontFamily, fontNames, NAME_IDS } from './font-names.mjs';
import { licenceNames, licenceText, paragraphFor, readDebianCopyright } from './debian-copyright.mjs';
import { escapeHtml, htmlTable } from './info-pages.mjs';

const require = createRequire(import.meta.url);
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The WebAssembly modules the build links, where each ships, and the map its link writes (CMakeLists.txt). */
export const WASM_MODULES = {
  'engine-core': 'engine.wasm (the site)',
  'engine-config': 'engine-config.wasm (the site’s model-config reader)',
  'engine-lab': 'engine-lab.wasm (the site’s length lab)',
  'engine-core-single': 'the single files’ engine (dist-single/, the site’s download, the course packages)',
};

const DEBIAN_COPYRIGHT = {
  emscripten: '/usr/share/doc/emscripten/copyright',
  eigen: '/usr/share/doc/libeigen3-dev/copyright',
  nlohmann: '/usr/share/doc/nlohmann-json3-dev/copyright',
};

/**
 * Emscripten's system libraries: the archive (as the linker names it, variants such as -except or
 * -rtti folded) → the component it is and the folders of Emscripten's tree its sources are in (a
 * folder ending in / holds sources at its top level only). An archive not listed here stops the
 * build: say where its sources are before it ships.
 */
const SYSTEM_LIBRARIES = [
  { archive: /^libc\.a$/, component: 'libc', roots: ['system/lib/libc', 'system/lib/pthread'] },
  { archive: /^lib(stubs|noexit)\.a$/, component: 'libc', roots: ['system/lib/libc'] },
  { archive: /^libc\+\+(-\w+)*\.a$/, component: 'libcxx', roots: ['system/lib/libcxx'] },
  { archive: /^libc\+\+abi(-\w+)*\.a$/, component: 'libcxxabi', roots: ['system/lib/libcxxabi'] },
  { archive: /^libunwind(-\w+)*\.a$/, component: 'libunwind', roots: ['system/lib/libunwind'] },
  { archive: /^libcompiler_rt(-\w+)*\.a$/, component: 'compiler-rt', roots: ['system/lib/compiler-rt'] },
  { archive: /^libembind(-\w+)*\.a$/, component: 'embind', roots: ['system/lib/embind'] },
  { archive: /^lib(emmalloc|dlmalloc)(-\w+)*\.a$/, component: 'malloc', roots: ['system/lib/'] },
];

/**
 * The components of Emscripten's tree, by the path of a source file in it (first match wins): what
 * the notices call each. musl is Emscripten's C library; the rest of system/lib/libc is Emscripten's own.
 */
const EMSCRIPTEN_COMPONENTS = [
  { id: 'musl', match: /^system\/lib\/libc\/musl\//, name: 'musl libc (as Emscripten ships it)' },
  { id: 'libcxx', match: /^system\/lib\/libcxx\//, name: 'libc++ (LLVM’s C++ standard library)' },
  { id: 'libcxxabi', match: /^system\/lib\/libcxxabi\//, name: 'libc++abi (LLVM’s C++ ABI library)' },
  { id: 'libunwind', match: /^system\/lib\/libunwind\//, name: 'libunwind (LLVM’s unwinder, for C++ exceptions)' },
  { id: 'compiler-rt', match: /^system\/lib\/compiler-rt\//, name: 'compiler-rt (LLVM’s compiler support routines)' },
  {
    id: 'embind',
    match: /^system\/lib\/embind\/|^system\/include\/emscripten\/(bind|val|wire)\.h$/,
    name: 'Embind (Emscripten’s C++/JavaScript binding)',
  },
  { id: 'emmalloc', match: /^system\/lib\/(emmalloc|sbrk)\.c$/, name: 'emmalloc (Emscripten’s memory allocator)' },
  { id: 'dlmalloc', match: /^system\/lib\/dlmalloc\.c$/, name: 'dlmalloc (Doug Lea’s memory allocator)' },
  {
    id: 'emscripten-libc',
    match: /^system\/(lib\/libc|lib\/pthread|include)\//,
    name: 'Emscripten’s own C library parts and headers',
  },
  { id: 'emscripten-js', match: /^src\//, name: 'Emscripten’s JavaScript runtime' },
];

// The files of Emscripten's tree the JavaScript runtime of engine-core.mjs and engine-config.mjs is
// written from (shell, preamble and postamble around the library functions it links, Embind's among them).
const EMSCRIPTEN_RUNTIME_SOURCES = [
  'src/shell.js',
  'src/preamble.js',
  'src/postamble.js',
  'src/library.js',
  'src/embind/embind.js',
];

const SOURCE_EXTENSIONS = ['.c', '.cpp', '.cc', '.S', '.s'];

/** A package's installed folder (its package.json's), or null when it is not installed. */
function packageDir(name) {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

/** A package's licence file (LICENSE, LICENCE, COPYING, any case, any extension); throws naming the package when it has none. */
export function packageLicenceFile(name) {
  const dir = packageDir(name);
  if (!dir) throw new Error(`third-party notices: the package ${name} is not installed (npm ci)`);
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.[\w.-]+)?$/i.test(f));
  if (!file) throw new Error(`third-party notices: node_modules/${name} has no LICENSE file to take its licence from`);
  return join(dir, file);
}

function packageInfo(name) {
  const dir = packageDir(name);
  if (!dir) throw new Error(`third-party notices: the package ${name} is not installed (npm ci)`);
  const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const licenceFile = packageLicenceFile(name);
  return {
    name,
    version: json.version,
    licence: typeof json.license === 'string' ? json.license : (json.license?.type ?? 'see its licence file'),
    licenceFile: relative(REPO, licenceFile),
    licenceText: readFileSync(licenceFile, 'utf8').replace(/\s+$/, ''),
    homepage: json.homepage ?? null,
  };
}

/** The npm package a node_modules path belongs to ("@scope/name" or "name"). */
export function packageOfPath(path) {
  const parts = path.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return null;
  return parts[at + 1].startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
}

/** The npm packages whose code an esbuild metafile's bundle holds. */
export function bundledPackages(metafile) {
  return [
    ...new Set(
      Object.keys(metafile?.inputs ?? {})
        .map(packageOfPath)
        .filter(Boolean),
    ),
  ].sort();
}

// ---- the WebAssembly modules: the linker's maps and the compiler's dependency files ----------

/** The inputs a wasm-ld map names: the objects (paths) and the library members ({ archive, member }). */
export function linkMapInputs(text) {
  const objects = new Set();
  const members = new Map();
  for (const line of text.split('\n')) {
    const member = /\s(\S+\.a)\(([^)]+)\):\(/.exec(line);
    if (member) {
      members.set(`${member[1]}(${member[2]})`, { archive: member[1], member: member[2] });
      continue;
    }
    const object = /\s(\S+\.o):\(/.exec(line);
    if (object) objects.add(object[1]);
  }
  return { objects: [...objects], members: [...members.values()] };
}

/** Every file under `dir`, relative to it (a folder ending in / lists its top level only). */
const treeCache = new Map();
function sourceFiles(root, folder) {
  const key = `${root}|${folder}`;
  if (!treeCache.has(key)) {
    const top = folder.endsWith('/');
    const dir = join(root, folder);
    const entries = readdirSync(dir, { recursive: !top, withFileTypes: true }).filter((e) => e.isFile());
    treeCache.set(
      key,
      entries.map((e) =>
        relative(root, join(e.parentPath ?? e.path, e.name))
          .split(sep)
          .join('/'),
      ),
    );
  }
  return treeCache.get(key);
}

/** The source file (in Emscripten's tree) a system library's member was compiled from; throws naming it when it cannot tell. */
function memberSource(emscriptenRoot, archivePath, member) {
  const archive = basename(archivePath);
  const library = SYSTEM_LIBRARIES.find((l) => l.archive.test(archive));
  if (!library)
    throw new Error(
      `third-party notices: the WebAssembly links ${archive}, which web/site-builder/third-party-notices.mjs does not know: add it to SYSTEM_LIBRARIES with where its sources are`,
    );
  const stem = member.replace(/\.o$/, '');
  const found = library.roots.flatMap((folder) =>
    sourceFiles(emscriptenRoot, folder).filter((f) => SOURCE_EXTENSIONS.some((ext) => basename(f) === stem + ext)),
  );
  if (found.length !== 1)
    throw new Error(
      `third-party notices: ${archive}(${member}) has ${found.length ? `${found.length} candidate sources (${found.join(', ')})` : 'no source'} under ${library.roots.join(', ')} in ${emscriptenRoot}`,
    );
  return found[0];
}

/** Every compiler dependency file (*.o.d) under `dir`: object basename → path of the .d file. */
function dependencyFiles(dir) {
  const index = new Map();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.o.d')) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    const key = relative(dir, path).slice(0, -2);
    index.set(key, path);
  }
  return index;
}

/** The headers a dependency file names (the first entry is the object, the second its source). */
function dependencies(file) {
  const text = readFileSync(file, 'utf8').replace(/\\\n/g, ' ');
  return text
    .slice(text.indexOf(':') + 1)
    .trim()
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * Where a header the engine was compiled with comes from: { kind: 'emscripten' | 'eigen' |
 * 'nlohmann' | 'clang', path } (path in that package's source tree), or null for the project's own. Throws
 * naming a header from anywhere else.
 */
function headerOrigin(file, emscriptenRoot) {
  if (file.startsWith(REPO + sep) && !file.includes(`${sep}build${sep}`)) return null;
  const eigen = file.indexOf('/eigen3/');
  if (eigen >= 0) return { kind: 'eigen', path: file.slice(eigen + '/eigen3/'.length) };
  // Clang's own headers (stdint.h, wasm_simd128.h…), from its resource folder.
  const clang = /\/usr\/lib\/llvm-(\d+)\/lib\/clang\/([\d.]+)\/include\/(.+)$/.exec(file);
  if (clang) return { kind: 'clang', path: `clang/lib/Headers/${clang[3]}`, major: clang[1], version: clang[2] };
  const nlohmann = file.lastIndexOf('/nlohmann/');
  if (nlohmann >= 0) return { kind: 'nlohmann', path: `include${file.slice(nlohmann)}` };
  const sysroot = `${emscriptenRoot}/cache/sysroot/include/`;
  if (file.startsWith(sysroot)) {
    const rest = file.slice(sysroot.length);
    const candidates = rest.startsWith('c++/v1/')
      ? [`system/lib/libcxx/include/${rest.slice('c++/v1/'.length)}`]
      : [
          `system/include/${rest}`,
          `system/lib/libc/musl/include/${rest}`,
          `system/lib/libc/musl/arch/emscripten/${rest}`,
          `system/lib/libc/musl/arch/generic/${rest}`,
          `system/lib/libcxxabi/include/${rest}`,
          `system/lib/libunwind/include/${rest}`,
        ];
    const source = candidates.find((c) => existsSync(join(emscriptenRoot, c)));
    // A header Emscripten generates into its sysroot (musl's bits/alltypes.h, libc++'s __config_site)
    // has no source of its own: it counts as the folder it is generated from.
    return { kind: 'emscripten', path: source ?? candidates[0] };
  }
  throw new Error(
    `third-party notices: the engine was compiled with ${file}, which is from no package the notices know`,
  );
}

/**
 * What the WebAssembly modules built in `engineDir` contain from others: for each source file (a
 * library member's source or a header), its package and path and the modules holding it.
 */
export function wasmContents(engineDir) {
  const maps = Object.keys(WASM_MODULES).map((module) => ({ module, file: join(engineDir, `${module}.map`) }));
  const missing = maps.filter(({ file }) => !existsSync(file));
  if (missing.length)
    throw new Error(
      `third-party notices: ${missing.map((m) => m.file).join(', ')} missing: the WebAssembly link writes them (web/site-builder/link-map.mjs); build the wasm preset again`,
    );
  const depfiles = dependencyFiles(engineDir);
  if (!depfiles.size) throw new Error(`third-party notices: no compiler dependency files (*.o.d) under ${engineDir}`);
  const files = new Map(); // `${kind}:${path}` → { kind, path, modules: Set, via: Set }
  let emscriptenRoot = null;
  let clang = null;
  const add = (kind, path, module, via) => {
    const key = `${kind}:${path}`;
    if (!files.has(key)) files.set(key, { kind, path, modules: new Set(), via: new Set() });
    files.get(key).modules.add(module);
    files.get(key).via.add(via);
  };
  for (const { module, file } of maps) {
    const { objects, members } = linkMapInputs(readFileSync(file, 'utf8'));
    const depfilesOf = [...objects.map((object) => relative(engineDir, resolve(engineDir, object)))];
    for (const { archive, member } of members) {
      if (archive.includes('/cache/sysroot/')) {
        emscriptenRoot ??= archive.slice(0, archive.indexOf('/cache/sysroot/'));
        add('emscripten', memberSource(emscriptenRoot, archive, member), module, basename(archive));
        continue;
      }
      // A member of the project's own library: CMake keeps its object as <target>.dir/…/<member>.
      const target = `${basename(archive, '.a').replace(/^lib/, '')}.dir${sep}`;
      const keys = [...depfiles.keys()].filter((k) => k.includes(target) && basename(k) === member);
      if (keys.length !== 1)
        throw new Error(
          `third-party notices: ${keys.length} dependency files for ${archive}(${member}) under ${engineDir}`,
        );
      depfilesOf.push(keys[0]);
    }
    if (!emscriptenRoot) throw new Error(`third-party notices: ${file} names no Emscripten system library`);
    for (const key of depfilesOf) {
      const depfile = depfiles.get(key);
      if (!depfile)
        throw new Error(
          `third-party notices: no dependency file for ${key} (linked into ${module}) under ${engineDir}`,
        );
      // A path in a dependency file is relative to where the compile ran, the build folder (ccache's
      // base_dir writes those under the source tree relative, so that clones share its cache).
      for (const header of dependencies(depfile).slice(1)) {
        const origin = headerOrigin(resolve(engineDir, header), emscriptenRoot);
        if (!origin) continue;
        if (origin.kind === 'clang') clang = { major: origin.major, version: origin.version };
        add(origin.kind, origin.path, module, 'headers');
      }
    }
    for (const source of EMSCRIPTEN_RUNTIME_SOURCES) add('emscripten', source, module, 'runtime');
  }
  return { emscriptenRoot, clang, files: [...files.values()] };
}

/** A package's version as its headers state it: Eigen's and nlohmann/json's version macros. */
function headerVersion(kind) {
  if (kind === 'eigen') {
    const macros = readFileSync('/usr/include/eigen3/Eigen/src/Core/util/Macros.h', 'utf8');
    const v = (name) => new RegExp(`#define ${name} (\\d+)`).exec(macros)?.[1];
    return `${v('EIGEN_WORLD_VERSION')}.${v('EIGEN_MAJOR_VERSION')}.${v('EIGEN_MINOR_VERSION')}`;
  }
  const json = ['json.hpp', 'detail/abi_macros.hpp']
    .map((f) => join('/usr/include/nlohmann', f))
    .filter(existsSync)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const v = (part) => new RegExp(`#define NLOHMANN_JSON_VERSION_${part} (\\d+)`).exec(json)?.[1];
  return `${v('MAJOR')}.${v('MINOR')}.${v('PATCH')}`;
}

/**
 * The notices for the WebAssembly: one component per package part (Eigen, nlohmann/json, each of
 * Emscripten's), each with its Debian copyright paragraphs and the files they cover.
 */
function wasmComponents(engineDir) {
  const { emscriptenRoot, clang, files } = wasmContents(engineDir);
  const paths = {
    ...DEBIAN_COPYRIGHT,
    ...(clang && { clang: `/usr/share/doc/libclang-common-${clang.major}-dev/copyright` }),
  };
  const copyrights = Object.fromEntries(Object.entries(paths).map(([k, path]) => [k, readDebianCopyright(path)]));
  const version = {
    clang: clang?.version,
    emscripten: readFileSync(join(emscriptenRoot, 'emscripten-version.txt'), 'utf8').trim().replace(/^"|"$/g, ''),
    eigen: headerVersion('eigen'),
    nlohmann: headerVersion('nlohmann'),
  };
  const components = new Map();
  for (const file of files) {
    let id;
    let name;
    if (file.kind === 'emscripten') {
      const part = EMSCRIPTEN_COMPONENTS.find((c) => c.match.test(file.path));
      if (!part)
        throw new Error(
          `third-party notices: ${file.path} (Emscripten) belongs to no component EMSCRIPTEN_COMPONENTS names`,
        );
      ({ id, name } = part);
    } else {
      id = file.kind;
      name = { eigen: 'Eigen', nlohmann: 'JSON for Modern C++ (nlohmann/json)', clang: 'Clang’s built-in headers' }[
        file.kind
      ];
    }
    if (!components.has(id))
      components.set(id, {
        id,
        name,
        kind: file.kind,
        version: version[file.kind],
        copyright: copyrights[file.kind],
        files: [],
      });
    components.get(id).files.push(file);
  }
  const order = ['eigen', 'nlohmann', ...EMSCRIPTEN_COMPONENTS.map((c) => c.id), 'clang'];
  return [...components.values()]
    .sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
    .map((c) => {
      const paragraphs = new Map();
      for (const file of c.files.sort((a, b) => a.path.localeCompare(b.path))) {
        const paragraph = paragraphFor(c.copyright, file.path);
        if (!paragraphs.has(paragraph)) paragraphs.set(paragraph, []);
        paragraphs.get(paragraph).push(file);
      }
      const modules = new Set(c.files.flatMap((f) => [...f.modules]));
      const libraries = new Set(c.files.flatMap((f) => [...f.via]).filter((v) => v.endsWith('.a')));
      return {
        id: c.id,
        name: c.name,
        version: `${{ emscripten: 'Emscripten ', clang: 'Clang ' }[c.kind] ?? ''}${c.version}`,
        where: [...modules].map((m) => WASM_MODULES[m]),
        what: describeFiles(c, libraries),
        source: c.copyright.source,
        debian: c.copyright,
        groups: [...paragraphs].map(([paragraph, covered]) => ({
          copyright: paragraph.copyright,
          licence: paragraph.licence,
          paragraph,
          files: covered.map((f) => f.path),
        })),
      };
    });
}

function describeFiles(component, libraries) {
  const sources = component.files.filter((f) => [...f.via].some((v) => v.endsWith('.a'))).length;
  const headers = component.files.filter((f) => f.via.has('headers')).length;
  const runtime = component.files.some((f) => f.via.has('runtime'));
  const parts = [];
  if (runtime)
    parts.push(
      'the JavaScript around the WebAssembly (engine-core.mjs, engine-config.mjs, engine-lab.mjs, and inside the single files)',
    );
  if (sources)
    parts.push(
      `${sources} compiled source file${sources === 1 ? '' : 's'} linked from ${[...libraries].sort().join(', ')}`,
    );
  if (headers) parts.push(`${headers} header${headers === 1 ? '' : 's'} compiled into the engine`);
  return parts.join('; ');
}

// ---- fonts --------------------------------------------------------------------------------------

/** The Debian package that installed `path`, and its version: { name, version }, or null. */
function debianPackageOf(path) {
  try {
    const name = execFileSync('dpkg-query', ['-S', path], { encoding: 'utf8' }).split(':')[0].trim();
    const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', name], { encoding: 'utf8' }).trim();
    return { name, version };
  } catch {
    return null;
  }
}

/**
 * The notice for the fonts cut from font files a Debian package installed (the maths faces): each
 * face's copyright line from its name table, the licence from the package's DEP-5 copyright file
 * (the paragraph covering the files, with the licence's full text). `faces`: [[file, source]].
 */
function debianFontComponent(pkg, faces) {
  const copyright = readDebianCopyright(`/usr/share/doc/${pkg.name}/copyright`);
  const paragraphs = faces.map(([, source]) => paragraphFor(copyright, basename(source)));
  if (new Set(paragraphs).size > 1)
    throw new Error(`third-party notices: ${pkg.name}'s font files are under different copyright paragraphs`);
  const [paragraph] = paragraphs;
  const { text, from } = licenceText(copyright, paragraph.licence.expression, paragraph);
  const described = faces.map(([file, source]) => {
    const names = fontNames(source);
    return {
      file,
      source,
      family: fontFamily(names),
      style: names[2] ?? '',
      copyright: names[NAME_IDS.copyright] ?? '',
      licence: names[NAME_IDS.licence] ?? null,
    };
  });
  return {
    id: `font-debian-${pkg.name}`,
    name: `${[...new Set(described.map((f) => f.family))].join(', ')} (fonts, from Debian’s ${pkg.name} ${pkg.version})`,
    version: pkg.version,
    package: pkg.name,
    faces: described,
    licenceName: `${paragraph.licence.expression} (as Debian’s ${copyright.path} gives it; copyright: ${paragraph.copyright.replace(/\s+/g, ' ')})`,
    licenceFile: from,
    licenceText: text,
    packageLicence: null,
  };
}

/**
 * The notices for the fonts the build wrote: `fonts` maps each file in fonts/ to the font file it
 * was cut from. Each face's copyright and licence lines come from the source font's name table; the
 * licence's full text from its package's licence file, or, for an OFL font whose package carries no
 * copy of the OFL, from another installed package's copy. A font from a Debian package
 * (/usr/share/fonts) takes its licence from that package's copyright file.
 */
function fontComponents(fonts) {
  const byPackage = new Map();
  const byDebianPackage = new Map();
  for (const [file, source] of fonts) {
    if (source.startsWith('/usr/share/fonts/')) {
      const pkg = debianPackageOf(source);
      if (!pkg)
        throw new Error(`third-party notices: fonts/${file} comes from ${source}, which no Debian package installed`);
      if (!byDebianPackage.has(pkg.name)) byDebianPackage.set(pkg.name, { pkg, faces: [] });
      byDebianPackage.get(pkg.name).faces.push([file, source]);
      continue;
    }
    const names = fontNames(source);
    const pkg = packageOfPath(source);
    if (!pkg) throw new Error(`third-party notices: fonts/${file} comes from ${source}, which is in no npm package`);
    if (!byPackage.has(pkg)) byPackage.set(pkg, { pkg, faces: [] });
    byPackage.get(pkg).faces.push({
      file,
      source: relative(REPO, source),
      family: fontFamily(names),
      style: names[2] ?? '',
      copyright: names[NAME_IDS.copyright] ?? '',
      licence: names[NAME_IDS.licence] ?? null,
    });
  }
  const npmFonts = [...byPackage.values()].map(({ pkg, faces }) => {
    const info = packageInfo(pkg);
    const ofl = (text) => /SIL OPEN FONT LICENSE\s+Version 1\.1/i.test(text);
    const statedOfl = faces.some((f) => /Open Font License/i.test(f.licence ?? '')) || /OFL/i.test(info.licence);
    let licenceText = info.licenceText;
    let licenceFile = info.licenceFile;
    if (statedOfl && !ofl(licenceText)) {
      const other = [...byPackage.keys()]
        .filter((p) => p !== pkg)
        .map(packageLicenceFile)
        .find((f) => ofl(readFileSync(f, 'utf8')));
      if (!other)
        throw new Error(
          `third-party notices: ${pkg}'s fonts are under the SIL Open Font License, and no installed font package carries its text (${info.licenceFile} is ${info.licence})`,
        );
      licenceText = readFileSync(other, 'utf8').replace(/\s+$/, '');
      licenceFile = relative(REPO, other);
    }
    return {
      id: `font-${pkg.replace(/[@/]/g, '-').replace(/^-/, '')}`,
      name: `${[...new Set(faces.map((f) => f.family))].join(', ')} (fonts, from ${pkg} ${info.version})`,
      version: info.version,
      package: pkg,
      faces,
      licenceName: statedOfl ? 'OFL-1.1 (SIL Open Font License 1.1)' : info.licence,
      licenceFile,
      licenceText,
      packageLicence:
        statedOfl && licenceFile !== info.licenceFile ? { file: info.licenceFile, licence: info.licence } : null,
    };
  });
  const debian = [...byDebianPackage.values()].map(({ pkg, faces }) => debianFontComponent(pkg, faces));
  return [...debian, ...npmFonts];
}

// ---- the whole list -----------------------------------------------------------------------------

/**
 * Everything the notices list. `fonts`: Map fonts/FILE → the font file it was cut from; `html`: the
 * pages' HTML (what build-time renderers left in it); `bundles`: esbuild metafiles of the scripts
 * the pages inline; `schemas`: the SCORM schema files the SCORM zips carry; `engineDir`: the wasm
 * build (null for a text-only site).
 */
export function collectNotices({ fonts, html, bundles = [], schemas = [], engineDir = null }) {
  const npm = (name, fields) => ({ ...packageInfo(name), ...fields });
  const shipped = [];
  shipped.push(...fontComponents(fonts).map((c) => ({ kind: 'font', ...c })));
  shipped.push({
    kind: 'npm',
    ...npm('katex', {
      what: 'the MathML it rendered every formula into at build time. Neither its JavaScript, nor its stylesheet, nor its fonts ship.',
      where: ['the site', 'the single files', 'the course packages'],
    }),
  });
  if (/class="hljs/.test(html))
    shipped.push({
      kind: 'npm',
      ...npm('highlight.js', {
        what: 'the markup it wrote around the code snippets at build time (spans with its hljs- class names). Neither its JavaScript nor its stylesheets ship: the colours are the lesson’s own (web/css/lesson.css).',
        where: ['the site', 'the single files', 'the course packages'],
      }),
    });
  const bundled = [...new Set(bundles.flatMap(bundledPackages))];
  for (const name of bundled)
    shipped.push({
      kind: 'npm',
      ...npm(name, {
        what: 'its code, bundled into the pages’ inline scripts by esbuild.',
        where: ['the single files', 'the course packages'],
      }),
    });
  if (engineDir) shipped.push(...wasmComponents(engineDir).map((c) => ({ kind: 'debian', ...c })));
  if (schemas.length) {
    const pkg = packageOfPath(schemas[0]);
    const statements = [
      ...new Set(
        schemas
          .flatMap((f) => readFileSync(f, 'utf8').match(/Copyright[^<\n]*/gi) ?? [])
          .map((s) => s.replace(/\s+/g, ' ').trim()),
      ),
    ];
    shipped.push({
      kind: 'npm',
      ...npm(pkg, {
        what: `the XML schemas of SCORM 1.2 and SCORM 2004 (${schemas.map((f) => basename(f)).join(', ')}), unchanged, beside each SCORM package’s manifest, as SCORM packages carry them. Only the schema files ship, not the package’s code. They state: ${statements.join('; ') || 'no copyright'}.`,
        where: ['the SCORM 1.2 and SCORM 2004 zips'],
      }),
    });
  }
  // What the build runs and does not ship: named, so a reader knows they were looked at.
  const buildOnly = [
    ['markdown-it', 'renders the lesson’s markdown to HTML at build time; none of its code ships'],
    ['katex', 'its JavaScript renders the formulas to MathML at build time; only that MathML ships (above)'],
    ['highlight.js', 'its JavaScript marks up the snippets at build time; only that markup ships'],
    ['subset-font', 'cuts the fonts to the characters the pages use (HarfBuzz compiled to WebAssembly)'],
    ['esbuild', 'bundles the pages’ scripts'],
    ['fflate', 'writes the course packages’ zips'],
  ]
    .filter(([name]) => packageDir(name) && !bundled.includes(name))
    .map(([name, role]) => {
      const info = packageInfo(name);
      return { name, version: info.version, licence: info.licence, role };
    });
  return { shipped, buildOnly, engineBuilt: Boolean(engineDir) };
}

// ---- the page -----------------------------------------------------------------------------------

/** A short name for a licence's anchor: "licence-apache-2-0". */
const anchor = (name) =>
  `licence-${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;

/** The notices page's body: what it is, then every component's notice (noticesBody). */
export function noticesPageBody(notices) {
  return `<p class="lede">The lesson ships others’ work: fonts, a stylesheet, and the libraries compiled into
its engine. This page lists each, with its copyright and licence, as the build found them. It is
written by the build from what the build used, with the licence texts taken from the installed
packages.</p>
${noticesBody(notices).html}`;
}

/** The notices' body as HTML (every text escaped) and the licence texts they point to. */
export function noticesBody(notices) {
  const texts = new Map(); // anchor → { name, text, from }
  const debianText = (copyright, name, paragraph) => {
    const base = name.replace(/\s+with\s+.*$/i, '').trim();
    const id = anchor(`${base}-${basename(dirname(copyright.path))}`);
    if (!texts.has(id)) {
      const { text, from } = licenceText(copyright, name, paragraph);
      texts.set(id, { name: base, debianPackage: basename(dirname(copyright.path)), text, from });
    }
    return id;
  };
  const sections = [];
  const summary = [];
  for (const c of notices.shipped) {
    if (c.kind === 'font') {
      summary.push([c.name, c.licenceName, c.id]);
      const faces = c.faces
        .map(
          (f) =>
            `<li><code>fonts/${escapeHtml(f.file)}</code>: ${escapeHtml(f.family)} ${escapeHtml(f.style)}, cut from <code>${escapeHtml(f.source)}</code>.<br>` +
            `Copyright (the font’s own name table): ${escapeHtml(f.copyright)}` +
            (f.licence
              ? `<br>Licence (the font’s own name table): ${escapeHtml(f.licence).replace(/\n/g, '<br>')}`
              : '') +
            '</li>',
        )
        .join('\n');
      sections.push(
        `<section aria-labelledby="${escapeHtml(c.id)}"><h3 id="${escapeHtml(c.id)}">${escapeHtml(c.name)}</h3>
<p>Licence: ${escapeHtml(c.licenceName)}. Where: the site’s <code>fonts/</code>, and inside the single files and the course packages (as data). Each face is cut to the characters the pages use; the cut keeps the font’s names and copyright line, not its licence lines, so they are given here.</p>
<ul>${faces}</ul>
${c.packageLicence ? `<p>The package’s own licence file (<code>${escapeHtml(c.packageLicence.file)}</code>) is ${escapeHtml(c.packageLicence.licence)}, for its code; the fonts’ licence, the SIL Open Font License 1.1, is not in the package, so its text is taken from <code>${escapeHtml(c.licenceFile)}</code>.</p>` : ''}
<details><summary>The licence text (<code>${escapeHtml(c.licenceFile)}</code>)</summary><pre>${escapeHtml(c.licenceText)}</pre></details>
</section>`,
      );
    } else if (c.kind === 'npm') {
      const id = `package-${c.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')}`;
      summary.push([`${c.name} ${c.version}`, c.licence, id]);
      sections.push(
        `<section aria-labelledby="${id}"><h3 id="${id}">${escapeHtml(`${c.name} ${c.version}`)}</h3>
<p>What ships: ${escapeHtml(c.what)}</p>
<p>Where: ${escapeHtml(c.where.join(', '))}. Licence: ${escapeHtml(c.licence)}.</p>
<details><summary>The licence text (<code>${escapeHtml(c.licenceFile)}</code>)</summary><pre>${escapeHtml(c.licenceText)}</pre></details>
</section>`,
      );
    } else {
      const id = `wasm-${c.id}`;
      const licences = [...new Set(c.groups.map((g) => g.licence.expression))];
      summary.push([`${c.name} (${c.version})`, licences.join('; '), id]);
      const groups = c.groups
        .map((g) => {
          const links = licenceNames(g.licence.expression)
            .map((name) => `<a href="#${debianText(c.debian, name, g.paragraph)}">${escapeHtml(name)}</a>`)
            .join(', ');
          const exception =
            /\swith\s/i.test(g.licence.expression) && g.licence.body.trim()
              ? `<pre>${escapeHtml(g.licence.body)}</pre>`
              : '';
          // Debian's copyright lines, one holder after another (some paragraphs repeat the field's name).
          const holders = (g.copyright || 'not stated')
            .replace(/^\s*Copyright:\s*/i, '')
            .split('\n')
            .map((line) => line.trim().replace(/\s+/g, ' '))
            .filter(Boolean)
            .join('; ');
          return `<li><p><strong>${g.files.length} file${g.files.length === 1 ? '' : 's'}</strong>. Licence: ${escapeHtml(g.licence.expression)} (text: ${links}).</p>
<p class="holders">Copyright: ${escapeHtml(holders)}.</p>${exception}
<details><summary>The files</summary><p class="file-list">${g.files.map((f) => `<code>${escapeHtml(f)}</code>`).join(' ')}</p></details></li>`;
        })
        .join('\n');
      sections.push(
        `<section aria-labelledby="${id}"><h3 id="${id}">${escapeHtml(`${c.name}, ${c.version}`)}</h3>
<p>What ships: ${escapeHtml(c.what)}. Where: ${escapeHtml(c.where.join('; '))}.</p>
<p>Copyright and licence from Debian’s <code>${escapeHtml(c.debian.path)}</code>, paragraph by paragraph for the files the build used${c.source ? `; source: <a href="${escapeHtml(c.source)}">${escapeHtml(c.source)}</a>` : ''}.</p>
<ul class="notice-groups">${groups}</ul>
</section>`,
      );
    }
  }
  const summaryTable = htmlTable(
    'What the lesson ships from others',
    ['Component', 'Licence'],
    summary.map(([name, licence, id]) => [`<a href="#${escapeHtml(id)}">${escapeHtml(name)}</a>`, escapeHtml(licence)]),
  );
  const buildOnly = notices.buildOnly
    .map(
      (b) =>
        `<li>${escapeHtml(b.name)} ${escapeHtml(b.version)} (${escapeHtml(b.licence)}): ${escapeHtml(b.role)}.</li>`,
    )
    .join('\n');
  const licenceSection = [...texts]
    .map(
      ([id, t]) =>
        `<section aria-labelledby="${id}"><h3 id="${id}">${escapeHtml(t.name)}, as Debian’s ${escapeHtml(t.debianPackage)} gives it</h3><p>From <code>${escapeHtml(t.from)}</code>.</p><details><summary>The text</summary><pre>${escapeHtml(t.text)}</pre></details></section>`,
    )
    .join('\n');
  return {
    html: `${summaryTable}
${notices.engineBuilt ? '' : '<p><strong>This build has no engine</strong> (a text-only site): the WebAssembly’s parts are not listed.</p>'}
<h2 id="components">Each component</h2>
${sections.join('\n')}
<h2 id="build-only">Used to build the lesson, not shipped</h2>
<p>These run when the site is built. Their output is in the pages where said above; their code is not.</p>
<ul>${buildOnly}</ul>
${texts.size ? `<h2 id="licence-texts">Licence texts</h2>\n${licenceSection}` : ''}`,
    summary,
  };
}
