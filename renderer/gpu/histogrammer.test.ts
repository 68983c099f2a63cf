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
      mapAsync: () =>
        new Promise<void>((resolve, reject) =>
          maps.push({
            resolve: () => {
              readBytes[0] = lastPass;
              resolve();
            },
            reject,
          }),
        ),
      getMappedRange: () => readBytes.buffer,
      unmap: () => {},
      usage: d.usage,
    }),
    createCommandEncoder: () => ({ copyBufferToBuffer: () => {}, finish: () => ({}) }),
    queue: {
      submit: () => {
        submits++;
      },
    },
  };
  return {
    kit: { device } as unknown as ShaderKit,
    maps,
    submits: () => submits,
    pass:
      (n: number): HistogramEncode =>
      () => {
        lastPass = n;
      },
  };
}

/** Lets a settled readback's callbacks run. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/**
 * A runner on the fake device and the bin-0 values it delivered; `request(n, stream)` asks for a pass that writes n,
 * `readBack()` resolves the oldest readback pending (`fail()` rejects it), each then letting its callbacks run.
 */
function harness() {
  const f = fakeKit();
  const h = new Histogrammer(f.kit);
  const got: number[] = [];
  const request = (n: number, stream?: boolean): void => h.run(f.pass(n), (b) => got.push(b[0]!), stream);
  const readBack = async (): Promise<void> => {
    f.maps.shift()!.resolve();
    await settle();
  };
  const fail = async (): Promise<void> => {
    f.maps.shift()!.reject(new Error('device lost'));
    await settle();
  };
  return { submits: f.submits, got, request, readBack, fail };
}

describe('Histogrammer', () => {
  it('runs one pass at a time and delivers an unsuperseded result', async () => {
    const { submits, got, request, readBack } = harness();
    request(1);
    expect(submits()).toBe(1);
    await readBack();
    expect(got).toEqual([1]);
  });

  it('drops a result a newer request supersedes, and only the newest of several waiting runs', async () => {
    const { submits, got, request, readBack } = harness();
    request(1);
    request(2);
    request(3);
    expect(submits()).toBe(1);
    await readBack();
    expect(got).toEqual([]);
    expect(submits()).toBe(2);
    await readBack();
    expect(got).toEqual([3]);
  });

  it('within a stream, every readback is shown even when each resolves after the next request (a full GPU queue)', async () => {
    const { got, request, readBack } = harness();
    request(1, true);
    for (let frame = 2; frame <= 6; frame++) {
      request(frame, true);
      await readBack();
    }
    // passes 1..5 each finished with the next frame waiting; all were delivered, pass 6 is still counting
    expect(got).toEqual([1, 2, 3, 4, 5]);
    await readBack();
    expect(got).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a stream result superseded by a request of another kind (a mode change) is dropped', async () => {
    const { got, request, readBack } = harness();
    request(1, true);
    request(2, false);
    await readBack();
    expect(got).toEqual([]);
    await readBack();
    expect(got).toEqual([2]);
  });

  it('a failed readback runs the waiting request instead of leaving it stuck', async () => {
    const { submits, got, request, readBack, fail } = harness();
    request(1);
    request(2);
    await fail();
    expect(submits()).toBe(2);
    await readBack();
    expect(got).toEqual([2]);
  });
});
