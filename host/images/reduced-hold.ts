// The finer reduced level a first, smaller one was made with (DecodeRequest.refineWithin), held for the page's next
// request. One at a time, and not for long: a page that moved on never asks, and the level is hundreds of MB.
import type { DecodedImage } from '../../contract/host-api.js';

/** A held level nobody asked for by then is let go. */
export const HOLD_MS = 60_000;

interface Held {
  key: string;
  factor: number;
  image: Promise<DecodedImage>;
  timer: ReturnType<typeof setTimeout>;
}

export class ReducedHold {
  private held: Held | null = null;

  constructor(private readonly holdMs = HOLD_MS) {}

  /** Holds `image` (a level of `key`, reduced by `factor`), letting go of whatever was held before. */
  put(key: string, factor: number, image: Promise<DecodedImage>): void {
    this.clear();
    const timer = setTimeout(() => this.drop(held), this.holdMs);
    timer.unref?.();
    const held: Held = { key, factor, image, timer };
    this.held = held;
    // a pass that failed or was cancelled holds nothing (its own request says why)
    image.catch(() => this.drop(held));
  }

  /** The level held for `key` and `factor`, taken (the hold lets go of it); null when none is. */
  take(key: string, factor: number): Promise<DecodedImage> | null {
    const held = this.held;
    if (!held || held.key !== key || held.factor !== factor) return null;
    this.drop(held);
    return held.image;
  }

  clear(): void {
    if (this.held) this.drop(this.held);
  }

  private drop(held: Held): void {
    if (this.held !== held) return;
    clearTimeout(held.timer);
    this.held = null;
  }
}
