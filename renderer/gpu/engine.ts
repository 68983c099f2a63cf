// The GPU engine: a plain class outside React that receives images and draws them, only when invalidated; a frame
// writes two small uniform blocks and encodes two passes, nothing else. It fetches nothing: whoever shows an image asks
// which planes the engine lacks (lacks) and hands them over with the show; after a device loss it says so
// (onDeviceRestored) and is handed everything again. The parts: the device session (gpu-session), the texture cache,
// the preview and grid drawers, the pair analysis (histogram, metrics, statistics), captures and playback's slots.
import type { DecodedImage, Thumbnail } from '../host-client/api-types.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../../shaders/display-params.js';
import type { LayerTexture } from '../../shaders/passes.js';
import type { ChannelStats, MetricsTotals, Region } from '../../shaders/compare-cpu.js';
import { layerKey, type LayerChoice } from '../model/layer-choice.js';
import type { PanZoom } from '../model/view-geometry.js';
import type { Timed } from './analysis.js';
import type { CompareView } from './compare-geometry.js';
import { engineStats } from './engine-stats.js';
import { FrameSlots } from './frame-slots.js';
import { FrameLoop } from './frame-loop.js';
import type { FrameStats } from './frame-stats.js';
import { GpuSession } from './gpu-session.js';
import { GridDrawer, type GridView } from './grid-drawer.js';
import type { HdrSupport } from './hdr-output.js';
import { PairAnalysis } from './pair-analysis.js';
import { PreviewDrawer, type PreviewView } from './preview-drawer.js';
import type { SheetTile } from './sheet-layout.js';
import type { HistogramSource } from './shown-histogram.js';
import { TextureCache } from './texture-cache.js';
import type { ViewEngine } from './view-engine.js';
import {
  CompareCounters,
  emptyShowReport,
  imageKeyString,
  type CanvasCapture,
  type EngineOptions,
  type EngineStats,
  type GridCell,
  type ImageKey,
  type OnScreen,
  type Shown,
  type ShowReport,
} from './engine-types.js';
import { gpuProcessorFor } from './ocio-processors.js';

export { imageKeyString, PlanesLackingError } from './engine-types.js';
export type {
  CanvasCapture,
  EngineOptions,
  EngineStats,
  GridCell,
  ImageKey,
  ShowReport,
  ToneMapPath,
  UploadFigures,
} from './engine-types.js';
export { chooseToneMapPath } from './gpu-session.js';

/** What is made once per device. */
interface DeviceParts {
  session: GpuSession;
  preview: PreviewDrawer;
  grid: GridDrawer;
  pair: PairAnalysis;
}

export class GpuEngine implements ViewEngine {
  private gpu!: DeviceParts;
  private readonly screen: OnScreen = { current: null, reference: null };
  private readonly counters = new CompareCounters();
  private readonly cache: TextureCache;
  private readonly previewView: PreviewView = {
    display: { ...DEFAULT_DISPLAY },
    panZoom: { zoom: 1, centerX: 0, centerY: 0 },
    compareView: null,
    hdrCanvas: false,
  };
  /** The grid canvas stays 8-bit SDR: it gets the display without its HDR part. */
  private readonly gridView: GridView & { cells: GridCell[]; pinned: Set<string> } = {
    display: { ...DEFAULT_DISPLAY },
    cells: [],
    pinned: new Set(),
  };
  private canvases: { preview: HTMLCanvasElement | OffscreenCanvas | null; grid: HTMLCanvasElement | null } = { preview: null, grid: null };
  private readonly loop = new FrameLoop(() => (this.restoring ? null : this.gpu));
  private disposed = false;
  /** The ring of textures a playing sequence goes through (made on the first playback, kept while frames keep their size). */
  private slots: FrameSlots | null = null;
  private restoring: Promise<void> | null = null;
  private readonly losses = { count: 0, lastReason: '' };
  onHistogram: ((bins: Uint32Array, source: HistogramSource) => void) | null = null;
  /** After a device loss, on the new device: nothing is cached; show the image and reference again, put the thumbnails again. */
  onDeviceRestored: (() => void) | null = null;
  /** After every show(): the Environment view follows the image and layer on screen. */
  onShown: (() => void) | null = null;

