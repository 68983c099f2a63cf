// What a grid cell says of a damaged file whose thumbnail was made of the chunks that could be read.
import type { ThumbnailMissing } from '../host-client/api-types.js';

/** The cell's tooltip: how much is missing, that it is hatched, the codec's reason and what to do. */
export function damageTitle(name: string, missing: ThumbnailMissing): string {
  const lost = missing.chunksTotal - missing.chunksRead;
  return (
    `${name} is damaged: ${lost} of ${missing.chunksTotal} chunks could not be read and are hatched in its thumbnail ` +
    `(${missing.reason}). Open it to see what can be read; copy or render it again to see all of it.`
  );
}
