// Course sites as the browser suites meet them: a static host that serves an unzipped package the
// way Moodle does (its own table of file types, lib/classes/filetypes.php in Moodle 4.5: .js as
// application/x-javascript, no entry for .mjs, .wasm or .woff2, so they go out as
// application/octet-stream; optionally X-Content-Type-Options: nosniff), and a player page that
// hosts a SCORM run-time (scorm-again, the LMS side of SCORM 1.2 and 2004) in the parent window
// and the package's launch page in a frame, as Moodle's player does.
import { createServer } from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { extname, resolve, sep, join } from 'node:path';
import { repo } from './helpers.mjs';
import { moodleRuntimeRules } from '../support/moodle-rules.mjs';

/** Moodle 4.5's types for the extensions a package can hold (filetypes.php); anything else is octet-stream. */
export const MOODLE_TYPES = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.js': 'application/x-javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.xsd': 'application/xml',
  '.png': 'image/png',
  '.txt': 'text/plain',
};

/**
 * Serves `root` on 127.0.0.1 with `types` (extension → type; others application/octet-stream) and,
 * when `nosniff`, X-Content-Type-Options: nosniff on every response. `extra(url, req, res)` may
 * answer a request first (return true). Returns { url, close() }.
 */
export async function startCourseHost({ root, types = MOODLE_TYPES, nosniff = false, extra = null }) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (extra && (await extra(url, req, res))) return;
    const headers = nosniff ? { 'X-Content-Type-Options': 'nosniff' } : {};
    let file;
    try {
      file = resolve(base, `.${decodeURIComponent(url.pathname)}`);
    } catch {
      res.writeHead(400, headers).end();
      return;
    }
    if (file !== base && !file.startsWith(base + sep)) return res.writeHead(403, headers).end();
    if (!existsSync(file) || statSync(file).isDirectory()) return res.writeHead(404, headers).end('not found');
    res.writeHead(200, {
      ...headers,
      'Content-Type': types[extname(file).toLowerCase()] ?? 'application/octet-stream',
    });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(r);
      }),
  };
}

/** scorm-again's browser build of `edition`'s run-time ('1.2' or '2004'), and the global it defines. */
export function scormRuntime(edition) {
  const file = edition === '1.2' ? 'scorm12.min.js' : 'scorm2004.min.js';
  return {
    source: readFileSync(join(repo, 'node_modules', 'scorm-again', 'dist', file), 'utf8'),
    global: edition === '1.2' ? 'Scorm12API' : 'Scorm2004API',
    name: edition === '1.2' ? 'API' : 'API_1484_11',
  };
}

/**
 * A player page as Moodle's: the run-time of `edition` in this window, preloaded with `preload`
 * (the LMS's record of the attempt: mastery score, entry, suspend data…), and the package's
 * `launch` page in an iframe of the given size. Every call the package makes is recorded in
 * window.__calls as [verb, element?, value?]. `faults` (a script's text) may wrap the API to
 * misbehave. With `masteryOverride`, a SCORM 1.2 score at or over the mastery score sets passed and
 * one under it failed, as Moodle's "mastery score overrides status" does when the score is stored.
 * The run-time keeps Moodle 4.5's own rules (moodle-rules.mjs: the 2004 choice-identifier check, the
 * 1.2 status rewrite on LMSFinish).
 */
export function playerPage({
  edition,
  preload = {},
  launch = 'index.html',
  width = 1000,
  height = 700,
  faults = '',
  masteryOverride = false,
}) {
  const runtime = scormRuntime(edition);
  const verbs =
    edition === '1.2'
      ? ['LMSInitialize', 'LMSSetValue', 'LMSCommit', 'LMSFinish']
      : ['Initialize', 'SetValue', 'Commit', 'Terminate'];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Course player</title></head><body>
<script src="__scorm-again.js"></script>
<script>
  window.__calls = [];
  const api = new ${runtime.global}({ logLevel: 5, autocommit: false, lmsCommitUrl: false });
  api.loadFromJSON(${JSON.stringify(preload)});
  const [init, set, commit, finish] = ${JSON.stringify(verbs)};
  api.on(init, () => __calls.push([init]));
  api.on(set, (element, value) => __calls.push([set, element, String(value)]));
  api.on(commit, () => __calls.push([commit]));
  api.on(finish, () => __calls.push([finish]));
  ${
    masteryOverride
      ? `api.on('LMSCommit', () => {
    const raw = Number(api.cmi.core.score.raw), mastery = Number(api.cmi.student_data.mastery_score);
    if (api.cmi.core.score.raw !== '' && mastery) api.cmi.core.lesson_status = raw >= mastery ? 'passed' : 'failed';
  });`
      : ''
  }
  (${moodleRuntimeRules})(api, ${JSON.stringify(edition)});
  window.__api = api;
  window.${runtime.name} = api;
  ${faults}
  const frame = document.createElement('iframe');
  frame.src = ${JSON.stringify(launch)};
  frame.title = 'The lesson';
  frame.width = '${width}';
  frame.height = '${height}';
  document.body.append(frame);
</script></body></html>`;
}