  private constructor(private readonly options: EngineOptions) {
    this.cache = new TextureCache(options.budgetBytes ?? 1536 << 20, this.screen, this.counters);
  }

  static async create(options: EngineOptions = {}): Promise<GpuEngine> {
    const e = new GpuEngine(options);
    await e.open();
    return e;
  }

  private async open(): Promise<void> {
    const session = await GpuSession.open(this.options);
    const preview = new PreviewDrawer(session, this.previewView, this.screen, this.counters);
    const pair = new PairAnalysis(preview.compare.ck, session.info.hasTimestamps, this.screen, (bins, source) =>
      this.onHistogram?.(bins, source),
    );
    this.gpu = { session, preview, grid: new GridDrawer(session, this.gridView), pair };
    session.kit.setLut(this.previewView.display.lut?.lut ?? null);
    session.kit.setOcio(gpuProcessorFor(this.previewView.display.ocio));
    session.device.lost.then((info) => {
      session.lost = true;
      if (!this.disposed && this.gpu.session === session) void this.recover(`${info.reason}: ${info.message}`);
    });
  }

  get frames(): FrameStats {
    return this.loop.stats;
  }
  get device(): GPUDevice {
    return this.gpu.session.device;
  }
  get canvasFormat(): GPUTextureFormat {
    return this.gpu.session.format;
  }
  /** The preview canvas's format now (rgba16float while HDR output is on). */
  get previewFormat(): GPUTextureFormat {
    return this.gpu.preview.format;
  }
  /** Thumbnails drawn in the last grid frame. */
  get drawnCells(): number {
    return this.gpu.grid.drawnCells;
  }

  attachPreview(canvas: HTMLCanvasElement | OffscreenCanvas): void {
    this.canvases.preview = canvas;
    this.gpu.preview.attach(canvas);
    this.invalidate();
  }
  attachGrid(canvas: HTMLCanvasElement): void {
    this.canvases.grid = canvas;
    this.gpu.grid.attach(canvas);
    this.invalidateGrid();
  }
  detachPreview(): void {
    this.canvases.preview = null;
    this.gpu.preview.detach();
  }
  detachGrid(): void {
    this.canvases.grid = null;
    this.gpu.grid.detach();
  }

  /** Whether HDR output can be had here, and why not; probed once per device. */
  hdrSupport(): HdrSupport {
    return this.gpu.session.hdrSupport();
  }

  setDisplay(p: DisplayParams): void {
    const wantsHdr = !!p.hdr && this.hdrSupport().available;
    this.previewView.display = wantsHdr || !p.hdr ? p : { ...p, hdr: null };
    this.gridView.display = p.hdr ? { ...p, hdr: null } : p;
    if (wantsHdr !== this.previewView.hdrCanvas) {
      this.previewView.hdrCanvas = wantsHdr;
      this.gpu.preview.configure();
    }
    this.gpu.session.kit.setLut(p.lut?.lut ?? null); // uploads only when the LUT itself changed
    this.gpu.session.kit.setOcio(gpuProcessorFor(p.ocio)); // builds and uploads only when the processor changed
    this.counters.sinceLoad.display++;
    this.invalidate();
    this.invalidateGrid();
  }

  setPanZoom(v: PanZoom): void {
    this.previewView.panZoom = v;
    this.invalidate();
  }

  /** The planes of `choice` to hand over with show, setReference or prepareLayer: none while its layer is on the GPU. */
  lacks(key: ImageKey, choice: LayerChoice): string[] {
    return this.cache.lacks(key, choice);
  }

  /**
   * Shows a layer of an image: its MIP chain from the GPU cache when there; else built from the planes it holds and
   * those in `fetched` (which must carry what lacks() named; PlanesLackingError says what it did not).
   */
  async show(key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null): Promise<ShowReport> {
    const t0 = performance.now();
    const report = emptyShowReport(imageKeyString(key));
    const shown = await this.obtain(key, choice, fetched, report);
    if (!shown) return report;
    this.screen.current = shown;
    this.refreshHistogram();
    this.invalidate();
    this.onShown?.();
    report.showMs = await this.loop.nextFrame(t0);
    return report;
  }

