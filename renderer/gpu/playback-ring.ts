// The engine's playback ring: the slots a playing sequence goes through, made on the first playback and kept while
// frames keep their count and device, and the screen's image switched to a slot's frame.
import type { LayerChoice } from '../model/layer-choice.js';
import { imageKeyString, type ImageKey, type OnScreen } from './engine-types.js';
import { FrameSlots } from './frame-slots.js';
import type { GpuSession } from './gpu-session.js';

export class PlaybackRing {
  private slots: FrameSlots | null = null;

  constructor(
    private readonly screen: OnScreen,
    private readonly session: () => GpuSession,
    /** A slot's frame went on screen: what follows the picture (the histogram, a frame) is told. */
    private readonly presented: () => void,
  ) {}

  /**
   * The ring of `count` slots (see frame-slots.ts): a new ring when the count or the device changes. Slot textures live
   * beside the image cache, not in it: the ring is small, fixed, and written again for every frame.
   */
  ring(count: number): FrameSlots {
    const session = this.session();
    if (this.slots && this.slots.count === count && this.slots.device === session.device) return this.slots;
    if (this.screen.current && this.slots && this.screen.current.keyString.startsWith('slot:')) this.screen.current = null;
    this.slots?.destroy();
    const { device, kit, dummies, uploader } = session;
    this.slots = new FrameSlots({ device, kit, dummies, uploader, buildTimer: session.buildTimer() }, count);
    return this.slots;
  }

  /** Puts what slot `slot` holds on screen as image `key`'s layer; false when the slot holds nothing. */
  present(slot: number, key: ImageKey, choice: LayerChoice): boolean {
    const f = this.slots?.frame(slot);
    if (!f) return false;
    this.screen.current = { key, keyString: `slot:${slot}:${imageKeyString(key)}`, choice, image: f.image, layer: f.layer };
    this.presented();
    return true;
  }

  /** The device went away with the ring's textures: whoever holds the ring is told, and the next ring() is a new one. */
  forget(): void {
    this.slots?.lost();
    this.slots = null;
  }

  destroy(): void {
    this.slots?.destroy();
  }
}
