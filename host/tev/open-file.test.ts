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
  it("reads a file's channels into a live image named as tev names it, picked by the selector; reload keeps the selector", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-tev-open-'));
    const path = join(dir, 'shot.exr');
    const write = (r: number) =>
      writeExrFile(path, [
        {
          dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 0 },
          compression: 'zip',
          channels: [
            { name: 'R', pixelType: 'half', data: Uint16Array.of(floatToHalf(r), floatToHalf(0.5)) },
            { name: 'diffuse.G', pixelType: 'float', data: Float32Array.of(2 * r, 3) },
          ],
        },
      ]);
    write(0.25);
    const images = new LiveImages({ openFile: (p, selector) => readExrAsLive(p, selector, DEFAULT_TEV_LIMITS) });
    // tev's name for an image opened with a selector: `path:selector`
    expect(await images.apply({ type: 'open-image', grabFocus: true, path, channelSelector: 'diffuse' })).toEqual({ ok: true });
    expect(images.get(`${path}:diffuse`)!.channelNames).toEqual(['diffuse.G']);
    expect(await images.apply({ type: 'open-image', grabFocus: true, path, channelSelector: '' })).toEqual({ ok: true });
    expect([...images.get(path)!.planes[images.get(path)!.channelNames.indexOf('R')]!]).toEqual([0.25, 0.5]);
    write(1);
    expect(await images.apply({ type: 'reload-image', grabFocus: false, name: path })).toEqual({ ok: true });
    expect(images.get(path)!.planes[images.get(path)!.channelNames.indexOf('R')]![0]).toBe(1);
    // the reload of the selected image reads the same channels again, under the same name
    expect(await images.apply({ type: 'reload-image', grabFocus: false, name: `${path}:diffuse` })).toEqual({ ok: true });
    expect(images.get(`${path}:diffuse`)!.channelNames).toEqual(['diffuse.G']);
    expect([...images.get(`${path}:diffuse`)!.planes[0]!]).toEqual([2, 3]);
    expect(
      images
        .list()
        .map((i) => i.name)
        .sort(),
    ).toEqual([path, `${path}:diffuse`]);
    const missing = await images.apply({ type: 'open-image', grabFocus: true, path: join(dir, 'nope.exr'), channelSelector: '' });
    expect(missing.ok).toBe(false);
    // a client's own image has no file to read again
    images.create({ name: 'made', widthPx: 1, heightPx: 1, channelNames: ['Y'] }, null);
    expect(await images.apply({ type: 'reload-image', grabFocus: false, name: 'made' })).toEqual({
      ok: false,
      note: 'reload of "made", which a client created (no file to read)',
    });
    expect(await images.apply({ type: 'reload-image', grabFocus: false, name: 'nope' })).toMatchObject({ ok: false });
    expect(images.list()).toHaveLength(3);
  });
});
