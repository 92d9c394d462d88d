// The content of the course packages (dist-course/): per language, the lesson's single file
// (written by build-site.mjs, with a language switch between the single files) and the course shell
// that launches it, index.html: one inline script (web/js/lms/course-shell.js, bundled here) that
// holds the session with the course site and frames the lesson. Every file is HTML, so no course
// site's file types (Moodle serves .mjs and .wasm as application/octet-stream) can stop it.
// web/site-builder/package-lms.mjs wraps this folder in the SCORM and cmi5 zips.
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cspHash } from './serve.mjs';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The shell's stylesheet: the lesson's frame fills the window (the course site sizes the window). */
const SHELL_CSS = `
html, body { margin: 0; height: 100%; }
body { overflow: hidden; font: 1rem/1.5 system-ui, sans-serif; }
.course-lesson { display: block; width: 100%; height: 100%; border: 0; }
noscript p { margin: 1rem; max-width: 40rem; }
`;

const escapeText = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The shell's policy: its own script and style by hash, the lesson framed from the package, nothing
 * fetched (package-lms.mjs adds connect-src for the cmi5 package, whose endpoint the launch names).
 */
export function shellPolicy(script, style) {
  return [
    "default-src 'none'",
    `script-src ${cspHash(script)}`,
    `style-src ${cspHash(style)}`,
    "frame-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    "require-trusted-types-for 'script'",
  ].join('; ');
}

/** The shell's page for one language: `title` (text) and `noScript` (the page strings' HTML) in that language. */
export function shellPage({ lang, title, noScript, script }) {
  const style = SHELL_CSS;
  const scriptText = `\n${script.replace(/<\/script/gi, '<\\/script')}\n`;
  return `<!doctype html>
<!-- The course package's launch page: holds the session with the course site and frames the lesson
     (web/js/lms/course-shell.js, bundled by web/site-builder/course-package.mjs). -->
<html lang="${lang}" data-lesson="positional-lesson.html">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${shellPolicy(scriptText, style)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeText(title)}</title>
<style>${style}</style>
</head>
<body>
<noscript><p>${noScript}</p></noscript>
<script>${scriptText}</script>
</body>
</html>
`;
}

/** The shell's script: course-shell.js and what it imports, as one classic script. */
export async function shellScript() {
  return (await shellBundle()).text;
}

/** The shell's script and esbuild's metafile of it (what went into it: web/site-builder/third-party-notices.mjs reads it). */
export async function shellBundle() {
  const esbuild = await import('esbuild');
  const bundle = await esbuild.build({
    entryPoints: [join(WEB, 'js', 'lms', 'course-shell.js')],
    bundle: true,
    format: 'iife',
    write: false,
    minify: true,
    target: 'es2022',
    logLevel: 'error',
    metafile: true,
  });
  return { text: bundle.outputFiles[0].text, metafile: bundle.metafile };
}

/**
 * Writes each language's shell, courseDir/[LANG/]index.html, beside the single files build-site.mjs
 * wrote there. Returns esbuild's metafile of the shell's script.
 */
export async function buildCoursePackage({ courseDir, pages }) {
  const { text: script, metafile } = await shellBundle();
  for (const { language, lesson } of pages) {
    const dir = join(courseDir, language.dir);
    mkdirSync(dir, { recursive: true });
    const html = shellPage({
      lang: language.code,
      title: lesson.title,
      noScript: language.strings.courseNoScript,
      script,
    });
    writeFileSync(join(dir, 'index.html'), html);
  }
  return metafile;
}
