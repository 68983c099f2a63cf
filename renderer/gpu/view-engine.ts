// What the UI drives: the GPU engine, or the CPU fallback when WebGPU is missing. Same calls, either path.
import type { Thumbnail } from '../host/api-types.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import type { EngineStats, GridCell, ImageKey, ShowReport } from './engine.js';
import type { FrameStats } from './frame-stats.js';
import type { LayerChoice } from './gpu-image.js';
import type { PanZoom } from './view-geometry.js';
import type { HdrSupport } from './hdr-output.js';

export interface CpuStats { path: 'cpu'; reason: string; frames: number; lastRenderMs: number }

export interface ViewEngine {
  readonly frames: FrameStats;
  onHistogram: ((bins: Uint32Array) => void) | null;
  attachPreview(canvas: HTMLCanvasElement): void;
  attachGrid(canvas: HTMLCanvasElement): void;
  setDisplay(p: DisplayParams): void;
  /** Whether HDR output can be had here and why not (the CPU path never can). */
  hdrSupport(): HdrSupport;
  setPanZoom(v: PanZoom): void;
  show(key: ImageKey, choice: LayerChoice): Promise<ShowReport>;
  isCached(key: ImageKey): boolean;
  putThumbnail(fileId: string, t: Thumbnail): void;
  hasThumbnail(fileId: string): boolean;
  setGridCells(cells: GridCell[]): void;
  invalidate(): void;
  invalidateGrid(): void;
  stats(): EngineStats | CpuStats;
  dispose(): void;
}
