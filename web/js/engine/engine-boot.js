// Starts fetching and compiling the engine while the HTML is still being parsed (an async module
// runs as soon as it arrives); main.js later awaits the same load through engine.js.
import { loadEngine } from './engine.js';

loadEngine().catch(() => {
  // main.js reports a failed load; this early start only saves time.
});
