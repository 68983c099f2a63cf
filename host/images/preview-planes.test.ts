// The planes of a file's first preview from its summary: the first flat part's first layer, each plane's own bytes.
import { expect, it } from 'vitest';
import type { FileEntry, PartSummary } from '../../contract/host-api.js';
import { largestPreviewPlanes, previewPlaneBytes } from './preview-planes.js';

function part(index: number, type: PartSummary['type'], layers: string[][], float: PartSummary['channels'] = []): PartSummary {
  return {
    index,
    name: `p${index}`,
    type,
    view: null,
    compression: 'zip',
    dataWindow: [0, 0, 99, 49],
    displayWindow: [0, 0, 99, 49],
    channels: layers
      .flat()
      .map((name) => float.find((c) => c.name === name) ?? { name, pixelType: 'half' as const, xSampling: 1, ySampling: 1 }),
    layers: layers.map((channels, i) => ({ name: `l${i}`, view: null, channels })),
    tiled: false,
    levelMode: null,
    levelCount: 1,
    hasPreview: false,
  };
}

const entry = (parts: PartSummary[], status: FileEntry['status'] = 'ok') => ({
  status,
  summary: { widthPx: 100, heightPx: 50, multipart: parts.length > 1, views: [], parts },
});

it("takes the first flat part's first layer, in header order, with each channel's sample size and sampling", () => {
  const chroma = [{ name: 'BY', pixelType: 'float' as const, xSampling: 2, ySampling: 2 }];
  const deep = part(0, 'deepscanline', [['R', 'G', 'B']]);
  const flat = part(1, 'scanlineimage', [['BY', 'Y'], ['diffuse.R']], chroma);
  // Y: 100x50 half; BY: 50x25 float
  expect(previewPlaneBytes(entry([deep, flat]))).toEqual([50 * 25 * 4, 100 * 50 * 2]);
  expect(previewPlaneBytes(entry([deep]))).toEqual([]);
  expect(previewPlaneBytes(entry([flat], 'error'))).toEqual([]);
  expect(previewPlaneBytes({ status: 'ok', summary: undefined })).toEqual([]);
});

it('picks the file whose first preview takes the most bytes', () => {
  const rgb = entry([part(0, 'scanlineimage', [['R', 'G', 'B']])]);
  const rgba = entry([part(0, 'tiledimage', [['R', 'G', 'B', 'A']])]);
  expect(largestPreviewPlanes([rgb, rgba, rgb])).toEqual([10_000, 10_000, 10_000, 10_000]);
  expect(largestPreviewPlanes([])).toEqual([]);
});
