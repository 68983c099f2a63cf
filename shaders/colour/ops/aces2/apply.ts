// The ACES 2.0 fixed functions on RGBA pixels; each parameter set's tables are built once and cached.

import { AP0, AP1, type Primaries } from './primaries.js';
import { aabToJMh, aabToRgb, jmhToAab, jmhToRgb, rgbToAab, rgbToJMh, toRadians, wrapHue, jmhParams, type JMhParams } from './cam.js';
import {
  chromaCompressFwd,
  chromaCompressInv,
  chromaCompressNorm,
  chromaParams,
  gamutCompress,
  gamutParams,
  reachMAt,
  sharedParams,
  toneScaleAToJ,
  toneScaleJ,
  toneScaleParams,
  type Chroma,
  type Gamut,
  type Shared,
  type ToneScale,
} from './transform.js';

const f = Math.fround;

export interface Aces2State {
  input: JMhParams;
  output: JMhParams;
  tone: ToneScale;
  shared: Shared;
  chroma: Chroma;
  gamut?: Gamut;
}

export const primariesOf = (p: readonly number[]): Primaries => ({
  red: [f(p[0]!), f(p[1]!)],
  green: [f(p[2]!), f(p[3]!)],
  blue: [f(p[4]!), f(p[5]!)],
  white: [f(p[6]!), f(p[7]!)],
});

const cache = new Map<string, Aces2State>();

/** The model, tonescale and (when `limiting` is given) gamut tables for a peak luminance, as OCIO's renderers build them. */
export function stateFor(peakIn: number, limiting: Primaries | undefined): Aces2State {
  const key = JSON.stringify([peakIn, limiting]);
  const cached = cache.get(key);
  if (cached) return cached;
  const peak = f(peakIn);
  const input = jmhParams(AP0);
  const output = limiting ? jmhParams(limiting) : input;
  const tone = toneScaleParams(peak);
  const reach = jmhParams(AP1);
  const shared = sharedParams(peak, input, reach);
  const state: Aces2State = {
    input,
    output,
    tone,
    shared,
    chroma: chromaParams(peak, tone),
    gamut: limiting ? gamutParams(peak, input, output, tone, shared, reach) : undefined,
  };
  cache.set(key, state);
  return state;
}

/** The ACES 2.0 fixed-function `style` (forward or inverse) over RGBA pixels in place. */
export function applyAces2(style: string, inverse: boolean, p: readonly number[], rgba: Float32Array): void {
  let pixel: (v: number[]) => number[];
  switch (style) {
    case 'ACES_OutputTransform20': {
      const s = stateFor(p[0]!, primariesOf(p.slice(1)));
      pixel = inverse ? (v) => outputInverse(v, s) : (v) => outputForward(v, s);
      break;
    }
    case 'ACES_RGB_TO_JMh_20': {
      const params = jmhParams(primariesOf(p));
      pixel = inverse ? (v) => jmhToRgb([v[0]!, v[1]!, wrapHue(v[2]!)], params) : (v) => rgbToJMh(v, params);
      break;
    }
    case 'ACES_TonescaleCompress_20': {
      const s = stateFor(p[0]!, undefined);
      pixel = (v) => {
        const h = wrapHue(v[2]!);
        const hr = toRadians(h);
        const mNorm = chromaCompressNorm(f(Math.cos(hr)), f(Math.sin(hr)), s.chroma.scale);
        const reachM = reachMAt(h, s.shared);
        const J = toneScaleJ(v[0]!, s.input, s.tone, inverse);
        const jmh = [v[0]!, v[1]!, h];
        return inverse
          ? chromaCompressInv(jmh, J, mNorm, s.shared, reachM, s.chroma)
          : chromaCompressFwd(jmh, J, mNorm, s.shared, reachM, s.chroma);
      };
      break;
    }
    case 'ACES_GamutCompress_20': {
      const s = stateFor(p[0]!, primariesOf(p.slice(1)));
      pixel = (v) => {
        const h = wrapHue(v[2]!);
        return gamutCompress([v[0]!, v[1]!, h], s.shared, reachMAt(h, s.shared), s.gamut!, inverse);
      };
      break;
    }
    default:
      throw new Error(`fixed function ${style} is not supported`);
  }
  for (let i = 0; i < rgba.length; i += 4) {
    const out = pixel([rgba[i]!, rgba[i + 1]!, rgba[i + 2]!]);
    rgba[i] = out[0]!;
    rgba[i + 1] = out[1]!;
    rgba[i + 2] = out[2]!;
  }
}

function outputForward(rgb: number[], s: Aces2State): number[] {
  const aab = rgbToAab(rgb, s.input);
  const jmh = aabToJMh(aab, s.input);
  const reachM = reachMAt(jmh[2]!, s.shared);
  const hr = toRadians(jmh[2]!);
  const cosH = f(Math.cos(hr)),
    sinH = f(Math.sin(hr));
  const mNorm = chromaCompressNorm(cosH, sinH, s.chroma.scale);
  const Jts = toneScaleAToJ(aab[0]!, s.input, s.tone);
  const toned = chromaCompressFwd(jmh, Jts, mNorm, s.shared, reachM, s.chroma);
  const compressed = gamutCompress(toned, s.shared, reachM, s.gamut!, false);
  return aabToRgb(jmhToAab(compressed, cosH, sinH, s.output), s.output);
}

function outputInverse(rgb: number[], s: Aces2State): number[] {
  const compressed = rgbToJMh(rgb, s.output);
  const reachM = reachMAt(compressed[2]!, s.shared);
  const hr = toRadians(compressed[2]!);
  const cosH = f(Math.cos(hr)),
    sinH = f(Math.sin(hr));
  const mNorm = chromaCompressNorm(cosH, sinH, s.chroma.scale);
  const toned = gamutCompress(compressed, s.shared, reachM, s.gamut!, true);
  const J = toneScaleJ(toned[0]!, s.input, s.tone, true);
  const jmh = chromaCompressInv(toned, J, mNorm, s.shared, reachM, s.chroma);
  return aabToRgb(jmhToAab(jmh, cosH, sinH, s.input), s.input);
}