  /** Draws no image until the next show(): what failed to show, or a new folder, never stands over the image before. */
  clearImage(): void {
    this.screen.current = null;
    this.invalidate();
  }

  /** The compare modes' reference (null: none), made like show()'s layer, then pinned until another replaces it. */
  async setReference(key: ImageKey | null, choice: LayerChoice | null, fetched: DecodedImage | null = null): Promise<ShowReport | null> {
    if (!key || !choice) {
      this.screen.reference = null;
      this.refreshHistogram();
      this.invalidate();
      return null;
    }
    const report = emptyShowReport(imageKeyString(key));
    const t0 = performance.now();
    const shown = await this.obtain(key, choice, fetched, report);
    if (!shown) return report;
    this.screen.reference = shown;
    this.refreshHistogram();
    this.invalidate();
    report.showMs = performance.now() - t0;
    return report;
  }

  /** A layer's MIP chain made ready in the cache without showing it (the Layers view); null if the engine went away. */
  async prepareLayer(key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null): Promise<LayerTexture | null> {
    return (await this.obtain(key, choice, fetched, emptyShowReport(imageKeyString(key))))?.layer ?? null;
  }

  private async obtain(key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null, report: ShowReport): Promise<Shown | null> {
    await this.restored();
    if (this.disposed) return null;
    const session = this.gpu.session;
    try {
      const shown = await this.cache.obtain(session, key, choice, fetched, report);
      if (shown || !session.lost || this.disposed) return shown;
    } catch (e) {
      if (this.disposed || !(e instanceof Error && e.name === 'GpuDeviceLostError')) throw e;
    }
    // the device was lost under the upload: build on the new one from what was handed over (or say what it lacks)
    await session.device.lost;
    return this.obtain(key, choice, fetched, report);
  }

  /** Mode, flip, wipe, colormap and range of the compare pass (null: the plain preview). Draws; loads nothing. */
  setCompareView(v: CompareView | null): void {
    if (v && this.previewView.compareView && JSON.stringify(v) === JSON.stringify(this.previewView.compareView)) return;
    this.previewView.compareView = v;
    this.refreshHistogram();
    this.counters.sinceLoad.view++;
    this.invalidate();
  }

  /** The Layers view: these layers in these tiles (device px) instead of the preview; empty lists end it. */
  setSheet(layers: readonly LayerTexture[], tiles: readonly SheetTile[]): void {
    this.gpu.preview.sheet.set(layers, tiles);
    this.invalidate();
  }

  /** Comparison metrics of the shown layer against the reference over `region` (A's pixel space); null without both. */
  metrics(region: Region, threshold: number): Promise<Timed<MetricsTotals> | null> {
    return this.gpu.pair.metrics(region, threshold);
  }
  /** Statistics of the shown layer (0), the reference (1) or a difference image (2 + metric) over `region`. */
  statistics(region: Region, valueMode: number): Promise<Timed<ChannelStats[]> | null> {
    return this.gpu.pair.statistics(region, valueMode);
  }

  private refreshHistogram(contentChanged = false): void {
    this.gpu.pair.refreshHistogram(this.previewView.compareView, contentChanged);
  }

  /** The file changed on disk: its textures go (a show uploads it again). */
  forgetFile(fileId: string): void {
    this.cache.forgetFile(fileId);
  }
  /** Whether the image has a layer on the GPU (no counting, no reordering). */
  isCached(key: ImageKey): boolean {
    return this.cache.isCached(key);
  }
  setBudget(bytes: number): void {
    this.cache.setBudget(bytes);
  }
  shownFileId(): string | null {
    return this.screen.current?.key.fileId ?? null;
  }
  currentLayerKey(): string | null {
    return this.screen.current ? layerKey(this.screen.current.choice) : null;
  }

