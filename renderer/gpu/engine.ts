// The GPU engine: a plain class outside React that owns the device, the texture caches and the frame loop.
// It draws only when invalidated; a frame writes two small uniform blocks and encodes two passes, nothing else.
import type { DecodedImage, Thumbnail } from '../host/api-types.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../../shaders/display-params.js';
import { GRID_CELL_BYTES, GRID_VIEW_BYTES, PREVIEW_VIEW_BYTES, UniformBlock, packGridView, packPreviewView } from '../../shaders/layouts.js';
import { DummyPlanes, type LayerTexture } from '../../shaders/passes.js';
import { ShaderKit } from '../../shaders/pipelines.js';
import { requestGpuDevice, type GpuDeviceInfo } from './device.js';
import { FrameStats } from './frame-stats.js';
import { GpuImage, layerKey, type LayerChoice } from './gpu-image.js';
import { GpuTimer } from './gpu-timer.js';
import { Histogrammer } from './histogrammer.js';
import { ByteLru, type CacheCounters } from './lru.js';
import { ThumbAtlas } from './thumb-atlas.js';
import { writeTextureUploader, type PlaneUploader } from './upload.js';
import { emptyGeometry, previewGeometry, type PanZoom } from './view-geometry.js';

export interface ImageKey { fileId: string; part: number }
export const imageKeyString = (k: ImageKey): string => `${k.fileId}#${k.part}`;

/** Where the engine gets pixels again (first show, and after a device loss): the host, whose RAM cache makes it cheap. */
export interface TextureSource {
  loadImage(key: ImageKey): Promise<DecodedImage>;
  loadThumbnail(fileId: string): Promise<Thumbnail>;
}

export interface ShowReport {
  key: string;
  /** 'gpu-cache': nothing was loaded or uploaded; 'uploaded': planes went to the GPU. */
  source: 'gpu-cache' | 'uploaded';
  uploadBytes: number;
  /** CPU time of the upload calls. */
  uploadCallMs: number;
  /** Upload + layer build until the GPU finished (onSubmittedWorkDone, measured off the frame loop); NaN until known. */
  uploadWallMs: number;
  layerBuilt: boolean;
  /** show() call → the frame that shows it submitted. */
  showMs: number;
  decoded: DecodedImage | null;
}

/** Pixels of a canvas as drawn, from a copy of its texture (requested, never part of a normal frame). */
export interface CanvasCapture { widthPx: number; heightPx: number; format: GPUTextureFormat; bytesPerRow: number; data: Uint8Array }

export interface GridCell { fileId: string; xPx: number; yPx: number; widthPx: number; heightPx: number }

export interface EngineStats {
  path: 'gpu';
  adapter: string;
  features: string[];
  timestamps: string;
  uploader: string;
  imageUploads: number;
  imageUploadBytes: number;
  thumbUploads: number;
  thumbUploadBytes: number;
  cache: CacheCounters;
  atlas: { thumbnails: number; evictions: number; bytes: number };
  mipGpuMs: number;
  toneMapGpuMs: number;
  frames: number;
  deviceLosses: number;
  lastLossReason: string;
}

const MAX_CELLS = 4096;
const BACKGROUND = 0.12;

