// Deep to flat for display: each pixel's samples sorted by depth and composited front to back with "over".

import type { DeepImage } from './deep.js';
import { floatToHalf, HALF_TO_FLOAT } from './core/half.js';
import type { DecodedChannel, DecodedImage, PlaneData } from './reader.js';
import type { PixelType } from './core/types.js';

/** How a channel flattens: depth channels keep the nearest sample's value, colours are composited under their alpha. */
type Role = { kind: 'depth' } | { kind: 'front' } | { kind: 'over'; alpha: number };

function layerOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(0, dot);
}

/**
 * Composites every pixel of a deep image into one value per channel. Samples are sorted by Z, then
 * ZBack (stable, so equal depths keep file order) when the image has Z; a channel is composited
 * under its own layer's A (`diffuse.R` under `diffuse.A`), else under A; channels without any alpha,
 * and uint channels, keep the front sample's value. Half channels stay half (rounded once, at the end).
 */
export function flattenDeep(deep: DeepImage): DecodedImage {
  const t0 = performance.now();
  const names = deep.channels.map((c) => c.name);
  const zIndex = names.indexOf('Z');
  const zBackIndex = names.indexOf('ZBack');
  const roles: Role[] = deep.channels.map((c) => {
    if (c.name === 'Z' || c.name === 'ZBack') return { kind: 'depth' };
    if (c.pixelType === 'uint') return { kind: 'front' };
    const layer = layerOf(c.name);
    const own = names.indexOf(layer === '' ? 'A' : `${layer}.A`);
    const alpha = own >= 0 ? own : names.indexOf('A');
    return alpha >= 0 && deep.channels[alpha]!.pixelType !== 'uint' ? { kind: 'over', alpha } : { kind: 'front' };
  });
  const alphas = [...new Set(roles.flatMap((r) => (r.kind === 'over' ? [r.alpha] : [])))];
  const read = deep.channels.map((c) => sampleReader(c.data, c.pixelType));
  const pixels = deep.widthPx * deep.heightPx;
  const values = deep.channels.map(() => new Float64Array(pixels));
  const transmittance = new Float64Array(deep.channels.length);
  let order: number[] = [];

  for (let p = 0; p < pixels; p++) {
    const start = deep.sampleOffsets[p]!;
    const count = deep.sampleCounts[p]!;
    if (count === 0) continue;
    order.length = count;
    for (let i = 0; i < count; i++) order[i] = start + i;
    if (zIndex >= 0 && count > 1) {
      const z = read[zIndex]!;
      const zBack = zBackIndex >= 0 ? read[zBackIndex]! : null;
      order = order.sort((a, b) => z(a) - z(b) || (zBack ? zBack(a) - zBack(b) : 0) || a - b);
    }
    const front = order[0]!;
    roles.forEach((role, c) => {
      if (role.kind !== 'over') values[c]![p] = read[c]!(front);
    });
    for (const a of alphas) transmittance[a] = 1;
    for (const s of order) {
      let anyLeft = false;
      roles.forEach((role, c) => {
        if (role.kind === 'over') values[c]![p] = values[c]![p]! + transmittance[role.alpha]! * read[c]!(s);
      });
      for (const a of alphas) {
        transmittance[a] = transmittance[a]! * (1 - read[a]!(s));
        if (transmittance[a]! > 0) anyLeft = true;
      }
      // once every alpha is opaque nothing behind shows
      if (!anyLeft) break;
    }
  }

  const channels: DecodedChannel[] = deep.channels.map((c, i) => ({
    name: c.name,
    pixelType: c.pixelType,
    xSampling: 1,
    ySampling: 1,
    widthSamples: deep.widthPx,
    heightSamples: deep.heightPx,
    data: toPlane(values[i]!, c.pixelType),
  }));
  const timings = { ...deep.timings, unpackMs: deep.timings.unpackMs + performance.now() - t0 };
  return {
    part: deep.part,
    lx: deep.lx,
    ly: deep.ly,
    region: deep.region,
    widthPx: deep.widthPx,
    heightPx: deep.heightPx,
    channels,
    timings,
    // a tolerant decode's missing chunks: their pixels had no samples, so they flatten to zero
    ...(deep.missing ? { missing: deep.missing } : {}),
  };
}

function sampleReader(data: PlaneData, pixelType: PixelType): (index: number) => number {
  if (pixelType === 'half') return (i) => HALF_TO_FLOAT[data[i]!]!;
  return (i) => data[i]!;
}

function toPlane(values: Float64Array, pixelType: PixelType): PlaneData {
  if (pixelType === 'half') {
    const out = new Uint16Array(values.length);
    for (let i = 0; i < values.length; i++) out[i] = floatToHalf(values[i]!);
    return out;
  }
  return pixelType === 'float' ? Float32Array.from(values) : Uint32Array.from(values);
}
