// The Statistics of an image the page holds reduced: level 0's figures from the host in the layer's slots, with the
// level named; the level on screen where the host cannot measure (said why); nothing at all for a cancelled request.
import { describe, expect, it } from 'vitest';
import { CANCELLED_MESSAGE } from '../../contract/host-api.js';
import { floatToHalf } from '../../codec/index.js';
import type { DecodedImage, LevelStatistics, LevelStatisticsRequest } from '../host-client/api-types.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { createAppStore, storeActions } from '../state/store.js';
import type { Region } from '../../shaders/compare-cpu.js';
import { HIST_BINS } from '../../shaders/display-params.js';
import { statisticsFigures, type StatisticsJob } from './statistics-figures.js';

/** A 2 × 1 reduced level of a 8 × 4 image: R = 1, 3; G = 2, 4; no B. */
const reduced: DecodedImage = {
  fileId: 'big',
  part: 0,
  lx: 0,
  ly: 0,
  dataWindow: [0, 0, 1, 0],
  displayWindow: [0, 0, 1, 0],
  widthPx: 2,
  heightPx: 1,
  source: 'decode',
  timings: {} as DecodedImage['timings'],
  reduced: { factor: 4, from: 'box-filter', fullWidthPx: 8, fullHeightPx: 4, over: 'side', limit: 4 },
  planes: [
    ['G', [2, 4]],
    ['R', [1, 3]],
  ].map(([name, values]) => ({
    name: name as string,
    pixelType: 'half' as const,
    xSampling: 1,
    ySampling: 1,
    widthSamples: 2,
    heightSamples: 1,
    data: Uint16Array.from(values as number[], floatToHalf).buffer,
  })),
};
const level0: Region = { x0: 0, y0: 0, widthPx: 8, heightPx: 4 };
const hostFigures = (request: LevelStatisticsRequest): LevelStatistics => ({
  fileId: request.fileId,
  part: 0,
  region: [0, 0, 7, 3],
  channels: request.channels.map((name, i) => ({ name, n: 32, mean: 10 + i, m2: 64, min: -1, max: 50 + i, nan: i, inf: 0 })),
  ...(request.histogram ? { histogram: Array.from({ length: 4 * HIST_BINS }, (_, i) => i % 3) } : {}),
  missingPx: 0,
  timings: { wallMs: 1500, decodeMs: 900, statsMs: 400, chunks: 12, tasks: 2 },
});

function job(over: Partial<StatisticsJob> = {}): { job: StatisticsJob; asked: LevelStatisticsRequest[] } {
  const asked: LevelStatisticsRequest[] = [];
  const store = createAppStore();
  const engine = { statistics: async () => null } as unknown as ViewEngine;
  return {
    asked,
    job: {
      s: store.getState(),
      engine,
      a: reduced,
      aChoice: { slots: ['R', 'G', null, null], mode: 'direct' },
      layerName: '',
      b: null,
      bChoice: null,
      source: { kind: 'a' },
      aRegion: level0,
      bRegion: null,
      union: level0,
      bShift: [0, 0],
      cpu: () => ({ a: { rgba: new Float32Array([1, 2, 0, 1, 3, 4, 0, 1]), x0: 0, y0: 0, widthPx: 2, heightPx: 1 }, b: null }),
      levelStatistics: async (r) => (asked.push(r), hostFigures(r)),
      ...over,
    },
  };
}

describe('Statistics of an image shown reduced', () => {
  it("are level 0's, measured on the host, in the layer's slots, with its histogram and the level named", async () => {
    const { job: j, asked } = job();
    const got = (await statisticsFigures(j))!;
    expect(asked).toEqual([{ fileId: 'big', part: 0, channels: ['R', 'G'], histogram: ['R', 'G', null] }]);
    expect(got.report.path).toBe('host');
    expect(got.report.rows.map((r) => [r.name, r.n, r.min, r.max, r.mean, r.nan])).toEqual([
      ['R', 32, -1, 50, 10, 0],
      ['G', 32, -1, 51, 11, 1],
    ]);
    expect(got.report.rows[0]!.sd).toBeCloseTo(Math.sqrt(64 / 32), 12);
    expect(got.report.measuredOn).toMatch(/^level 0 \(8×4 px\), read chunk by chunk on the host: 12 chunks in 1\.5 s/);
    expect(got.histogram?.length).toBe(4 * HIST_BINS);
    expect(got.histogram?.[4]).toBe(1);
  });

  it('ask for a rectangle of level 0 (no histogram), and for the whole image again for the auto range', async () => {
    const store = createAppStore();
    storeActions(store).setInspect({ region: { x0: 2, y0: 1, widthPx: 3, heightPx: 2 } });
    const { job: j, asked } = job({ s: store.getState() });
    const got = (await statisticsFigures(j))!;
    expect(got.report.whole).toBe(false);
    expect(asked[0]).toEqual({ fileId: 'big', part: 0, channels: ['R', 'G'], region: { xPx: 2, yPx: 1, widthPx: 3, heightPx: 2 } });
    expect(got.histogram).toBeNull();
    expect((await got.wholeRows())?.map((r) => r.max)).toEqual([50, 51]);
    // the same request as the whole image's own (histogram and all): the host answers it from what it kept
    expect(asked[1]).toEqual({ fileId: 'big', part: 0, channels: ['R', 'G'], histogram: ['R', 'G', null] });
  });

  it('are of the level on screen where the host cannot measure, saying why', async () => {
    const { job: j } = job({
      levelStatistics: async () => {
        throw new Error('big.exr: disk gone');
      },
    });
    const got = (await statisticsFigures(j))!;
    expect(got.report.path).toBe('cpu');
    expect(got.report.rows.map((r) => [r.name, r.min, r.max])).toEqual([
      ['R', 1, 3],
      ['G', 2, 4],
    ]);
    expect(got.report.measuredOn).toBe(
      'the 1/4 level on screen (2×1 of 8×4 px): level 0 could not be measured on the host (big.exr: disk gone)',
    );
  });

  it('of Y/RY/BY colour are of the level on screen, without asking the host', async () => {
    const { job: j, asked } = job({ aChoice: { slots: ['R', 'G', null, null], mode: 'yc' } });
    const got = (await statisticsFigures(j))!;
    expect(asked).toEqual([]);
    expect(got.report.measuredOn).toMatch(/: Y\/RY\/BY colour is measured on the level on screen$/);
  });

  it('are nothing when the host request was cancelled by a newer run', async () => {
    const { job: j } = job({
      levelStatistics: async () => {
        throw new Error(`${CANCELLED_MESSAGE}: request level-stats-1`);
      },
    });
    expect(await statisticsFigures(j)).toBeNull();
  });

  it('of an image shown whole never ask the host', async () => {
    const { reduced: _, ...whole } = reduced;
    const { job: j, asked } = job({ a: whole, aRegion: { x0: 0, y0: 0, widthPx: 2, heightPx: 1 } });
    const got = (await statisticsFigures(j))!;
    expect(asked).toEqual([]);
    expect(got.report.path).toBe('cpu');
    expect(got.report.measuredOn).toBeUndefined();
  });
});