export class GpuEngine {
  private info!: GpuDeviceInfo;
  private kit!: ShaderKit;
  private dummies!: DummyPlanes;
  private atlas!: ThumbAtlas;
  private histogrammer!: Histogrammer;
  private mipTimer: GpuTimer | null = null;
  private toneTimer: GpuTimer | null = null;
  private previewBuffer!: GPUBuffer;
  private gridBuffer!: GPUBuffer;
  private cellBuffer!: GPUBuffer;
  private previewGroup!: GPUBindGroup;
  private gridGroup!: GPUBindGroup;
  private atlasGroup!: GPUBindGroup;
  private readonly cache: ByteLru<GpuImage>;
  private readonly previewBlock = new UniformBlock(PREVIEW_VIEW_BYTES);
  private readonly gridBlock = new UniformBlock(GRID_VIEW_BYTES);
  private readonly cellData = new Float32Array(MAX_CELLS * GRID_CELL_BYTES / 4);
  private readonly geometry = emptyGeometry();
  private previewCanvas: HTMLCanvasElement | OffscreenCanvas | null = null;
  private previewContext: GPUCanvasContext | null = null;
  private gridCanvas: HTMLCanvasElement | null = null;
  private gridContext: GPUCanvasContext | null = null;
  private format: GPUTextureFormat = 'bgra8unorm';
  private display: DisplayParams = { ...DEFAULT_DISPLAY };
  private panZoom: PanZoom = { zoom: 1, centerX: 0, centerY: 0 };
  private current: { key: ImageKey; keyString: string; choice: LayerChoice; image: GpuImage; layer: LayerTexture } | null = null;
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
  private restoring: Promise<void> | null = null;
  readonly frames = new FrameStats();
  imageUploads = 0;
  imageUploadBytes = 0;
  deviceLosses = 0;
  lastLossReason = '';
  onHistogram: ((bins: Uint32Array) => void) | null = null;
  onDeviceRestored: (() => void) | null = null;

  private constructor(private readonly source: TextureSource, budgetBytes: number, private readonly uploader: PlaneUploader) {
    this.cache = new ByteLru<GpuImage>(budgetBytes);
  }

  static async create(source: TextureSource, options: { budgetBytes?: number; uploader?: PlaneUploader } = {}): Promise<GpuEngine> {
    const e = new GpuEngine(source, options.budgetBytes ?? 1536 << 20, options.uploader ?? writeTextureUploader);
    await e.init();
    return e;
  }

  private async init(): Promise<void> {
    this.info = await requestGpuDevice();
    const device = this.info.device;
    this.format = navigator.gpu.getPreferredCanvasFormat();
    this.kit = new ShaderKit(device);
    this.dummies = new DummyPlanes(device);
    this.atlas = new ThumbAtlas(device);
    this.histogrammer = new Histogrammer(this.kit);
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
    this.kit.preview(this.format); this.kit.grid(this.format); this.kit.mip(); this.kit.assemble();
    device.lost.then((info) => { if (!this.disposed && this.info.device === device) void this.recover(`${info.reason}: ${info.message}`); });
  }

  get device(): GPUDevice { return this.info.device; }
  get canvasFormat(): GPUTextureFormat { return this.format; }

