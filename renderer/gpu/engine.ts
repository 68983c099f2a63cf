// The GPU engine: a plain class outside React that owns the device, the texture caches and the frame loop.
// It draws only when invalidated; a frame writes two small uniform blocks and encodes two passes, nothing else.
// Images go up through a ring of mapped staging buffers (renderer/gpu/upload.ts); the preview is tone-mapped by a
// compute pass straight into the canvas texture where the canvas format allows storage writes, else by a render pass.
import type { DecodedImage, Thumbnail } from '../host-client/api-types.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../../shaders/display-params.js';
import { HDR_CANVAS_FORMAT, hdrCanvasConfiguration, mediaIsHdr, probeHdrSupport, type HdrSupport } from './hdr-output.js';
import { GRID_CELL_BYTES, GRID_VIEW_BYTES, PREVIEW_VIEW_BYTES, UniformBlock, packGridView, packPreviewView } from '../../shaders/layouts.js';
import { DummyPlanes, encodePreviewCompute, type LayerTexture } from '../../shaders/passes.js';
import { ShaderKit, STORAGE_TARGET_FORMATS } from '../../shaders/pipelines.js';
import { requestGpuDevice, type GpuDeviceInfo } from './device.js';
import { FrameSlots } from './frame-slots.js';
import { FrameStats } from './frame-stats.js';
import { CachedTexture, GpuImage } from './gpu-image.js';
import { layerKey, planesOf, type LayerChoice } from '../model/layer-choice.js';
import { GpuTimer } from './gpu-timer.js';
import { ShownHistogram, type HistogramSource } from './shown-histogram.js';
import { ByteLru, type CacheCounters } from './lru.js';
import { ThumbAtlas } from './thumb-atlas.js';
import { createPlaneUploader, type PlaneUploader, type UploadedPlane } from './upload.js';
import { emptyGeometry, previewGeometry, type PanZoom } from '../model/view-geometry.js';
import { ComparePreview } from './compare-preview.js';
import { LayerSheet } from './layer-sheet.js';
import type { SheetTile } from './sheet-layout.js';
import { Analysis, type Timed } from './analysis.js';
import { alignedDataRegion, compareGeometry, type CompareView } from './compare-geometry.js';
import type { ChannelStats, MetricsTotals, Region } from '../../shaders/compare-cpu.js';
import type { ReducePlacement } from '../../shaders/compare-layouts.js';

export interface ImageKey { fileId: string; part: number }
export const imageKeyString = (k: ImageKey): string => `${k.fileId}#${k.part}`;

/** Where the engine gets pixels again (first show, and after a device loss): the host, whose RAM cache makes it cheap. */
export interface TextureSource {
  /** The planes of `channels` of the image (what the shown layer reads and the GPU does not hold). */
  loadImage(key: ImageKey, channels: string[]): Promise<DecodedImage>;
  loadThumbnail(fileId: string): Promise<Thumbnail>;
}

export interface ShowReport {
  key: string;
  /** 'gpu-cache': nothing was loaded or uploaded; 'uploaded': planes went to the GPU. */
  source: 'gpu-cache' | 'uploaded';
  /** The planes fetched and uploaded for this show: only those the layer reads that the GPU did not hold. */
  planesUploaded: string[];
  uploadBytes: number;
  /** 'staging ring' or 'writeTexture' (the fallback); '' when nothing was uploaded. */
  uploadPath: string;
  /** CPU time of the upload call: texture creation, the copy into staging memory, encode, submit. */
  uploadCallMs: number;
  /** Of uploadCallMs: writing pixels into mapped staging memory (NaN on writeTexture), and waiting for a free staging buffer. */
  uploadCpuCopyMs: number;
  uploadWaitMs: number;
  /** Upload call → its copies completed on the GPU (onSubmittedWorkDone asked right after the upload's submission,
   *  before the layer build's, measured off the frame loop); NaN until known. */
  uploadWallMs: number;
  /** uploadBytes / uploadWallMs; NaN until known. */
  uploadGBps: number;
  layerBuilt: boolean;
  /** show() call → the frame that shows it submitted. */
  showMs: number;
  decoded: DecodedImage | null;
}

/** Pixels of a canvas as drawn, from a copy of its texture (requested, never part of a normal frame). */
export interface CanvasCapture { widthPx: number; heightPx: number; format: GPUTextureFormat; bytesPerRow: number; data: Uint8Array }

export interface GridCell { fileId: string; xPx: number; yPx: number; widthPx: number; heightPx: number }

export type ToneMapPath = 'compute' | 'render pass';

/** The last image upload's figures (see ShowReport); NaN before the first. */
export interface UploadFigures { path: string; bytes: number; callMs: number; cpuCopyMs: number; waitMs: number; wallMs: number; GBps: number; submits: number }

export interface EngineStats {
  path: 'gpu';
  adapter: string;
  features: string[];
  timestamps: string;
  uploader: string;
  lastUpload: UploadFigures;
  /** How the preview is tone-mapped on this device, and why (chosen once per device). */
  toneMapPath: ToneMapPath;
  toneMapPathReason: string;
  imageUploads: number;
  imageUploadBytes: number;
  thumbUploads: number;
  thumbUploadBytes: number;
  cache: CacheCounters;
  /** Of the cache's entries: planes, and layers' MIP chains. */
  cachedPlanes: number;
  cachedLayers: number;
  atlas: { thumbnails: number; evictions: number; bytes: number };
  mipGpuMs: number;
  toneMapGpuMs: number;
  frames: number;
  deviceLosses: number;
  lastLossReason: string;
  compare: CompareFigures;
}

