// Moving along the grid's items (a sequence counts as one) and the player following the item on screen.
import { gridItems, sequenceOf } from '../state/grid-items.js';
import type { AppStore, StoreActions } from '../state/store.js';
import type { Player } from './player.js';

/** The grid item `delta` away from the one on screen (+1 next, -1 previous), wrapping around. */
export function stepGridItem(store: AppStore, actions: StoreActions, delta: number): void {
  const s = store.getState();
  const items = gridItems(s.library);
  if (!items.length) return;
  const q = sequenceOf(s.library, s.image.currentFileId);
  const at = items.findIndex((it) => it.id === s.image.currentFileId || (q !== null && it.sequence?.id === q.id));
  actions.selectFile(items[at < 0 ? 0 : (at + delta + items.length) % items.length]!.id);
}

/** The grid item on screen is a sequence's: the player takes it (rate from its framesPerSecond, else 24), else lets go. */
export function followSequence(store: AppStore, actions: StoreActions, player: Player): void {
  const s = store.getState();
  const q = sequenceOf(s.library, s.image.currentFileId);
  if (q?.id === player.open?.id) {
    if (q) player.setSequence(q);
    return;
  }
  player.setSequence(q);
  actions.setPlayback({
    sequenceId: q?.id ?? null,
    playing: false,
    direction: 1,
    fps: q?.framesPerSecond ?? 24,
    inFrame: null,
    outFrame: null,
  });
}
