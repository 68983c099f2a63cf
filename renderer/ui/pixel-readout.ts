// The pixel inspector's text: raw values of every channel of the layer at an absolute pixel. Pure.
import type { DecodedImage } from '../host-client/api-types.js';
import { planeValue } from '../cpu/assemble.js';
import { sampleCountAt } from '../model/deep-samples.js';

export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  return Math.abs(v) >= 1e5 || (v !== 0 && Math.abs(v) < 1e-4) ? v.toExponential(4) : v.toFixed(5);
}

/** "x, y  R=… G=…" (plus "samples=N" for a deep part, whose values are the flattened ones) or null outside the data window. */
export function pixelReadout(image: DecodedImage, channels: readonly string[], x: number, y: number): string | null {
  const [x0, y0, x1, y1] = image.dataWindow;
  if (x < x0 || y < y0 || x > x1 || y > y1) return null;
  const parts = channels
    .map((name) => {
      const p = image.planes.find((q) => q.name === name);
      return p ? `${name}=${formatValue(planeValue(p, x - x0, y - y0))}` : null;
    })
    .filter((s) => s);
  const samples = sampleCountAt(image, x, y);
  if (samples !== null) parts.push(`samples=${samples}`);
  return `${x}, ${y}  ${parts.join(' ')}`;
}
