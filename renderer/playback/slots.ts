// The ring of upload slots: which job holds each, and which one is on screen (never uploaded into while shown); none
// while the slots are gone with their device, until slots on the next one are ready.

export class SlotRing<J> {
  private readonly holders: (J | null)[];
  /** The slot on screen (-1: none yet). */
  private shownSlot = -1;
  /** The slots went with their device: none is free until resume(). */
  private gone = false;

  constructor(count: number) {
    this.holders = new Array<J | null>(Math.max(2, count)).fill(null);
  }

  get count(): number {
    return this.holders.length;
  }

  /** A slot neither on screen nor held, or -1. */
  free(): number {
    if (this.gone) return -1;
    for (let i = 0; i < this.holders.length; i++) if (i !== this.shownSlot && !this.holders[i]) return i;
    return -1;
  }

  hold(slot: number, job: J): void {
    this.holders[slot] = job;
  }

  /** `job` lets its slot go, unless the slot is on screen (it stays until another is shown). */
  release(slot: number, job: J): void {
    if (slot >= 0 && this.holders[slot] === job && slot !== this.shownSlot) this.holders[slot] = null;
  }

  /** `slot` is on screen now; the one shown before is free. */
  show(slot: number): void {
    const previous = this.shownSlot;
    this.shownSlot = slot;
    if (previous >= 0 && previous !== slot) this.holders[previous] = null;
  }

  /** The slots went with their device: nothing they held is there any more, and nothing goes into them until resume(). */
  lose(): void {
    this.gone = true;
    this.holders.fill(null);
    this.shownSlot = -1;
  }

  /** Slots on a new device are ready: every one is free. */
  resume(): void {
    this.gone = false;
  }
}
