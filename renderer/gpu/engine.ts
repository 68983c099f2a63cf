// The GPU engine: a plain class outside React that receives images and draws them, only when invalidated; a frame
// writes two small uniform blocks and encodes two passes, nothing else. It fetches nothing: whoever shows an image asks
// which planes the engine lacks (lacks) and hands them over with the show; after a device loss it says so
// (onDeviceRestored) and is handed everything again. The parts: the device and what is made on it (device-keeper,
// device-parts: session, preview and grid drawers, pair analysis), the canvases (attached-canvases), the texture cache,
// the image and reference put on screen, patched and forgotten (screen-layers, through layer-obtainer), what is drawn
// with (view-state), captures (frame-loop) and playback's ring (playback-ring).
import type { DecodedImage, FitWithin, Thumbnail } from '../host-client/api-types.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import { ViewState } from './view-state.js';
import type { LayerTexture } from '../../shaders/passes.js';
import type { ChannelStats, MetricsTotals, Region } from '../../shaders/compare-cpu.js';
import { layerKey, type LayerChoice } from '../model/layer-choice.js';
import type { PanZoom } from '../model/view-geometry.js';
import type { Timed } from './analysis.js';
import type { CompareView } from './compare-geometry.js';
import { engineStats } from './engine-stats.js';
import type { FrameSlots } from './frame-slots.js';
import { PlaybackRing } from './playback-ring.js';
import { FrameLoop } from './frame-loop.js';
import type { FrameStats } from './frame-stats.js';
import { DeviceKeeper, type DeviceParts } from './device-keeper.js';
import { buildDeviceParts } from './device-parts.js';
import { inShownLevel } from './shown-level.js';
import type { HdrSupport } from './hdr-output.js';
import type { CryptomatteView } from './cryptomatte-view.js';
import type { DeepRangeInput, DeepRangeView } from './deep-range-view.js';
import type { SheetTile } from './sheet-layout.js';
import type { HistogramSource } from './shown-histogram.js';
import { TextureCache } from './texture-cache.js';
import { RegionTexture } from './region-texture.js';
import { AttachedCanvases } from './attached-canvases.js';
import type { ViewEngine } from './view-engine.js';
import { ScreenLayers } from './screen-layers.js';
import {
  CompareCounters,
  layerOnScreen,
  type CanvasCapture,
  type EngineOptions,
  type EngineStats,
  type GridCell,
  type ImageKey,
  type OnScreen,
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

export class GpuEngine implements ViewEngine {
  private readonly keeper: DeviceKeeper;
  private readonly screen: OnScreen = { current: null, reference: null };
  private readonly counters = new CompareCounters();
  private readonly cache: TextureCache;
  private readonly views = new ViewState();
  private readonly layers: ScreenLayers;
  /** A deep image's depth-range composite in place of its flattened layer (null: none); also what it cost. */
  get deepRange(): DeepRangeInput {
    return this.views.deepRange;
  }
  /** The crop of level 0 drawn in place of a reduced level zoomed in past it (handed over with region.put). */
  readonly region = new RegionTexture(
    () => this.gpu.session,
    () => this.invalidate(),
  );
  private readonly canvases = new AttachedCanvases(
    () => this.gpu,
    (which) => this.loop.invalidate(which),
  );
  private readonly loop = new FrameLoop(() => (this.keeper.recovering ? null : this.gpu));
  /** The ring of textures a playing sequence goes through. */
  // the histogram follows playback: the counter runs one pass at a time and keeps only the newest request waiting
  private readonly ring = new PlaybackRing(
    this.screen,
    () => this.gpu.session,
    () => this.screenChanged(true),
  );
  onHistogram: ((bins: Uint32Array, source: HistogramSource) => void) | null = null;
  /** After a device loss, on the new device: nothing is cached; show the image and reference again, put the thumbnails again. */
  onDeviceRestored: (() => void) | null = null;
  /** One line on the GPU: a device loss recovered from (or not), an error no scope caught. */
  onGpuNotice: ((message: string) => void) | null = null;
  /** After every show(): the Environment view follows the image and layer on screen. */
  onShown: (() => void) | null = null;

  private constructor(options: EngineOptions) {
    this.cache = new TextureCache(options.budgetBytes ?? 1536 << 20, this.screen, this.counters);
    this.keeper = new DeviceKeeper(options, {
      build: (session) =>
        buildDeviceParts(session, {
          views: this.views,
          screen: this.screen,
          counters: this.counters,
          region: this.region,
          onHistogram: (bins, source) => this.onHistogram?.(bins, source),
        }),
      lost: () => this.layers.forgetDevice(),
      reattach: () => this.canvases.reattach(),
      restored: () => this.onDeviceRestored?.(),
      notice: (message) => this.onGpuNotice?.(message),
    });
    this.layers = new ScreenLayers({
      screen: this.screen,
      keeper: this.keeper,
      cache: this.cache,
      region: this.region,
      ring: this.ring,
      session: () => (this.keeper.recovering ? null : this.gpu.session),
      changed: (contentChanged) => this.screenChanged(contentChanged),
      nextFrame: (t0) => this.loop.nextFrame(t0),
      shown: () => this.onShown?.(),
    });
  }

  static async create(options: EngineOptions = {}): Promise<GpuEngine> {
    const e = new GpuEngine(options);
    await e.keeper.open();
    return e;
  }

  private get gpu(): DeviceParts {
    return this.keeper.parts;
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
    this.canvases.attachPreview(canvas);
  }
  attachGrid(canvas: HTMLCanvasElement): void {
    this.canvases.attachGrid(canvas);
  }
  detachPreview(): void {
    this.canvases.detachPreview();
  }
  detachGrid(): void {
    this.canvases.detachGrid();
  }

  /** Whether HDR output can be had here, and why not; probed once per device. */
  hdrSupport(): HdrSupport {
    return this.gpu.session.hdrSupport();
  }

  setDisplay(p: DisplayParams): void {
    if (this.views.setDisplay(p, this.hdrSupport().available)) this.gpu.preview.configure();
    this.gpu.session.kit.setLut(p.lut?.lut ?? null); // uploads only when the LUT itself changed
    this.gpu.session.kit.setOcio(gpuProcessorFor(p.ocio)); // builds and uploads only when the processor changed
    this.counters.sinceLoad.display++;
    this.invalidate();
    this.invalidateGrid();
  }

  setPanZoom(v: PanZoom): void {
    this.views.preview.panZoom = v;
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
  show(key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null): Promise<ShowReport> {
    return this.layers.show(key, choice, fetched);
  }

  /** Draws no image until the next show(): what failed to show, or a new folder, never stands over the image before. */
  clearImage(): void {
    this.layers.clearImage();
  }

  /** The compare modes' reference (null: none), made like show()'s layer, then pinned until another replaces it. */
  setReference(key: ImageKey | null, choice: LayerChoice | null, fetched: DecodedImage | null = null): Promise<ShowReport | null> {
    return this.layers.setReference(key, choice, fetched);
  }

  /** A layer's MIP chain made ready in the cache without showing it (the Layers view); null if the engine went away. */
  prepareLayer(key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null): Promise<LayerTexture | null> {
    return this.layers.prepareLayer(key, choice, fetched);
  }

  /** The largest image shown whole (this device's texture limit, the cache's budget): larger ones are fetched reduced. */
  fitWithin(): FitWithin {
    return this.layers.obtainer.fitWithin();
  }

  /** Mode, flip, wipe, colormap and range of the compare pass (null: the plain preview). Draws; loads nothing. */
  setCompareView(v: CompareView | null): void {
    if (!this.views.setCompareView(v)) return;
    this.counters.sinceLoad.view++;
    this.screenChanged();
  }

  /** The Cryptomatte view over the shown layer (see cryptomatte-view.ts); null ends it. Draws; loads nothing. */
  setCryptomatte(view: CryptomatteView | null): void {
    if (this.views.setCryptomatte(view)) this.invalidate();
  }

  /** The depth-range composite of the deep image on screen (see deep-range-view.ts); null ends it. Draws; loads nothing. */
  setDeepRange(view: DeepRangeView | null): void {
    if (this.views.setDeepRange(view)) this.invalidate();
  }

  /** The Layers view: these layers in these tiles (device px) instead of the preview; empty lists end it. */
  setSheet(layers: readonly LayerTexture[], tiles: readonly SheetTile[]): void {
    this.gpu.preview.sheet.set(layers, tiles);
    this.invalidate();
  }

  /** Comparison metrics of the shown layer against the reference over `region` (A's pixel space); null without both. */
  metrics(region: Region, threshold: number): Promise<Timed<MetricsTotals> | null> {
    return this.gpu.pair.metrics(inShownLevel(this.screen, region), threshold);
  }
  /** Statistics of the shown layer (0), the reference (1) or a difference image (2 + metric) over `region`. */
  statistics(region: Region, valueMode: number): Promise<Timed<ChannelStats[]> | null> {
    const crop = valueMode === 0 && this.screen.current ? this.region.holding(this.screen.current, region) : null;
    if (crop) return this.gpu.pair.statisticsOf(crop, region);
    return this.gpu.pair.statistics(inShownLevel(this.screen, region), valueMode);
  }

  /** What is on screen changed (its pixels too: `contentChanged`): the histogram counts it again, a frame is drawn. */
  private screenChanged(contentChanged = false): void {
    this.gpu.pair.refreshHistogram(this.views.preview.compareView, contentChanged);
    this.invalidate();
  }

  /** A live image's updated crop into the layer on screen (false: not held as it needs, show it again). */
  updateRegion(key: ImageKey, choice: LayerChoice, patch: DecodedImage): boolean {
    return this.layers.updateRegion(key, choice, patch);
  }

  /** The file changed on disk: its textures go (a show uploads it again). */
  forgetFile(fileId: string): void {
    this.layers.forgetFile(fileId);
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
  currentLayer(): ReturnType<typeof layerOnScreen> {
    return layerOnScreen(this.screen);
  }

  /** The playback ring of `count` slots (see playback-ring.ts). */
  frameSlots(count: number): FrameSlots {
    return this.ring.ring(count);
  }

  /** Shows what playback slot `slot` holds, with the display settings of any image (exposure, tone-map, pan and zoom). */
  presentSlot(slot: number, key: ImageKey, choice: LayerChoice): boolean {
    return this.ring.present(slot, key, choice);
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
    this.views.setGridCells(cells);
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
      refusals: this.layers.obtainer.refusals,
      cache: this.cache,
      counters: this.counters,
      screen: this.screen,
      frames: this.frames,
      gridFrames: this.loop.gridFrames,
      losses: this.keeper.losses,
    });
  }

  /** Resolves once a device loss has been recovered from (immediately when none is under way). */
  restored(): Promise<void> {
    return this.keeper.restored();
  }

  dispose(): void {
    this.loop.stop();
    this.cache.clear();
    this.ring.destroy();
    this.keeper.dispose();
  }
}
