// The CPU fallback when WebGPU is missing: a worker tone-maps the preview into a 2D canvas (nearest sampling), and the
// grid's thumbnails are tone-mapped on the main thread. Slower, same display path (the CPU reference), and it says why.
import type { DecodedImage, Thumbnail } from '../host-client/api-types.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../../shaders/display-params.js';
import { halfToFloat, toneMapImage } from '../../shaders/tonemap-cpu.js';
import { imageKeyString, PlanesLackingError, type GridCell, type ImageKey, type ShowReport } from '../gpu/engine-types.js';
import { FrameStats } from '../gpu/frame-stats.js';
import { planesOf, type LayerChoice } from '../model/layer-choice.js';
import type { CpuStats, ViewEngine } from '../gpu/view-engine.js';
import type { HdrSupport } from '../gpu/hdr-output.js';
import type { HistogramSource } from '../gpu/shown-histogram.js';
import type { PanZoom } from '../model/view-geometry.js';
import { ATLAS_CELL_PX } from '../gpu/thumb-atlas.js';
import { boxDownsampleHalfRgba, fitSize } from '../gpu/thumb-filter.js';
import { assembleRgba } from './assemble.js';
import { cryptomatteViewOfGroups } from '../../shaders/cryptomatte/view-cpu.js';
import type { CryptomatteView } from '../gpu/cryptomatte-view.js';

export class CpuEngine implements ViewEngine {
  readonly frames = new FrameStats();
  onHistogram: ((bins: Uint32Array, source: HistogramSource) => void) | null = null;
  private readonly worker = new Worker(new URL('./tonemap-worker.ts', import.meta.url), { type: 'module' });
  private preview: HTMLCanvasElement | null = null;
  private grid: HTMLCanvasElement | null = null;
  private display: DisplayParams = { ...DEFAULT_DISPLAY };
  private panZoom: PanZoom = { zoom: 1, centerX: 0, centerY: 0 };
  private readonly thumbs = new Map<string, { widthPx: number; heightPx: number; rgba: Float32Array }>();
  private cells: GridCell[] = [];
  private images = new Map<string, DecodedImage>();
  private nextId = 1;
  private inFlight = false;
  private again = false;
  private lastRenderMs = NaN;
  private pending: ((ms: number) => void)[] = [];
  /** The shown layer's RGBA, kept so that a Cryptomatte view can be drawn over it and taken off again. */
  private beauty: { rgba: Float32Array; widthPx: number; heightPx: number; x0: number; y0: number } | null = null;
  private cryptomatte: CryptomatteView | null = null;
  /** Renders with a lower id were asked for before the last clearImage(): their pixels are not drawn. */
  private clearedBeforeId = 0;

  constructor(readonly reason: string) {
    this.worker.onmessage = (
      m: MessageEvent<{ id: number; widthPx: number; heightPx: number; pixels: Uint8ClampedArray<ArrayBuffer>; renderMs: number }>,
    ) => {
      this.inFlight = false;
      this.lastRenderMs = m.data.renderMs;
      this.frames.record(performance.now(), m.data.renderMs, NaN);
      const ctx = this.preview?.getContext('2d');
      // a render asked for before clearImage() still shows the image dropped: the one asked for after it draws none
      const stale = m.data.id < this.clearedBeforeId;
      if (ctx && !stale && this.preview!.width === m.data.widthPx && this.preview!.height === m.data.heightPx)
        ctx.putImageData(new ImageData(m.data.pixels, m.data.widthPx, m.data.heightPx), 0, 0);
      for (const p of this.pending.splice(0)) p(m.data.renderMs);
      if (this.again) {
        this.again = false;
        this.invalidate();
      }
    };
  }

  attachPreview(canvas: HTMLCanvasElement): void {
    this.preview = canvas;
    this.invalidate();
  }
  attachGrid(canvas: HTMLCanvasElement): void {
    this.grid = canvas;
    this.invalidateGrid();
  }
  setDisplay(p: DisplayParams): void {
    this.display = p.hdr ? { ...p, hdr: null } : p;
    this.invalidate();
    this.invalidateGrid();
  }
  hdrSupport(): HdrSupport {
    return {
      available: false,
      mediaHigh: false,
      canvasExtended: false,
      reason: `the viewer runs on the CPU (${this.reason}), which draws 8-bit SDR only`,
    };
  }
  setPanZoom(v: PanZoom): void {
    this.panZoom = v;
    this.invalidate();
  }

  lacks(key: ImageKey, choice: LayerChoice): string[] {
    const image = this.images.get(imageKeyString(key));
    return planesOf(choice).filter((n) => !image?.planes.some((p) => p.name === n));
  }

  async show(key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null): Promise<ShowReport> {
    const t0 = performance.now();
    const k = imageKeyString(key);
    let image = this.images.get(k);
    const missing = this.lacks(key, choice);
    const source = missing.length ? 'uploaded' : 'gpu-cache';
    if (missing.length) {
      // only the planes the layer reads and this engine does not hold yet
      const planes = fetched?.planes.filter((p) => missing.includes(p.name)) ?? [];
      if (planes.length < missing.length) throw new PlanesLackingError(missing.filter((n) => !planes.some((p) => p.name === n)));
      image = image ? { ...image, planes: [...image.planes, ...planes] } : { ...fetched!, planes };
      this.images.clear();
      this.images.set(k, image);
    }
    image = image!;
    this.beauty = {
      rgba: assembleRgba(image, choice),
      widthPx: image.widthPx,
      heightPx: image.heightPx,
      x0: image.dataWindow[0],
      y0: image.dataWindow[1],
    };
    this.postImage();
    const done = new Promise<number>((r) => this.pending.push(r));
    this.invalidate();
    await done;
    return {
      key: k,
      source,
      planesUploaded: missing,
      uploadBytes: 0,
      uploadPath: '',
      uploadCallMs: 0,
      uploadCpuCopyMs: 0,
      uploadWaitMs: 0,
      uploadWallMs: NaN,
      uploadGBps: NaN,
      layerBuilt: true,
      showMs: performance.now() - t0,
    };
  }

