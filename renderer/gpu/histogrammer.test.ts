// Unit tests of the histogram runner's queue against a scripted fake device: one pass at a time, the newest request
// waiting, superseded results dropped except within a stream of playback frames (else a full queue shows none).
import { describe, expect, it, vi } from 'vitest';
import { HISTOGRAM_BYTES } from '../../shaders/passes.js';
import type { ShaderKit } from '../../shaders/pipelines.js';
import { Histogrammer, type HistogramEncode } from './histogrammer.js';

// WebGPU's enums as numbers, where Node has no WebGPU globals; hoisted, since the shader modules read them on import
vi.hoisted(() => {
  const g = globalThis as Record<string, unknown>;
  g.GPUBufferUsage ??= { MAP_READ: 1, MAP_WRITE: 2, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 64, STORAGE: 128 };
  g.GPUMapMode ??= { READ: 1, WRITE: 2 };
  g.GPUShaderStage ??= { VERTEX: 1, FRAGMENT: 2, COMPUTE: 4 };
});

/** A device whose readbacks resolve when the test says; each pass writes its number into bin 0. */
function fakeKit() {
  const maps: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const readBytes = new Uint32Array(HISTOGRAM_BYTES / 4);
  let submits = 0;
  let lastPass = 0;
  const device = {
    createBuffer: (d: { usage: number }) => ({
      mapAsync: () => new Promise<void>((resolve, reject) => maps.push({ resolve: () => { readBytes[0] = lastPass; resolve(); }, reject })),
      getMappedRange: () => readBytes.buffer,
      unmap: () => {},
      usage: d.usage,
    }),
    createCommandEncoder: () => ({ copyBufferToBuffer: () => {}, finish: () => ({}) }),
    queue: { submit: () => { submits++; } },
  };
  return {
    kit: { device } as unknown as ShaderKit,
    maps,
    submits: () => submits,
    pass: (n: number): HistogramEncode => () => { lastPass = n; },
  };
}

/** Lets a resolved readback's callbacks run. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('Histogrammer', () => {
  it('runs one pass at a time and delivers an unsuperseded result', async () => {
    const f = fakeKit();
    const h = new Histogrammer(f.kit);
    const got: number[] = [];
    h.run(f.pass(1), (b) => got.push(b[0]!));
    expect(f.submits()).toBe(1);
    f.maps.shift()!.resolve();
    await settle();
    expect(got).toEqual([1]);
  });

  it('drops a result a newer request supersedes, and only the newest of several waiting runs', async () => {
    const f = fakeKit();
    const h = new Histogrammer(f.kit);
    const got: number[] = [];
    h.run(f.pass(1), (b) => got.push(b[0]!));
    h.run(f.pass(2), (b) => got.push(b[0]!));
    h.run(f.pass(3), (b) => got.push(b[0]!));
    expect(f.submits()).toBe(1);
    f.maps.shift()!.resolve();
    await settle();
    expect(got).toEqual([]);
    expect(f.submits()).toBe(2);
    f.maps.shift()!.resolve();
    await settle();
    expect(got).toEqual([3]);
  });

  it('within a stream, every readback is shown even when each resolves after the next request (a full GPU queue)', async () => {
    const f = fakeKit();
    const h = new Histogrammer(f.kit);
    const got: number[] = [];
    h.run(f.pass(1), (b) => got.push(b[0]!), true);
    for (let frame = 2; frame <= 6; frame++) {
      h.run(f.pass(frame), (b) => got.push(b[0]!), true);
      f.maps.shift()!.resolve();
      await settle();
    }
    // passes 1..5 each finished with the next frame waiting; all were delivered, pass 6 is still counting
    expect(got).toEqual([1, 2, 3, 4, 5]);
    f.maps.shift()!.resolve();
    await settle();
    expect(got).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a stream result superseded by a request of another kind (a mode change) is dropped', async () => {
    const f = fakeKit();
    const h = new Histogrammer(f.kit);
    const got: number[] = [];
    h.run(f.pass(1), (b) => got.push(b[0]!), true);
    h.run(f.pass(2), (b) => got.push(b[0]!), false);
    f.maps.shift()!.resolve();
    await settle();
    expect(got).toEqual([]);
    f.maps.shift()!.resolve();
    await settle();
    expect(got).toEqual([2]);
  });

  it('a failed readback runs the waiting request instead of leaving it stuck', async () => {
    const f = fakeKit();
    const h = new Histogrammer(f.kit);
    const got: number[] = [];
    h.run(f.pass(1), (b) => got.push(b[0]!));
    h.run(f.pass(2), (b) => got.push(b[0]!));
    f.maps.shift()!.reject(new Error('device lost'));
    await settle();
    expect(f.submits()).toBe(2);
    f.maps.shift()!.resolve();
    await settle();
    expect(got).toEqual([2]);
  });
});
