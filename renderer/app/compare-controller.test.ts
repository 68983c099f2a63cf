// The Comparison figures follow the pair on screen: a run still computing an earlier pair (the reference against
// itself, say, all zeros) never lands after the current image changed.
import { describe, expect, it } from 'vitest';
import type { DecodedImage, FileEntry, PartSummary } from '../host-client/api-types.js';
import { emptyChannelMetrics, type MetricsTotals, type Region } from '../../shaders/compare-cpu.js';
import type { Timed } from '../gpu/analysis.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { createAppStore, storeActions } from '../state/store.js';
import { CompareController } from './compare-controller.js';
import { isCurrent, statisticsSubject } from '../model/subject.js';

const part: PartSummary = {
  index: 0,
  name: '',
  type: 'scanlineimage',
  view: null,
  compression: 'zip',
  dataWindow: [0, 0, 1, 1],
  displayWindow: [0, 0, 1, 1],
  channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'half', xSampling: 1, ySampling: 1 })),
  layers: [{ name: '', view: null, channels: ['R', 'G', 'B'] }],
  tiled: false,
  levelMode: null,
  levelCount: 1,
  hasPreview: false,
};
const file = (id: string): FileEntry => ({
  id,
  folderId: 'f',
  relativePath: `${id}.exr`,
  name: `${id}.exr`,
  sizeBytes: 1,
  mtimeMs: 0,
  status: 'ok',
  summary: { widthPx: 2, heightPx: 2, multipart: false, views: [], parts: [part] },
});
const decoded = (fileId: string): DecodedImage => ({
  fileId,
  part: 0,
  lx: 0,
  ly: 0,
  dataWindow: [0, 0, 1, 1],
  displayWindow: [0, 0, 1, 1],
  widthPx: 2,
  heightPx: 2,
  source: 'decode',
  timings: {} as DecodedImage['timings'],
  planes: ['R', 'G', 'B'].map((name) => ({
    name,
    pixelType: 'half' as const,
    xSampling: 1,
    ySampling: 1,
    widthSamples: 2,
    heightSamples: 2,
    data: new ArrayBuffer(8),
  })),
});
/** Metrics where every channel's four pixels differ by `d`. */
const totals = (d: number, region: Region): Timed<MetricsTotals> => ({
  gpuMs: 0.1,
  wallMs: 1,
  value: {
    region,
    pixelsDiffer: d ? 4 : 0,
    channels: [0, 1, 2, 3].map(() => ({
      ...emptyChannelMetrics(),
      n: 4,
      sum: 4 * d,
      sumAbs: 4 * d,
      sumSq: 4 * d * d,
      maxAbs: d,
      maxAt: 0,
      differ: d ? 4 : 0,
      peak: 1,
    })),
  },
});

