// What the engine makes on each device (the first and every one after a loss): the preview with the Cryptomatte view
// in place of its layer, the grid, the pair analysis, and the LUT and OCIO processor of the display set now.
import type { DeviceParts } from './device-keeper.js';
import type { CompareCounters, OnScreen } from './engine-types.js';
import type { GpuSession } from './gpu-session.js';
import { GridDrawer } from './grid-drawer.js';
import { PairAnalysis } from './pair-analysis.js';
import { PreviewDrawer } from './preview-drawer.js';
import { CryptomatteDrawer } from './cryptomatte-view.js';
import { DeepRangeDrawer } from './deep-range-view.js';
import type { HistogramSource } from './shown-histogram.js';
import { gpuProcessorFor } from './ocio-processors.js';
import type { ViewState } from './view-state.js';
import type { RegionTexture } from './region-texture.js';

/** What outlives a device and the parts are built over. */
export interface PartsInputs {
  views: ViewState;
  screen: OnScreen;
  counters: CompareCounters;
  /** The crop of level 0 drawn in place of a reduced level zoomed in past it. */
  region: RegionTexture;
  onHistogram(bins: Uint32Array, source: HistogramSource): void;
}

export function buildDeviceParts(session: GpuSession, inputs: PartsInputs): DeviceParts {
  const { views, screen, counters } = inputs;
  const preview = new PreviewDrawer(session, views.preview, screen, counters);
  const cryptomatte = new CryptomatteDrawer(session, views.cryptomatte);
  const deepRange = new DeepRangeDrawer(session, views.deepRange);
  preview.substitute = (encoder, shown) => deepRange.layerFor(encoder, shown) ?? cryptomatte.layerFor(encoder, shown);
  preview.detail = (shown, widthPx, heightPx) => inputs.region.over(shown, views.preview.panZoom, widthPx, heightPx);
  const pair = new PairAnalysis(preview.compare.ck, session.info.hasTimestamps, screen, (bins, source) => inputs.onHistogram(bins, source));
  session.kit.setLut(views.preview.display.lut?.lut ?? null);
  session.kit.setOcio(gpuProcessorFor(views.preview.display.ocio));
  return { session, preview, grid: new GridDrawer(session, views.grid), pair };
}
