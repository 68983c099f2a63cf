// The thumbnail atlas: one rgba16float texture of fixed cells, filled from the host's linear half RGBA, LRU by cell.
import type { Thumbnail } from '../host/api-types.js';
import { ATLAS_FORMAT } from '../../shaders/pipelines.js';

export const ATLAS_CELL_PX = 128;
export const ATLAS_SIDE_PX = 2048;
export const ATLAS_CELLS = (ATLAS_SIDE_PX / ATLAS_CELL_PX) ** 2;

export interface AtlasSlot {
  index: number;
  /** Texel rect of the thumbnail inside the atlas. */
  xPx: number;
  yPx: number;
  widthPx: number;
  heightPx: number;
}

export class ThumbAtlas {
  readonly texture: GPUTexture;
  private readonly slots = new Map<string, AtlasSlot>();
  private readonly free: number[] = [];
  uploads = 0;
  uploadBytes = 0;
  evictions = 0;

  constructor(private readonly device: GPUDevice) {
    this.texture = device.createTexture({
      label: 'thumbnail atlas', size: [ATLAS_SIDE_PX, ATLAS_SIDE_PX], format: ATLAS_FORMAT,
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    for (let i = ATLAS_CELLS - 1; i >= 0; i--) this.free.push(i);
  }

  get bytes(): number {
    return ATLAS_SIDE_PX * ATLAS_SIDE_PX * 8;
  }

  get size(): number {
    return this.slots.size;
  }

  /** The slot of a file's thumbnail, marking it recently used. */
  get(fileId: string): AtlasSlot | undefined {
    const s = this.slots.get(fileId);
    if (s) { this.slots.delete(fileId); this.slots.set(fileId, s); }
    return s;
  }

  has(fileId: string): boolean {
    return this.slots.has(fileId);
  }

  /** Copies a thumbnail in (scaled down by whole-pixel skipping when larger than a cell), evicting the LRU cell if full. */
  put(fileId: string, t: Thumbnail, pinned: ReadonlySet<string>): AtlasSlot {
    const old = this.slots.get(fileId);
    let index: number;
    if (old) { index = old.index; this.slots.delete(fileId); }
    else index = this.free.pop() ?? this.evictOne(pinned);
    const step = Math.max(1, Math.ceil(Math.max(t.widthPx, t.heightPx) / ATLAS_CELL_PX));
    const w = Math.max(1, Math.floor(t.widthPx / step));
    const h = Math.max(1, Math.floor(t.heightPx / step));
    const cellsPerRow = ATLAS_SIDE_PX / ATLAS_CELL_PX;
    const slot: AtlasSlot = { index, xPx: (index % cellsPerRow) * ATLAS_CELL_PX, yPx: Math.floor(index / cellsPerRow) * ATLAS_CELL_PX, widthPx: w, heightPx: h };
    let data: ArrayBuffer | Uint16Array<ArrayBuffer> = t.rgbaHalf;
    let bytesPerRow = t.widthPx * 8;
    if (step > 1) {
      const src = new Uint16Array(t.rgbaHalf);
      const dst = new Uint16Array(w * h * 4);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
        const s = ((y * step) * t.widthPx + x * step) * 4;
        dst.set(src.subarray(s, s + 4), (y * w + x) * 4);
      }
      data = dst;
      bytesPerRow = w * 8;
    }
    this.device.queue.writeTexture({ texture: this.texture, origin: { x: slot.xPx, y: slot.yPx } }, data, { bytesPerRow, rowsPerImage: h }, { width: w, height: h });
    this.uploads++;
    this.uploadBytes += w * h * 8;
    this.slots.set(fileId, slot);
    return slot;
  }

  private evictOne(pinned: ReadonlySet<string>): number {
    for (const [id, s] of this.slots) {
      if (pinned.has(id)) continue;
      this.slots.delete(id);
      this.evictions++;
      return s.index;
    }
    // everything pinned (more visible cells than the atlas holds): take the oldest anyway
    const first = this.slots.entries().next().value;
    if (!first) throw new Error('thumbnail atlas: no cell to evict');
    this.slots.delete(first[0]);
    this.evictions++;
    return first[1].index;
  }

  destroy(): void {
    this.texture.destroy();
    this.slots.clear();
  }
}
