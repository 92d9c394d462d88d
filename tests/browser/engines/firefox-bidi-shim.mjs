#!/usr/bin/env node
// Starts Debian's Firefox ESR for playwright-core's WebDriver BiDi client, with a relay between
// them that answers the few BiDi commands this Firefox does not know yet (media emulation).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

const WebSocketServer = WebSocket.Server;

// Commands playwright-core sends that Firefox ESR rejects as unknown. Each is acknowledged here;
// what it would have emulated is set through Firefox preferences at launch (see helpers.mjs).
const ANSWERED_HERE = new Set(['emulation.setMediaFeaturesOverride']);

const firefox = spawn(process.env.POSITIONAL_FIREFOX ?? '/usr/bin/firefox-esr', process.argv.slice(2), {
  stdio: ['ignore', 'inherit', 'pipe'],
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => firefox.kill(signal));
firefox.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

createInterface({ input: firefox.stderr }).on('line', (line) => {
  const match = /WebDriver BiDi listening on (ws:\/\/\S+)$/.exec(line);
  if (!match) {
    process.stderr.write(`${line}\n`);
    return;
  }
  const upstream = match[1];
  const relay = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 256 * 1024 * 1024 });
  relay.on('listening', () =>
    process.stderr.write(`WebDriver BiDi listening on ws://127.0.0.1:${relay.address().port}\n`),
  );
  relay.on('connection', (client, request) => {
    const server = new WebSocket(`${upstream}${request.url}`, { maxPayload: 256 * 1024 * 1024 });
    const pending = [];
    server.on('open', () => pending.splice(0).forEach((m) => server.send(m)));
    server.on('message', (data) => client.send(data.toString()));
    server.on('close', () => client.close());
    server.on('error', () => client.close());
    client.on('close', () => server.close());
    client.on('message', (data) => {
      const text = data.toString();
      const message = JSON.parse(text);
      if (ANSWERED_HERE.has(message.method)) {
        client.send(JSON.stringify({ type: 'success', id: message.id, result: {} }));
        return;
      }
      if (server.readyState === WebSocket.OPEN) server.send(text);
      else pending.push(text);
    });
  });
});
