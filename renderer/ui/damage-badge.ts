// What a grid cell (and the preview) says of a damaged file whose thumbnail was made of the chunks that could be read, and
// of a file still being written, shown as its chunks land.
import type { RenderProgress, ThumbnailMissing } from '../host-client/api-types.js';

/** The cell's tooltip: how much is missing, that it is hatched, the codec's reason and what to do. */
export function damageTitle(name: string, missing: ThumbnailMissing): string {
  const lost = missing.chunksTotal - missing.chunksRead;
  return (
    `${name} is damaged: ${lost} of ${missing.chunksTotal} chunks could not be read and are hatched in its thumbnail ` +
    `(${missing.reason}). Open it to see what can be read; copy or render it again to see all of it.`
  );
}

/** The label of a file still being written: "rendering… 34 of 57 chunks". */
export function renderingLabel(progress: RenderProgress): string {
  return `rendering… ${progress.chunksPresent} of ${progress.chunksTotal} chunks`;
}

/** Its tooltip: what is shown, that the rest is hatched, and that it refreshes as the writer goes on. */
export function renderingTitle(name: string, progress: RenderProgress): string {
  return (
    `${name} is still being written: ${progress.chunksPresent} of ${progress.chunksTotal} chunks are there, the rest hatched. ` +
    'It refreshes as more land; the label goes when the file is complete.'
  );
}
