// The engine's device and what is made once per device: opened, and after a device loss opened again on a new one,
// with the engine told before (everything on the old device is gone) and after (put its canvases back). What happened
// is said in one line (notice): a loss recovered from or not, and errors no error scope caught.
import type { EngineOptions } from './engine-types.js';
import { lossNotRecoveredNotice, lossRecoveredNotice, uncapturedErrorNotice } from './gpu-guard.js';
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
  /** One line for the person at the screen: what happened to the GPU and what was done about it. */
  notice(message: string): void;
}

/** Waits before each attempt to open a device after a loss (a driver reset may take seconds to let go). */
const REOPEN_DELAYS_MS = [0, 250, 1000, 4000];
/** The same uncaptured error said again only after this long (a frame that fails fails every frame). */
const NOTICE_REPEAT_MS = 5000;

export class DeviceKeeper {
  parts!: DeviceParts;
  private restoring: Promise<void> | null = null;
  disposed = false;
  readonly losses = { count: 0, lastReason: '' };
  readonly uncaptured = { count: 0, lastMessage: '' };
  private lastNotice = { text: '', atMs: -Infinity };

  constructor(
    private readonly options: EngineOptions,
    private readonly events: DeviceEvents,
  ) {}

  async open(): Promise<void> {
    const session = await GpuSession.open(this.options);
    this.parts = this.events.build(session);
    session.device.lost.then((info) => {
      session.lost = true;
      if (!this.disposed && this.parts.session === session)
        void this.recover(info.message ? `${info.reason}: ${info.message}` : info.reason);
    });
    session.device.addEventListener('uncapturederror', (e) => {
      if (session.lost || this.disposed) return;
      const error = (e as GPUUncapturedErrorEvent).error;
      this.uncaptured.count++;
      this.uncaptured.lastMessage = error.message;
      this.notice(uncapturedErrorNotice(error));
    });
  }

  private notice(text: string): void {
    const nowMs = performance.now();
    if (text === this.lastNotice.text && nowMs - this.lastNotice.atMs < NOTICE_REPEAT_MS) return;
    this.lastNotice = { text, atMs: nowMs };
    this.events.notice(text);
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
    // every texture died with the device: forget them (told while `recovering` already says so, and restored() waits),
    // then build everything again on a new one
    this.restoring = Promise.resolve().then(() => this.rebuild(reason));
    this.events.lost();
    this.parts.session.uploader.destroy();
    return this.restoring;
  }

  private async rebuild(reason: string): Promise<void> {
    const failure = await this.reopen();
    if (failure !== null) {
      // nothing to draw with: drawing stays held, the page says so (the CPU path is not swapped in mid-session), and
      // restored() never resolves (it would otherwise spin on a settled promise)
      this.notice(lossNotRecoveredNotice(reason, failure));
      return new Promise<void>(() => {});
    }
    this.events.reattach();
    this.restoring = null;
    this.events.restored();
    this.notice(lossRecoveredNotice(reason));
  }

  /** Opens a device again, a few times apart; null once open, else why the last attempt failed. */
  private async reopen(): Promise<string | null> {
    let why = '';
    for (const delayMs of REOPEN_DELAYS_MS) {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (this.disposed) return 'the view was closed';
      try {
        await this.open();
        return null;
      } catch (e) {
        why = e instanceof Error ? e.message : String(e);
      }
    }
    return why;
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
