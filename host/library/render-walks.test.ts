// The library's walk of a file being written: the chunks there at each look, each look reading the tables and the bytes
// added since the last one, not the file again.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WritePart } from '../../codec/index.js';
import { writeChunkByChunk } from '../../testing/codec/incomplete.js';
import { tempDir } from '../../testing/host/test-files.js';
import { RenderWalks } from './render-walks.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => void (dir = tempDir('exrview-walks-')));
afterEach(() => dir.remove());

const part: WritePart = {
  compression: 'none',
  dataWindow: { xMin: 0, yMin: 0, xMax: 255, yMax: 16 * 40 - 1 },
  channels: [{ name: 'Y', pixelType: 'float', data: Float32Array.from({ length: 256 * 640 }, (_, i) => i) }],
};

it('counts the chunks as they land, reading only the tables and what was added since', () => {
  const file = writeChunkByChunk([part]);
  const total = file.order.length;
  const path = join(dir.path, 'render.exr');
  const walks = new RenderWalks();
  let written = file.after(0);
  writeFileSync(path, written);
  // a fresh open reads the header (and the tables with it)
  expect(walks.look(path)?.progress).toEqual({ chunksPresent: 0, chunksTotal: total });
  const tablesBytes = total * 8;
  for (const [n, intoNext] of [
    [1, 0],
    [4, 100],
    [5, 0],
    [30, 7],
    [total - 1, 0],
  ] as const) {
    const next = file.after(n, intoNext);
    appendFileSync(path, next.subarray(written.length));
    const before = walks.bytesRead;
    const walk = walks.look(path)!;
    expect(walk.progress).toEqual({ chunksPresent: n, chunksTotal: total });
    expect(walk.identity.sizeBytes).toBe(next.length);
    // the tables once, then the bytes from where the last walk stopped (its part-written chunk) to the end
    expect(walks.bytesRead - before).toBeLessThanOrEqual(tablesBytes + (next.length - written.length) + 16 * 1024 + 8);
    written = next;
  }
  // the tables filled at close: whole, nothing walked, nothing kept
  writeFileSync(path, file.complete);
  expect(walks.look(path)).toBeNull();
});

it('a file whose header is not all there yet, or that is whole, has no walk', () => {
  const file = writeChunkByChunk([part]);
  const path = join(dir.path, 'short.exr');
  writeFileSync(path, file.after(0).subarray(0, 40));
  const walks = new RenderWalks();
  expect(walks.look(path)).toBeNull();
  expect(walks.look(join(dir.path, 'gone.exr'))).toBeNull();
});
