// The ring of upload slots: which job holds each, and which one is on screen (never uploaded into while shown).

export class SlotRing<J> {
  private readonly holders: (J | null)[];
  /** The slot on screen (-1: none yet). */
  private shownSlot = -1;

  constructor(count: number) {
    this.holders = new Array<J | null>(Math.max(2, count)).fill(null);
  }

  get count(): number {
    return this.holders.length;
  }

  /** A slot neither on screen nor held, or -1. */
  free(): number {
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
}
