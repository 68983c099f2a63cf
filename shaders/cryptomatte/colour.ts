// The colour the ID view gives an ID: mixed from the ID's bits (as Cryptomatte's own preview does), so that one object
// keeps one colour in every frame and every file. The same arithmetic as idColour in view.wgsl.

import type { CryptoId } from './hash.js';

/** A 32-bit integer mix (lowbias32, view.wgsl's mixBits): neighbouring IDs get unrelated colours. */
export function mixIdBits(id: CryptoId): number {
  let h = id >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** Linear RGB in [0.02, 1] (an 8-bit level from 40 to 255, squared); ID 0 (an unused rank) is black. */
export function idColour(id: CryptoId): [number, number, number] {
  if (id === 0) return [0, 0, 0];
  const h = mixIdBits(id);
  const level = (shift: number) => {
    const v = (40 + (((h >>> shift) & 0xff) * 215) / 255) / 255;
    return v * v;
  };
  return [level(0), level(8), level(16)];
}

/** The colour as CSS (display-encoded, ~sRGB): the swatch beside a name in the list. */
export function idColourCss(id: CryptoId): string {
  const [r, g, b] = idColour(id).map((v) => Math.round(Math.sqrt(v) * 255));
  return `rgb(${r}, ${g}, ${b})`;
}
