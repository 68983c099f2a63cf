// The click path hands the engine what it lacks in one fetch, fetches nothing for a layer it holds, and asks again
// when the engine lost planes between saying what it lacked and taking them.
import { describe, expect, it } from 'vitest';
import type { DecodedImage } from '../host-client/api-types.js';
import { PlanesLackingError, type ImageKey } from '../gpu/engine-types.js';
import type { LayerChoice } from '../model/layer-choice.js';
import { handOver, type Fetch } from './hand-over.js';

const RGBA: LayerChoice = { slots: ['R', 'G', 'B', 'A'], mode: 'direct' };
const key: ImageKey = { fileId: 'f', part: 0 };

function image(names: readonly string[]): DecodedImage {
  return {
    fileId: 'f',
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [0, 0, 0, 0],
    displayWindow: [0, 0, 0, 0],
    widthPx: 1,
    heightPx: 1,
    source: 'decode',
    timings: { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs: 0, bytesRead: 0 },
    planes: names.map((name) => ({
      name,
      pixelType: 'half' as const,
      xSampling: 1,
      ySampling: 1,
      widthSamples: 1,
      heightSamples: 1,
      data: new ArrayBuffer(2),
    })),
  };
}

function recordingFetch(): { fetch: Fetch; asked: string[][] } {
  const asked: string[][] = [];
  const fetch: Fetch = async (_key, channels) => {
    asked.push([...channels]);
    return { image: image(channels), hostSource: 'decode', host: image([]).timings, transferBytes: 0, transferMs: 0 };
  };
  return { fetch, asked };
}

describe('handOver', () => {
  it('fetches what the engine lacks with what the CPU copy lacks, in one request', async () => {
    const { fetch, asked } = recordingFetch();
    let given: DecodedImage | null = null;
    const r = await handOver(
      { lacks: () => ['A'] },
      fetch,
      key,
      RGBA,
      'preview',
      async (im) => {
        given = im;
        return 'shown';
      },
      ['R', 'A'],
    );
    expect(asked).toEqual([['A', 'R']]);
    expect(given!.planes.map((p) => p.name)).toEqual(['A', 'R']);
    expect(r.value).toBe('shown');
    expect(r.fetched?.image).toBe(given);
  });

  it('fetches nothing when the engine holds the layer', async () => {
    const { fetch, asked } = recordingFetch();
    const r = await handOver({ lacks: () => [] }, fetch, key, RGBA, 'preview', async (im) => im, ['R']);
    expect(asked).toEqual([]);
    expect(r).toEqual({ value: null, fetched: null });
  });

  it('asks again when planes went from the engine in between, and gives up after three tries', async () => {
    const { fetch, asked } = recordingFetch();
    let lacks = ['A'];
    let tries = 0;
    const give = async (im: DecodedImage | null) => {
      tries++;
      const missing = lacks.filter((n) => !im?.planes.some((p) => p.name === n));
      if (tries === 1) {
        lacks = ['R', 'A'];
        throw new PlanesLackingError(['R']);
      }
      if (missing.length) throw new PlanesLackingError(missing);
      return tries;
    };
    expect((await handOver({ lacks: () => lacks }, fetch, key, RGBA, 'preview', give)).value).toBe(2);
    expect(asked).toEqual([['A'], ['R', 'A']]);
    const never = async () => {
      throw new PlanesLackingError(['G']);
    };
    await expect(handOver({ lacks: () => ['G'] }, fetch, key, RGBA, 'preview', never)).rejects.toBeInstanceOf(PlanesLackingError);
    expect(asked.length).toBe(2 + 3);
  });

  it('lets any other failure through at once', async () => {
    const { fetch, asked } = recordingFetch();
    await expect(
      handOver({ lacks: () => ['R'] }, fetch, key, RGBA, 'preview', async () => {
        throw new Error('the codec refused');
      }),
    ).rejects.toThrow('the codec refused');
    expect(asked.length).toBe(1);
  });
});
