// Routes a store change to the parts it concerns: the engine's display and pan/zoom, the image on screen, the crop of
// level 0 zoomed in on, the player and the Layers view.
import type { ViewEngine } from '../gpu/view-engine.js';
import { sequenceOf } from '../state/grid-items.js';
import type { AppState, AppStore, StoreActions } from '../state/store.js';
import type { CurrentImage } from './current-image.js';
import type { DetailRegion } from './detail-region.js';
import { followSequence } from './grid-steps.js';
import type { LayersView } from './layers-view.js';
import type { Player } from './player.js';

export interface RoutedParts {
  store: AppStore;
  actions: StoreActions;
  image: CurrentImage;
  region: DetailRegion;
  player: Player;
  layersView: LayersView;
}

/** Tells each part what changed between `prev` and `s` that it acts on. */
export function routeStoreChange(parts: RoutedParts, e: ViewEngine, s: AppState, prev: AppState): void {
  if (s.view.display !== prev.view.display || s.image.channel !== prev.image.channel || s.image.decoded !== prev.image.decoded)
    e.setDisplay(parts.image.display());
  if (s.view.panZoom !== prev.view.panZoom) e.setPanZoom(s.view.panZoom);
  if (s.view.panZoom !== prev.view.panZoom || s.image.decoded !== prev.image.decoded) parts.region.changed();
  const a = s.image,
    b = prev.image;
  if (a.currentFileId !== b.currentFileId || s.library.sequences !== prev.library.sequences)
    followSequence(parts.store, parts.actions, parts.player);
  const layerChanged = a.part !== b.part || a.layer !== b.layer || a.channel !== b.channel;
  // a sequence's frame on screen: the player shows the new layer of the same frame (and plays on with it)
  if (layerChanged && a.currentFileId === b.currentFileId && parts.player.presented) parts.player.refresh(true);
  else if (a.currentFileId !== b.currentFileId || layerChanged) {
    // another frame of the sequence on screen (playback rested on it): same size, so the artist's zoom stays
    const sequence = a.currentFileId !== b.currentFileId ? sequenceOf(s.library, a.currentFileId) : null;
    const otherFrame = sequence !== null && sequence === sequenceOf(s.library, b.currentFileId);
    void parts.image.show(a.currentFileId !== b.currentFileId || a.part !== b.part, !otherFrame);
  }
  const p = s.playback,
    q = prev.playback;
  if (p.fps !== q.fps || p.mode !== q.mode || p.inFrame !== q.inFrame || p.outFrame !== q.outFrame) parts.player.refresh(false);
  if (
    s.inspect.layersView !== prev.inspect.layersView ||
    (s.inspect.layersView && (a.currentFileId !== b.currentFileId || a.part !== b.part))
  )
    void parts.layersView.update(s.inspect.layersView);
}
