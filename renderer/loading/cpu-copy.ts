// The CPU copy of an image's planes: the pixel inspector and the CPU path read them. It grows by the planes each
// show fetched (the same image's planes merge); an image that stops being kept gives its planes back for reuse.
import type { DecodedImage, DecodedPlane } from '../host-client/api-types.js';
import type { ImageKey } from '../gpu/engine-types.js';

const sameImage = (d: DecodedImage | null, key: ImageKey): boolean => !!d && d.fileId === key.fileId && d.part === key.part;

/** `have`'s planes of the same image, with `incoming`'s in place of any of the same name; `incoming` alone for another image. */
export function mergePlanes(have: DecodedImage | null, incoming: DecodedImage): DecodedImage {
  if (!have || !sameImage(have, incoming) || have === incoming) return incoming;
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
    if (cur && (replaced || !sameImage(cur, incoming)) && cur !== incoming) this.host.release()?.(cur.planes);
    this.host.set(merged);
  }

  /** The file changed on disk: what is held of it is its previous version, every plane to be fetched again. */
  forget(fileId: string): void {
    this.stale = fileId;
  }
}
