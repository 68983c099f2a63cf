// The detail of an image too large for the GPU: once the view zooms in past the reduced level on screen, the crop of
// level 0 it shows (plus a margin, snapped to a grid so small pans reuse it) is fetched (DecodeRequest.region) and
// handed to the engine, which draws it in place of the reduced level. Lazily: a view that keeps moving asks once it
// rests; the latest view wins and a request it no longer needs is cancelled.
import type { BoxTuple, DecodedImage, DecodeRequest } from '../host-client/api-types.js';
import type { ImageKey } from '../gpu/engine-types.js';
import { layerKey, planesOf, type LayerChoice } from '../model/layer-choice.js';
import type { PanZoom } from '../model/view-geometry.js';

/** Crops start and end on this grid of level 0's pixels (from the data window's origin): whole chunks, reused by small pans. */
export const CROP_GRID_PX = 1024;
/** Level 0's pixels kept around the visible rectangle, so a pan of less than this needs nothing new. */
export const CROP_MARGIN_PX = 256;
/** The margins and grids a crop is tried with, in turn, until one fits the texture limit. */
const CROP_STEPS = [
  [CROP_MARGIN_PX, CROP_GRID_PX],
  [0, CROP_GRID_PX],
  [0, 1],
] as const;
/** A crop held is kept while it holds the visible rectangle and this much around it: the next is asked for before it is needed. */
const KEEP_MARGIN_PX = CROP_MARGIN_PX / 2;
/** How long the view rests before its crop is asked for. */
const REST_MS = 120;

/** What the view shows: the image, its layer and level 0's data window, the reduction on screen, the view and the canvas. */
export interface RegionView {
  key: ImageKey;
  choice: LayerChoice;
  dataWindow: BoxTuple;
  /** Level 0's pixels per pixel of the reduced level on screen (1: level 0 is on screen, no crop is needed). */
  factor: number;
  panZoom: PanZoom;
  canvasWidthPx: number;
  canvasHeightPx: number;
  /** The largest texture side the engine takes. */
  maxSidePx: number;
}

/**
 * The crop (absolute, inclusive) of level 0 the view needs, or null when it needs none: not zoomed in past the
 * reduced level, or nothing of the image on screen. The visible rectangle plus a margin, snapped out to the grid,
 * clipped to the data window; without the margin, or centred and cut, where that is over the texture limit.
 */
export function wantedCrop(v: RegionView, steps: readonly (readonly [number, number])[] = CROP_STEPS): BoxTuple | null {
  if (v.factor <= 1 || v.panZoom.zoom * v.factor <= 1) return null;
  const [dx0, dy0, dx1, dy1] = v.dataWindow;
  const halfW = v.canvasWidthPx / 2 / v.panZoom.zoom,
    halfH = v.canvasHeightPx / 2 / v.panZoom.zoom;
  const vis = [v.panZoom.centerX - halfW, v.panZoom.centerY - halfH, v.panZoom.centerX + halfW, v.panZoom.centerY + halfH] as const;
  if (vis[2] <= dx0 || vis[3] <= dy0 || vis[0] > dx1 + 1 || vis[1] > dy1 + 1) return null;
  const snap = (lo: number, hi: number, origin: number, end: number, margin: number, grid: number): [number, number] => [
    Math.max(origin, origin + Math.floor((Math.floor(lo) - margin - origin) / grid) * grid),
    Math.min(end, origin + Math.ceil((Math.ceil(hi) + margin - origin) / grid) * grid - 1),
  ];
  for (const [margin, grid] of steps) {
    const [x0, x1] = snap(vis[0], vis[2], dx0, dx1, margin, grid);
    const [y0, y1] = snap(vis[1], vis[3], dy0, dy1, margin, grid);
    if (x1 - x0 + 1 <= v.maxSidePx && y1 - y0 + 1 <= v.maxSidePx) return [x0, y0, x1, y1];
  }
  return null;
}

export interface RegionFetchHost {
  decodeImage(request: DecodeRequest): Promise<DecodedImage>;
  cancel(requestId: string): void;
  /** What the view shows now (null: no image, or none too large for the GPU). */
  view(): RegionView | null;
  /** The crop the engine holds now, if any. */
  held(): { key: ImageKey; layer: string; box: BoxTuple } | null;
  /** Hands a fetched crop to the engine. */
  put(key: ImageKey, choice: LayerChoice, image: DecodedImage, dataWindow: BoxTuple): Promise<void>;
  /** A crop could not be fetched or shown: why (the reduced level stays on screen). */
  failed(message: string): void;
}

const sameBox = (a: BoxTuple, b: BoxTuple): boolean => a.every((x, i) => x === b[i]);
const sameKey = (a: ImageKey, b: ImageKey): boolean => a.fileId === b.fileId && a.part === b.part;

export class RegionFetch {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pending: { requestId: string; key: ImageKey; box: BoxTuple; layer: string } | null = null;
  private seq = 0;
  /** Crops fetched and handed over (tests and diagnostics). */
  fetched = 0;

  constructor(private readonly h: RegionFetchHost) {}

  /** The view or the image on screen changed: the crop it needs is asked for once it rests. */
  changed(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.update();
    }, REST_MS);
  }

  /** Asks for the crop the view needs now, unless it is held or on its way; cancels one no longer needed. */
  async update(): Promise<void> {
    const v = this.h.view();
    const box = v ? wantedCrop(v) : null;
    const layer = v ? layerKey(v.choice) : '';
    const p = this.pending;
    if (p && v && box && sameKey(p.key, v.key) && sameBox(p.box, box) && p.layer === layer) return;
    if (p) {
      this.pending = null;
      this.h.cancel(p.requestId);
    }
    if (!v || !box) return;
    const held = this.h.held();
    // a crop held that still covers the visible rectangle and some of its margin is kept: a small pan asks for nothing
    const need = wantedCrop(v, [[KEEP_MARGIN_PX, 1]]) ?? box;
    const covers = held && held.box[0] <= need[0] && held.box[1] <= need[1] && held.box[2] >= need[2] && held.box[3] >= need[3];
    if (held && covers && sameKey(held.key, v.key) && held.layer === layer) return;
    const requestId = `region-${v.key.fileId}-${v.key.part}-${++this.seq}`;
    const mine = { requestId, key: v.key, box, layer };
    this.pending = mine;
    try {
      const image = await this.h.decodeImage({
        requestId,
        fileId: v.key.fileId,
        part: v.key.part,
        priority: 'preview',
        channels: planesOf(v.choice),
        region: { xPx: box[0], yPx: box[1], widthPx: box[2] - box[0] + 1, heightPx: box[3] - box[1] + 1 },
      });
      if (this.pending !== mine) return;
      await this.h.put(v.key, v.choice, image, v.dataWindow);
      this.fetched++;
    } catch (e) {
      if (this.pending === mine) this.h.failed(e instanceof Error ? e.message : String(e));
    } finally {
      if (this.pending === mine) this.pending = null;
    }
  }

  /** Nothing more is asked for (the page goes away). */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending) this.h.cancel(this.pending.requestId);
    this.pending = null;
  }
}
