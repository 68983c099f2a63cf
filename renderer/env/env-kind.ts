// Which images the Environment view offers itself for: the `envmap` attribute, or a 2:1 (lat-long) or 1:6 (cube) shape.
import type { FileHeader } from '../host-client/api-types.js';

export type EnvKind = 'latlong' | 'cube';

export interface EnvGuess {
  /** What the image is taken as (null: not an environment map as far as anything says). */
  kind: EnvKind | null;
  /** True when only the shape suggests it (no envmap attribute): the user may still say otherwise. */
  fromShape: boolean;
  why: string;
}

/** From the part's `envmap` attribute if it has one, else from the data window's shape. */
export function guessEnvKind(header: FileHeader | null, part: number, widthPx: number, heightPx: number): EnvGuess {
  const attr = header?.parts[part]?.attributes.find((a) => a.type === 'envmap');
  if (attr) {
    if (/latitude-longitude/.test(attr.text)) return { kind: 'latlong', fromShape: false, why: 'envmap attribute: lat-long' };
    if (/cube-face/.test(attr.text)) return { kind: 'cube', fromShape: false, why: 'envmap attribute: cube' };
  }
  if (widthPx === 2 * heightPx) return { kind: 'latlong', fromShape: true, why: '2:1 image: likely a lat-long map' };
  if (heightPx === 6 * widthPx) return { kind: 'cube', fromShape: true, why: 'six square faces stacked: likely a cube map' };
  return { kind: null, fromShape: true, why: 'no envmap attribute and not 2:1' };
}
