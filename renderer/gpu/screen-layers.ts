// What goes on screen: the shown layer and the compare reference, each got through the layer obtainer and put in place
// only while it is still the one wanted (a later show wins), then the histogram, the frame and whoever follows it told;
// a live image's crop patched into the shown layer; what a changed file or a lost device leaves behind, forgotten.
import type { DecodedImage } from '../host-client/api-types.js';
import type { LayerTexture } from '../../shaders/passes.js';
import type { LayerChoice } from '../model/layer-choice.js';
import { emptyShowReport, imageKeyString, type ImageKey, type OnScreen, type ShowReport } from './engine-types.js';
import type { GpuSession } from './gpu-session.js';
import { LayerObtainer } from './layer-obtainer.js';
import type { DeviceKeeper } from './device-keeper.js';
import type { PlaybackRing } from './playback-ring.js';
import type { RegionTexture } from './region-texture.js';
import type { TextureCache } from './texture-cache.js';

/** What the screen's layers are put in place with, and who is told when they change. */
export interface ScreenLayersContext {
  screen: OnScreen;
  keeper: DeviceKeeper;
  cache: TextureCache;
  region: RegionTexture;
  /** Playback's ring, whose slots are on screen while a sequence plays. */
  ring: PlaybackRing;
  /** The device's session, or null while a lost one is being replaced. */
  session(): GpuSession | null;
  /** What is on screen changed (its pixels too: `contentChanged`): the histogram counts it again, a frame is drawn. */
  changed(contentChanged?: boolean): void;
  /** Resolves when the frame drawn after `t0` is on screen, with the time it took (ms). */
  nextFrame(t0: number): Promise<number>;
  /** After every show that went on screen. */
  shown(): void;
}

export class ScreenLayers {
  /** show() calls so far: only the latest one's layer goes on screen. */
  private showCalls = 0;
  /** Gets layers onto the GPU (see layer-obtainer.ts). */
  readonly obtainer: LayerObtainer;

  constructor(private readonly c: ScreenLayersContext) {
    this.obtainer = new LayerObtainer(c.keeper, c.cache);
  }

  /** See GpuEngine.show. */
  async show(key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null): Promise<ShowReport> {
    const c = this.c;
    const t0 = performance.now();
    const report = emptyShowReport(imageKeyString(key));
    const call = ++this.showCalls;
    const shown = await this.obtainer.obtain(key, choice, fetched, report, true);
    // a later show is what is wanted on screen: this one, landing after it (an upload outlasting the later one's cache
    // hit), stays in the cache and never replaces it (the page would show one frame and measure another)
    if (!shown || call !== this.showCalls) return report;
    c.region.keepOnly(key);
    c.screen.current = shown;
    c.cache.settleRetired();
    c.changed();
    c.shown();
    report.showMs = await c.nextFrame(t0);
    return report;
  }

  /** See GpuEngine.setReference. */
  async setReference(key: ImageKey | null, choice: LayerChoice | null, fetched: DecodedImage | null): Promise<ShowReport | null> {
    const c = this.c;
    if (!key || !choice) {
      c.screen.reference = null;
      c.changed();
      return null;
    }
    const report = emptyShowReport(imageKeyString(key));
    const t0 = performance.now();
    const shown = await this.obtainer.obtain(key, choice, fetched, report);
    if (!shown) return report;
    c.screen.reference = shown;
    c.cache.settleRetired();
    c.changed();
    report.showMs = performance.now() - t0;
    return report;
  }

  /** See GpuEngine.prepareLayer. */
  async prepareLayer(key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null): Promise<LayerTexture | null> {
    return (await this.obtainer.obtain(key, choice, fetched, emptyShowReport(imageKeyString(key))))?.layer ?? null;
  }

  /** See GpuEngine.clearImage. */
  clearImage(): void {
    this.c.screen.current = null;
    this.c.changed();
  }

  /** See GpuEngine.updateRegion. */
  updateRegion(key: ImageKey, choice: LayerChoice, patch: DecodedImage): boolean {
    const session = this.c.session();
    if (!session || !this.c.cache.patch(session, key, choice, patch)) return false;
    this.c.changed(true);
    return true;
  }

  /** The file changed on disk: its textures go (a show uploads it again). */
  forgetFile(fileId: string): void {
    this.c.cache.forgetFile(fileId);
    if (this.c.region.crop?.key.fileId === fileId) this.c.region.forget();
  }

  /** The device was lost with every texture on it: nothing is on screen until shown again on the new one. */
  forgetDevice(): void {
    this.c.cache.forgetAll();
    this.c.region.forget();
    this.c.ring.forget();
    this.c.screen.current = this.c.screen.reference = null;
  }
}
