import { describe, expect, it } from 'vitest';
import { detectSequences, frameRanges, parseFrameName } from './sequences.js';

const files = (...paths: string[]) => paths.map((relativePath, i) => ({ id: `f${i}`, relativePath }));
const names = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i));

describe('parseFrameName', () => {
  it('reads name.####, name_#### and name#### with any padding', () => {
    expect(parseFrameName('beauty.0001.exr')).toMatchObject({ base: 'beauty', separator: '.', digits: '0001', frame: 1 });
    expect(parseFrameName('beauty_1001.exr')).toMatchObject({ base: 'beauty', separator: '_', frame: 1001 });
    expect(parseFrameName('beauty0042.EXR')).toMatchObject({ base: 'beauty', separator: '', digits: '0042', frame: 42, extension: '.EXR' });
    expect(parseFrameName('shots/sh010/sh010_beauty.v002.0100.exr')).toMatchObject({
      dir: 'shots/sh010/',
      base: 'sh010_beauty.v002',
      separator: '.',
      frame: 100,
    });
    expect(parseFrameName('0007.exr')).toMatchObject({ base: '', separator: '', frame: 7 });
    expect(parseFrameName('beauty.exr')).toBeNull();
    expect(parseFrameName('beauty.0001.tif')).toBeNull();
    expect(parseFrameName('render.20261122143000.exr')).toBeNull();
  });
});

describe('detectSequences', () => {
  it('makes one sequence of padded frames and leaves other files alone', () => {
    const { sequences, singles } = detectSequences(
      files(...names(48, (i) => `beauty.${String(1001 + i).padStart(4, '0')}.exr`), 'hdr-ramp.exr', 'layers.exr'),
    );
    expect(sequences).toHaveLength(1);
    const [q] = sequences;
    expect(q).toMatchObject({ pattern: 'beauty.####.exr', padding: 4, firstFrame: 1001, lastFrame: 1048, step: 1, missingFrames: [] });
    expect(q!.frames.map((f) => f.frame)).toEqual(names(48, (i) => String(1001 + i)).map(Number));
    expect(singles.map((f) => f.relativePath).sort()).toEqual(['hdr-ramp.exr', 'layers.exr']);
  });

  it('reports gaps as missing frames, not as an error', () => {
    const present = [1, 2, 3, 4, 8, 9, 12];
    const { sequences } = detectSequences(files(...present.map((f) => `a_${String(f).padStart(3, '0')}.exr`)));
    expect(sequences[0]).toMatchObject({ pattern: 'a_###.exr', firstFrame: 1, lastFrame: 12, missingFrames: [5, 6, 7, 10, 11] });
    expect(frameRanges(sequences[0]!.missingFrames)).toBe('5-7, 10-11');
  });

  it('finds the step of a sequence rendered on twos, and counts missing frames in steps', () => {
    const { sequences } = detectSequences(files(...[10, 12, 14, 18, 20].map((f) => `b.${String(f).padStart(4, '0')}.exr`)));
    expect(sequences[0]).toMatchObject({ step: 2, missingFrames: [16] });
    expect(frameRanges([2, 4, 6, 10], 2)).toBe('2-6, 10');
  });

  it('keeps a padding that overflows (0999 then 1000) in one sequence, and unpadded numbers in one', () => {
    const padded = detectSequences(files('c.0998.exr', 'c.0999.exr', 'c.1000.exr', 'c.1001.exr')).sequences;
    expect(padded).toHaveLength(1);
    expect(padded[0]).toMatchObject({ padding: 4, firstFrame: 998, lastFrame: 1001 });
    const unpadded = detectSequences(files(...names(12, (i) => `d.${i + 1}.exr`))).sequences;
    expect(unpadded).toHaveLength(1);
    expect(unpadded[0]).toMatchObject({ pattern: 'd.#.exr', padding: 1, firstFrame: 1, lastFrame: 12, missingFrames: [] });
  });

  it('tells apart names, separators, paddings, extensions and folders', () => {
    const { sequences, singles } = detectSequences(
      files(
        'beauty.0001.exr',
        'beauty.0002.exr',
        'beauty_0001.exr',
        'beauty_0002.exr',
        'beauty0001.exr',
        'beauty0002.exr',
        'beauty.001.exr',
        'beauty.002.exr',
        'diffuse.0001.exr',
        'diffuse.0002.exr',
        'sub/beauty.0001.exr',
        'sub/beauty.0002.exr',
        'lonely.0001.exr',
        'v2.exr',
      ),
    );
    expect(sequences.map((q) => q.pattern)).toEqual([
      'beauty####.exr',
      'beauty.####.exr',
      'beauty.###.exr',
      'beauty_####.exr',
      'diffuse.####.exr',
      'sub/beauty.####.exr',
    ]);
    expect(singles.map((f) => f.relativePath).sort()).toEqual(['lonely.0001.exr', 'v2.exr']);
  });

  it('keeps one file per frame when two names give the same frame', () => {
    const { sequences, singles } = detectSequences(files('e.1.exr', 'e.2.exr', 'e.2.EXR'));
    expect(sequences[0]!.frames.map((f) => f.file.relativePath)).toEqual(['e.1.exr', 'e.2.exr']);
    expect(singles.map((f) => f.relativePath)).toEqual(['e.2.EXR']);
  });

  it('leaves numbered files of different sizes as files: a folder of images is not a shot', () => {
    const list = files('img-00001.exr', 'img-00002.exr', 'img-00003.exr', 'beauty.0001.exr', 'beauty.0002.exr', 'beauty.0003.exr');
    const size: Record<string, string | null> = {
      'img-00001.exr': '64x48',
      'img-00002.exr': '80x60',
      'img-00003.exr': '64x48',
      'beauty.0001.exr': '1920x1080',
      'beauty.0002.exr': null,
      'beauty.0003.exr': '1920x1080',
    };
    const { sequences, singles } = detectSequences(list, (f) => size[f.relativePath]!);
    expect(sequences.map((q) => q.pattern)).toEqual(['beauty.####.exr']);
    expect(singles.map((f) => f.relativePath).sort()).toEqual(['img-00001.exr', 'img-00002.exr', 'img-00003.exr']);
  });

  it('groups thousands of files in one pass, in a few milliseconds', () => {
    const paths = [
      ...names(4000, (i) => `shots/beauty.${String(i + 1).padStart(4, '0')}.exr`),
      ...names(4000, (i) => `shots/diffuse_${String(i + 1).padStart(5, '0')}.exr`).filter((_, i) => i % 100 !== 50),
      ...names(2000, (i) => `stills/still_${i}_final.exr`),
    ].reverse();
    const t0 = performance.now();
    const { sequences, singles } = detectSequences(files(...paths));
    const ms = performance.now() - t0;
    expect(sequences.map((q) => [q.pattern, q.frames.length, q.missingFrames.length])).toEqual([
      ['shots/beauty.####.exr', 4000, 0],
      ['shots/diffuse_#####.exr', 3960, 40],
    ]);
    expect(singles).toHaveLength(2000);
    // generous for a loaded 2-core machine: the point is linear work, not seconds
    expect(ms).toBeLessThan(500);
  });
});
