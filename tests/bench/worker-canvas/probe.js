const out = {
  OffscreenCanvas: typeof OffscreenCanvas === 'function',
  transferControlToOffscreen: typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function',
  createImageBitmap: typeof createImageBitmap === 'function',
};
try {
  const policy = window.trustedTypes?.createPolicy('positional-lab-worker', { createScriptURL: (u) => u });
  const url = new URL('worker.js', import.meta.url).href;
  const w = new Worker(policy ? policy.createScriptURL(url) : url, { type: 'module' });
  const canvas = document.getElementById('c');
  const off = canvas.transferControlToOffscreen();
  const answer = await new Promise((resolve, reject) => {
    w.onmessage = (e) => resolve(e.data);
    w.onerror = (e) => reject(new Error(e.message || 'worker error'));
    w.postMessage({ canvas: off }, [off]);
    setTimeout(() => reject(new Error('no answer in 5 s')), 5000);
  });
  Object.assign(out, answer);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  await new Promise((r) => setTimeout(r, 200));
  // Read the page's canvas back through a snapshot: drawImage of a transferred canvas.
  const probe = document.createElement('canvas');
  probe.width = 300;
  probe.height = 200;
  const pctx = probe.getContext('2d');
  pctx.drawImage(canvas, 0, 0);
  out.pagePixel = [...pctx.getImageData(10, 10, 1, 1).data];
} catch (e) {
  out.error = String(e.message ?? e);
}
window.__probe = out;
