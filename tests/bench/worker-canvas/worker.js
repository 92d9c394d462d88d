self.onmessage = async (e) => {
  const ctx = e.data.canvas.getContext('2d');
  ctx.fillStyle = 'rgb(200, 30, 40)';
  ctx.fillRect(0, 0, 300, 200);
  ctx.font = '12px sans-serif';
  ctx.fillStyle = 'black';
  ctx.fillText('worker', 10, 50);
  const answer = {
    moduleWorker: true,
    offscreen2d: Boolean(ctx),
    measureText: ctx.measureText('abc').width > 0,
    workerOffscreen: typeof OffscreenCanvas === 'function',
    workerImageBitmap: typeof createImageBitmap === 'function',
    wasm: typeof WebAssembly === 'object',
    requestAnimationFrame: typeof requestAnimationFrame === 'function',
    fontFace: typeof FontFace === 'function',
    fonts: typeof self.fonts === 'object',
  };
  self.postMessage(answer);
};
