// How the engine gets a layer onto the GPU: from the texture cache, through a device loss (built again on the new
// device from what was handed over), counting the images the GPU refused and saying how large an image it can hold.
import type { DecodedImage, FitWithin } from '../host-client/api-types.js';
import type { LayerChoice } from '../model/layer-choice.js';
import type { DeviceKeeper } from './device-keeper.js';
import type { ImageKey, Shown, ShowReport } from './engine-types.js';
import { fitWithinFor, GpuRefusedError } from './gpu-guard.js';
import type { TextureCache } from './texture-cache.js';

export class LayerObtainer {
  /** Images the GPU could not hold (over its limits or the budget, out of memory), and the last one's reason. */
  refusals = { count: 0, last: '' };

  constructor(
    private readonly keeper: DeviceKeeper,
    private readonly cache: TextureCache,
  ) {}

  /** The layer from the cache, or built from the planes it holds and `fetched`; null once the engine went away. */
  async obtain(
    key: ImageKey,
    choice: LayerChoice,
    fetched: DecodedImage | null,
    report: ShowReport,
    replacesCurrent = false,
  ): Promise<Shown | null> {
    await this.keeper.restored();
    if (this.keeper.disposed) return null;
    const session = this.keeper.parts.session;
    try {
      const shown = await this.cache.obtain(session, key, choice, fetched, report, replacesCurrent);
      if (shown || !session.lost || this.keeper.disposed) return shown;
    } catch (e) {
      if (e instanceof GpuRefusedError) this.refusals = { count: this.refusals.count + 1, last: e.message };
      if (this.keeper.disposed || !(e instanceof Error && e.name === 'GpuDeviceLostError')) throw e;
    }
    // the device was lost under the upload: build on the new one from what was handed over (or say what it lacks)
    await session.device.lost;
    return this.obtain(key, choice, fetched, report, replacesCurrent);
  }

  /** The largest image shown whole (this device's texture limit, the cache's budget): larger ones are fetched reduced. */
  fitWithin(): FitWithin {
    return fitWithinFor(this.keeper.parts.session.device.limits.maxTextureDimension2D, this.cache.budgetBytes);
  }
}
