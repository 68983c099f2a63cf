// The CPU copy of an image's planes: the pixel inspector and the CPU path read them. It grows by the planes each
// show fetched (the same image's planes merge); an image that stops being kept gives its planes back for reuse.
import type { DecodedImage, DecodedPlane } from '../host-client/api-types.js';
import type { ImageKey } from '../gpu/engine-types.js';

const sameImage = (d: DecodedImage | null, key: ImageKey): boolean => !!d && d.fileId === key.fileId && d.part === key.part;
/** The same image at another size: a reduced level replaced by a finer one (first-level.ts), whose planes never merge. */
const resized = (d: DecodedImage | null, e: DecodedImage): boolean => !!d && (d.widthPx !== e.widthPx || d.heightPx !== e.heightPx);

/** `have`'s planes of the same image, with `incoming`'s in place of any of the same name; `incoming` alone for another image. */
export function mergePlanes(have: DecodedImage | null, incoming: DecodedImage): DecodedImage {
  if (!have || !sameImage(have, incoming) || have === incoming || resized(have, incoming)) return incoming;
  return { ...incoming, planes: [...have.planes.filter((p) => !incoming.planes.some((q) => q.name === p.name)), ...incoming.planes] };
}

/** Of `channels`, those `copy` lacks for the image `key`. */
export function lacking(copy: DecodedImage | null, key: ImageKey, channels: readonly string[]): string[] {
  const have = copy && sameImage(copy, key) ? copy : null;
  return channels.filter((c) => !have?.planes.some((p) => p.name === c));
}

export interface CpuCopyHost {
  get(): DecodedImage | null;
  set(image: DecodedImage): void;
  /** Where planes no longer kept go (the transport's pool); null where an engine still reads them (the CPU path). */
  release(): ((planes: DecodedPlane[]) => void) | null;
}

/** The CPU copy of the image on screen. */
export class CpuCopy {
  /** A file whose copy is of its previous version (it changed on disk): kept on screen until the new planes replace it. */
  private stale: string | null = null;

  constructor(private readonly host: CpuCopyHost) {}

  lacks(key: ImageKey, channels: readonly string[]): string[] {
    return key.fileId === this.stale ? [...channels] : lacking(this.host.get(), key, channels);
  }

  keep(incoming: DecodedImage): void {
    const cur = this.host.get();
    const replaced = incoming.fileId === this.stale;
    if (replaced) this.stale = null;
    // planes of the previous version never merge with the new one's
    const merged = replaced ? incoming : mergePlanes(cur, incoming);
    if (cur && (replaced || !sameImage(cur, incoming) || resized(cur, incoming)) && cur !== incoming) this.host.release()?.(cur.planes);
    this.host.set(merged);
  }

  /**
   * A crop of the image held (a live image's updated tiles) copied into its planes in place; the copy is set again as a
   * new object so that what reads it sees the change. False when the crop does not fit what is held (another image, a
   * stale or reduced copy, a plane missing or subsampled): the caller fetches the image again.
   */
  patch(crop: DecodedImage): boolean {
    const cur = this.host.get();
    if (!cur || !sameImage(cur, crop) || crop.fileId === this.stale || cur.reduced || crop.reduced) return false;
    const x = crop.dataWindow[0] - cur.dataWindow[0],
      y = crop.dataWindow[1] - cur.dataWindow[1];
    if (x < 0 || y < 0 || x + crop.widthPx > cur.widthPx || y + crop.heightPx > cur.heightPx) return false;
    const pairs = cur.planes.map((to) => ({ to, from: crop.planes.find((p) => p.name === to.name) }));
    const fits = (p: DecodedPlane): boolean => p.xSampling === 1 && p.ySampling === 1;
    if (pairs.some(({ to, from }) => !from || from.pixelType !== to.pixelType || !fits(from) || !fits(to))) return false;
    for (const { to, from } of pairs) copyRows(from!, to, x, y);
    this.host.set({ ...cur, planes: [...cur.planes] });
    return true;
  }

  /** The file changed on disk: what is held of it is its previous version, every plane to be fetched again. */
  forget(fileId: string): void {
    this.stale = fileId;
  }
}

/** `from`'s rows into `to` at (x, y) in samples (same pixel type, unsubsampled). */
function copyRows(from: DecodedPlane, to: DecodedPlane, x: number, y: number): void {
  const view = (p: DecodedPlane) => (p.pixelType === 'half' ? new Uint16Array(p.data) : new Uint32Array(p.data));
  const src = view(from),
    dst = view(to);
  for (let row = 0; row < from.heightSamples; row++) {
    const at = (y + row) * to.widthSamples + x;
    dst.set(src.subarray(row * from.widthSamples, (row + 1) * from.widthSamples), at);
  }
}
