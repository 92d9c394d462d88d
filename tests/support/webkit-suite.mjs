// Runs one browser suite in WebKit (node --test FILE), and once more when WebKit stopped answering.
// WebKitGTK's web process can die on a busy machine (its threaded compositor traps: "eadedCompositor …
// trap invalid opcode" in the kernel log), a fault of the browser, not of the page: the driver then never
// answers, and the WebDriver adapter fails the command it waited on with STALL_MARK. Only a run that failed
// with that mark is run again, and the output says so; any other failure stands.
//   node tests/support/webkit-suite.mjs FILE
import { spawn } from 'node:child_process';
import { STALL_MARK } from '../browser/engines/webkit-webdriver.mjs';

/** Runs `node --test --test-reporter=spec file`, its output passed through; resolves { code, output }. */
function runSuite(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ])
      stream.on('data', (chunk) => {
        output += chunk;
        out.write(chunk);
      });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const file = process.argv[2];
if (!file) {
  console.error('usage: node tests/support/webkit-suite.mjs FILE');
  process.exit(2);
}
let { code, output } = await runSuite(file);
if (code !== 0 && output.includes(STALL_MARK)) {
  console.log(
    `\n# WebKit stopped answering during ${file} (a web-process fault of the browser): running the suite once more\n`,
  );
  ({ code } = await runSuite(file));
}
process.exit(code);