/** What comparing costs: proof that a mode or exposure change loads and uploads nothing. */
export interface CompareFigures {
  /** The reference's image key and layer, its layer texture pinned in the GPU cache; null when none. */
  reference: string | null;
  referencePinned: boolean;
  /** Planes asked of the host (decodes or RAM-cache fetches) and uploaded, since the engine started. */
  sourceLoads: number;
  /** Plane uploads since the engine started (the same count as EngineStats.imageUploads). */
  uploads: number;
  /**
   * Since the last load or upload: compare-view changes (mode, flip, wipe, colormap, range), display changes
   * (exposure, gamma, tone-map, channel) and frames drawn by the compare pass. Counts that grow while the load and
   * upload counts stand still are the proof that those changes cost no decode and no upload.
   */
  viewChangesSinceLoad: number;
  displayChangesSinceLoad: number;
  compareFramesSinceLoad: number;
  /** Frames drawn by the compare pass in all; pair bind groups made (one per change of A or B). */
  compareFrames: number;
  pairGroups: number;
  /** Metrics and statistics reductions run, and the GPU time of the last (difference + reduction passes). */
  reductions: number;
  reduceGpuMs: number;
}

interface Shown { key: ImageKey; keyString: string; choice: LayerChoice; image: GpuImage; layer: LayerTexture }

export interface EngineOptions {
  budgetBytes?: number;
  /** 'writeTexture' forces the fallback uploader (baseline measurements, tests). */
  uploader?: 'auto' | 'writeTexture';
  /** 'render pass' forces the fragment tone-map; 'compute' asks for the compute one (still refused where the format cannot). */
  toneMapPath?: 'auto' | ToneMapPath;
  /** The canvas format; default navigator.gpu.getPreferredCanvasFormat(). */
  canvasFormat?: GPUTextureFormat;
  /** Tests: what matchMedia('(dynamic-range: high)') is taken to say (default: ask it). */
  assumeHdrMedia?: boolean;
}

/**
 * Which tone-map path a canvas format allows on a device. Compute wherever the canvas texture can be a storage
 * texture: measured on an H100 (bench/gpu/NOTES.md) the same toneMapPixel takes 0.096 ms at 4K in a compute pass and
 * 3.27 ms as the preview's fragment pass. rgba8unorm takes storage writes in core WebGPU; bgra8unorm (the preferred
 * canvas format on most desktops) only with the 'bgra8unorm-storage' feature.
 */
export function chooseToneMapPath(format: GPUTextureFormat, features: ReadonlySet<string>, want: 'auto' | ToneMapPath = 'auto'): { path: ToneMapPath; reason: string } {
  if (want === 'render pass') return { path: 'render pass', reason: 'render pass asked for' };
  if (format === 'bgra8unorm' && !features.has('bgra8unorm-storage')) return { path: 'render pass', reason: "the canvas format bgra8unorm needs the 'bgra8unorm-storage' feature for storage writes, and the device has none" };
  if (!STORAGE_TARGET_FORMATS.includes(format)) return { path: 'render pass', reason: `the canvas format ${format} cannot be a storage texture` };
  const why = format === 'bgra8unorm' ? "canvas bgra8unorm with 'bgra8unorm-storage'" : `canvas ${format} takes storage writes`;
  return { path: 'compute', reason: `${why}: tone-map in a compute pass straight into the canvas texture (H100: 0.096 ms vs 3.27 ms as a render pass at 4K)` };
}

const MAX_CELLS = 4096;
const BACKGROUND = 0.12;

export class GpuEngine {
  private info!: GpuDeviceInfo;
  private kit!: ShaderKit;
  private dummies!: DummyPlanes;
  private atlas!: ThumbAtlas;
  private shownHistogram!: ShownHistogram;
  private mipTimer: GpuTimer | null = null;
  private toneTimer: GpuTimer | null = null;
  private previewBuffer!: GPUBuffer;
  private gridBuffer!: GPUBuffer;
  private cellBuffer!: GPUBuffer;
  private previewGroup!: GPUBindGroup;
  private gridGroup!: GPUBindGroup;
  private atlasGroup!: GPUBindGroup;
  /** Planes and layers' MIP chains, one entry each (`image#p:name`, `image#l:layer`), under one VRAM budget. */
  private readonly cache: ByteLru<CachedTexture>;
  private readonly images = new Map<string, GpuImage>();
  private readonly previewBlock = new UniformBlock(PREVIEW_VIEW_BYTES);
  private readonly gridBlock = new UniformBlock(GRID_VIEW_BYTES);
  private readonly cellData = new Float32Array(MAX_CELLS * GRID_CELL_BYTES / 4);
  private readonly geometry = emptyGeometry();
  private previewCanvas: HTMLCanvasElement | OffscreenCanvas | null = null;
  private previewContext: GPUCanvasContext | null = null;
  private gridCanvas: HTMLCanvasElement | null = null;
  private gridContext: GPUCanvasContext | null = null;
  private format: GPUTextureFormat = 'bgra8unorm';
  private uploader!: PlaneUploader;
  private toneMap: { path: ToneMapPath; reason: string } = { path: 'render pass', reason: 'not chosen yet' };
  private lastUpload: UploadFigures = { path: '', bytes: 0, callMs: NaN, cpuCopyMs: NaN, waitMs: NaN, wallMs: NaN, GBps: NaN, submits: 0 };
  private display: DisplayParams = { ...DEFAULT_DISPLAY };
  /** The grid canvas stays 8-bit SDR: it gets the display without its HDR part. */
  private gridDisplay: DisplayParams = { ...DEFAULT_DISPLAY };
  /** The preview canvas is the extended-range rgba16float one while the display asks for HDR and the probe allowed it. */
  private hdrCanvas = false;
  private hdr: HdrSupport | null = null;
  private panZoom: PanZoom = { zoom: 1, centerX: 0, centerY: 0 };
  private current: Shown | null = null;
  /** The reference of the compare modes: its layer stays in the cache (pinned) while it is the reference. */
  private reference: Shown | null = null;
  private compareView: CompareView | null = null;
  private comparePreview!: ComparePreview;
  private sheet!: LayerSheet;
  private analysis!: Analysis;
  private compareFrames = 0;
  /** Changes and compare frames since the last load or upload (see CompareFigures). */
  private sinceLoad = { view: 0, display: 0, frames: 0 };
  sourceLoads = 0;
  private cells: GridCell[] = [];
  private cellCount = 0;
  private readonly pinned = new Set<string>();
  private rafId = 0;
  private previewDirty = false;
  private gridDirty = false;
  private pendingShows: { t0: number; resolve: (ms: number) => void }[] = [];
  private captures: { which: 'preview' | 'grid'; resolve: (c: CanvasCapture) => void; reject: (e: unknown) => void }[] = [];
  private frameTextures: { preview: GPUTexture | null; grid: GPUTexture | null } = { preview: null, grid: null };
  private disposed = false;
  /** The ring of textures a playing sequence goes through (made on the first playback, kept while frames keep their size). */
  private slots: FrameSlots | null = null;
  private restoring: Promise<void> | null = null;
  readonly frames = new FrameStats();
  imageUploads = 0;
  imageUploadBytes = 0;
  deviceLosses = 0;
  lastLossReason = '';
  onHistogram: ((bins: Uint32Array, source: HistogramSource) => void) | null = null;
  onDeviceRestored: (() => void) | null = null;
  /** After every show(): the Environment view follows the image and layer on screen. */
  onShown: (() => void) | null = null;

