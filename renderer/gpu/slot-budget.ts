// How many frames the playback ring of slot textures holds: a slot's bytes against a GPU memory budget. Pure, so that
// the sequence bench plays with the player's own ring.
import type { DecodedPlane } from '../host-client/api-types.js';
import { mipChainBytes } from '../../shaders/tonemap-cpu.js';
import { planeFormat } from './plane-uploader.js';

/**
 * GPU memory the player's slot ring may take: four slots of a 4K half RGBA frame (243 MB each, the layer's float MIP
 * chain and the planes). Two slots (one shown, one filling) leave no lead for a frame that arrives late; four keep a
 * 4K loop at its rate (bench/results/host-notes.md).
 */
export const SLOT_BUDGET_BYTES = 1024 << 20;

/** Bytes one slot takes for a frame of this size and these planes (the planes and the layer's MIP chain). */
export function slotBytes(
  widthPx: number,
  heightPx: number,
  planes: readonly Pick<DecodedPlane, 'pixelType' | 'widthSamples' | 'heightSamples'>[],
): number {
  return (
    mipChainBytes(widthPx, heightPx) + planes.reduce((sum, p) => sum + p.widthSamples * p.heightSamples * planeFormat(p.pixelType).bytes, 0)
  );
}

/** How many slots fit `budgetBytes` for frames of this size: 2 at least (one shown, one filling), 6 at most. */
export function slotCountFor(
  widthPx: number,
  heightPx: number,
  planes: Parameters<typeof slotBytes>[2],
  budgetBytes = SLOT_BUDGET_BYTES,
): number {
  return Math.max(2, Math.min(6, Math.floor(budgetBytes / Math.max(1, slotBytes(widthPx, heightPx, planes)))));
}
