// Deep parts' sample-count view: the host's per-pixel counts as one more (uint) plane, and the display that scales them to the max. Pure.
import type { DecodedImage } from '../host-client/api-types.js';
import type { DisplayParams } from '../../shaders/display-params.js';

/** The counts plane's name: a NUL cannot occur in an EXR channel name (names are NUL-terminated), so it never collides. */
export const SAMPLES_PLANE = '\0samples';

/** False colour zones are EV steps around 18 % grey, the top one starting at +6 EV: the max count lands there. */
const FALSE_COLOUR_TOP = 0.18 * 2 ** 6;

/** The image with its sample counts added as a plane the engines assemble like any other (no copy: the host's buffer). */
export function withSampleCountPlane(image: DecodedImage): DecodedImage {
  const counts = image.deepSampleCounts;
  if (!counts || image.planes.some((p) => p.name === SAMPLES_PLANE)) return image;
  // a buffer of the wrong size would be read out of bounds: show the flattened image without the view instead
  if (counts.byteLength !== image.widthPx * image.heightPx * 4) return image;
  return {
    ...image,
    planes: [
      ...image.planes,
      {
        name: SAMPLES_PLANE,
        pixelType: 'uint',
        xSampling: 1,
        ySampling: 1,
        widthSamples: image.widthPx,
        heightSamples: image.heightPx,
        data: counts,
      },
    ],
  };
}

const maxima = new WeakMap<ArrayBuffer, number>();

/** The largest sample count of a deep image (0 for a flat one), computed once per image. */
export function maxSampleCount(image: DecodedImage): number {
  const counts = image.deepSampleCounts;
  if (!counts) return 0;
  let max = maxima.get(counts);
  if (max === undefined) {
    max = 0;
    for (const n of new Uint32Array(counts)) if (n > max) max = n;
    maxima.set(counts, max);
  }
  return max;
}

/** The sample count at an absolute pixel, or null outside the data window or for a flat image. */
export function sampleCountAt(image: DecodedImage, x: number, y: number): number | null {
  const counts = image.deepSampleCounts;
  const [x0, y0, x1, y1] = image.dataWindow;
  if (!counts || x < x0 || y < y0 || x > x1 || y > y1) return null;
  return new Uint32Array(counts)[(y - y0) * image.widthPx + (x - x0)] ?? null;
}

/**
 * What the tone-map shows for the counts: grey, linear from 0 (black) to the max count (white); with false colour on,
 * the EV zones with the max count in the top zone (each zone below is a halving). Exposure and transform do not apply.
 */
export function samplesDisplay(display: DisplayParams, maxCount: number): DisplayParams {
  const max = Math.max(1, maxCount);
  const scale = display.falseColour ? FALSE_COLOUR_TOP / max : 1 / max;
  return { ...display, exposureEv: Math.log2(scale), offset: 0, gamma: 1, transform: 'linear', channelView: 'rgb', clipping: false };
}