  private constructor(private readonly source: TextureSource, private readonly options: EngineOptions) {
    this.cache = new ByteLru<CachedTexture>(options.budgetBytes ?? 1536 << 20);
  }

  static async create(source: TextureSource, options: EngineOptions = {}): Promise<GpuEngine> {
    const e = new GpuEngine(source, options);
    await e.init();
    return e;
  }

  private async init(): Promise<void> {
    this.info = await requestGpuDevice();
    const device = this.info.device;
    this.format = this.options.canvasFormat ?? navigator.gpu.getPreferredCanvasFormat();
    this.kit = new ShaderKit(device);
    this.uploader = await createPlaneUploader(device, this.options.uploader === 'writeTexture' ? { force: 'writeTexture' } : {});
    this.toneMap = await this.probeToneMapPath(device);
    this.dummies = new DummyPlanes(device);
    this.atlas = new ThumbAtlas(device);
    this.comparePreview = new ComparePreview(this.kit);
    this.shownHistogram = new ShownHistogram(this.comparePreview.ck, (bins, source) => this.onHistogram?.(bins, source));
    this.sheet = new LayerSheet(this.kit);
    this.comparePreview.warm(this.format, this.toneMap.path === 'compute');
    this.analysis = new Analysis(this.comparePreview.ck, this.info.hasTimestamps);
    this.mipTimer = this.info.hasTimestamps ? new GpuTimer(device, 'mip') : null;
    this.toneTimer = this.info.hasTimestamps ? new GpuTimer(device, 'tonemap') : null;
    this.previewBuffer = device.createBuffer({ label: 'preview view', size: PREVIEW_VIEW_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.gridBuffer = device.createBuffer({ label: 'grid view', size: GRID_VIEW_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.cellBuffer = device.createBuffer({ label: 'grid cells', size: this.cellData.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.previewGroup = device.createBindGroup({ layout: this.kit.previewViewLayout, entries: [{ binding: 0, resource: { buffer: this.previewBuffer } }] });
    this.gridGroup = device.createBindGroup({ layout: this.kit.gridViewLayout, entries: [
      { binding: 0, resource: { buffer: this.gridBuffer } }, { binding: 1, resource: { buffer: this.cellBuffer } },
    ] });
    this.atlasGroup = device.createBindGroup({ layout: this.kit.imageLayout, entries: [{ binding: 0, resource: this.atlas.texture.createView() }] });
    // warm the pipelines so the first frame does not compile
    if (this.toneMap.path === 'render pass') this.kit.preview(this.format);
    this.kit.grid(this.format); this.kit.mip(); this.kit.assemble();
    device.lost.then((info) => { if (!this.disposed && this.info.device === device) void this.recover(`${info.reason}: ${info.message}`); });
  }

  /** chooseToneMapPath, then the compute pipeline built once inside an error scope: any refusal falls back to the render pass. */
  private async probeToneMapPath(device: GPUDevice): Promise<{ path: ToneMapPath; reason: string }> {
    const choice = chooseToneMapPath(this.format, device.features as ReadonlySet<string>, this.options.toneMapPath);
    if (choice.path !== 'compute') return choice;
    device.pushErrorScope('validation');
    let thrown = '';
    let probe: GPUTexture | null = null;
    try {
      this.kit.previewCompute(this.format);
      probe = device.createTexture({ label: 'storage probe', size: [1, 1], format: this.format, usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
      device.createBindGroup({ layout: this.kit.previewTargetLayout(this.format), entries: [{ binding: 0, resource: probe.createView() }] });
    } catch (e) {
      thrown = e instanceof Error ? e.message : String(e);
    }
    const error = await device.popErrorScope();
    probe?.destroy();
    if (thrown || error) return { path: 'render pass', reason: `the compute tone-map was refused on this device (${thrown || error!.message})` };
    return choice;
  }

  get device(): GPUDevice { return this.info.device; }
  get canvasFormat(): GPUTextureFormat { return this.format; }

  attachPreview(canvas: HTMLCanvasElement | OffscreenCanvas): void {
    this.previewCanvas = canvas;
    this.previewContext = canvas.getContext('webgpu') as GPUCanvasContext;
    // STORAGE_BINDING: the compute tone-map writes the canvas texture itself; RENDER_ATTACHMENT stays for the clear
    // when no image is shown (and the render-pass path); COPY_SRC for capture()
    this.configurePreview();
  }

  /** SDR: the preferred format, compute or render pass as probed; HDR: rgba16float, extended, always the render pass. */
  private configurePreview(): void {
    if (!this.previewContext) return;
    if (this.hdrCanvas) {
      this.previewContext.configure(hdrCanvasConfiguration(this.device, GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC));
    } else {
      const storage = this.toneMap.path === 'compute' ? GPUTextureUsage.STORAGE_BINDING : 0;
      this.previewContext.configure({ device: this.device, format: this.format, alphaMode: 'opaque', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | storage });
    }
    this.invalidate();
  }

  /** Whether HDR output can be had here, and why not; probed once per device on a scratch canvas. */
  hdrSupport(): HdrSupport {
    if (!this.hdr) {
      const scratch = typeof OffscreenCanvas === 'function' ? (new OffscreenCanvas(1, 1).getContext('webgpu') as GPUCanvasContext | null) : null;
      this.hdr = probeHdrSupport(this.device, scratch, this.options.assumeHdrMedia ?? mediaIsHdr());
    }
    return this.hdr;
  }

  /** The layer on screen as cached (rgba32float, level 0 = the data window): the Environment view draws from it. */
  currentLayer(): { key: string; texture: GPUTexture; widthPx: number; heightPx: number } | null {
    const cur = this.current;
    return cur ? { key: `${cur.keyString}#${layerKey(cur.choice)}`, texture: cur.layer.texture, widthPx: cur.layer.widthPx, heightPx: cur.layer.heightPx } : null;
  }

  /** The preview canvas's format now (rgba16float while HDR output is on). */
  get previewFormat(): GPUTextureFormat { return this.hdrCanvas ? HDR_CANVAS_FORMAT : this.format; }

  attachGrid(canvas: HTMLCanvasElement): void {
    this.gridCanvas = canvas;
    this.gridContext = canvas.getContext('webgpu') as GPUCanvasContext;
    this.gridContext.configure({ device: this.device, format: this.format, alphaMode: 'opaque', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
    this.invalidateGrid();
  }

  detachGrid(): void { this.gridContext?.unconfigure(); this.gridContext = null; this.gridCanvas = null; }
  detachPreview(): void { this.previewContext?.unconfigure(); this.previewContext = null; this.previewCanvas = null; }

  setDisplay(p: DisplayParams): void {
    const wantsHdr = !!p.hdr && this.hdrSupport().available;
    this.display = wantsHdr || !p.hdr ? p : { ...p, hdr: null };
    this.gridDisplay = p.hdr ? { ...p, hdr: null } : p;
    if (wantsHdr !== this.hdrCanvas) { this.hdrCanvas = wantsHdr; this.configurePreview(); }
    this.kit.setLut(p.lut?.lut ?? null); // uploads only when the LUT itself changed
    this.sinceLoad.display++;
    this.invalidate();
    this.invalidateGrid();
  }

  setPanZoom(v: PanZoom): void {
    this.panZoom = v;
    this.invalidate();
  }

  /**
   * Shows a layer of an image: its MIP chain from the GPU cache when there; else built from its planes, of which only
   * those the GPU does not hold are loaded from the source and uploaded.
   */
  async show(key: ImageKey, choice: LayerChoice): Promise<ShowReport> {
    const t0 = performance.now();
    const report = emptyReport(imageKeyString(key));
    const shown = await this.obtainLayer(key, choice, report);
    if (!shown) return report;
    this.current = shown;
    this.refreshHistogram();
    this.invalidate();
    this.onShown?.();
    report.showMs = await new Promise<number>((resolve) => this.pendingShows.push({ t0, resolve }));
    return report;
  }

  /**
   * Makes a layer of an image the reference of the compare modes (null: none): built like show() from the cache or
   * the planes the GPU lacks, then pinned in the cache until another reference replaces it.
   */
  async setReference(key: ImageKey | null, choice: LayerChoice | null): Promise<ShowReport | null> {
    if (!key || !choice) { this.reference = null; this.refreshHistogram(); this.invalidate(); return null; }
    const report = emptyReport(imageKeyString(key));
    const t0 = performance.now();
    const shown = await this.obtainLayer(key, choice, report);
    if (!shown) return report;
    this.reference = shown;
    this.refreshHistogram();
    this.invalidate();
    report.showMs = performance.now() - t0;
    return report;
  }

  /** Mode, flip, wipe, colormap and range of the compare pass (null: the plain preview). Draws; loads nothing. */
  setCompareView(v: CompareView | null): void {
    if (v && this.compareView && JSON.stringify(v) === JSON.stringify(this.compareView)) return;
    this.compareView = v;
    this.refreshHistogram();
    this.sinceLoad.view++;
    this.invalidate();
  }

  /** A layer's MIP chain made ready in the cache without showing it (the Layers view); null if the engine went away. */
  async prepareLayer(key: ImageKey, choice: LayerChoice): Promise<LayerTexture | null> {
    const shown = await this.obtainLayer(key, choice, emptyReport(imageKeyString(key)));
    return shown?.layer ?? null;
  }

  /** The Layers view: these layers in these tiles (device px) instead of the preview; empty lists end it. */
  setSheet(layers: readonly LayerTexture[], tiles: readonly SheetTile[]): void {
    this.sheet.set(layers, tiles);
    this.invalidate();
  }

  /** B's placement in A's pixel space for the reductions (A the shown layer; B the reference, or A itself). */
  private placement(): { a: Shown; b: Shown; at: ReducePlacement } | null {
    const a = this.current;
    if (!a) return null;
    const b = this.reference ?? a;
    const dw = a.image.dataWindow;
    const br = alignedDataRegion({ dataWindow: a.image.dataWindow, displayWindow: a.image.displayWindow, levelCount: 1 }, { dataWindow: b.image.dataWindow, displayWindow: b.image.displayWindow, levelCount: 1 });
    return { a, b, at: { aX0: dw[0], aY0: dw[1], aWidthPx: a.image.widthPx, aHeightPx: a.image.heightPx, bX0: br.x0, bY0: br.y0, bWidthPx: br.widthPx, bHeightPx: br.heightPx } };
  }

  /** Comparison metrics of the shown layer against the reference over `region` (A's pixel space); null without both. */
  async metrics(region: Region, threshold: number): Promise<Timed<MetricsTotals> | null> {
    const p = this.placement();
    if (!p || !this.reference) return null;
    return this.analysis.metrics(p.a.layer.texture, p.b.layer.texture, region, p.at, threshold);
  }

  /** Statistics of the shown layer (0), the reference (1) or a difference image (2 + metric) over `region`. */
  async statistics(region: Region, valueMode: number): Promise<Timed<ChannelStats[]> | null> {
    const p = this.placement();
    if (!p) return null;
    return this.analysis.stats(p.a.layer.texture, p.b.layer.texture, region, p.at, valueMode);
  }

  /** The file changed on disk: its textures go (a show loads it again). */
  forgetFile(fileId: string): void {
    for (const k of this.cache.keys()) if (k.startsWith(`${fileId}#`)) this.cache.delete(k);
    for (const k of [...this.images.keys()]) if (k.startsWith(`${fileId}#`) && this.current?.keyString !== k && this.reference?.keyString !== k) this.images.delete(k);
  }

  private async obtainLayer(key: ImageKey, choice: LayerChoice, report: ShowReport): Promise<Shown | null> {
    const keyString = imageKeyString(key);
    const layerEntry = `${keyString}#l:${layerKey(choice)}`;
    const needed = planesOf(choice);
    let image = this.images.get(keyString);
    let layer = image && this.cache.get(layerEntry) ? image.layers.get(layerKey(choice)) : undefined;
    if (!layer) {
      const missing = image ? image.missing(needed) : needed;
      if (missing.length > 0) {
        const decoded = await this.source.loadImage(key, missing);
        this.sourceLoads++;
        this.sinceLoad = { view: 0, display: 0, frames: 0 };
        if (this.disposed) return null;
        const device = this.device;
        let up: Awaited<ReturnType<PlaneUploader['uploadImage']>>;
        const tUp = performance.now();
        try {
          up = await this.uploader.uploadImage(decoded.planes.filter((p) => missing.includes(p.name)));
        } catch (e) {
          // the device was lost under the upload: the engine's recovery makes a new one; show the image on that
          if (this.disposed || !(e instanceof Error && e.name === 'GpuDeviceLostError')) throw e;
          await device.lost;
          await this.restored();
          return this.obtainLayer(key, choice, report);
        }
        if (this.disposed || this.info.device !== device) { for (const p of up.planes) p.texture.destroy(); return null; }
        image = this.images.get(keyString) ?? new GpuImage(decoded);
        this.images.set(keyString, image);
        // the planes this layer is about to be built from stay, whatever the budget
        const keep = this.onScreen(keyString, layerEntry, needed);
        for (const p of up.planes) this.cachePlane(keyString, image, p, keep);
        this.imageUploads += up.planes.length;
        this.sinceLoad = { view: 0, display: 0, frames: 0 };
        this.imageUploadBytes += up.bytes;
        Object.assign(report, {
          source: 'uploaded', planesUploaded: up.planes.map((p) => p.name), uploadBytes: up.bytes, uploadPath: this.uploader.path,
          uploadCallMs: up.callMs, uploadCpuCopyMs: up.cpuCopyMs, uploadWaitMs: up.waitMs, decoded,
        });
        const figures: UploadFigures = { path: this.uploader.path, bytes: up.bytes, callMs: up.callMs, cpuCopyMs: up.cpuCopyMs, waitMs: up.waitMs, wallMs: NaN, GBps: NaN, submits: up.submits };
        this.lastUpload = figures;
        // asked before the layer build is submitted: resolves when the copies (and earlier work) are done, not the build
        void device.queue.onSubmittedWorkDone().then(() => {
          report.uploadWallMs = figures.wallMs = performance.now() - tUp;
          report.uploadGBps = figures.GBps = up.bytes / 1e9 / (figures.wallMs / 1e3);
        });
      }
      const target = image!;
      // the planes this layer reads are in use again
      for (const name of needed) this.cache.get(`${keyString}#p:${name}`);
      layer = target.buildLayer(this.kit, this.dummies, choice, this.mipTimer);
      const built = layer;
      this.cache.set(layerEntry, new CachedTexture(built.texture, built.bytes, () => this.forgetTexture(keyString, (img) => img.layers.delete(layerKey(choice)))), this.onScreen(keyString, layerEntry, needed));
      report.layerBuilt = true;
    }
    return { key, keyString, choice, image: image!, layer };
  }

  shownFileId(): string | null { return this.current?.key.fileId ?? null; }

  /**
   * The histogram of what the preview shows now, counted only when that changed; `contentChanged`: the shown texture
   * holds other pixels than when last counted (a playback slot written again).
   */
  private refreshHistogram(contentChanged = false): void {
    const p = this.placement();
    if (p) this.shownHistogram.update(p.a.layer.texture, this.reference?.layer.texture ?? null, this.compareView, p.at, contentChanged);
  }

  /**
   * The playback ring of `count` slots (see frame-slots.ts): a new ring when the count changes. Slot textures live
   * beside the image cache, not in it: the ring is small, fixed, and written again for every frame.
   */
  frameSlots(count: number): FrameSlots {
    if (this.slots && this.slots.count === count && this.slots.device === this.device) return this.slots;
    if (this.current && this.slots && this.current.keyString.startsWith('slot:')) this.current = null;
    this.slots?.destroy();
    this.slots = new FrameSlots({ device: this.device, kit: this.kit, dummies: this.dummies, uploader: this.uploader, buildTimer: this.info.hasTimestamps ? new GpuTimer(this.device, 'frame build') : null }, count);
    return this.slots;
  }

  /** Shows what playback slot `slot` holds, with the display settings of any image (exposure, tone-map, pan and zoom). */
  presentSlot(slot: number, key: ImageKey, choice: LayerChoice): boolean {
    const f = this.slots?.frame(slot);
    if (!f) return false;
    this.current = { key, keyString: `slot:${slot}:${imageKeyString(key)}`, choice, image: f.image, layer: f.layer };
    // the histogram follows playback: the counter runs one pass at a time and keeps only the newest request waiting
    this.refreshHistogram(true);
    this.invalidate();
    return true;
  }

  private cachePlane(keyString: string, image: GpuImage, plane: UploadedPlane, keep: ReadonlySet<string>): void {
    image.planes.set(plane.name, plane);
    this.cache.set(`${keyString}#p:${plane.name}`, new CachedTexture(plane.texture, plane.bytes, () => this.forgetTexture(keyString, (img) => img.planes.delete(plane.name))), keep);
  }

  /** An evicted texture leaves its image; an image with no textures left is forgotten. */
  private forgetTexture(keyString: string, remove: (image: GpuImage) => void): void {
    const image = this.images.get(keyString);
    if (!image) return;
    remove(image);
    if (image.empty && this.current?.keyString !== keyString && this.reference?.keyString !== keyString) this.images.delete(keyString);
  }

  /** Cache entries the screen uses now, and the reference's layer: never evicted. */
  private onScreen(keyString: string, layerEntry: string, planes: readonly string[]): Set<string> {
    const keep = new Set([layerEntry, ...planes.map((n) => `${keyString}#p:${n}`)]);
    for (const s of [this.current, this.reference]) if (s) keep.add(`${s.keyString}#l:${layerKey(s.choice)}`);
    return keep;
  }

  /** Whether the image's current layer is on the GPU (no counting, no reordering). */
  isCached(key: ImageKey): boolean {
    const image = this.images.get(imageKeyString(key));
    return !!image && image.layers.size > 0;
  }

  currentLayerKey(): string | null {
    return this.current ? layerKey(this.current.choice) : null;
  }

  putThumbnail(fileId: string, t: Thumbnail): void {
    this.atlas.put(fileId, t, this.pinned);
    this.invalidateGrid();
  }

  hasThumbnail(fileId: string): boolean {
    return this.atlas.has(fileId);
  }

  /** The visible grid cells, in grid-canvas device px; drawn in one instanced pass. */
  setGridCells(cells: GridCell[]): void {
    this.cells = cells;
    this.pinned.clear();
    for (const c of cells) this.pinned.add(c.fileId);
    this.invalidateGrid();
  }

  invalidate(): void {
    this.previewDirty = true;
    this.schedule();
  }

  invalidateGrid(): void {
    this.gridDirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.rafId || this.disposed) return;
    this.rafId = requestAnimationFrame(() => this.frame());
  }

  private frame(): void {
    this.rafId = 0;
    if (this.disposed || this.restoring) return;
    const t0 = performance.now();
    const device = this.device;
    const encoder = device.createCommandEncoder({ label: 'frame' });
    let timed = false;
    if (this.previewDirty && this.previewContext && this.previewCanvas) {
      this.previewDirty = false;
      timed = this.encodePreview(encoder);
    }
    if (this.gridDirty && this.gridContext && this.gridCanvas) {
      this.gridDirty = false;
      this.encodeGrid(encoder);
    }
    const copies = this.captures.length ? this.encodeCaptures(encoder) : null;
    device.queue.submit([encoder.finish()]);
    if (copies) copies();
    if (timed) this.toneTimer!.collect();
    const now = performance.now();
    for (const s of this.pendingShows) s.resolve(now - s.t0);
    this.pendingShows.length = 0;
    this.frames.record(t0, now - t0, this.toneTimer?.lastMs ?? NaN);
  }

  private encodePreview(encoder: GPUCommandEncoder): boolean {
    const canvas = this.previewCanvas!;
    const texture = this.previewContext!.getCurrentTexture();
    this.frameTextures.preview = texture;
    const view = texture.createView();
    const cur = this.current;
    if (this.sheet.active) {
      this.sheet.encode(encoder, view, this.format, { ...this.display, channelView: 'rgb' }, canvas.width, canvas.height, BACKGROUND);
      return false;
    }
    if (!cur) {
      const pass = encoder.beginRenderPass({ colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: { r: BACKGROUND, g: BACKGROUND, b: BACKGROUND, a: 1 } }] });
      pass.end();
      return false;
    }
    const cv = this.compareView;
    if (cv && (cv.colormap !== 0 || (this.reference && cv.mode !== 'off'))) return this.encodeCompareFrame(encoder, texture, view, cur, cv);
    previewGeometry(this.geometry, this.panZoom, cur.image.dataWindow, cur.image.displayWindow, cur.layer.levelCount, canvas.width, canvas.height, BACKGROUND);
    packPreviewView(this.previewBlock, this.display, this.geometry);
    this.device.queue.writeBuffer(this.previewBuffer, 0, this.previewBlock.bytes);
    const writes = this.toneTimer?.begin();
    if (this.toneMap.path === 'compute' && !this.hdrCanvas) {
      // the canvas hands out a new texture each frame, so its one-entry bind group is made per frame (as the render
      // pass needs a new view); every other binding, buffer and pipeline is the render path's, made once
      const target = this.device.createBindGroup({ label: 'canvas target', layout: this.kit.previewTargetLayout(this.format), entries: [{ binding: 0, resource: view }] });
      encodePreviewCompute(this.kit, encoder, texture, { view: this.previewGroup, image: cur.layer.imageBindGroup, target }, writes);
      if (writes) this.toneTimer!.resolve(encoder);
      return !!writes;
    }
    const pass = encoder.beginRenderPass({
      label: 'tone-map',
      colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 0, a: 1 } }],
      ...(writes ? { timestampWrites: writes } : {}),
    });
    pass.setPipeline(this.kit.preview(this.previewFormat));
    pass.setBindGroup(0, this.previewGroup);
    pass.setBindGroup(1, cur.layer.imageBindGroup);
    pass.setBindGroup(2, this.kit.staticBindGroup);
    pass.draw(3);
    pass.end();
    if (writes) this.toneTimer!.resolve(encoder);
    return !!writes;
  }

  /** A compare frame: A and the reference (or A twice, for a colormap alone) through compare.wgsl. */
  private encodeCompareFrame(encoder: GPUCommandEncoder, texture: GPUTexture, view: GPUTextureView, cur: Shown, cv: CompareView): boolean {
    const ref = this.reference && cv.mode !== 'off' ? this.reference : cur;
    const place = (s: Shown) => ({ dataWindow: s.image.dataWindow, displayWindow: s.image.displayWindow, levelCount: s.layer.levelCount });
    const g = compareGeometry(this.panZoom, place(cur), place(ref), ref === cur ? { ...cv, mode: 'off' } : cv, texture.width, texture.height, BACKGROUND);
    const writes = this.toneTimer?.begin();
    const target = this.toneMap.path === 'compute'
      ? this.device.createBindGroup({ label: 'canvas target', layout: this.kit.previewTargetLayout(this.format), entries: [{ binding: 0, resource: view }] })
      : null;
    this.comparePreview.encode(encoder, texture, target, this.display, g, cur.layer.texture, ref.layer.texture, writes);
    this.compareFrames++;
    this.sinceLoad.frames++;
    if (writes) this.toneTimer!.resolve(encoder);
    return !!writes;
  }

  private encodeGrid(encoder: GPUCommandEncoder): void {
    const canvas = this.gridCanvas!;
    let n = 0;
    for (const c of this.cells) {
      if (n >= MAX_CELLS) break;
      const slot = this.atlas.get(c.fileId);
      if (!slot) continue;
      // fit the thumbnail into its cell, keeping its aspect ratio
      const s = Math.min(c.widthPx / slot.widthPx, c.heightPx / slot.heightPx);
      const w = slot.widthPx * s, h = slot.heightPx * s;
      const d = this.cellData, o = n * 8;
      d[o] = c.xPx + (c.widthPx - w) / 2; d[o + 1] = c.yPx + (c.heightPx - h) / 2; d[o + 2] = w; d[o + 3] = h;
      d[o + 4] = slot.xPx; d[o + 5] = slot.yPx; d[o + 6] = slot.widthPx; d[o + 7] = slot.heightPx;
      n++;
    }
    this.cellCount = n;
    packGridView(this.gridBlock, this.gridDisplay, canvas.width, canvas.height, BACKGROUND);
    this.device.queue.writeBuffer(this.gridBuffer, 0, this.gridBlock.bytes);
    if (n) this.device.queue.writeBuffer(this.cellBuffer, 0, this.cellData.buffer, 0, n * GRID_CELL_BYTES);
    const gridTexture = this.gridContext!.getCurrentTexture();
    this.frameTextures.grid = gridTexture;
    const pass = encoder.beginRenderPass({ label: 'grid', colorAttachments: [{
      view: gridTexture.createView(), loadOp: 'clear', storeOp: 'store',
      clearValue: { r: BACKGROUND, g: BACKGROUND, b: BACKGROUND, a: 1 },
    }] });
    if (n) {
      pass.setPipeline(this.kit.grid(this.format));
      pass.setBindGroup(0, this.gridGroup);
      pass.setBindGroup(1, this.atlasGroup);
      pass.setBindGroup(2, this.kit.staticBindGroup);
      pass.draw(4, n);
    }
    pass.end();
  }

  /** Reads back what the next frame draws on a canvas (tests and diagnostics; allocates, so only on request). */
  capture(which: 'preview' | 'grid'): Promise<CanvasCapture> {
    return new Promise((resolve, reject) => {
      this.captures.push({ which, resolve, reject });
      if (which === 'preview') this.invalidate(); else this.invalidateGrid();
    });
  }

  private encodeCaptures(encoder: GPUCommandEncoder): () => void {
    const done: (() => void)[] = [];
    const rest: typeof this.captures = [];
    for (const c of this.captures) {
      const texture = this.frameTextures[c.which];
      if (!texture) { rest.push(c); continue; }
      // 8 bytes a texel on the HDR canvas (rgba16float), 4 on the SDR ones
      const bytesPerRow = Math.ceil((texture.width * (texture.format === 'rgba16float' ? 8 : 4)) / 256) * 256;
      const buffer = this.device.createBuffer({ label: 'capture', size: bytesPerRow * texture.height, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
      encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow }, { width: texture.width, height: texture.height });
      const { width, height, format } = texture;
      done.push(() => {
        buffer.mapAsync(GPUMapMode.READ).then(() => {
          const data = new Uint8Array(buffer.getMappedRange().slice(0));
          buffer.destroy();
          c.resolve({ widthPx: width, heightPx: height, format, bytesPerRow, data });
        }, c.reject);
      });
    }
    this.captures = rest;
    this.frameTextures.preview = this.frameTextures.grid = null;
    return () => { for (const d of done) d(); };
  }

  /** Thumbnails drawn in the last grid frame. */
  get drawnCells(): number { return this.cellCount; }

  stats(): EngineStats {
    return {
      path: 'gpu',
      adapter: this.info.adapterDescription,
      features: this.info.adapterFeatures,
      timestamps: this.info.hasTimestamps ? 'timestamp-query' : 'n/a: the adapter has no timestamp-query feature',
      uploader: this.uploader.name,
      lastUpload: { ...this.lastUpload },
      toneMapPath: this.toneMap.path,
      toneMapPathReason: this.toneMap.reason,
      imageUploads: this.imageUploads,
      imageUploadBytes: this.imageUploadBytes,
      thumbUploads: this.atlas.uploads,
      thumbUploadBytes: this.atlas.uploadBytes,
      cache: this.cache.counters(),
      cachedPlanes: this.cache.keys().filter((k) => k.includes('#p:')).length,
      cachedLayers: this.cache.keys().filter((k) => k.includes('#l:')).length,
      atlas: { thumbnails: this.atlas.size, evictions: this.atlas.evictions, bytes: this.atlas.bytes },
      mipGpuMs: this.mipTimer?.lastMs ?? NaN,
      toneMapGpuMs: this.toneTimer?.lastMs ?? NaN,
      frames: this.frames.count,
      deviceLosses: this.deviceLosses,
      lastLossReason: this.lastLossReason,
      compare: {
        reference: this.reference ? `${this.reference.keyString}#l:${layerKey(this.reference.choice)}` : null,
        referencePinned: !!this.reference && !!this.cache.peek(`${this.reference.keyString}#l:${layerKey(this.reference.choice)}`),
        sourceLoads: this.sourceLoads, uploads: this.imageUploads,
        viewChangesSinceLoad: this.sinceLoad.view, displayChangesSinceLoad: this.sinceLoad.display, compareFramesSinceLoad: this.sinceLoad.frames,
        compareFrames: this.compareFrames, pairGroups: this.comparePreview.pairGroupsMade,
        reductions: this.analysis.runs, reduceGpuMs: this.analysis.lastGpuMs,
      },
    };
  }

  setBudget(bytes: number): void {
    this.cache.budgetBytes = bytes;
    const cur = this.current;
    this.cache.trim(cur ? this.onScreen(cur.keyString, `${cur.keyString}#l:${layerKey(cur.choice)}`, planesOf(cur.choice)) : undefined);
  }

  /** Resolves once a device loss has been recovered from (immediately when none is under way). */
  async restored(): Promise<void> {
    while (this.restoring) await this.restoring;
  }

  private recover(reason: string): Promise<void> {
    this.deviceLosses++;
    this.lastLossReason = reason;
    this.restoring = (async () => {
      // every texture died with the device: forget them, then build everything again on a new one
      this.cache.forgetAll();
      this.images.clear();
      this.slots = null;
      const cur = this.current;
      const ref = this.reference;
      this.current = null;
      this.reference = null;
      this.mipTimer = this.toneTimer = null;
      this.uploader?.destroy();
      await this.init();
      if (this.previewCanvas) this.attachPreview(this.previewCanvas);
      if (this.gridCanvas) this.attachGrid(this.gridCanvas);
      this.restoring = null;
      const thumbs = this.cells.map((c) => c.fileId);
      await Promise.all(thumbs.map(async (id) => {
        try { this.putThumbnail(id, await this.source.loadThumbnail(id)); } catch { /* shows as an empty cell; the grid asks again */ }
      }));
      if (cur) await this.show(cur.key, cur.choice);
      if (ref) await this.setReference(ref.key, ref.choice);
      this.onDeviceRestored?.();
    })();
    return this.restoring;
  }

  dispose(): void {
    this.disposed = true;
    if (this.rafId) cancelAnimationFrame(this.rafId);
    this.cache.clear();
    this.images.clear();
    this.slots?.destroy();
    this.atlas?.destroy();
    this.uploader?.destroy();
    this.analysis?.destroy();
    this.shownHistogram?.destroy();
    this.sheet?.destroy();
    this.comparePreview?.dispose();
    this.previewContext?.unconfigure();
    this.gridContext?.unconfigure();
    this.info?.device.destroy();
  }
}

function emptyReport(key: string): ShowReport {
  return {
    key, source: 'gpu-cache', planesUploaded: [], uploadBytes: 0, uploadPath: '', uploadCallMs: 0, uploadCpuCopyMs: 0, uploadWaitMs: 0,
    uploadWallMs: NaN, uploadGBps: NaN, layerBuilt: false, showMs: NaN, decoded: null,
  };
}
