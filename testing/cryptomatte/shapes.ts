// A Cryptomatte test image one can look at: a floor, two discs and a box with soft (partly covered) edges, written by
// the project's writer as the spec (v1.2) says (MurmurHash3 IDs, ranks sorted by coverage, an inline manifest), with a
// beauty whose colours follow the objects. For the viewer's e2e: hover, pick and export a matte.

import { join } from 'node:path';
import { writeExrFile, type WriteChannel } from '../../codec/index.js';
import { idOfName, idToFloat } from '../../shaders/cryptomatte/hash.js';
import { layerKey, manifestJson } from './fixtures.js';

export const SHAPE_NAMES = ['floor', 'bunny', 'chair "red"', 'Zürich café'] as const;
export type ShapeName = (typeof SHAPE_NAMES)[number];

/** Where each object is, in pixels of a 320 × 200 image: discs (centre, radius) and a box (corners). */
export const SHAPES = {
  widthPx: 320,
  heightPx: 200,
  bunny: { cx: 70, cy: 90, r: 50 },
  chair: { x0: 130, y0: 40, x1: 200, y1: 150 },
  cafe: { cx: 260, cy: 100, r: 45 },
} as const;

const BEAUTY: Record<ShapeName, [number, number, number]> = {
  floor: [0.18, 0.18, 0.2],
  bunny: [0.8, 0.75, 0.7],
  'chair "red"': [0.7, 0.08, 0.05],
  'Zürich café': [0.1, 0.3, 0.7],
};

/** Coverage of a pixel by a shape whose signed distance (px, negative inside) at the pixel's centre is `d`: a 1 px ramp. */
const coverageOf = (d: number): number => Math.fround(Math.min(1, Math.max(0, 0.5 - d)));

/** Per pixel: (name, coverage) pairs, most first; the floor takes what the objects leave. */
export function shapePixels(): (readonly [ShapeName, number])[][] {
  const { widthPx, heightPx, bunny, chair, cafe } = SHAPES;
  const pixels: (readonly [ShapeName, number])[][] = [];
  for (let y = 0; y < heightPx; y++)
    for (let x = 0; x < widthPx; x++) {
      const px = x + 0.5,
        py = y + 0.5;
      const box = Math.max(chair.x0 - px, px - chair.x1, chair.y0 - py, py - chair.y1);
      const objects: [ShapeName, number][] = [
        ['bunny', coverageOf(Math.hypot(px - bunny.cx, py - bunny.cy) - bunny.r)],
        ['chair "red"', coverageOf(box)],
        ['Zürich café', coverageOf(Math.hypot(px - cafe.cx, py - cafe.cy) - cafe.r)],
      ];
      const covered = objects.filter(([, c]) => c > 0);
      const rest = Math.fround(1 - covered.reduce((a, [, c]) => a + c, 0));
      const pairs = rest > 0 ? [...covered, ['floor', rest] as [ShapeName, number]] : covered;
      pairs.sort((a, b) => b[1] - a[1]);
      pixels.push(pairs);
    }
  return pixels;
}

/** Writes `shapes.exr` (RGBA beauty, crypto_object in two rank groups, inline manifest) into `dir`; returns its path. */
export function writeShapesFixture(dir: string): string {
  const { widthPx, heightPx } = SHAPES;
  const count = widthPx * heightPx;
  const pixels = shapePixels();
  const planes = (n: number) => Array.from({ length: n }, () => new Float32Array(count));
  const beauty = planes(4);
  const ranks = planes(8);
  pixels.forEach((pairs, i) => {
    beauty[3]![i] = 1;
    pairs.forEach(([name, coverage], rank) => {
      for (let c = 0; c < 3; c++) beauty[c]![i] = beauty[c]![i]! + BEAUTY[name][c]! * coverage;
      if (rank >= 4) return;
      ranks[rank * 2]![i] = idToFloat(idOfName(name));
      ranks[rank * 2 + 1]![i] = coverage;
    });
  });
  const channels: WriteChannel[] = [
    ...['R', 'G', 'B', 'A'].map((c, k) => ({ name: c, pixelType: 'float' as const, data: beauty[k]! })),
    ...[0, 1].flatMap((g) =>
      ['R', 'G', 'B', 'A'].map((c, k) => ({ name: `crypto_object0${g}.${c}`, pixelType: 'float' as const, data: ranks[g * 4 + k]! })),
    ),
  ];
  const key = `cryptomatte/${layerKey('crypto_object')}`;
  const file = join(dir, 'shapes.exr');
  writeExrFile(file, [
    {
      compression: 'zip',
      dataWindow: { xMin: 0, yMin: 0, xMax: widthPx - 1, yMax: heightPx - 1 },
      channels,
      attributes: {
        [`${key}/name`]: { type: 'string', value: 'crypto_object' },
        [`${key}/hash`]: { type: 'string', value: 'MurmurHash3_32' },
        [`${key}/conversion`]: { type: 'string', value: 'uint32_to_float32' },
        [`${key}/manifest`]: { type: 'string', value: manifestJson(SHAPE_NAMES) },
      },
    },
  ]);
  return file;
}
