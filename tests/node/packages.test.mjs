// The course-site packages: builds the SCORM 1.2, SCORM 2004 and cmi5 zips from the built course
// content (dist-course/), validates the SCORM manifests against the ADL/IMS schemas (xmllint), checks
// the cmi5 course structure, and checks that each zip holds every file the lesson loads, nothing from
// elsewhere, and nothing but HTML for a course site to serve (so its file types cannot stop the lesson).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import {
  packageLms,
  listFiles,
  schemaDir,
  builtLanguages,
  launchOf,
  COURSE,
} from '../../web/site-builder/package-lms.mjs';
import { distDir as dist } from './engine-loader.mjs';
import { SELF_TEST_ITEMS } from '../../web/js/self-test/self-test-items.js';

const course = join(dist, '..', 'dist-course');
let out;
let made;
const zips = {};

before(() => {
  assert.ok(existsSync(join(course, 'index.html')), `no course content at ${course}`);
  out = mkdtempSync(join(tmpdir(), 'positional-packages-'));
  made = packageLms({ course, out });
  // zips.KIND: English; zips['KIND.LANG']: another language's.
  for (const { kind, lang, file } of made)
    zips[lang === 'en' ? kind : `${kind}.${lang}`] = unzipSync(new Uint8Array(readFileSync(file)));
});

function extract(kind) {
  const dir = join(out, kind);
  for (const [path, data] of Object.entries(zips[kind])) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  return dir;
}

// A schema that imports every namespace the manifest uses, so xmllint checks the extensions too.
function wrapperSchema(dir, imports) {
  const body = imports.map(([ns, file]) => `  <xsd:import namespace="${ns}" schemaLocation="${file}"/>`).join('\n');
  writeFileSync(
    join(dir, '__all.xsd'),
    `<?xml version="1.0"?>\n<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x-test-all">\n${body}\n</xsd:schema>\n`,
  );
  return join(dir, '__all.xsd');
}

function xmllint(args, cwd) {
  const result = spawnSync('xmllint', args, { cwd, encoding: 'utf8' });
  if (result.error)
    throw new Error(
      `xmllint is needed (Debian's libxml2-utils, in build-scripts/install-deps): ${result.error.message}`,
    );
  return result;
}

const SCORM12_SCHEMAS = [
  ['http://www.imsproject.org/xsd/imscp_rootv1p1p2', 'imscp_rootv1p1p2.xsd'],
  ['http://www.adlnet.org/xsd/adlcp_rootv1p2', 'adlcp_rootv1p2.xsd'],
];
const SCORM2004_SCHEMAS = [
  ['http://www.imsglobal.org/xsd/imscp_v1p1', 'imscp_v1p1.xsd'],
  ['http://www.adlnet.org/xsd/adlcp_v1p3', 'adlcp_v1p3.xsd'],
  ['http://www.adlnet.org/xsd/adlseq_v1p3', 'adlseq_v1p3.xsd'],
  ['http://www.adlnet.org/xsd/adlnav_v1p3', 'adlnav_v1p3.xsd'],
  ['http://www.imsglobal.org/xsd/imsss', 'imsss_v1p0.xsd'],
];

function validate(kind, schemas, manifestText = null) {
  const dir = extract(kind);
  const schema = wrapperSchema(dir, schemas);
  const file = manifestText === null ? 'imsmanifest.xml' : '__changed.xml';
  if (manifestText !== null) writeFileSync(join(dir, file), manifestText);
  return xmllint(['--noout', '--nonet', '--schema', schema, file], dir);
}

for (const [kind, schemas, brokenBy] of [
  ['scorm12', SCORM12_SCHEMAS, (m) => m.replace('isvisible="true"', 'isvisible="sometimes"')],
  [
    'scorm2004',
    SCORM2004_SCHEMAS,
    (m) => m.replace(/<imsss:minNormalizedMeasure>[^<]*</, '<imsss:minNormalizedMeasure>1.5<'),
  ],
]) {
  test(`${kind}: imsmanifest.xml validates against the schemas in the zip, and a broken one does not`, () => {
    const result = validate(kind, schemas);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /imsmanifest\.xml validates/);
    // The same validation must catch a value outside the schema, or it proves nothing.
    const broken = validate(kind, schemas, brokenBy(strFromU8(zips[kind]['imsmanifest.xml'])));
    assert.notEqual(broken.status, 0, 'a manifest with a value the schema forbids passed validation');
  });
}

