// The crop of level 0 a view zoomed in past a reduced level needs: what the preview shows, fetched and handed to the engine.
import type { DecodedImage, PartSummary } from '../host-client/api-types.js';
import type { RendererHost } from '../host-client/index.js';
import { GpuEngine } from '../gpu/engine.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { layerChoice, partChannelNames } from '../model/layer-choice.js';
import { RegionFetch, type RegionView } from '../loading/region-fetch.js';
import type { AppStore } from '../state/store.js';

export interface DetailRegionDeps {
  host: RendererHost;
  store: AppStore;
  engine: () => ViewEngine | null;
  currentPart: () => PartSummary | undefined;
  currentLayer: () => PartSummary['layers'][number] | undefined;
  canvasSizePx: () => { widthPx: number; heightPx: number };
  said: (status: string) => void;
}

export class DetailRegion {
  private readonly fetch: RegionFetch;

  constructor(private readonly d: DetailRegionDeps) {
    const gpu = (): GpuEngine | null => (d.engine() instanceof GpuEngine ? (d.engine() as GpuEngine) : null);
    this.fetch = new RegionFetch({
      decodeImage: (request) => d.host.api.decodeImage(request),
      cancel: (requestId) => d.host.api.cancel(requestId),
      view: () => this.view(),
      held: () => gpu()?.region.crop ?? null,
      put: (key, choice, image, dataWindow) => gpu()?.region.put(key, choice, image, dataWindow) ?? Promise.resolve(),
      failed: (message) => d.said(`The detail at 1:1 could not be shown (the reduced level stays): ${message}`),
    });
  }

  /** The view, the image on screen or the device changed: the crop it needs is asked for once the view rests. */
  changed(): void {
    this.fetch.changed();
  }

  /** The crop of level 0 on the GPU holding pixel (x, y) of the image on screen (the readout reads it), if any. */
  at(x: number, y: number): DecodedImage | null {
    const engine = this.d.engine();
    const crop = engine instanceof GpuEngine ? engine.region.crop : null;
    const s = this.d.store.getState();
    if (!crop || crop.key.fileId !== s.image.currentFileId || crop.key.part !== s.image.part) return null;
    return x >= crop.box[0] && y >= crop.box[1] && x <= crop.box[2] && y <= crop.box[3] ? crop.image : null;
  }

  /** What the preview shows, for the crop of level 0 it needs: only while a reduced level of the image is on screen. */
  private view(): RegionView | null {
    const s = this.d.store.getState();
    const decoded = s.image.decoded;
    const part = this.d.currentPart();
    const layer = this.d.currentLayer();
    const engine = this.d.engine();
    if (!(engine instanceof GpuEngine) || !decoded?.reduced || !part || !layer || decoded.fileId !== s.image.currentFileId) return null;
    const size = this.d.canvasSizePx();
    return {
      key: { fileId: decoded.fileId, part: s.image.part },
      choice: layerChoice(layer, s.image.channel, partChannelNames(part)).choice,
      dataWindow: part.dataWindow,
      factor: decoded.reduced.factor,
      panZoom: s.view.panZoom,
      canvasWidthPx: size.widthPx,
      canvasHeightPx: size.heightPx,
      maxSidePx: engine.fitWithin().maxSidePx,
    };
  }
}