  attachPreview(canvas: HTMLCanvasElement | OffscreenCanvas): void {
    this.previewCanvas = canvas;
    this.previewContext = canvas.getContext('webgpu') as GPUCanvasContext;
    this.previewContext.configure({ device: this.device, format: this.format, alphaMode: 'opaque', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
    this.invalidate();
  }

  attachGrid(canvas: HTMLCanvasElement): void {
    this.gridCanvas = canvas;
    this.gridContext = canvas.getContext('webgpu') as GPUCanvasContext;
    this.gridContext.configure({ device: this.device, format: this.format, alphaMode: 'opaque', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
    this.invalidateGrid();
  }

  detachGrid(): void { this.gridContext?.unconfigure(); this.gridContext = null; this.gridCanvas = null; }
  detachPreview(): void { this.previewContext?.unconfigure(); this.previewContext = null; this.previewCanvas = null; }

  setDisplay(p: DisplayParams): void {
    this.display = p;
    this.invalidate();
    this.invalidateGrid();
  }

  setPanZoom(v: PanZoom): void {
    this.panZoom = v;
    this.invalidate();
  }

  /** Shows an image: from the GPU cache when there, else loaded from the source and uploaded once. */
  async show(key: ImageKey, choice: LayerChoice): Promise<ShowReport> {
    const t0 = performance.now();
    const keyString = imageKeyString(key);
    let image = this.cache.get(keyString);
    let decoded: DecodedImage | null = null;
    const report: ShowReport = { key: keyString, source: 'gpu-cache', uploadBytes: 0, uploadCallMs: 0, uploadWallMs: NaN, layerBuilt: false, showMs: NaN, decoded: null };
    if (!image) {
      decoded = await this.source.loadImage(key);
      if (this.disposed) return report;
      const tUp = performance.now();
      const { gpuImage, report: up } = GpuImage.upload(this.device, this.uploader, decoded);
      image = gpuImage;
      this.imageUploads += up.planes;
      this.imageUploadBytes += up.bytes;
      Object.assign(report, { source: 'uploaded', uploadBytes: up.bytes, uploadCallMs: up.callMs, decoded });
      this.cache.set(keyString, image, keyString);
      void this.device.queue.onSubmittedWorkDone().then(() => { report.uploadWallMs = performance.now() - tUp; });
    }
    const { layer, built } = image.layer(this.kit, this.dummies, choice, this.mipTimer);
    report.layerBuilt = built;
    if (built) {
      this.cache.trim(keyString);
      this.histogrammer.run(layer.texture, (bins) => this.onHistogram?.(bins));
    }
    this.current = { key, keyString, choice, image, layer };
    this.invalidate();
    report.showMs = await new Promise<number>((resolve) => this.pendingShows.push({ t0, resolve }));
    return report;
  }

  /** Whether the image is on the GPU (no counting, no reordering). */
  isCached(key: ImageKey): boolean {
    return !!this.cache.peek(imageKeyString(key));
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
    if (!cur) {
      const pass = encoder.beginRenderPass({ colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: { r: BACKGROUND, g: BACKGROUND, b: BACKGROUND, a: 1 } }] });
      pass.end();
      return false;
    }
    previewGeometry(this.geometry, this.panZoom, cur.image.dataWindow, cur.image.displayWindow, cur.layer.levelCount, canvas.width, canvas.height, BACKGROUND);
    packPreviewView(this.previewBlock, this.display, this.geometry);
    this.device.queue.writeBuffer(this.previewBuffer, 0, this.previewBlock.bytes);
    const writes = this.toneTimer?.begin();
    const pass = encoder.beginRenderPass({
      label: 'tone-map',
      colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 0, a: 1 } }],
      ...(writes ? { timestampWrites: writes } : {}),
    });
    pass.setPipeline(this.kit.preview(this.format));
    pass.setBindGroup(0, this.previewGroup);
    pass.setBindGroup(1, cur.layer.imageBindGroup);
    pass.setBindGroup(2, this.kit.staticBindGroup);
    pass.draw(3);
    pass.end();
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
    packGridView(this.gridBlock, this.display, canvas.width, canvas.height, BACKGROUND);
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
      const bytesPerRow = Math.ceil((texture.width * 4) / 256) * 256;
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
      imageUploads: this.imageUploads,
      imageUploadBytes: this.imageUploadBytes,
      thumbUploads: this.atlas.uploads,
      thumbUploadBytes: this.atlas.uploadBytes,
      cache: this.cache.counters(),
      atlas: { thumbnails: this.atlas.size, evictions: this.atlas.evictions, bytes: this.atlas.bytes },
      mipGpuMs: this.mipTimer?.lastMs ?? NaN,
      toneMapGpuMs: this.toneTimer?.lastMs ?? NaN,
      frames: this.frames.count,
      deviceLosses: this.deviceLosses,
      lastLossReason: this.lastLossReason,
    };
  }

  setBudget(bytes: number): void {
    this.cache.budgetBytes = bytes;
    this.cache.trim(this.current?.keyString);
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
      const cur = this.current;
      this.current = null;
      this.mipTimer = this.toneTimer = null;
      await this.init();
      if (this.previewCanvas) this.attachPreview(this.previewCanvas);
      if (this.gridCanvas) this.attachGrid(this.gridCanvas);
      this.restoring = null;
      const thumbs = this.cells.map((c) => c.fileId);
      await Promise.all(thumbs.map(async (id) => {
        try { this.putThumbnail(id, await this.source.loadThumbnail(id)); } catch { /* shows as an empty cell; the grid asks again */ }
      }));
      if (cur) await this.show(cur.key, cur.choice);
      this.onDeviceRestored?.();
    })();
    return this.restoring;
  }

  dispose(): void {
    this.disposed = true;
    if (this.rafId) cancelAnimationFrame(this.rafId);
    this.cache.clear();
    this.atlas?.destroy();
    this.previewContext?.unconfigure();
    this.gridContext?.unconfigure();
    this.info?.device.destroy();
  }
}
