// A decoded plane's own samples: on the host its buffer may be longer than the plane (PlaneMemory's size classes).

import type { PlaneData } from '../../exr/index.js';
import { PIXEL_TYPE_BYTES } from '../../exr/types.js';
import type { DecodedImage, DecodedPlane } from '../api.js';
import { planeView } from './layout.js';

/** The bytes the plane's samples take at the start of its buffer. */
export function planeByteCount(plane: Pick<DecodedPlane, 'pixelType' | 'widthSamples' | 'heightSamples'>): number {
  return plane.widthSamples * plane.heightSamples * PIXEL_TYPE_BYTES[plane.pixelType];
}

/** The plane's samples, typed for its pixel type: a view on its buffer, never a copy. */
export function planeSamples(plane: DecodedPlane): PlaneData {
  return planeView(plane.pixelType, plane.data, plane.widthSamples * plane.heightSamples);
}

/** An image as a transport serializes it: a plane's data may be a view (the container sends views and buffers alike). */
export type WireImage = Omit<DecodedImage, 'planes'> & { planes: (Omit<DecodedPlane, 'data'> & { data: DecodedPlane['data'] | Uint8Array })[] };

/**
 * The image as the transports send it: each plane's data exactly its bytes (a view when its buffer is longer; the
 * container writes views without a copy), so that the renderer receives buffers of the plane's own length.
 */
export function withExactPlanes(image: DecodedImage): WireImage {
  if (image.planes.every((p) => p.data.byteLength === planeByteCount(p))) return image;
  const planes = image.planes.map((p) => (p.data.byteLength === planeByteCount(p) ? p : { ...p, data: new Uint8Array(p.data, 0, planeByteCount(p)) }));
  return { ...image, planes };
}
