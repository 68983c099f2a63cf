// Level 0's statistics measured by the host chunk by chunk: against the page's CPU reference over the pixels as written,
// whole and in a rectangle, half and float, scanline and tiled, with NaN, ±Inf and a damaged file's missing chunk.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExrReader, HALF_TO_FLOAT, floatToHalf, openFileSource, type Box2i } from '../../codec/index.js';
import { writeExrFile } from '../../codec/writer.js';
import type { ChannelFigures, FileEntry, LevelStatistics } from '../../contract/host-api.js';
import { accumulateStat, emptyChannelStats, type ChannelStats } from '../../shaders/compare-cpu.js';
import { HIST_BINS } from '../../shaders/display-params.js';
import { countHistogramPixel } from '../../shaders/tonemap-cpu.js';
import { useHostFixture } from '../../testing/host/test-files.js';
import { forEachRun } from '../decode/stats-task.js';

const W = 300,
  H = 170;
const X0 = -7,
  Y0 = 11;

/** Values with every kind the figures count: ramps, negatives, exact zeros, NaN and ±Inf here and there. */
function valueAt(c: number, x: number, y: number): number {
  if (c === 0 && x === 5 && y === 3) return NaN;
  if (c === 1 && x % 97 === 0 && y % 41 === 0) return Infinity;
  if (c === 2 && x === 250 && y === 160) return -Infinity;
  if (c === 2 && (x + y) % 7 === 0) return 0;
  return [(x - 40) / 37, (y * y) / 900 - 3, ((x * y) % 113) / 7][c]!;
}

const channelNames = ['B', 'G', 'R'];
const slotOf = (name: string): number => ['R', 'G', 'B'].indexOf(name);

function planes(pixelType: 'half' | 'float'): (Uint16Array | Float32Array)[] {
  return [0, 1, 2].map((c) => {
    const out = pixelType === 'half' ? new Uint16Array(W * H) : new Float32Array(W * H);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) out[y * W + x] = pixelType === 'half' ? floatToHalf(valueAt(c, x, y)) : valueAt(c, x, y);
    return out;
  });
}

/** The value the file holds at a pixel (half rounding included). */
const stored = (data: Uint16Array | Float32Array, x: number, y: number): number =>
  data instanceof Uint16Array ? HALF_TO_FLOAT[data[y * W + x]!]! : data[y * W + x]!;

function write(path: string, pixelType: 'half' | 'float', tiled: boolean): (Uint16Array | Float32Array)[] {
  const data = planes(pixelType);
  writeExrFile(path, [
    {
      dataWindow: { xMin: X0, yMin: Y0, xMax: X0 + W - 1, yMax: Y0 + H - 1 },
      compression: 'zip',
      ...(tiled ? { tiles: { xSizePx: 64, ySizePx: 32, levelMode: 'mipmapLevels' as const } } : {}),
      channels: ['R', 'G', 'B'].map((name, c) => ({ name, pixelType, data: data[c]! })),
    },
  ]);
  return data;
}

/** The page's CPU reference over absolute box `b` (inclusive), leaving out pixels in `holes`. */
function reference(data: (Uint16Array | Float32Array)[], b: Box2i, holes: Box2i[] = []): { stats: ChannelStats[]; histogram: Uint32Array } {
  const stats = [0, 1, 2].map(emptyChannelStats);
  const histogram = new Uint32Array(4 * HIST_BINS);
  for (let y = b.yMin; y <= b.yMax; y++)
    for (let x = b.xMin; x <= b.xMax; x++) {
      if (holes.some((h) => x >= h.xMin && x <= h.xMax && y >= h.yMin && y <= h.yMax)) continue;
      const v = [0, 1, 2].map((c) => stored(data[c]!, x - X0, y - Y0));
      v.forEach((value, c) => accumulateStat(stats[c]!, value));
      countHistogramPixel(histogram, v[0]!, v[1]!, v[2]!);
    }
  return { stats, histogram };
}

function expectFigures(got: LevelStatistics, want: { stats: ChannelStats[]; histogram: Uint32Array }): void {
  expect(got.channels.map((c) => c.name)).toEqual(channelNames);
  for (const c of got.channels) {
    const w = want.stats[slotOf(c.name)]!;
    const figures: Partial<ChannelFigures> = { n: w.n, nan: w.nan, inf: w.inf, min: w.n ? w.min : 0, max: w.n ? w.max : 0 };
    expect(c, c.name).toMatchObject(figures);
    expect(c.mean, c.name).toBeCloseTo(w.mean, 10);
    expect(c.m2 / Math.max(1, w.m2), c.name).toBeCloseTo(w.m2 / Math.max(1, w.m2), 9);
  }
  expect(got.histogram).toEqual([...want.histogram]);
}

