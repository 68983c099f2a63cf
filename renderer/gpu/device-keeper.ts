// The engine's device and what is made once per device: opened, and after a device loss opened again on a new one,
// with the engine told before (everything on the old device is gone) and after (put its canvases back).
import type { EngineOptions } from './engine-types.js';
import { GpuSession } from './gpu-session.js';
import type { GridDrawer } from './grid-drawer.js';
import type { PairAnalysis } from './pair-analysis.js';
import type { PreviewDrawer } from './preview-drawer.js';

/** What is made once per device. */
export interface DeviceParts {
  session: GpuSession;
  preview: PreviewDrawer;
  grid: GridDrawer;
  pair: PairAnalysis;
}

export interface DeviceEvents {
  /** Makes the parts on a new device. */
  build(session: GpuSession): DeviceParts;
  /** The device is lost: every texture died with it. */
  lost(): void;
  /** The parts are made again: the canvases go back on them (drawing is still held). */
  reattach(): void;
  /** Drawing resumes on the new device. */
  restored(): void;
}

export class DeviceKeeper {
  parts!: DeviceParts;
  private restoring: Promise<void> | null = null;
  disposed = false;
  readonly losses = { count: 0, lastReason: '' };

  constructor(
    private readonly options: EngineOptions,
    private readonly events: DeviceEvents,
  ) {}

  async open(): Promise<void> {
    const session = await GpuSession.open(this.options);
    this.parts = this.events.build(session);
    session.device.lost.then((info) => {
      session.lost = true;
      if (!this.disposed && this.parts.session === session) void this.recover(`${info.reason}: ${info.message}`);
    });
  }

  /** A device loss is being recovered from: nothing draws meanwhile. */
  get recovering(): boolean {
    return this.restoring !== null;
  }

  /** Resolves once a device loss has been recovered from (immediately when none is under way). */
  async restored(): Promise<void> {
    while (this.restoring) await this.restoring;
  }

  private recover(reason: string): Promise<void> {
    this.losses.count++;
    this.losses.lastReason = reason;
    this.restoring = (async () => {
      // every texture died with the device: forget them, then build everything again on a new one
      this.events.lost();
      this.parts.session.uploader.destroy();
      await this.open();
      this.events.reattach();
      this.restoring = null;
      this.events.restored();
    })();
    return this.restoring;
  }

  dispose(): void {
    this.disposed = true;
    const { session, preview, grid, pair } = this.parts;
    grid.destroy();
    pair.destroy();
    preview.destroy();
    preview.release();
    grid.release();
    session.close();
  }
}