const attr = (text, element, name) => new RegExp(`<${element}\\b[^>]*\\b${name}="([^"]*)"`).exec(text)?.[1];

test('scorm12: schema version 1.2, one SCO launching index.html, mastery 80, every file listed and present', () => {
  const manifest = strFromU8(zips.scorm12['imsmanifest.xml']);
  assert.match(manifest, /<schema>ADL SCORM<\/schema>\s*<schemaversion>1\.2<\/schemaversion>/);
  assert.equal((manifest.match(/<resource\b/g) ?? []).length, 1);
  assert.equal(attr(manifest, 'resource', 'adlcp:scormtype'), 'sco');
  assert.equal(attr(manifest, 'resource', 'href'), 'index.html');
  assert.equal(attr(manifest, 'item', 'parameters'), '?level=all', 'the self-test the course grades');
  assert.equal(attr(manifest, 'item', 'identifierref'), attr(manifest, 'resource', 'identifier'));
  assert.match(manifest, /<adlcp:masteryscore>80<\/adlcp:masteryscore>/);
  checkFiles('scorm12', manifest);
});

test('scorm2004: 4th edition, one SCO, primary objective satisfied by a scaled score of 0.8, every file listed and present', () => {
  const manifest = strFromU8(zips.scorm2004['imsmanifest.xml']);
  assert.match(manifest, /<schemaversion>2004 4th Edition<\/schemaversion>/);
  assert.equal((manifest.match(/<resource\b/g) ?? []).length, 1);
  assert.equal(attr(manifest, 'resource', 'adlcp:scormType'), 'sco');
  assert.equal(attr(manifest, 'imsss:primaryObjective', 'satisfiedByMeasure'), 'true');
  assert.match(manifest, /<imsss:minNormalizedMeasure>0\.8<\/imsss:minNormalizedMeasure>/);
  checkFiles('scorm2004', manifest);
});

function checkFiles(kind, manifest) {
  const listed = [...manifest.matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1]);
  const courseFiles = listFiles(course);
  assert.deepEqual(listed, courseFiles, 'the manifest lists exactly the course content');
  // Only HTML (and the notices as text): no .js, .mjs, .wasm or font a host could send with the wrong type.
  assert.deepEqual(
    listed.filter((f) => !/\.(html|txt)$/.test(f)),
    [],
  );
  for (const file of listed) assert.ok(zips[kind][file], `${file} is listed but not in the zip`);
  // Every schema the manifest names in xsi:schemaLocation is in the zip's root.
  const locations = /xsi:schemaLocation="([^"]+)"/
    .exec(manifest)[1]
    .trim()
    .split(/\s+/)
    .filter((_, i) => i % 2 === 1);
  const missing = locations.filter((f) => !zips[kind][f] && f !== 'imsmd_rootv1p2p1.xsd');
  assert.deepEqual(missing, []);
}

test('cmi5: cmi5.xml is well formed and declares one AU at index.html with its mastery score', () => {
  const dir = extract('cmi5');
  const lint = xmllint(['--noout', 'cmi5.xml'], dir);
  assert.equal(lint.status, 0, lint.stderr);
  const xpath = (expr) => execFileSync('xmllint', ['--xpath', expr, 'cmi5.xml'], { cwd: dir, encoding: 'utf8' }).trim();
  assert.equal(xpath('namespace-uri(/*)'), 'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd');
  assert.equal(xpath('local-name(/*)'), 'courseStructure');
  assert.equal(xpath("count(/*/*[local-name()='au'])"), '1');
  assert.equal(xpath("string(/*/*[local-name()='course']/@id)"), COURSE.courseIri);
  assert.equal(xpath("string(/*/*[local-name()='au']/@id)"), COURSE.auIri);
  assert.equal(xpath("string(/*/*[local-name()='au']/@masteryScore)"), '0.8');
  assert.equal(xpath("string(/*/*[local-name()='au']/@moveOn)"), 'CompletedAndPassed');
  // The launch address carries the self-test the course grades (both levels unless the author changes it).
  assert.equal(xpath("string(/*/*[local-name()='au']/*[local-name()='url'])"), 'index.html?level=all');
  // Element order the cmi5 schema requires: title, description, then url.
  assert.equal(
    xpath("local-name(/*/*[local-name()='au']/*[1])") +
      xpath("local-name(/*/*[local-name()='au']/*[2])") +
      xpath("local-name(/*/*[local-name()='au']/*[3])"),
    'titledescriptionurl',
  );
  for (const file of listFiles(course)) assert.ok(zips.cmi5[file], `${file} missing from the cmi5 zip`);
});