  /** The layer on screen as cached (rgba32float, level 0 = the data window): the Environment view draws from it. */
  currentLayer(): { key: string; texture: GPUTexture; widthPx: number; heightPx: number } | null {
    const cur = this.screen.current;
    return cur
      ? {
          key: `${cur.keyString}#${layerKey(cur.choice)}`,
          texture: cur.layer.texture,
          widthPx: cur.layer.widthPx,
          heightPx: cur.layer.heightPx,
        }
      : null;
  }

  /**
   * The playback ring of `count` slots (see frame-slots.ts): a new ring when the count changes. Slot textures live
   * beside the image cache, not in it: the ring is small, fixed, and written again for every frame.
   */
  frameSlots(count: number): FrameSlots {
    const { session } = this.gpu;
    if (this.slots && this.slots.count === count && this.slots.device === session.device) return this.slots;
    if (this.screen.current && this.slots && this.screen.current.keyString.startsWith('slot:')) this.screen.current = null;
    this.slots?.destroy();
    const { device, kit, dummies, uploader } = session;
    this.slots = new FrameSlots({ device, kit, dummies, uploader, buildTimer: session.buildTimer() }, count);
    return this.slots;
  }

  /** Shows what playback slot `slot` holds, with the display settings of any image (exposure, tone-map, pan and zoom). */
  presentSlot(slot: number, key: ImageKey, choice: LayerChoice): boolean {
    const f = this.slots?.frame(slot);
    if (!f) return false;
    this.screen.current = { key, keyString: `slot:${slot}:${imageKeyString(key)}`, choice, image: f.image, layer: f.layer };
    // the histogram follows playback: the counter runs one pass at a time and keeps only the newest request waiting
    this.refreshHistogram(true);
    this.invalidate();
    return true;
  }

  putThumbnail(fileId: string, t: Thumbnail): void {
    this.gpu.grid.putThumbnail(fileId, t);
    this.invalidateGrid();
  }
  hasThumbnail(fileId: string): boolean {
    return this.gpu.grid.atlas.has(fileId);
  }

  /** The visible grid cells, in grid-canvas device px; drawn in one instanced pass. */
  setGridCells(cells: GridCell[]): void {
    this.gridView.cells = cells;
    this.gridView.pinned.clear();
    for (const c of cells) this.gridView.pinned.add(c.fileId);
    this.invalidateGrid();
  }

  holdGrid(held: boolean): void {
    this.loop.hold('grid', held);
  }

  invalidate(): void {
    this.loop.invalidate('preview');
  }
  invalidateGrid(): void {
    this.loop.invalidate('grid');
  }
  /** Reads back what the next frame draws on a canvas (tests and diagnostics; allocates, so only on request). */
  capture(which: 'preview' | 'grid'): Promise<CanvasCapture> {
    return this.loop.capture(which);
  }

  stats(): EngineStats {
    return engineStats({
      ...this.gpu,
      cache: this.cache,
      counters: this.counters,
      screen: this.screen,
      frames: this.frames,
      gridFrames: this.loop.gridFrames,
      losses: this.losses,
    });
  }

  /** Resolves once a device loss has been recovered from (immediately when none is under way). */
  async restored(): Promise<void> {
    while (this.restoring) await this.restoring;
  }

  private recover(reason: string): Promise<void> {
    this.losses.count++;
    this.losses.lastReason = reason;
    this.restoring = (async () => {
      // every texture died with the device: forget them, then build everything again on a new one
      this.cache.forgetAll();
      this.slots = null;
      this.screen.current = this.screen.reference = null;
      this.gpu.session.uploader.destroy();
      await this.open();
      if (this.canvases.preview) this.attachPreview(this.canvases.preview);
      if (this.canvases.grid) this.attachGrid(this.canvases.grid);
      this.restoring = null;
      this.onDeviceRestored?.();
    })();
    return this.restoring;
  }

  dispose(): void {
    this.disposed = true;
    this.loop.stop();
    this.cache.clear();
    this.slots?.destroy();
    const { session, preview, grid, pair } = this.gpu;
    grid.destroy();
    pair.destroy();
    preview.destroy();
    preview.release();
    grid.release();
    session.close();
  }
}
