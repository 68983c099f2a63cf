// File sources: positioned reads, fresh or into the thread's reused buffer, give the file's bytes and count them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileSource } from './file-source.js';

describe('openFileSource', () => {
  const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) & 255);
  const path = join(mkdtempSync(join(tmpdir(), 'exrview-source-')), 'bytes.bin');
  writeFileSync(path, bytes);

  it('reads the same bytes fresh and transiently; a transient view is overwritten by the next transient read', () => {
    const source = openFileSource(path);
    try {
      expect(source.readAt(1000, 5000)).toEqual(bytes.subarray(1000, 6000));
      const first = source.readAtTransient!(10, 100_000);
      expect(first).toEqual(bytes.subarray(10, 100_010));
      const kept = first.slice();
      const second = source.readAtTransient!(200_000, 100_000);
      expect(second).toEqual(bytes.subarray(200_000, 300_000));
      expect(first.buffer).toBe(second.buffer);
      expect(first).not.toEqual(kept);
      expect(source.stats.bytesRead).toBe(205_000);
    } finally {
      source.close();
    }
  });

  it('says the file ended when a read goes past its end', () => {
    const source = openFileSource(path);
    try {
      expect(() => source.readAtTransient!(299_990, 100)).toThrow(/file ended at byte 300000/);
    } finally {
      source.close();
    }
  });
});
