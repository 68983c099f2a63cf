// The frame playback stopped on becomes the image on screen once it rests there: the pixel inspector, header,
// Statistics, Comparison and histogram then describe that frame, not the one the sequence was opened on.
import type { SequenceInfo } from '../host-client/api-types.js';
import type { Presented } from '../playback/pipeline.js';
import type { AppStore, StoreActions } from '../state/store.js';
import type { Player } from './player.js';

/** How long a frame stays on screen, paused, before it is loaded as the image: scrubbing loads nothing until it stops. */
export const FRAME_REST_MS = 150;

/** What frame-at-rest needs of the player, the store and a clock. */
export interface FrameAtRestDeps {
  /** The player's change events; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  presented(): Presented | null;
  sequence(): SequenceInfo | null;
  playing(): boolean;
  currentFileId(): string | null;
  /** Makes this frame's file the image on screen (the store's showFrame). */
  showFrame(fileId: string): void;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export class FrameAtRest {
  private timer: unknown = null;
  private readonly off: () => void;

  constructor(
    private readonly deps: FrameAtRestDeps,
    private readonly restMs = FRAME_REST_MS,
  ) {
    this.off = deps.subscribe(() => this.check());
  }

  /** The file of the frame paused on screen when it is not yet the image; null otherwise. */
  private restingFile(): string | null {
    const d = this.deps;
    const p = d.presented();
    const q = d.sequence();
    // a missing or damaged frame has no image to become: the last good one stays the image
    if (d.playing() || !p || p.kind !== 'shown' || !q) return null;
    const fileId = q.frames.find((f) => f.frame === p.frame)?.fileId ?? null;
    return fileId !== null && fileId !== d.currentFileId() ? fileId : null;
  }

  private check(): void {
    if (this.timer !== null) {
      this.deps.clearTimer(this.timer);
      this.timer = null;
    }
    if (this.restingFile() === null) return;
    this.timer = this.deps.setTimer(() => {
      this.timer = null;
      const fileId = this.restingFile();
      if (fileId !== null) this.deps.showFrame(fileId);
    }, this.restMs);
  }

  dispose(): void {
    this.off();
    if (this.timer !== null) this.deps.clearTimer(this.timer);
  }
}

/** Frame-at-rest for the app's player and store, on the page's clock. */
export function frameAtRestFor(player: Player, store: AppStore, actions: StoreActions): FrameAtRest {
  return new FrameAtRest({
    subscribe: (l) => player.subscribe(l),
    presented: () => player.presented,
    sequence: () => player.open,
    playing: () => store.getState().playback.playing,
    currentFileId: () => store.getState().image.currentFileId,
    showFrame: (fileId) => actions.showFrame(fileId),
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  });
}
