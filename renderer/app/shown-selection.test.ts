// The file, part and layer on screen come from the store; a layer name the part lacks falls back to its first layer.
import { expect, it } from 'vitest';
import type { FileEntry, PartSummary } from '../host-client/api-types.js';
import { createAppStore } from '../state/store.js';
import { playedChoice, shownFile, shownLayer, shownPart } from './shown-selection.js';

const part = (index: number, layers: string[]): PartSummary => ({
  index,
  name: `part${index}`,
  type: 'scanlineimage',
  view: null,
  compression: 'zip',
  dataWindow: [0, 0, 1, 1],
  displayWindow: [0, 0, 1, 1],
  channels: layers.flatMap((l) =>
    ['R', 'G', 'B'].map((c) => ({ name: l ? `${l}.${c}` : c, pixelType: 'half' as const, xSampling: 1, ySampling: 1 })),
  ),
  layers: layers.map((l) => ({ name: l, view: null, channels: ['R', 'G', 'B'].map((c) => (l ? `${l}.${c}` : c)) })),
  tiled: false,
  levelMode: null,
  levelCount: 1,
  hasPreview: false,
});
const file: FileEntry = {
  id: 'a',
  folderId: 'f',
  relativePath: 'a.exr',
  name: 'a.exr',
  sizeBytes: 1,
  mtimeMs: 0,
  status: 'ok',
  summary: { widthPx: 2, heightPx: 2, multipart: true, views: [], parts: [part(0, ['']), part(1, ['diffuse', 'specular'])] },
};

it('finds the file, part and layer on screen, and what playback decodes of them', () => {
  const store = createAppStore();
  expect(shownFile(store.getState())).toBeUndefined();
  expect(playedChoice(store.getState())).toBeNull();
  store.setState((s) => ({
    library: { ...s.library, files: [file] },
    image: { ...s.image, currentFileId: 'a', part: 1, layer: 'specular' },
  }));
  const s = store.getState();
  expect(shownFile(s)).toBe(file);
  expect(shownPart(s)?.name).toBe('part1');
  expect(shownLayer(s)?.name).toBe('specular');
  expect(playedChoice(s)).toMatchObject({ part: 1 });
  store.setState((t) => ({ image: { ...t.image, layer: 'no such layer' } }));
  expect(shownLayer(store.getState())?.name).toBe('diffuse');
});
