// What the GPU's depth-range pass reads: per pixel where its samples start, and per sample its depths and the four
// shown channels with the alpha each composites under, interleaved. Built once per image and layer. Pure.
import type { DeepSampleColumns } from './range-composite.js';

/** Floats per sample: Z, ZBack, four values, four alphas (range.wgsl's STRIDE). */
export const SAMPLE_FLOATS = 10;

/** How a slot composites on the GPU: 0 reads 0, 1 keeps the front sample's value, 2 "over", 3 reads 1 (no alpha). */
export type SlotMode = 0 | 1 | 2 | 3;

export interface PackedDeepSamples {
  widthPx: number;
  heightPx: number;
  /** Where each pixel's samples start (length pixels + 1). */
  offsets: Uint32Array<ArrayBuffer>;
  /** SAMPLE_FLOATS per sample, in depth order within each pixel. */
  samples: Float32Array<ArrayBuffer>;
  modes: [SlotMode, SlotMode, SlotMode, SlotMode];
}

/**
 * The four slots (R, G, B, A of the shown layer: channel indices into `deep`, or null) packed for the pass. A slot
 * without a channel reads 0, except alpha, which reads 1 as the assemble pass gives a layer without A.
 */
export function packSlots(deep: DeepSampleColumns, slots: readonly (number | null)[]): PackedDeepSamples {
  const total = deep.offsets[deep.offsets.length - 1]!;
  const samples = new Float32Array(total * SAMPLE_FLOATS);
  const modes = [0, 1, 2, 3].map((k): SlotMode => {
    const c = slots[k] ?? null;
    if (c === null) return k === 3 ? 3 : 0;
    return deep.roles[c]!.kind === 'over' ? 2 : 1;
  }) as PackedDeepSamples['modes'];
  for (let s = 0; s < total; s++) {
    const at = s * SAMPLE_FLOATS;
    samples[at] = deep.z[s]!;
    samples[at + 1] = deep.zBack[s]!;
    for (let k = 0; k < 4; k++) {
      const c = slots[k] ?? null;
      if (c === null) continue;
      const role = deep.roles[c]!;
      samples[at + 2 + k] = deep.values[c]![s]!;
      if (role.kind === 'over') samples[at + 6 + k] = deep.values[role.alpha]![s]!;
    }
  }
  return { widthPx: deep.widthPx, heightPx: deep.heightPx, offsets: Uint32Array.from(deep.offsets), samples, modes };
}
