// OpenImage and ReloadImage: an EXR on disk read into a live image (its channels picked as tev's selector picks them).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { floatToHalf, writeExrFile } from '../../codec/index.js';
import { DEFAULT_TEV_LIMITS } from './packet.js';
import { LiveImages } from './live-images.js';
import { readExrAsLive } from './open-file.js';

describe('OpenImage', () => {
  it("reads a file's channels into a live image, picked by the selector; reload reads it again; a bad path is a note", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-tev-open-'));
    const path = join(dir, 'shot.exr');
    const write = (r: number) =>
      writeExrFile(path, [
        {
          dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 0 },
          compression: 'zip',
          channels: [
            { name: 'R', pixelType: 'half', data: Uint16Array.of(floatToHalf(r), floatToHalf(0.5)) },
            { name: 'diffuse.G', pixelType: 'float', data: Float32Array.of(2, 3) },
          ],
        },
      ]);
    write(0.25);
    const images = new LiveImages({ openFile: (p, selector) => readExrAsLive(p, selector, DEFAULT_TEV_LIMITS) });
    expect(await images.apply({ type: 'open-image', grabFocus: true, path, channelSelector: 'diffuse' })).toEqual({ ok: true });
    expect(images.get(path)!.channelNames).toEqual(['diffuse.G']);
    expect(await images.apply({ type: 'open-image', grabFocus: true, path, channelSelector: '' })).toEqual({ ok: true });
    expect([...images.get(path)!.planes[images.get(path)!.channelNames.indexOf('R')]!]).toEqual([0.25, 0.5]);
    write(1);
    expect(await images.apply({ type: 'reload-image', grabFocus: false, name: path })).toEqual({ ok: true });
    expect(images.get(path)!.planes[images.get(path)!.channelNames.indexOf('R')]![0]).toBe(1);
    const missing = await images.apply({ type: 'open-image', grabFocus: true, path: join(dir, 'nope.exr'), channelSelector: '' });
    expect(missing.ok).toBe(false);
    expect(images.list()).toHaveLength(1);
  });
});
