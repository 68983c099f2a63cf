// The GPU engine's vocabulary: image keys, what a show reports, what the engine is asked to be, what its stats say.
import type { LayerTexture } from '../../shaders/passes.js';
import type { CacheCounters } from './lru.js';
import type { GpuImage } from './gpu-image.js';
import { layerKey, type LayerChoice } from '../model/layer-choice.js';

export interface ImageKey {
  fileId: string;
  part: number;
}
export const imageKeyString = (k: ImageKey): string => `${k.fileId}#${k.part}`;

/**
 * The planes an engine was asked to draw from are not all in its hands: they were evicted, or the device was lost,
 * after it said what it lacked. The one who fetches asks again what it lacks and hands that over.
 */
export class PlanesLackingError extends Error {
  constructor(readonly planes: readonly string[]) {
    super(`the planes ${planes.join(', ')} went from the GPU before they could be drawn: show the image again`);
    this.name = 'PlanesLackingError';
  }
}

export interface ShowReport {
  key: string;
  /** 'gpu-cache': nothing was uploaded; 'uploaded': planes went to the GPU. */
  source: 'gpu-cache' | 'uploaded';
  /** The planes uploaded for this show: only those the layer reads that the GPU did not hold. */
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
}

export function emptyShowReport(key: string): ShowReport {
  return {
    key,
    source: 'gpu-cache',
    planesUploaded: [],
    uploadBytes: 0,
    uploadPath: '',
    uploadCallMs: 0,
    uploadCpuCopyMs: 0,
    uploadWaitMs: 0,
    uploadWallMs: NaN,
    uploadGBps: NaN,
    layerBuilt: false,
    showMs: NaN,
  };
}

/** A layer of an image on the GPU: what the preview draws (the image on screen, the reference, a playback slot). */
export interface Shown {
  key: ImageKey;
  keyString: string;
  choice: LayerChoice;
  image: GpuImage;
  layer: LayerTexture;
}

/** What is on screen: the shown layer and the compare modes' reference (both kept from eviction). */
export interface OnScreen {
  current: Shown | null;
  reference: Shown | null;
}

/** The layer on screen as cached (rgba32float, level 0 = the data window): the Environment view draws from it. */
export function layerOnScreen(screen: OnScreen): { key: string; texture: GPUTexture; widthPx: number; heightPx: number } | null {
  const cur = screen.current;
  return cur
    ? {
        key: `${cur.keyString}#${layerKey(cur.choice)}`,
        texture: cur.layer.texture,
        widthPx: cur.layer.widthPx,
        heightPx: cur.layer.heightPx,
      }
    : null;
}

/** Pixels of a canvas as drawn, from a copy of its texture (requested, never part of a normal frame). */
export interface CanvasCapture {
  widthPx: number;
  heightPx: number;
  format: GPUTextureFormat;
  bytesPerRow: number;
  data: Uint8Array;
}

export interface GridCell {
  fileId: string;
  xPx: number;
  yPx: number;
  widthPx: number;
  heightPx: number;
}

export type ToneMapPath = 'compute' | 'render pass';

/** The last image upload's figures (see ShowReport); NaN before the first. */
export interface UploadFigures {
  path: string;
  bytes: number;
  callMs: number;
  cpuCopyMs: number;
  waitMs: number;
  wallMs: number;
  GBps: number;
  submits: number;
}

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
  /** Frames that drew the grid (none while a picked image loads). */
  gridFrames: number;
  /** The device's largest texture side and buffer (the adapter's own limits, asked for when the device was made). */
  maxTextureSidePx: number;
  maxBufferBytes: number;
  /** Images the GPU could not hold (over its limits or the cache's budget, out of memory), and the last one's reason. */
  refusals: number;
  lastRefusal: string;
  deviceLosses: number;
  lastLossReason: string;
  compare: CompareFigures;
}

/** What comparing costs: proof that a mode or exposure change loads and uploads nothing. */
export interface CompareFigures {
  /** The reference's image key and layer, its layer texture pinned in the GPU cache; null when none. */
  reference: string | null;
  referencePinned: boolean;
  /** Images handed to the engine with planes it lacked (each a fetch from the host), since the engine started. */
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

/** Compare-view and display changes and compare frames, in all and since the last upload (see CompareFigures). */
export class CompareCounters {
  compareFrames = 0;
  sinceLoad = { view: 0, display: 0, frames: 0 };
  loaded(): void {
    this.sinceLoad = { view: 0, display: 0, frames: 0 };
  }
}
