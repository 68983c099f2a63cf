// The thumbnail atlas: one rgba16float texture of fixed cells, filled from the host's linear half RGBA, LRU by cell.
import type { Thumbnail } from '../host-client/api-types.js';
import { ATLAS_FORMAT } from '../../shaders/pipelines.js';
import { boxDownsampleHalfRgba, fitSize } from './thumb-filter.js';

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
      label: 'thumbnail atlas',
      size: [ATLAS_SIDE_PX, ATLAS_SIDE_PX],
      format: ATLAS_FORMAT,
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
    if (s) {
      this.slots.delete(fileId);
      this.slots.set(fileId, s);
    }
    return s;
  }

  has(fileId: string): boolean {
    return this.slots.has(fileId);
  }

  /** Copies a thumbnail in (box-filtered in linear light when larger than a cell), evicting the LRU cell if full. */
  put(fileId: string, t: Thumbnail, pinned: ReadonlySet<string>): AtlasSlot {
    const old = this.slots.get(fileId);
    let index: number;
    if (old) {
      index = old.index;
      this.slots.delete(fileId);
    } else index = this.free.pop() ?? this.evictOne(pinned);
    const { widthPx: w, heightPx: h } = fitSize(t.widthPx, t.heightPx, ATLAS_CELL_PX);
    const cellsPerRow = ATLAS_SIDE_PX / ATLAS_CELL_PX;
    const slot: AtlasSlot = {
      index,
      xPx: (index % cellsPerRow) * ATLAS_CELL_PX,
      yPx: Math.floor(index / cellsPerRow) * ATLAS_CELL_PX,
      widthPx: w,
      heightPx: h,
    };
    let data: ArrayBuffer | Uint16Array<ArrayBuffer> = t.rgbaHalf;
    let bytesPerRow = t.widthPx * 8;
    if (w !== t.widthPx || h !== t.heightPx) {
      data = boxDownsampleHalfRgba(new Uint16Array(t.rgbaHalf), t.widthPx, t.heightPx, w, h);
      bytesPerRow = w * 8;
    }
    this.device.queue.writeTexture(
      { texture: this.texture, origin: { x: slot.xPx, y: slot.yPx } },
      data,
      { bytesPerRow, rowsPerImage: h },
      { width: w, height: h },
    );
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
