// A decoded plane's own samples: on the host its buffer may be longer than the plane (PlaneMemory's size classes).

import type { PlaneData } from '../../codec/index.js';
import type { DecodedImage, DecodedPlane } from '../../contract/host-api.js';
import { planeByteLength, planeView } from './layout.js';

/** The plane's samples, typed for its pixel type: a view on its buffer, never a copy. */
export function planeSamples(plane: DecodedPlane): PlaneData {
  return planeView(plane.pixelType, plane.data, plane.widthSamples * plane.heightSamples);
}

/**
 * The plane's own bytes in an ArrayBuffer of their own, for what cannot take shared memory (IPC, another process):
 * a plain buffer as it is, a shared one copied.
 */
export function plainPlaneData(plane: DecodedPlane): ArrayBuffer {
  return plane.data instanceof ArrayBuffer ? plane.data : new Uint8Array(plane.data, 0, planeByteLength(plane)).slice().buffer;
}

/** An image as a transport serializes it: a plane's data may be a view (the container sends views and buffers alike). */
export type WireImage = Omit<DecodedImage, 'planes'> & {
  planes: (Omit<DecodedPlane, 'data'> & { data: DecodedPlane['data'] | Uint8Array })[];
};

/**
 * The image as the transports send it: each plane's data exactly its bytes (a view when its buffer is longer; the
 * container writes views without a copy), so that the renderer receives buffers of the plane's own length.
 */
export function withExactPlanes(image: DecodedImage): WireImage {
  if (image.planes.every((p) => p.data.byteLength === planeByteLength(p))) return image;
  const planes = image.planes.map((p) =>
    p.data.byteLength === planeByteLength(p) ? p : { ...p, data: new Uint8Array(p.data, 0, planeByteLength(p)) },
  );
  return { ...image, planes };
}
