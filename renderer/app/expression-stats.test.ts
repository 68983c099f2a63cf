// The Statistics of an expression layer name the expression as their source, not the layer it was picked over, and
// measure its result (the CPU reference where the GPU gives no figures).
import { describe, expect, it } from 'vitest';
import { floatToHalf } from '../../codec/index.js';
import type { DecodedImage, FileEntry, PartSummary } from '../host-client/api-types.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { expressionPick } from '../model/layer-choice.js';
import { isCurrent, statisticsSubject } from '../model/subject.js';
import { createAppStore, storeActions } from '../state/store.js';
import { CompareController } from './compare-controller.js';
import { shownLayerText } from './expression-label.js';

const part: PartSummary = {
  index: 0,
  name: '',
  type: 'scanlineimage',
  view: null,
  compression: 'zip',
  dataWindow: [0, 0, 1, 0],
  displayWindow: [0, 0, 1, 0],
  channels: ['B', 'G', 'R'].map((name) => ({ name, pixelType: 'half', xSampling: 1, ySampling: 1 })),
  layers: [{ name: '', view: null, channels: ['B', 'G', 'R'] }],
  tiled: false,
  levelMode: null,
  levelCount: 1,
  hasPreview: false,
};
const file: FileEntry = {
  id: 'a',
  folderId: 'f',
  relativePath: 'a.exr',
  name: 'a.exr',
  sizeBytes: 1,
  mtimeMs: 0,
  status: 'ok',
  summary: { widthPx: 2, heightPx: 1, multipart: false, views: [], parts: [part] },
};
/** 2 x 1 pixels: R = 1, 4; G = 2, 5; B = 3, 6. */
const VALUES: Record<string, number[]> = { R: [1, 4], G: [2, 5], B: [3, 6] };
const decoded: DecodedImage = {
  fileId: 'a',
  part: 0,
  lx: 0,
  ly: 0,
  dataWindow: [0, 0, 1, 0],
  displayWindow: [0, 0, 1, 0],
  widthPx: 2,
  heightPx: 1,
  source: 'decode',
  timings: {} as DecodedImage['timings'],
  planes: ['B', 'G', 'R'].map((name) => ({
    name,
    pixelType: 'half' as const,
    xSampling: 1,
    ySampling: 1,
    widthSamples: 2,
    heightSamples: 1,
    data: Uint16Array.from(VALUES[name]!, floatToHalf).buffer,
  })),
};

describe('Statistics of an expression layer', () => {
  it('name the expression as the source and measure its result', async () => {
    const store = createAppStore();
    const actions = storeActions(store);
    const engine = {
      shownFileId: () => store.getState().image.currentFileId,
      lacks: () => [],
      setReference: async () => null,
      setCompareView: () => {},
      // no GPU reductions: the CPU reference computes from the planes
      metrics: async () => null,
      statistics: async () => null,
    } as unknown as ViewEngine;
    const compare = new CompareController({
      engine: () => engine,
      store,
      actions,
      fetch: async () => ({ image: decoded, hostSource: 'decode', host: decoded.timings, transferBytes: 0, transferMs: 0 }),
      currentPart: () => part,
    });
    compare.start();
    actions.setFiles('f', [file]);
    actions.selectFile('a');
    actions.setChannel(expressionPick('(R + G + B) / 3'));
    actions.setImage({ decoded });
    const settle = () => new Promise((r) => setTimeout(r, 0));
    const current = () => isCurrent(store.getState().inspect.stats, statisticsSubject(store.getState()));
    void compare.analyse();
    for (let i = 0; i < 10 && !current(); i++) await settle();
    expect(current()).toBe(true);
    const stats = store.getState().inspect.stats!;
    expect(stats.source).toBe('A: a.exr · expr: (R + G + B) / 3');
    expect(stats.rows.map((r) => [r.name, r.min, r.max])).toEqual([['value', 2, 5]]);
    expect(stats.rows[0]!.mean).toBeCloseTo(3.5, 6);
  });

  it('a layer that is not an expression keeps its name', () => {
    expect(shownLayerText('diffuse', { slots: ['diffuse.R', null, null, null], mode: 'y' })).toBe('diffuse');
    expect(shownLayerText('', null)).toBe('(base)');
  });
});
