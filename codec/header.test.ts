import { describe, expect, it } from 'vitest';
import { FIRST_HEADER_READ_BYTES, headersFromPrefix, parseRawHeaders, TruncatedPrefixError } from './header.js';
import { writeExr } from './writer.js';

/** A 256x256 file (128 KB of pixels, stored raw) whose header holds a string attribute of `commentBytes` characters. */
function fileWithComment(commentBytes: number): Uint8Array {
  const data = Uint16Array.from({ length: 256 * 256 }, (_, i) => 0x3c00 + (i & 1023));
  return writeExr([
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: 255, yMax: 255 },
      compression: 'none',
      channels: [{ name: 'Y', pixelType: 'half', data }],
      attributes: { comments: { type: 'string', value: 'x'.repeat(commentBytes) } },
    },
  ]);
}

/** Drives the schedule with reads from `file`, recording the lengths asked. */
function drive(file: Uint8Array): { asked: number[]; result: ReturnType<typeof parseRawHeaders>; prefixBytes: number } {
  const asked: number[] = [];
  const reads = headersFromPrefix(file.length);
  let step = reads.next();
  while (!step.done) {
    asked.push(step.value);
    step = reads.next(file.subarray(0, step.value));
  }
  return { asked, result: step.value.raw, prefixBytes: step.value.prefix.length };
}

describe('headersFromPrefix', () => {
  it('reads the first bytes once when the header fits in them', () => {
    const file = fileWithComment(1000);
    const { asked, result } = drive(file);
    expect(asked).toEqual([FIRST_HEADER_READ_BYTES]);
    expect(result).toEqual(parseRawHeaders(file, file.length));
  });

  it('reads 4x more while the header runs past what was read, never past the file', () => {
    const file = fileWithComment(100_000);
    const { asked, result, prefixBytes } = drive(file);
    expect(asked).toEqual([FIRST_HEADER_READ_BYTES, FIRST_HEADER_READ_BYTES * 4]);
    expect(prefixBytes).toBe(FIRST_HEADER_READ_BYTES * 4);
    expect(result.parts[0]!.find((a) => a.name === 'comments')!.value).toEqual({ type: 'string', value: 'x'.repeat(100_000) });

    const longer = fileWithComment(600_000);
    const schedule = drive(longer).asked;
    expect(schedule.slice(0, -1)).toEqual([FIRST_HEADER_READ_BYTES, FIRST_HEADER_READ_BYTES * 4, FIRST_HEADER_READ_BYTES * 16]);
    expect(schedule.at(-1)).toBe(longer.length);
  });

  it('says a header cut off by the end of the file is cut off, without reading on', () => {
    const cut = fileWithComment(100_000).subarray(0, 50_000);
    const asked: number[] = [];
    const reads = headersFromPrefix(cut.length);
    const run = () => {
      let step = reads.next();
      while (!step.done) {
        asked.push(step.value);
        step = reads.next(cut.subarray(0, step.value));
      }
    };
    // the attribute's size is checked against the file's: no read past the first
    expect(run).toThrow(/claims 100000 bytes/);
    expect(asked).toEqual([FIRST_HEADER_READ_BYTES]);
  });

  it('stops when a reader keeps giving fewer bytes than asked', () => {
    const file = fileWithComment(100_000);
    const reads = headersFromPrefix(file.length);
    let asks = 0;
    const run = () => {
      let step = reads.next();
      while (!step.done) {
        if (++asks > 10) throw new Error('asked forever');
        step = reads.next(file.subarray(0, 1000));
      }
    };
    expect(run).toThrow(TruncatedPrefixError);
    expect(asks).toBeLessThanOrEqual(4);
  });
});
