// The CPU path's worker: holds the image on screen as float RGBA and tone-maps the visible canvas area on request.
import { toneMapPixel } from '../../shaders/tonemap-cpu.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import type { PanZoom } from '../model/view-geometry.js';

let image: { rgba: Float32Array; widthPx: number; heightPx: number; x0: number; y0: number } | null = null;

export type WorkerRequest =
  | { type: 'image'; rgba: Float32Array; widthPx: number; heightPx: number; x0: number; y0: number }
  | { type: 'clear' }
  | { type: 'render'; id: number; display: DisplayParams; panZoom: PanZoom; widthPx: number; heightPx: number };

self.onmessage = (m: MessageEvent<WorkerRequest>) => {
  const r = m.data;
  if (r.type === 'image') {
    image = r;
    return;
  }
  if (r.type === 'clear') {
    image = null;
    return;
  }
  const t0 = performance.now();
  const out = new Uint8ClampedArray(r.widthPx * r.heightPx * 4);
  for (let y = 0; y < r.heightPx; y++)
    for (let x = 0; x < r.widthPx; x++) {
      const o = (y * r.widthPx + x) * 4;
      let c: [number, number, number] = [0.12, 0.12, 0.12];
      if (image) {
        const ix = Math.floor(r.panZoom.centerX + (x + 0.5 - r.widthPx / 2) / r.panZoom.zoom) - image.x0;
        const iy = Math.floor(r.panZoom.centerY + (y + 0.5 - r.heightPx / 2) / r.panZoom.zoom) - image.y0;
        if (ix >= 0 && iy >= 0 && ix < image.widthPx && iy < image.heightPx) {
          const i = (iy * image.widthPx + ix) * 4;
          const p = image.rgba;
          c = toneMapPixel(p[i]!, p[i + 1]!, p[i + 2]!, p[i + 3]!, x, y, r.display);
        }
      }
      out[o] = c[0] * 255;
      out[o + 1] = c[1] * 255;
      out[o + 2] = c[2] * 255;
      out[o + 3] = 255;
    }
  (self as unknown as Worker).postMessage(
    { id: r.id, widthPx: r.widthPx, heightPx: r.heightPx, pixels: out, renderMs: performance.now() - t0 },
    [out.buffer],
  );
};
