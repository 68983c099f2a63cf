import { describe, expect, it } from 'vitest';
import { loadStages, stageTotals } from './diagnostics-report.js';

const host = { readMs: 1.5, decompressMs: 4, unpackMs: 0.5, queueMs: 0.25, hostMs: 7, bytesRead: 2_000_000 };

describe('loadStages', () => {
  it('lists the host, transfer and GPU stages in the order they run, each with its kind and bytes', () => {
    const stages = loadStages({
      host,
      transferBytes: 6_000_000,
      transferMs: 2,
      gpu: { uploadBytes: 6_000_000, uploadWallMs: 0.75, mipGpuMs: 0.125, toneMapGpuMs: 0.096 },
    });
    expect(stages.map((s) => [s.key, s.kind, s.ms])).toEqual([
      ['queue', 'waiting', 0.25],
      ['read', 'moving', 1.5],
      ['decompress', 'computing', 4],
      ['unpack', 'computing', 0.5],
      ['transfer', 'moving', 2],
      ['upload', 'moving', 0.75],
      ['mip', 'computing', 0.125],
      ['toneMap', 'computing', 0.096],
    ]);
    expect(stages.find((s) => s.key === 'read')!.bytes).toBe(2_000_000);
    expect(stages.find((s) => s.key === 'upload')!.bytes).toBe(6_000_000);
    expect(new Set(stages.map((s) => s.label)).size).toBe(stages.length);
  });

  it('marks what was not measured as null rather than zero', () => {
    const stages = loadStages({
      host: null,
      transferBytes: 0,
      transferMs: 0,
      gpu: { uploadBytes: 10, uploadWallMs: NaN, mipGpuMs: NaN, toneMapGpuMs: 1 },
    });
    expect(stages.filter((s) => s.ms === null).map((s) => s.key)).toEqual(['queue', 'read', 'decompress', 'unpack', 'upload', 'mip']);
    expect(stages.find((s) => s.key === 'transfer')!.ms).toBe(0);
  });

  it('has no GPU stages on the CPU path', () => {
    const stages = loadStages({ host, transferBytes: 1, transferMs: 1, gpu: null });
    expect(stages.map((s) => s.key)).toEqual(['queue', 'read', 'decompress', 'unpack', 'transfer']);
  });
});

describe('stageTotals', () => {
  it('sums the measured stages and splits moving bytes from computing', () => {
    const stages = loadStages({
      host,
      transferBytes: 1,
      transferMs: 2,
      gpu: { uploadBytes: 1, uploadWallMs: NaN, mipGpuMs: 0.5, toneMapGpuMs: 0.25 },
    });
    expect(stageTotals(stages)).toEqual({
      totalMs: 0.25 + 1.5 + 4 + 0.5 + 2 + 0.5 + 0.25,
      movingMs: 3.5,
      computingMs: 5.25,
      waitingMs: 0.25,
    });
  });
});
