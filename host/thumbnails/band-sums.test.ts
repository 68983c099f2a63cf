// The shared-buffer thumbnail: bands summed into their slots, the last one in making the thumbnail, and the main
// thread's fallback when a band ran twice; both equal the thumbnail one task makes from the whole level.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExrReader, openFileSource } from '../../codec/index.js';
import { planBands, levelLayout } from '../decode/layout.js';
import { tempDir, writeRgb } from '../../testing/host/test-files.js';
import { bandIsIn, countBandIn, layoutSums, resetCounters } from './band-sums.js';
import { bandBinRows } from './binned-decode.js';
import { channelsOf } from './channels.js';
import { planThumbnail, thumbnailBand, thumbnailJob, type ThumbnailBandResult } from './job.js';
import { thumbnailFromShared } from './on-pool.js';
import { sharedToneMapMemo, toneMapHalfRgba } from './tone-map.js';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const signal = { aborted: false };

describe('band sums in a shared buffer', () => {
  it('counts each band in once: only the one that completes the set is last', () => {
    const layout = layoutSums(3, 8, 4, [
      { tyMin: 0, tyMax: 1 },
      { tyMin: 1, tyMax: 3 },
      { tyMin: 3, tyMax: 3 },
    ]);
    expect(layout.bands.map((b) => b.length)).toEqual([16, 24, 8]);
    // 4 counter words (the count, a flag a band), then the slots
    expect(layout.countersBytes).toBe(16);
    expect(layout.bands.map((b) => b.byteOffset)).toEqual([16, 16 + 3 * 16 * 8, 16 + 3 * 40 * 8]);
    const buffer = new SharedArrayBuffer(layout.byteLength);
    resetCounters(buffer, layout);
    // band 1 twice (run again after its worker died): counted once, so band 2 is the last
    expect([
      countBandIn(buffer, layout, 1),
      bandIsIn(buffer, layout, 1),
      countBandIn(buffer, layout, 1),
      countBandIn(buffer, layout, 0),
    ]).toEqual([false, true, false, false]);
    expect([bandIsIn(buffer, layout, 2), countBandIn(buffer, layout, 2)]).toEqual([false, true]);
    resetCounters(buffer, layout);
    expect([bandIsIn(buffer, layout, 0), countBandIn(buffer, layout, 0)]).toEqual([false, false]);
  });

  it('makes the same thumbnail in the last band as in one task, and on the main thread when that band did not finish', () => {
    const path = join(dir.path, 'bands.exr');
    writeRgb(path, 203, 150, (x, y) => [Math.sin(x * 0.1) * 3, (x * y) % 11, y / 50, 0.25 + (x % 4) / 8], {
      compression: 'zip',
      withAlpha: true,
    });
    const source = openFileSource(path);
    try {
      const reader = ExrReader.open(source);
      const plan = planThumbnail(reader.parts, 41);
      const channels = channelsOf(plan.choice);
      const rowsOfBands = planBands(levelLayout(plan.part, 0, 0, channels), 4);
      expect(rowsOfBands.length).toBeGreaterThan(2);
      const layout = layoutSums(
        channels.length,
        plan.widthPx,
        plan.heightPx,
        rowsOfBands.map((rows) => bandBinRows(plan.part, plan.level, plan.heightPx, rows)),
      );
      const buffer = new SharedArrayBuffer(layout.byteLength);
      const runBand = (band: number) =>
        thumbnailBand(
          reader,
          {
            path,
            part: 0,
            lx: 0,
            ly: 0,
            channels,
            widthPx: plan.widthPx,
            heightPx: plan.heightPx,
            rows: rowsOfBands[band]!,
            sums: { buffer, layout, band, choice: plan.choice },
          },
          signal,
        );
      const { result: whole } = thumbnailJob({ path, longSidePx: 41 }, { signal });
      const closeToWhole = (rgbaHalf: ArrayBuffer) => {
        const a = new Uint16Array(rgbaHalf);
        const b = new Uint16Array(whole.rgbaHalf);
        // bands' sums are added in another order than one task's: at most one step of the last half bit apart
        expect(a.length).toBe(b.length);
        expect(Math.max(...a.map((v, i) => Math.abs(v - b[i]!)))).toBeLessThanOrEqual(1);
      };

      // in reverse order, band 0 twice (as after its worker died): whichever band comes in last makes it, and the
      // second run of band 0 leaves its sums alone
      resetCounters(buffer, layout);
      const order = [...rowsOfBands.map((_, b) => b).reverse(), 0];
      const results: ThumbnailBandResult[] = order.map(runBand);
      expect(results.map((r) => r.made)).toEqual(order.map((b, i) => b === 0 && i === order.length - 2));
      expect(results.at(-1)!.timings.chunks).toBe(0);
      expect(results.filter((r) => r.output).length).toBe(1);
      const made = thumbnailFromShared(plan, channels, buffer, layout, results.slice(0, -1));
      closeToWhole(made.rgbaHalf);

      // the last band's reply was lost (its worker died after counting in): the main thread makes the same one from
      // the slots, which no one changed
      const lost = results.slice(0, -1).map((r) => ({ ...r, made: false, output: undefined }));
      const fallback = thumbnailFromShared(plan, channels, buffer, layout, lost);
      expect(new Uint16Array(fallback.rgbaHalf)).toEqual(new Uint16Array(made.rgbaHalf));
      expect([fallback.widthPx, fallback.heightPx, fallback.source]).toEqual([whole.widthPx, whole.heightPx, whole.source]);
    } finally {
      source.close();
    }
  });

  it('tone-maps in the band that makes the thumbnail when asked, and in the fallback alike, next to the half RGBA', () => {
    const path = join(dir.path, 'view.exr');
    writeRgb(path, 120, 90, (x, y) => [x / 20, Math.cos(y) * 2, (x * y) / 900], { compression: 'piz' });
    const source = openFileSource(path);
    try {
      const reader = ExrReader.open(source);
      const plan = planThumbnail(reader.parts, 30);
      const channels = channelsOf(plan.choice);
      const rowsOfBands = planBands(levelLayout(plan.part, 0, 0, channels), 3);
      const binRows = rowsOfBands.map((rows) => bandBinRows(plan.part, plan.level, plan.heightPx, rows));
      const layout = layoutSums(channels.length, plan.widthPx, plan.heightPx, binRows);
      expect(layout.bands.every((b) => b.byteOffset % 8 === 0)).toBe(true);
      const buffer = new SharedArrayBuffer(layout.byteLength);
      resetCounters(buffer, layout);
      const view = { params: { ...DEFAULT_DISPLAY, exposureEv: 0.5, nanInf: false }, memo: sharedToneMapMemo() };
      const results = rowsOfBands.map((rows, band) =>
        thumbnailBand(
          reader,
          {
            path,
            part: 0,
            lx: 0,
            ly: 0,
            channels,
            widthPx: plan.widthPx,
            heightPx: plan.heightPx,
            rows,
            sums: { buffer, layout, band, choice: plan.choice },
            view,
          },
          signal,
        ),
      );
      const made = thumbnailFromShared(plan, channels, buffer, layout, results, { view });
      const expected = toneMapHalfRgba(new Uint16Array(made.rgbaHalf), plan.widthPx, plan.heightPx, view.params);
      expect(new Uint8ClampedArray(made.rgba8!)).toEqual(expected);
      // the maker's reply lost: the fallback makes both here
      const fallback = thumbnailFromShared(
        plan,
        channels,
        buffer,
        layout,
        results.map((r) => ({ ...r, made: false, output: undefined })),
        { view },
      );
      expect(new Uint8ClampedArray(fallback.rgba8!)).toEqual(expected);
      expect(fallback.timings.toneMapMs).toBeGreaterThanOrEqual(0);
    } finally {
      source.close();
    }
  });
});