test('each package is offline: its page loads nothing from another origin, and only cmi5 may connect out', () => {
  for (const kind of ['scorm12', 'scorm2004', 'cmi5']) {
    for (const [path, data] of Object.entries(zips[kind])) {
      if (!/\.(html|css|m?js)$/.test(path)) continue;
      const text = strFromU8(data);
      const loads = [
        ...text.matchAll(/<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)="(https?:)?\/\/[^"]*"/gi),
        ...text.matchAll(/url\(\s*["']?(?:https?:)?\/\//gi),
        ...text.matchAll(/\bimport\s*(?:\(|[^'"]*from\s*)\s*["'](?:https?:)?\/\//g),
      ].map((m) => m[0]);
      assert.deepEqual(loads, [], `${kind}/${path} loads from another origin`);
    }
    // The shell: its own script and style by hash, the lesson framed from the package, nothing else.
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(
      strFromU8(zips[kind]['index.html']),
    )[1];
    assert.match(
      policy,
      /^default-src 'none'; script-src 'sha256-[^' ]+'; style-src 'sha256-[^' ]+'; frame-src 'self'/,
    );
    assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'/);
    if (kind === 'cmi5') assert.match(policy, /connect-src 'self' https:$/);
    else
      assert.doesNotMatch(policy, /connect-src/, 'a SCORM package needs no connection: its API is a JavaScript object');
    // The lesson it frames fetches nothing at all: everything is inside it.
    const lesson = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(
      strFromU8(zips[kind]['positional-lesson.html']),
    )[1];
    assert.match(lesson, /^default-src 'none'/);
    assert.match(lesson, /connect-src data:;/);
  }
});

test('every zip carries the third-party notices, the accessibility statement and the instructor guide, and no answer key', () => {
  assert.ok(made.length >= 6, `${made.length} zips`);
  for (const { kind, lang, file } of made) {
    const entries = unzipSync(new Uint8Array(readFileSync(file)));
    for (const page of ['third-party-notices.html', 'accessibility.html', 'instructor-guide.html']) {
      assert.ok(entries[page], `${kind}.${lang}: ${page} is missing`);
      // Listed in the manifest too (SCORM): a course site may serve only the files it lists.
      if (entries['imsmanifest.xml'])
        assert.match(strFromU8(entries['imsmanifest.xml']), new RegExp(`<file href="${page}"/>`));
    }
    assert.match(
      strFromU8(entries['third-party-notices.html']),
      /<h1>Third-party notices<\/h1>[\s\S]*DejaVu Math TeX Gyre[\s\S]*katex[\s\S]*Eigen/,
    );
    // The pages' footer links lead to them from each language's lesson, inside the package.
    for (const path of Object.keys(entries).filter((p) => p.endsWith('positional-lesson.html'))) {
      const up = path.includes('/') ? '../' : '';
      assert.match(
        strFromU8(entries[path]),
        new RegExp(`href="${up}third-party-notices\\.html"`),
        `${kind}.${lang}: ${path}`,
      );
    }
    assert.deepEqual(
      Object.keys(entries).filter(
        (p) => /answer-key/i.test(p) || /Answer key, for teachers only/.test(strFromU8(entries[p])),
      ),
      [],
      `${kind}.${lang} carries the answer key`,
    );
  }
});

test('each language has its own three zips, launching its own page, under its own identifiers', () => {
  const languages = builtLanguages(dist);
  assert.ok(languages.length > 1, `only ${languages} built in ${dist}`);
  assert.deepEqual(
    made.map(({ kind, lang }) => `${kind}.${lang}`).sort(),
    languages.flatMap((lang) => ['scorm12', 'scorm2004', 'cmi5'].map((kind) => `${kind}.${lang}`)).sort(),
  );
  for (const lang of languages.filter((l) => l !== 'en')) {
    const launch = launchOf(lang);
    const page = strFromU8(zips[`scorm12.${lang}`][launch.href]);
    assert.match(page, /data-lesson="positional-lesson\.html"/, `${launch.href} is a course shell`);
    assert.match(page, new RegExp(`<html lang="${lang}"`), `${launch.href} is the ${lang} page`);
    for (const kind of ['scorm12', 'scorm2004']) {
      const manifest = strFromU8(zips[`${kind}.${lang}`]['imsmanifest.xml']);
      assert.equal(attr(manifest, 'resource', 'href'), launch.href, `${kind}.${lang}`);
      assert.equal(attr(manifest, 'manifest', 'identifier'), `${COURSE.identifier}-${lang}`);
      // Its title is the page's own, in its language.
      assert.equal(/<title>([^<]*)<\/title>/.exec(manifest)[1], /<title>([^<]*)<\/title>/.exec(page)[1]);
      // The manifest validates against the same schemas as the English one.
      zips[`${kind}-check`] = zips[`${kind}.${lang}`];
      const result = validate(`${kind}-check`, kind === 'scorm12' ? SCORM12_SCHEMAS : SCORM2004_SCHEMAS);
      assert.equal(result.status, 0, result.stderr);
    }
    const cmi5 = strFromU8(zips[`cmi5.${lang}`]['cmi5.xml']);
    assert.match(cmi5, new RegExp(`<url>${launch.href}\\?level=all</url>`));
    assert.match(cmi5, new RegExp(`<langstring lang="${lang}">`));
    assert.match(cmi5, new RegExp(`<au id="${launch.auIri}"`));
    assert.notEqual(launch.auIri, COURSE.auIri);
    // Every language's shell may hold the cmi5 session.
    for (const path of ['index.html', launch.href])
      assert.match(strFromU8(zips[`cmi5.${lang}`][path]), /connect-src 'self' https:/, `cmi5.${lang}: ${path}`);
    // The lesson's language switch leads to the other language's single file, inside the package.
    const lessonPage = strFromU8(zips[`scorm12.${lang}`][`${lang}/positional-lesson.html`]);
    assert.match(lessonPage, /<a href="\.\.\/positional-lesson\.html" lang="en" hreflang="en">/);
  }
});

// Moodle 4.5's SCORM 2004 run-time refuses (error 406) a choice's learner_response or
// correct_responses pattern that is not a short identifier, ^[\w.]{1,250}$, so the teacher never
// sees which choice was picked. A todo while the bank holds such ids; a check by itself once none is.
const MOODLE_SHORT_IDENTIFIER = /^[\w.]{1,250}$/;
const choiceIds = SELF_TEST_ITEMS.flatMap((item) => (item.choices ?? []).map((c) => c.id));
const refusedIds = choiceIds.filter((id) => !MOODLE_SHORT_IDENTIFIER.test(id));
test(
  "every choice id the 2004 zips report is one Moodle's SCORM 2004 run-time accepts",
  { todo: refusedIds.length ? `ids Moodle refuses: ${refusedIds.join(', ')}` : false },
  () => {
    for (const [name, files] of Object.entries(zips).filter(([kind]) => kind.startsWith('scorm2004'))) {
      const lesson = Object.entries(files).find(([path]) => path.endsWith('positional-lesson.html'));
      assert.ok(lesson, `${name}: the lesson's single file`);
      const text = strFromU8(lesson[1]);
      for (const id of choiceIds) {
        assert.ok(text.includes(id), `${name}: the packed bank has ${id}`);
        assert.match(id, MOODLE_SHORT_IDENTIFIER, `${name}: choice id ${id}`);
      }
    }
  },
);

test('the same build gives byte-identical zips', () => {
  const again = packageLms({ course, out: join(out, 'again') });
  for (const [i, { file }] of again.entries())
    assert.ok(readFileSync(file).equals(readFileSync(made[i].file)), `${file} differs between two runs`);
});

test('packaging a directory with no course content names the problem', () => {
  assert.throws(() => packageLms({ course: join(out, 'nothing-here'), out }), /no course content at .*nothing-here/);
});

test('the schema files come from the npm package that ships them', () => {
  assert.ok(existsSync(join(schemaDir('1.2'), 'imscp_rootv1p1p2.xsd')));
  assert.ok(existsSync(join(schemaDir('2004'), 'imsss_v1p0.xsd')));
});