  /** The Cryptomatte view over the shown layer (null ends it), drawn by the CPU reference of the GPU's view pass. */
  setCryptomatte(view: CryptomatteView | null): void {
    if (view === this.cryptomatte) return;
    this.cryptomatte = view;
    this.postImage();
    this.invalidate();
  }

  /** The shown layer to the worker: the beauty, or the Cryptomatte view over it where one of its size is set. */
  private postImage(): void {
    const b = this.beauty;
    if (!b) return;
    const view = this.cryptomatte;
    const rgba =
      view && view.widthPx === b.widthPx && view.heightPx === b.heightPx && view.groups.length
        ? cryptomatteViewOfGroups(view.groups, view.picked, view.mode, b.rgba, b.widthPx * b.heightPx)
        : b.rgba.slice();
    this.worker.postMessage({ type: 'image', rgba, widthPx: b.widthPx, heightPx: b.heightPx, x0: b.x0, y0: b.y0 }, [rgba.buffer]);
  }

  isCached(key: ImageKey): boolean {
    return this.images.has(imageKeyString(key));
  }

  putThumbnail(fileId: string, t: Thumbnail): void {
    // as the GPU atlas does: larger than a cell is box-filtered down in linear light, not left to drawImage's sampling
    const { widthPx, heightPx } = fitSize(t.widthPx, t.heightPx, ATLAS_CELL_PX);
    const h =
      widthPx === t.widthPx && heightPx === t.heightPx
        ? new Uint16Array(t.rgbaHalf)
        : boxDownsampleHalfRgba(new Uint16Array(t.rgbaHalf), t.widthPx, t.heightPx, widthPx, heightPx);
    const rgba = new Float32Array(h.length);
    for (let i = 0; i < h.length; i++) rgba[i] = halfToFloat(h[i]!);
    this.thumbs.set(fileId, { widthPx, heightPx, rgba });
    this.invalidateGrid();
  }

  hasThumbnail(fileId: string): boolean {
    return this.thumbs.has(fileId);
  }
  setGridCells(cells: GridCell[]): void {
    this.cells = cells;
    this.invalidateGrid();
  }

  /** Draws no image until the next show(): what failed to show, or a new folder, never stands over the image before. */
  clearImage(): void {
    this.images.clear();
    this.beauty = null;
    this.worker.postMessage({ type: 'clear' });
    this.clearedBeforeId = this.nextId;
    this.invalidate();
  }

  invalidate(): void {
    if (!this.preview) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    this.worker.postMessage({
      type: 'render',
      id: this.nextId++,
      display: this.display,
      panZoom: this.panZoom,
      widthPx: this.preview.width,
      heightPx: this.preview.height,
    });
  }

  private gridQueued = false;
  invalidateGrid(): void {
    if (this.gridQueued) return;
    this.gridQueued = true;
    requestAnimationFrame(() => {
      this.gridQueued = false;
      this.drawGrid();
    });
  }

  private drawGrid(): void {
    const ctx = this.grid?.getContext('2d');
    if (!ctx || !this.grid) return;
    ctx.fillStyle = '#1f1f1f';
    ctx.fillRect(0, 0, this.grid.width, this.grid.height);
    for (const c of this.cells) {
      const t = this.thumbs.get(c.fileId);
      if (!t) continue;
      const px = toneMapImage(t.rgba, t.widthPx, t.heightPx, this.display) as Uint8ClampedArray<ArrayBuffer>;
      const s = Math.min(c.widthPx / t.widthPx, c.heightPx / t.heightPx, 1);
      const bitmap = new OffscreenCanvas(t.widthPx, t.heightPx);
      bitmap.getContext('2d')!.putImageData(new ImageData(px, t.widthPx, t.heightPx), 0, 0);
      ctx.drawImage(
        bitmap,
        c.xPx + (c.widthPx - t.widthPx * s) / 2,
        c.yPx + (c.heightPx - t.heightPx * s) / 2,
        t.widthPx * s,
        t.heightPx * s,
      );
    }
  }

  // the CPU path draws the current image alone; metrics and statistics are computed by the caller from its CPU copies
  async setReference(): Promise<ShowReport | null> {
    return null;
  }
  setCompareView(): void {}
  async metrics(): Promise<null> {
    return null;
  }
  async statistics(): Promise<null> {
    return null;
  }
  forgetFile(fileId: string): void {
    for (const k of [...this.images.keys()]) if (k.startsWith(`${fileId}#`)) this.images.delete(k);
  }

  stats(): CpuStats {
    return { path: 'cpu', reason: this.reason, frames: this.frames.count, lastRenderMs: this.lastRenderMs };
  }
  dispose(): void {
    this.worker.terminate();
  }
}
