// What the store says is on screen: the file, its part and layer, and the channels playback shows of each frame.
import type { FileEntry, LayerSummary, PartSummary } from '../host-client/api-types.js';
import { layerChoice, partChannelNames, type LayerChoice } from '../model/layer-choice.js';
import type { AppState } from '../state/store.js';

export function shownFile(s: AppState): FileEntry | undefined {
  return s.library.files.find((f) => f.id === s.image.currentFileId);
}

export function shownPart(s: AppState): PartSummary | undefined {
  return shownFile(s)?.summary?.parts[s.image.part];
}

/** The layer picked, or the part's first when the pick is not one of its layers. */
export function shownLayer(s: AppState): LayerSummary | undefined {
  const part = shownPart(s);
  return part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0];
}

/** The part and channels the player decodes of each frame: those of the image on screen (null before one is known). */
export function playedChoice(s: AppState): { part: number; choice: LayerChoice } | null {
  const layer = shownLayer(s);
  const part = shownPart(s);
  if (!layer || !part) return null;
  return { part: s.image.part, choice: layerChoice(layer, s.image.channel, partChannelNames(part)).choice };
}