describe('CompareController', () => {
  it('drops the figures of a pair that is no longer on screen', async () => {
    const store = createAppStore();
    const actions = storeActions(store);
    const runs: { region: Region; land: (t: Timed<MetricsTotals>) => void }[] = [];
    let shown = 'a';
    const engine = {
      shownFileId: () => shown,
      lacks: () => ['R', 'G', 'B'],
      setReference: async () => null,
      setCompareView: () => {},
      metrics: (region: Region) => new Promise<Timed<MetricsTotals>>((land) => runs.push({ region, land })),
      statistics: async () => null,
    } as unknown as ViewEngine;
    const files = [file('a'), file('b')];
    const compare = new CompareController({
      engine: () => engine,
      store,
      actions,
      fetch: async (key) => ({
        image: decoded(key.fileId),
        hostSource: 'decode',
        host: decoded(key.fileId).timings,
        transferBytes: 0,
        transferMs: 0,
      }),
      currentPart: () => files.find((f) => f.id === store.getState().image.currentFileId)?.summary?.parts[0],
    });
    compare.start();
    actions.setFiles('f', files);
    actions.selectFile('a');
    actions.setImage({ decoded: decoded('a') });
    const settle = () => new Promise((r) => setTimeout(r, 0));

    // a is made the reference while it is shown: the first run compares a with itself
    actions.setCompare({ reference: { file: files[0]!, part: 0, layer: '', channel: 'rgb' }, mode: 'error' });
    await settle();
    expect(runs).toHaveLength(1);
    // b is clicked before that run's figures are back; the GPU still shows a
    actions.selectFile('b');
    actions.setImage({ decoded: decoded('b') });
    runs[0]!.land(totals(0, runs[0]!.region));
    await settle();
    expect(store.getState().compare.metrics, 'a against itself must not land while b is on screen').toBeNull();

    // b lands on the GPU: its own run's figures are shown
    shown = 'b';
    void compare.analyse();
    await settle();
    expect(runs).toHaveLength(2);
    runs[1]!.land(totals(0.25, runs[1]!.region));
    await settle();
    const m = store.getState().compare.metrics;
    expect(m?.a).toContain('b.exr');
    expect(m?.rows[0]!.summary.meanAbsError).toBeCloseTo(0.25);
    expect(m?.pixelsDiffer).toBe(4);
  });

  it('never shows Statistics of another mode or image as current: they carry the subject they were computed for', async () => {
    const store = createAppStore();
    const actions = storeActions(store);
    const engine = {
      shownFileId: () => store.getState().image.currentFileId,
      lacks: () => ['R', 'G', 'B'],
      setReference: async () => null,
      setCompareView: () => {},
      // no GPU reductions: the CPU reference computes from the planes
      metrics: async () => null,
      statistics: async () => null,
    } as unknown as ViewEngine;
    const files = [file('a'), file('b')];
    const compare = new CompareController({
      engine: () => engine,
      store,
      actions,
      fetch: async (key) => ({
        image: decoded(key.fileId),
        hostSource: 'decode',
        host: decoded(key.fileId).timings,
        transferBytes: 0,
        transferMs: 0,
      }),
      currentPart: () => files.find((f) => f.id === store.getState().image.currentFileId)?.summary?.parts[0],
    });
    compare.start();
    actions.setFiles('f', files);
    actions.selectFile('b');
    actions.setImage({ decoded: decoded('b') });
    const settle = () => new Promise((r) => setTimeout(r, 0));
    const current = () => isCurrent(store.getState().inspect.stats, statisticsSubject(store.getState()));

    actions.setCompare({ reference: { file: files[0]!, part: 0, layer: '', channel: 'rgb' }, mode: 'absolute-error' });
    for (let i = 0; i < 5 && !current(); i++) await settle();
    expect(store.getState().inspect.stats?.source).toBe('Absolute error (A − B) · A: b.exr · (base), B: a.exr');
    expect(current()).toBe(true);

    // another mode: the absolute error's figures are not this mode's, until its own land
    actions.setCompare({ mode: 'relative-squared-error' });
    expect(current(), 'absolute-error figures under relative squared error').toBe(false);
    for (let i = 0; i < 5 && !current(); i++) await settle();
    expect(current()).toBe(true);
    expect(store.getState().inspect.stats?.source).toBe('Relative squared error (A − B) · A: b.exr · (base), B: a.exr');

    // another image: the figures go at once
    actions.selectFile('a');
    expect(store.getState().inspect.stats).toBeNull();
  });
  it('measures a file still being written over the chunks there, saying how many, and again as more land', async () => {
    const store = createAppStore();
    const actions = storeActions(store);
    const engine = {
      shownFileId: () => store.getState().image.currentFileId,
      lacks: () => [],
      setCompareView: () => {},
      metrics: async () => null,
      statistics: async () => null,
    } as unknown as ViewEngine;
    const rendering = { ...file('r'), status: 'incomplete' as const, rendering: { chunksPresent: 1, chunksTotal: 2 } };
    const compare = new CompareController({
      engine: () => engine,
      store,
      actions,
      fetch: async () => {
        throw new Error('nothing is fetched here');
      },
      currentPart: () => rendering.summary!.parts[0],
    });
    compare.start();
    actions.setFiles('f', [rendering]);
    actions.selectFile('r');
    // the top row written (1.0 in every sample), the bottom row not yet (its pixels read as 0)
    const withRows = (chunksPresent: number): DecodedImage => {
      const image = decoded('r');
      for (const p of image.planes) new Uint16Array(p.data).fill(0x3c00, 0, chunksPresent * 2);
      if (chunksPresent === 2) return image;
      const incomplete = { chunksPresent, chunksTotal: 2 };
      return { ...image, missing: { regions: [[0, 1, 1, 1]], reason: 'not written yet', chunksRead: 1, chunksTotal: 2, incomplete } };
    };
    actions.setImage({ decoded: withRows(1) });
    await compare.analyse();
    const stats = store.getState().inspect.stats!;
    expect(stats.rendering).toEqual({ chunksPresent: 1, chunksTotal: 2 });
    expect(stats.missingPx).toBe(2);
    expect(stats.rows[0]).toMatchObject({ n: 2, min: 1, max: 1, mean: 1 });

    // the file is whole: measured again over every pixel, no longer said to be rendering
    actions.setImage({ decoded: withRows(2) });
    await compare.analyse();
    const whole = store.getState().inspect.stats!;
    expect(whole.rendering).toBeUndefined();
    expect(whole.missingPx).toBe(0);
    expect(whole.rows[0]).toMatchObject({ n: 4, min: 1, max: 1 });
  });
});
