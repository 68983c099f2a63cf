// Level 0's histogram of an image shown reduced, counted by the host with its statistics: it stands in for the GPU's
// histogram of the reduced level while the same image, part, layer and channel are on screen, and A is what is counted.
import { shownImageKey } from '../model/subject.js';
import type { AppState } from '../state/store.js';

export class LevelHistogram {
  private held: { key: string; bins: Uint32Array } | null = null;

  /** The host's bins for the image on screen in `s` (the statistics run that brought them started there). */
  keep(s: AppState, fileId: string, bins: Uint32Array): boolean {
    if (s.image.currentFileId !== fileId) return false;
    this.held = { key: shownImageKey(s), bins };
    return true;
  }

  /** Level 0's bins for what `s` shows, where the host counted them; null: the GPU's count of the level on screen. */
  binsFor(s: AppState): Uint32Array | null {
    return this.held && this.held.key === shownImageKey(s) ? this.held.bins : null;
  }
}
