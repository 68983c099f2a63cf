// The depth-range composite's CPU reference: a deep pixel's samples inside [near, far] composited front to back with
// "over" in float32, volume samples cut by a handle split as OpenEXR's "Interpreting Deep Pixels" describes. Pure.

/** How a channel composites: depth channels and those without an alpha keep the nearest sample's value. */
export type DeepRole = { kind: 'depth' } | { kind: 'front' } | { kind: 'over'; alpha: number };

export interface DepthRange {
  near: number;
  far: number;
}

const f32 = Math.fround;

function layerOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(0, dot);
}

/**
 * The flattened view's rule: Z and ZBack are depths; a channel composites under its own layer's A (`diffuse.R` under
 * `diffuse.A`), else under A; uint channels, and channels with no alpha, keep the front sample's value.
 */
export function deepRoles(channels: readonly { name: string; pixelType: string }[]): DeepRole[] {
  const names = channels.map((c) => c.name);
  return channels.map((c) => {
    if (c.name === 'Z' || c.name === 'ZBack') return { kind: 'depth' };
    if (c.pixelType === 'uint') return { kind: 'front' };
    const layer = layerOf(c.name);
    const own = names.indexOf(layer === '' ? 'A' : `${layer}.A`);
    const alpha = own >= 0 ? own : names.indexOf('A');
    return alpha >= 0 && channels[alpha]!.pixelType !== 'uint' ? { kind: 'over', alpha } : { kind: 'front' };
  });
}

/**
 * How much of the sample [z, zBack] lies inside the range, in float32: 1 or 0 for a point sample (zBack ≤ z), the
 * share of its thickness for a volume sample, 1 when it lies wholly inside. NaN depths are outside.
 */
export function rangeFraction(z: number, zBack: number, range: DepthRange): number {
  if (!(zBack > z)) return z >= range.near && z <= range.far ? 1 : 0;
  if (z >= range.near && zBack <= range.far) return 1;
  const overlap = f32(Math.min(zBack, range.far) - Math.max(z, range.near));
  return overlap > 0 ? f32(overlap / f32(zBack - z)) : 0;
}

/**
 * The alpha of the part `fraction` of a volume sample of alpha `alpha` (1 - (1 - α)^x, as -expm1(x·log1p(-α)) in
 * double, rounded once); opaque stays opaque, zero and negative alphas scale.
 */
export function splitAlpha(alpha: number, fraction: number): number {
  if (fraction >= 1 || alpha >= 1) return alpha;
  if (alpha <= 0) return f32(alpha * fraction);
  return f32(-Math.expm1(fraction * Math.log1p(-alpha)));
}

/** A colour of the split sample: scaled as its alpha was (premultiplied), by the fraction where alpha is not positive. */
export function splitValue(value: number, alpha: number, splitA: number, fraction: number): number {
  if (fraction >= 1 || alpha >= 1) return value;
  if (alpha <= 0) return f32(value * fraction);
  return f32(value * f32(splitA / alpha));
}

/** A deep image's samples as the composite reads them: each pixel's sorted by depth, every value as a number. */
export interface DeepSampleColumns {
  widthPx: number;
  heightPx: number;
  /** Where each pixel's samples start (length pixels + 1). */
  offsets: Uint32Array;
  /** Per sample, in depth order within each pixel. */
  z: Float32Array;
  /** Per sample; equal to Z for point samples and images without ZBack. */
  zBack: Float32Array;
  /** Per channel, per sample (half widened, uint converted). */
  values: readonly Float32Array[];
  roles: readonly DeepRole[];
}

/** Every channel composited over the range: one float32 plane per channel, pixels in row order. */
export function compositeRange(deep: DeepSampleColumns, range: DepthRange): Float32Array[] {
  const pixels = deep.widthPx * deep.heightPx;
  const out = deep.values.map(() => new Float32Array(pixels));
  const channelCount = deep.values.length;
  const transmittance = new Float32Array(channelCount);
  const frontSet = new Uint8Array(channelCount);
  for (let p = 0; p < pixels; p++) {
    transmittance.fill(1);
    frontSet.fill(0);
    for (let s = deep.offsets[p]!; s < deep.offsets[p + 1]!; s++) {
      const x = rangeFraction(deep.z[s]!, deep.zBack[s]!, range);
      if (x === 0) continue;
      for (let c = 0; c < channelCount; c++) {
        const role = deep.roles[c]!;
        if (role.kind !== 'over') {
          if (!frontSet[c]) out[c]![p] = deep.values[c]![s]!;
          frontSet[c] = 1;
          continue;
        }
        const t = transmittance[c]!;
        // nothing behind an opaque sample shows
        if (!(t > 0)) continue;
        const alpha = deep.values[role.alpha]![s]!;
        const a = splitAlpha(alpha, x);
        const v = splitValue(deep.values[c]![s]!, alpha, a, x);
        out[c]![p] = f32(out[c]![p]! + f32(t * v));
        transmittance[c] = f32(t * f32(1 - a));
      }
    }
  }
  return out;
}
