// What the UI drives: the GPU engine, or the CPU fallback when WebGPU is missing. Same calls, either path. An engine
// receives: it is asked which planes it lacks and handed them with the show; it never fetches.
import type { DecodedImage, Thumbnail } from '../host-client/api-types.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import type { EngineStats, GridCell, ImageKey, ShowReport } from './engine-types.js';
import type { FrameStats } from './frame-stats.js';
import type { LayerChoice } from '../model/layer-choice.js';
import type { PanZoom } from '../model/view-geometry.js';
import type { HdrSupport } from './hdr-output.js';
import type { CompareView } from './compare-geometry.js';
import type { HistogramSource } from './shown-histogram.js';
import type { CryptomatteView } from './cryptomatte-view.js';
import type { Timed } from './analysis.js';
import type { ChannelStats, MetricsTotals, Region } from '../../shaders/compare-cpu.js';

export interface CpuStats {
  path: 'cpu';
  reason: string;
  frames: number;
  lastRenderMs: number;
}

export interface ViewEngine {
  readonly frames: FrameStats;
  onHistogram: ((bins: Uint32Array, source: HistogramSource) => void) | null;
  attachPreview(canvas: HTMLCanvasElement): void;
  attachGrid(canvas: HTMLCanvasElement): void;
  setDisplay(p: DisplayParams): void;
  /** Whether HDR output can be had here and why not (the CPU path never can). */
  hdrSupport(): HdrSupport;
  setPanZoom(v: PanZoom): void;
  /** The planes of `choice` to hand over with show or setReference (none where the engine holds the layer). */
  lacks(key: ImageKey, choice: LayerChoice): string[];
  /** Draws the layer from what the engine holds and `fetched`, which carries (at least) what lacks() named. */
  show(key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null): Promise<ShowReport>;
  /** The Cryptomatte view drawn in place of the shown layer (gpu/cryptomatte-view.ts; the CPU path its reference); null ends it. */
  setCryptomatte(view: CryptomatteView | null): void;
  isCached(key: ImageKey): boolean;
  /** Draws no image until the next show: nothing on screen rather than the image shown before. */
  clearImage?(): void;
  putThumbnail(fileId: string, t: Thumbnail): void;
  hasThumbnail(fileId: string): boolean;
  setGridCells(cells: GridCell[]): void;
  /** While held the grid is not drawn (its changes wait): a picked image's first frame comes first. */
  holdGrid?(held: boolean): void;
  invalidate(): void;
  invalidateGrid(): void;
  stats(): EngineStats | CpuStats;
  /** The compare modes' reference (pinned while it is) and the compare pass's view; the CPU path draws A alone. */
  setReference(key: ImageKey | null, choice: LayerChoice | null, fetched?: DecodedImage | null): Promise<ShowReport | null>;
  setCompareView(v: CompareView | null): void;
  /** GPU reductions; null where the engine cannot (the caller computes on the CPU). */
  metrics(region: Region, threshold: number): Promise<Timed<MetricsTotals> | null>;
  statistics(region: Region, valueMode: number): Promise<Timed<ChannelStats[]> | null>;
  /** The file whose layer the GPU reductions read as A now (GPU engine only): until a show lands it is the previous one. */
  shownFileId?(): string | null;
  forgetFile(fileId: string): void;
  /**
   * A crop of the image (a live image's updated tiles, absolute data-window pixels) written into the layer shown, in
   * place; false when the engine does not hold what that needs (GPU engine only): the caller shows the image again.
   */
  updateRegion?(key: ImageKey, choice: LayerChoice, patch: DecodedImage): boolean;
  /** After a device loss (GPU engine only): nothing is held any more; hand everything over again. */
  onDeviceRestored?: (() => void) | null;
  /** One line on the GPU for the status line (GPU engine only): a device loss recovered from or not, an uncaught error. */
  onGpuNotice?: ((message: string) => void) | null;
  dispose(): void;
}
