// The compare and inspect slices of the store: the reference and compare mode, colormap and range, the statistics
// region, the panels' results, the Layers view and histogram; and their actions. Pure data and setters.
import type { FileEntry, RenderProgress } from '../host-client/api-types.js';
import type { CompareMode } from '../../shaders/compare-params.js';
import type { Colormap } from '../../shaders/colormaps.js';
import type { MetricSummary, Region } from '../../shaders/compare-cpu.js';
import type { ChannelPick } from '../model/layer-choice.js';
import type { SubjectKey } from '../model/subject.js';

/** The reference: a file (kept whole, so it outlives a change of folder), a part, and the layer and channel it was set with. */
export interface ReferenceRef {
  file: FileEntry;
  part: number;
  layer: string;
  channel: ChannelPick;
}

export interface MetricRow {
  name: string;
  summary: MetricSummary;
}

export interface ComparisonReport {
  /** The pair and region these metrics were computed for (see model/subject). */
  subject: SubjectKey;
  path: 'gpu' | 'cpu';
  /** GPU time of the difference + reduction passes (NaN without timestamps or on the CPU), and wall time. */
  gpuMs: number;
  wallMs: number;
  a: string;
  b: string;
  rows: MetricRow[];
  all: MetricSummary;
  pixelsDiffer: number;
  /** Pixels compared: the region's, less those missing in A or B. */
  pixels: number;
  /** Pixels of the region missing in A and in B (chunks that could not be read), left out of the figures; 0 when none. */
  missingPxA: number;
  missingPxB: number;
  region: Region;
  /** How the two were aligned and what differs between them (data windows, resolutions, channel sets). */
  notes: string[];
}

export interface StatRow {
  name: string;
  n: number;
  min: number;
  max: number;
  mean: number;
  sd: number;
  nan: number;
  inf: number;
}

export interface StatisticsReport {
  /** The image, layer, channel, measured source and region these figures were computed for (see model/subject). */
  subject: SubjectKey;
  /** Where they were computed: the GPU's reductions, the CPU reference, or level 0 chunk by chunk on the host. */
  path: 'gpu' | 'cpu' | 'host';
  gpuMs: number;
  wallMs: number;
  /** What the values are: "A: file · layer", "B: …", or a difference image. */
  source: string;
  region: Region;
  /** True for the whole image; false for a Shift-dragged rectangle. */
  whole: boolean;
  rows: StatRow[];
  /** Pixels of the region left out because their chunks could not be read (a damaged file); 0 when none. */
  missingPx: number;
  /** The measured image is still being written: its figures are of these chunks, `missingPx` those not written yet. */
  rendering?: RenderProgress;
  /** For an image the page holds reduced: which level the figures are of (level 0 on the host, or the level on screen and why). */
  measuredOn?: string;
}

export interface CompareSlice {
  reference: ReferenceRef | null;
  mode: CompareMode;
  /** A/B flip: B is shown. */
  showB: boolean;
  wipeAxis: 'x' | 'y';
  metrics: ComparisonReport | null;
  /** Why there are no metrics (no reference yet, or what failed). */
  metricsNote: string;
}

export interface InspectSlice {
  colormap: Colormap;
  autoRange: boolean;
  rangeMin: number;
  rangeMax: number;
  /** Statistics over this rectangle (A's pixel space) instead of the whole image; set by Shift-drag. */
  region: Region | null;
  stats: StatisticsReport | null;
  histogramOpen: boolean;
  histogramLog: boolean;
  layersView: boolean;
  /** Layers the engine draws in the Layers view now (0 while their textures are being made). */
  layersDrawn: number;
  /** Values drawn inside pixels when zoomed in far enough. */
  pixelValues: boolean;
}

export function initialCompare(): CompareSlice {
  return { reference: null, mode: 'off', showB: false, wipeAxis: 'x', metrics: null, metricsNote: '' };
}

export function initialInspect(): InspectSlice {
  return {
    colormap: 'none',
    autoRange: true,
    rangeMin: 0,
    rangeMax: 1,
    region: null,
    stats: null,
    histogramOpen: true,
    histogramLog: true,
    layersView: false,
    layersDrawn: 0,
    pixelValues: true,
  };
}
