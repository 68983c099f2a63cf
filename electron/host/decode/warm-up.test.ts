// The worker warm-up decodes every compression the writer makes without throwing (its speed-up is a benchmark figure).
import { describe, expect, it } from 'vitest';
import { warmUpCodec, warmUpDecoder } from './warm-up.js';

describe('warmUpDecoder', () => {
  it('decodes its images and sums them into thumbnail bins without an error, and says how long it took', () => {
    // the codec's own errors would be swallowed by warmUpDecoder: the inner run must not meet one
    expect(() => warmUpCodec()).not.toThrow();
    const ms = warmUpDecoder();
    expect(ms).toBeGreaterThan(0);
    expect(Number.isFinite(ms)).toBe(true);
  });
});

describe('the DWAA warm-up image', () => {
  it('is a DWAA file the codec decodes', async () => {
    const { ExrReader, memorySource } = await import('../../exr/index.js');
    const { WARM_UP_DWAA_BASE64 } = await import('./warm-up-dwa.js');
    const reader = ExrReader.open(memorySource(Buffer.from(WARM_UP_DWAA_BASE64, 'base64')));
    expect(reader.parts[0]!.compression).toBe('dwaa');
    const image = reader.decode();
    expect(image.channels.map((c) => c.name)).toEqual(['A', 'B', 'G', 'R']);
    expect(image.widthPx * image.heightPx).toBe(128 * 64);
  });
});
