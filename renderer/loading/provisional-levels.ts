// Small first levels handed to the engine (first-level.ts) are provisional: until a finer level of the image replaces
// them, any show that finds one in the GPU cache (a layer or channel switched back to during the refinement, a device
// restored under its upload) refines it, sharing a refinement already under way rather than asking the host again.
import { imageKeyString, type ImageKey } from '../gpu/engine-types.js';
import type { FetchedImage } from './plane-fetcher.js';

interface Refinement {
  /** The planes the small level came with: its finer level brings the same. */
  channels: readonly string[];
  fetch: () => Promise<FetchedImage>;
  /** The finer level being fetched: the host holds it for one request, so every show waiting for it shares this one. */
  underWay: Promise<FetchedImage> | null;
}

/** What one engine may hold small of one image. */
interface Provisional {
  engine: object;
  refinements: Refinement[];
}

const sameChannels = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((c) => b.includes(c));

export class ProvisionalLevels {
  /** By imageKeyString. */
  private readonly images = new Map<string, Provisional>();

  /**
   * `fetched` goes to `engine` as `key`'s planes. A small first level (one that comes with `refine`) makes the image
   * provisional; any other level of it is another size, which replaces all the engine held of the image.
   */
  handed(engine: object, key: ImageKey, fetched: FetchedImage): void {
    const keyString = imageKeyString(key);
    if (!fetched.refine) {
      this.images.delete(keyString);
      return;
    }
    let image = this.images.get(keyString);
    if (!image || image.engine !== engine) this.images.set(keyString, (image = { engine, refinements: [] }));
    const channels = fetched.image.planes.map((p) => p.name);
    image.refinements = [
      ...image.refinements.filter((r) => !sameChannels(r.channels, channels)),
      { channels, fetch: fetched.refine, underWay: null },
    ];
  }

  /**
   * The finer level of `channels` of `key`, to show in place of the small level `engine` may hold; null when it holds
   * none. One under way that brings those planes is shared; else the refinement that came with the small level is asked
   * for (again, when one before was abandoned), or, where no small level came with all of them, `fetchFiner`.
   */
  finer(engine: object, key: ImageKey, channels: readonly string[], fetchFiner: () => Promise<FetchedImage>): Promise<FetchedImage> | null {
    const image = this.images.get(imageKeyString(key));
    if (!image || image.engine !== engine) return null;
    const covering = image.refinements.filter((r) => channels.every((c) => r.channels.includes(c)));
    let refinement = covering.find((r) => r.underWay) ?? covering[0];
    if (!refinement) {
      refinement = { channels: [...channels], fetch: fetchFiner, underWay: null };
      image.refinements.push(refinement);
    }
    return refinement.underWay ?? start(refinement);
  }

  /** The file changed on disk (the engine forgot it): what was under way brings its previous version. */
  forgetFile(fileId: string): void {
    for (const keyString of [...this.images.keys()]) if (keyString.startsWith(`${fileId}#`)) this.images.delete(keyString);
  }
}

/** The refinement asked for; once it settles the next show asks again (a level nobody took is not kept in memory). */
function start(refinement: Refinement): Promise<FetchedImage> {
  const underWay = refinement.fetch();
  refinement.underWay = underWay;
  const settled = (): void => {
    if (refinement.underWay === underWay) refinement.underWay = null;
  };
  underWay.then(settled, settled);
  return underWay;
}
