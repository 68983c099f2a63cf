// The click path's middle: asks the engine which planes it lacks, fetches those (with any the CPU copy lacks) in one
// request, and hands them to the engine. Should the engine lose planes in between (evicted, device lost), it asks again.
import type { DecodedImage } from '../host-client/api-types.js';
import { PlanesLackingError, type ImageKey } from '../gpu/engine-types.js';
import type { LayerChoice } from '../model/layer-choice.js';
import type { FetchedImage, FetchPriority } from './plane-fetcher.js';

/** An engine that receives: says what it lacks, then takes the planes with the call. */
export interface Receiver {
  lacks(key: ImageKey, choice: LayerChoice): string[];
}

export type Fetch = (key: ImageKey, channels: readonly string[], priority: FetchPriority) => Promise<FetchedImage>;

const ATTEMPTS = 3;

/**
 * `give` is called with the fetched planes (null when the engine lacked none); `alsoFor` are planes fetched in the
 * same request for another keeper (the CPU copy) when the engine lacks something. Returns what `give` returned and
 * the fetch, if one was made.
 */
export async function handOver<T>(
  engine: Receiver,
  fetch: Fetch,
  key: ImageKey,
  choice: LayerChoice,
  priority: FetchPriority,
  give: (image: DecodedImage | null) => Promise<T>,
  alsoFor: readonly string[] = [],
): Promise<{ value: T; fetched: FetchedImage | null }> {
  for (let attempt = 1; ; attempt++) {
    const lacks = engine.lacks(key, choice);
    const fetched = lacks.length ? await fetch(key, [...new Set([...lacks, ...alsoFor])], priority) : null;
    try {
      return { value: await give(fetched?.image ?? null), fetched };
    } catch (e) {
      if (!(e instanceof PlanesLackingError) || attempt >= ATTEMPTS) throw e;
    }
  }
}
