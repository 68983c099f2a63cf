// A played frame of a damaged deep file: its readable chunks, the rest listed as missing (as its preview shows it);
// a damaged flat frame still fails with the reason, so the player holds the frame before it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HALF_TO_FLOAT } from '../../codec/index.js';
import type { DecodedImage, FileEntry, HostEvent } from '../../contract/host-api.js';
import { DEEP_GREY, DEEP_H, DEEP_W, deepBytes, deepCutAt, deepZeroedLine } from '../../testing/host/damaged-deep.js';
import { zeroChunks } from '../../testing/codec/damage.js';
import { EventLog, rgbBytes, useHostFixture } from '../../testing/host/test-files.js';
import { levelPriority } from './deep-frames.js';

const fixture = useHostFixture({ timing: { watchDebounceMs: 30, settlePollMs: 60, settleMs: 400 } });

/** R of each line of a flattened deep frame: the grey where it was read, 0 where it is missing. */
function linesOfR(image: DecodedImage): number[] {
  const r = image.planes.find((p) => p.name === 'R')!;
  const values = r.pixelType === 'half' ? Array.from(new Uint16Array(r.data), (v) => HALF_TO_FLOAT[v]!) : [...new Float32Array(r.data)];
  return Array.from({ length: DEEP_H }, (_, y) => {
    const line = new Set(values.slice(y * DEEP_W, (y + 1) * DEEP_W));
    expect(line.size, `line ${y}`).toBe(1);
    return [...line][0]!;
  });
}

describe('levelPriority', () => {
  it('asks a played deep frame as a preview, and every other request as it is', () => {
    expect(levelPriority('playback', true)).toBe('preview');
    expect(levelPriority('playback', false)).toBe('playback');
    for (const p of ['preview', 'prefetch', 'thumbnail-visible', 'thumbnail-hidden'] as const) {
      expect(levelPriority(p, true)).toBe(p);
      expect(levelPriority(p, false)).toBe(p);
    }
  });
});

describe('playing damaged deep frames', () => {
  it('a zeroed chunk and a file cut short play their readable lines, the rest missing; a damaged flat frame still fails', async () => {
    const { dir, host } = fixture;
    const log = new EventLog();
    host.onEvent(log.listener);
    writeFileSync(join(dir, 'shot.0001.exr'), deepBytes());
    writeFileSync(join(dir, 'shot.0002.exr'), deepZeroedLine(10));
    writeFileSync(join(dir, 'shot.0003.exr'), deepCutAt(30));
    const flat = rgbBytes(48, 64, (x, y) => [x / 48, y / 64, 0.5], { compression: 'zip' });
    writeFileSync(join(dir, 'flat.exr'), zeroChunks(flat, [1]));
    const folder = (await host.openFolder(dir))!;
    const settled = (e: HostEvent) =>
      (e.type === 'files-changed' || e.type === 'files-added') && e.files.some((f) => f.name === 'shot.0003.exr' && f.status === 'error');
    await log.next(settled, 10_000).catch(() => undefined);
    const files = await host.listFiles(folder.id);
    const byName = (name: string): FileEntry => files.find((f) => f.name === name)!;
    expect(byName('shot.0003.exr').status).toBe('error');
    const channels = ['A', 'B', 'G', 'R'];
    host.setPlayback({ fileIds: ['shot.0001.exr', 'shot.0002.exr', 'shot.0003.exr'].map((n) => byName(n).id), part: 0, channels });
    const play = (name: string) => host.decodeImage({ requestId: name, fileId: byName(name).id, part: 0, channels, priority: 'playback' });

    const whole = await play('shot.0001.exr');
    expect(whole.missing).toBeUndefined();
    expect(linesOfR(whole)).toEqual(Array(DEEP_H).fill(DEEP_GREY));

    const zeroed = await play('shot.0002.exr');
    expect(zeroed.missing).toMatchObject({ regions: [[0, 10, DEEP_W - 1, 10]], chunksRead: DEEP_H - 1, chunksTotal: DEEP_H });
    expect(zeroed.missing!.reason).toMatch(/^part 0, chunk 10: /);
    expect(linesOfR(zeroed)).toEqual(Array.from({ length: DEEP_H }, (_, y) => (y === 10 ? 0 : DEEP_GREY)));

    const cut = await play('shot.0003.exr');
    expect(cut.missing).toMatchObject({ regions: [[0, 30, DEEP_W - 1, DEEP_H - 1]], chunksRead: 30, chunksTotal: DEEP_H });
    expect(linesOfR(cut)).toEqual(Array.from({ length: DEEP_H }, (_, y) => (y >= 30 ? 0 : DEEP_GREY)));
    host.setPlayback(null);

    await expect(host.decodeImage({ requestId: 'f', fileId: byName('flat.exr').id, part: 0, priority: 'playback' })).rejects.toThrow(
      /^part 0, chunk 1: /,
    );
  });
});
