// Files written whole or not at all: the synchronous writer (workers) and the asynchronous one (exports, exrview thumbs).

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/host/test-files.js';
import { FileExistsError, writeFileAtomically, writeFileAtomicallySync } from './atomic-file.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir('exrview-atomic-');
});
afterEach(() => dir.remove());

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('writeFileAtomically', () => {
  it('writes a new file and leaves no temporary file', async () => {
    const path = join(dir.path, 'a.png');
    await writeFileAtomically(path, bytes('first'), false);
    expect(readFileSync(path, 'utf8')).toBe('first');
    expect(readdirSync(dir.path)).toEqual(['a.png']);
  });

  it('replaces a file only when told to', async () => {
    const path = join(dir.path, 'a.png');
    writeFileSync(path, 'old');
    await expect(writeFileAtomically(path, bytes('new'), false)).rejects.toBeInstanceOf(FileExistsError);
    expect(readFileSync(path, 'utf8')).toBe('old');
    await writeFileAtomically(path, bytes('new'), true);
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(readdirSync(dir.path)).toEqual(['a.png']);
  });

  it('fails with what fs says, leaving nothing behind, where the file cannot be made', async () => {
    const blocked = join(dir.path, 'blocked');
    mkdirSync(join(blocked, 'a.png'), { recursive: true });
    // a folder where the file should go: the rename over it fails
    await expect(writeFileAtomically(join(blocked, 'a.png'), bytes('x'), true)).rejects.toMatchObject({
      code: expect.stringMatching(/EISDIR|EEXIST|ENOTEMPTY|EPERM/),
    });
    expect(readdirSync(blocked)).toEqual(['a.png']);
    await expect(writeFileAtomically(join(dir.path, 'missing', 'a.png'), bytes('x'), true)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('gives writes of one path at once their own temporary files', async () => {
    const path = join(dir.path, 'a.png');
    await Promise.all(['1', '2', '3', '4'].map((text) => writeFileAtomically(path, bytes(text.repeat(100_000)), true)));
    expect(readFileSync(path, 'utf8')).toMatch(/^(1{100000}|2{100000}|3{100000}|4{100000})$/);
    expect(readdirSync(dir.path)).toEqual(['a.png']);
  });
});

describe('writeFileAtomicallySync', () => {
  it('writes pieces in order, replacing what was there', () => {
    const path = join(dir.path, 'b.png');
    writeFileSync(path, 'old');
    writeFileAtomicallySync(path, [bytes('a'), new Uint8Array(0), bytes('bc')]);
    expect(readFileSync(path, 'utf8')).toBe('abc');
    expect(readdirSync(dir.path)).toEqual(['b.png']);
  });
});
