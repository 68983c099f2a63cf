// A plane in a longer reused buffer is viewed, uploaded and sent as exactly its own samples.
import { describe, expect, it } from 'vitest';
import { decodeContainer, encodeContainer } from '../../server/container.js';
import type { DecodedImage, DecodedPlane } from '../../contract/host-api.js';
import { planeByteLength } from './layout.js';
import { plainPlaneData, planeSamples, withExactPlanes } from './plane-bytes.js';

function image(planes: DecodedPlane[]): DecodedImage {
  const timings = { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs: 0, bytesRead: 0 };
  return {
    fileId: 'f',
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [0, 0, 2, 1],
    displayWindow: [0, 0, 2, 1],
    widthPx: 3,
    heightPx: 2,
    planes,
    source: 'decode',
    timings,
  };
}

/** A half plane of 3 x 2 samples 1..6 at the start of a buffer of `bufferBytes`, the rest stale. */
function halfPlane(name: string, bufferBytes: number): DecodedPlane {
  const data = new SharedArrayBuffer(bufferBytes);
  new Uint8Array(data).fill(0xee);
  new Uint16Array(data, 0, 6).set([1, 2, 3, 4, 5, 6]);
  return { name, pixelType: 'half', xSampling: 1, ySampling: 1, widthSamples: 3, heightSamples: 2, data };
}

describe('plane bytes', () => {
  it('views only the plane of a longer buffer', () => {
    const plane = halfPlane('R', 64);
    expect(planeByteLength(plane)).toBe(12);
    expect([...planeSamples(plane)]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(planeSamples(plane).buffer).toBe(plane.data);
  });

  it('sends exactly each plane through the container, and exact images as they are', () => {
    const exact = image([halfPlane('G', 12)]);
    expect(withExactPlanes(exact)).toBe(exact);
    const sent = decodeContainer(encodeContainer(withExactPlanes(image([halfPlane('R', 4096), halfPlane('G', 12)])))) as DecodedImage;
    for (const plane of sent.planes) {
      expect(plane.data.byteLength).toBe(12);
      expect([...new Uint16Array(plane.data)]).toEqual([1, 2, 3, 4, 5, 6]);
    }
  });

  it('copies a shared plane into a plain buffer of its own bytes, and passes a plain one as it is', () => {
    const shared = halfPlane('R', 4096);
    const copy = plainPlaneData(shared);
    expect(copy).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint16Array(copy)]).toEqual([1, 2, 3, 4, 5, 6]);
    const plain = { ...shared, data: copy };
    expect(plainPlaneData(plain)).toBe(copy);
  });
});
