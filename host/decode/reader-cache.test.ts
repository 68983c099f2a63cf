// A worker's open files: one reader per file while it is unchanged, a new one once it is replaced or rewritten.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeExr, writeExrFile } from '../../codec/writer.js';
import { closeAllReaders, withReader } from './reader-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'exrview-reader-cache-'));
afterAll(() => {
  closeAllReaders();
  rmSync(dir, { recursive: true, force: true });
});

const image = (first: number) => [
  {
    dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 1 },
    channels: [{ name: 'Y', pixelType: 'half' as const, data: Uint16Array.from([first, 2, 3, 4]) }],
  },
];
const firstSample = (path: string) => withReader(path, (reader) => ({ reader, value: reader.decode().channels[0]!.data[0] })).value;

describe('withReader', () => {
  it('keeps one reader while the file is unchanged and opens the new file once it is replaced or rewritten in place', () => {
    const path = join(dir, 'a.exr');
    writeExrFile(path, image(1));
    const first = firstSample(path);
    expect(first.value).toBe(1);
    expect(firstSample(path).reader).toBe(first.reader);
    // replaced: a new file renamed over the old one (another inode)
    writeExrFile(path, image(5));
    const replaced = firstSample(path);
    expect(replaced.value).toBe(5);
    expect(replaced.reader).not.toBe(first.reader);
    // rewritten in place, the same size, with another modification time
    writeFileSync(path, writeExr(image(7)));
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    const rewritten = firstSample(path);
    expect(rewritten.value).toBe(7);
    expect(rewritten.reader).not.toBe(replaced.reader);
  });
});