describe('level 0 measured chunk by chunk', () => {
  const fixture = useHostFixture();

  async function listed(): Promise<FileEntry[]> {
    const folder = (await fixture.host.openFolder(fixture.dir))!;
    return fixture.host.listFiles(folder.id);
  }

  for (const [pixelType, tiled] of [
    ['half', false],
    ['float', true],
    ['half', true],
    ['float', false],
  ] as const) {
    it(`equals the CPU reference over the whole image and a rectangle: ${pixelType}, ${tiled ? 'tiled with MIP levels' : 'scanline ZIP'}`, async () => {
      const data = write(join(fixture.dir, 'img.exr'), pixelType, tiled);
      const [file] = await listed();
      const ask = { fileId: file!.id, part: 0, channels: ['R', 'G', 'B'], histogram: ['R', 'G', 'B'] as [string, string, string] };
      const whole = await fixture.host.levelStatistics(ask);
      expect(whole.region).toEqual([X0, Y0, X0 + W - 1, Y0 + H - 1]);
      expect(whole.missingPx).toBe(0);
      expectFigures(whole, reference(data, { xMin: X0, yMin: Y0, xMax: X0 + W - 1, yMax: Y0 + H - 1 }));
      expect(whole.timings.chunks).toBeGreaterThan(1);
      // a rectangle across chunk and tile seams, running past the data window on the right
      const rect = await fixture.host.levelStatistics({ ...ask, region: { xPx: 50, yPx: 40, widthPx: 400, heightPx: 77 } });
      expect(rect.region).toEqual([50, 40, X0 + W - 1, 116]);
      expectFigures(rect, reference(data, { xMin: 50, yMin: 40, xMax: X0 + W - 1, yMax: 116 }));
    });
  }

  it('leaves out the pixels of a chunk that cannot be read, and counts them', async () => {
    const path = join(fixture.dir, 'img.exr');
    const data = write(path, 'half', false);
    // the fourth chunk (16 lines a ZIP chunk) zeroed: its y and size no longer read
    const bytes = readFileSync(path);
    const starts = chunkStarts(path);
    const sorted = [...starts].sort((a, b) => a - b);
    bytes.fill(0, starts[3]!, sorted.find((s) => s > starts[3]!) ?? bytes.length);
    writeFileSync(path, bytes);
    const [file] = await listed();
    const got = await fixture.host.levelStatistics({ fileId: file!.id, part: 0, channels: ['R', 'G', 'B'], histogram: ['R', 'G', 'B'] });
    const hole: Box2i = { xMin: X0, xMax: X0 + W - 1, yMin: Y0 + 48, yMax: Y0 + 63 };
    expect(got.missingPx).toBe(W * 16);
    expectFigures(got, reference(data, { xMin: X0, yMin: Y0, xMax: X0 + W - 1, yMax: Y0 + H - 1 }, [hole]));
  });

  it('keeps what it measured: asking again reads nothing', async () => {
    write(join(fixture.dir, 'img.exr'), 'float', false);
    const [file] = await listed();
    const ask = { fileId: file!.id, part: 0, channels: ['G'] };
    const first = await fixture.host.levelStatistics(ask);
    const again = await fixture.host.levelStatistics(ask);
    expect(again).toEqual(first);
    expect(first.channels.map((c) => c.name)).toEqual(['G']);
  });

  it('says what is wrong with a request it cannot measure', async () => {
    write(join(fixture.dir, 'img.exr'), 'float', false);
    const [file] = await listed();
    await expect(fixture.host.levelStatistics({ fileId: file!.id, part: 0, channels: ['Z'] })).rejects.toThrow(/has no channel "Z"/);
    await expect(fixture.host.levelStatistics({ fileId: file!.id, part: 3, channels: ['R'] })).rejects.toThrow(/has no part 3/);
  });
});

/** Where each chunk of a single-part file starts, chunk order. */
function chunkStarts(path: string): number[] {
  const source = openFileSource(path);
  try {
    return [...ExrReader.open(source).offsets[0]!];
  } finally {
    source.close();
  }
}

describe('runs of samples outside the holes', () => {
  it('covers exactly the samples outside every hole, for any sampling', () => {
    const region: Box2i = { xMin: -5, yMin: 3, xMax: 20, yMax: 17 };
    const holes: Box2i[] = [
      { xMin: 0, xMax: 4, yMin: 5, yMax: 9 },
      { xMin: 3, xMax: 11, yMin: 8, yMax: 8 },
      { xMin: 18, xMax: 40, yMin: 0, yMax: 30 },
    ];
    for (const [xs, ys] of [
      [1, 1],
      [2, 2],
      [3, 1],
      [1, 4],
    ] as const) {
      const width = Math.floor(region.xMax / xs) - Math.floor((region.xMin - 1) / xs);
      const x0 = Math.ceil(region.xMin / xs) * xs,
        y0 = Math.ceil(region.yMin / ys) * ys;
      const want: number[] = [];
      for (let y = y0, j = 0; y <= region.yMax; y += ys, j++)
        for (let x = x0, i = 0; x <= region.xMax; x += xs, i++)
          if (!holes.some((h) => x >= h.xMin && x <= h.xMax && y >= h.yMin && y <= h.yMax)) want.push(j * width + i);
      const got: number[] = [];
      forEachRun(region, xs, ys, holes, (from, to) => {
        for (let i = from; i < to; i++) got.push(i);
      });
      expect(got, `${xs}×${ys}`).toEqual(want);
    }
  });
});
