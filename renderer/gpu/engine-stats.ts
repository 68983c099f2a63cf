// The engine's figures for diagnostics and tests, gathered from its parts in one object.
import { layerKey } from '../model/layer-choice.js';
import type { FrameStats } from './frame-stats.js';
import type { GpuSession } from './gpu-session.js';
import type { GridDrawer } from './grid-drawer.js';
import type { PairAnalysis } from './pair-analysis.js';
import type { PreviewDrawer } from './preview-drawer.js';
import type { TextureCache } from './texture-cache.js';
import type { CompareCounters, EngineStats, OnScreen } from './engine-types.js';

export interface StatsSources {
  session: GpuSession;
  cache: TextureCache;
  preview: PreviewDrawer;
  grid: GridDrawer;
  pair: PairAnalysis;
  counters: CompareCounters;
  screen: OnScreen;
  frames: FrameStats;
  gridFrames: number;
  losses: { count: number; lastReason: string };
  refusals: { count: number; last: string };
}

export function engineStats(p: StatsSources): EngineStats {
  const { session, cache, counters } = p;
  const { info, toneMap } = session;
  const atlas = p.grid.atlas;
  const ref = p.screen.reference;
  return {
    path: 'gpu',
    adapter: info.adapterDescription,
    features: info.adapterFeatures,
    timestamps: info.hasTimestamps ? 'timestamp-query' : 'n/a: the adapter has no timestamp-query feature',
    uploader: session.uploader.name,
    lastUpload: { ...cache.lastUpload },
    toneMapPath: toneMap.path,
    toneMapPathReason: toneMap.reason,
    imageUploads: cache.imageUploads,
    imageUploadBytes: cache.imageUploadBytes,
    thumbUploads: atlas.uploads,
    thumbUploadBytes: atlas.uploadBytes,
    ...cache.counts(),
    atlas: { thumbnails: atlas.size, evictions: atlas.evictions, bytes: atlas.bytes },
    mipGpuMs: session.mipTimer?.lastMs ?? NaN,
    toneMapGpuMs: session.toneTimer?.lastMs ?? NaN,
    frames: p.frames.count,
    gridFrames: p.gridFrames,
    maxTextureSidePx: session.device.limits.maxTextureDimension2D,
    maxBufferBytes: session.device.limits.maxBufferSize,
    refusals: p.refusals.count,
    lastRefusal: p.refusals.last,
    deviceLosses: p.losses.count,
    lastLossReason: p.losses.lastReason,
    compare: {
      reference: ref ? `${ref.keyString}#l:${layerKey(ref.choice)}` : null,
      referencePinned: !!ref && cache.holds(ref),
      sourceLoads: cache.sourceLoads,
      uploads: cache.imageUploads,
      viewChangesSinceLoad: counters.sinceLoad.view,
      displayChangesSinceLoad: counters.sinceLoad.display,
      compareFramesSinceLoad: counters.sinceLoad.frames,
      compareFrames: counters.compareFrames,
      pairGroups: p.preview.compare.pairGroupsMade,
      reductions: p.pair.runs,
      reduceGpuMs: p.pair.lastGpuMs,
    },
  };
}
