// Reading a config from disk for the page: its LUTs found through search_path and context variables, keyed as the
// processor builder asks for them (so the page builds what OCIO would from the disk), caps, .ocioz, clear errors.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessorBuilder, openConfig, parseConfig, type Op } from '../../shaders/colour/index.js';
import { diskReader } from '../export/ocio-view.js';
import { ConfigReadError, DEFAULT_CONFIG_READ_LIMITS, readColourConfigFiles, type ReadConfigResult } from './read-config.js';
import { ColourConfigs } from './colour-configs.js';
import { loadSettings } from '../settings/settings-store.js';

const STUDIO = resolve('testing/colour/configs/studio-test.ocio');
const LUTS = resolve('testing/colour/configs/luts');
const dir = mkdtempSync(join(tmpdir(), 'exrview-read-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The page's side: a builder over the files read, looked up by path as the renderer's colour slice does. */
function builderOf(read: ReadConfigResult): ProcessorBuilder {
  const normalise = (p: string) =>
    p
      .split('/')
      .filter((s) => s !== '' && s !== '.')
      .join('/');
  const texts = new Map(read.files.map((f) => [normalise(f.path), f.text]));
  const config = parseConfig(texts.get(read.configPath)!, read.configPath, read.env);
  return new ProcessorBuilder(config, {
    env: read.env,
    readText: (path) => {
      const text = texts.get(normalise(path));
      if (text === undefined) throw new Error(`${path} not read`);
      return text;
    },
  });
}

/** Ops with each LUT's `source` (where it was read from, which differs between the two sides) cut to its file name. */
function comparable(ops: Op[]): unknown[] {
  return ops.map((op) => ('source' in op && typeof op.source === 'string' ? { ...op, source: op.source.split('/').pop() } : op));
}

async function fromDisk(path: string, env: Record<string, string> = {}): Promise<ProcessorBuilder> {
  const opened = await openConfig(path, { ...diskReader, env });
  return new ProcessorBuilder(opened.config, opened.files);
}

describe('reading an OCIO config from disk', () => {
  it('reads studio-test.ocio with the LUTs its search_path and ${SHOW} lead to, and builds what the disk builds', async () => {
    const read = await readColourConfigFiles(STUDIO, {});
    expect(read.source).toBe(STUDIO);
    expect(read.configPath).toBe('studio-test.ocio');
    expect(read.files.map((f) => f.path).sort()).toEqual(
      ['studio-test.ocio', 'luts/gamut.spimtx', 'luts/look3d.cube', 'luts/test_film.spi3d', 'luts/tone.spi1d', 'luts/warm.cube'].sort(),
    );
    expect(read.missing).toEqual([]);
    const page = builderOf(read);
    const disk = await fromDisk(STUDIO);
    for (const [display, view] of [
      ['sRGB - Display', 'Film'],
      ['Gamma 2.2 - Display', 'Graded Film'],
    ] as const)
      expect(comparable(page.displayView('Linear Rec.709', display, view))).toEqual(
        comparable(disk.displayView('Linear Rec.709', display, view)),
      );
  });

  it('takes context variables from the environment over the config, and hands the page only those it names', async () => {
    const show = join(dir, 'show');
    mkdirSync(join(show, 'luts'), { recursive: true });
    mkdirSync(join(dir, 'shared', 'grades'), { recursive: true });
    copyFileSync(join(LUTS, 'test_film.spi3d'), join(show, 'luts', 'other_film.spi3d'));
    copyFileSync(join(LUTS, 'warm.cube'), join(dir, 'shared', 'grades', 'warm.cube'));
    for (const f of readdirSync(LUTS)) if (f !== 'warm.cube') copyFileSync(join(LUTS, f), join(show, 'luts', f));
    // the LUTs in two folders, one of them outside the config's, reached through a variable
    const text = readFileSync(STUDIO, 'utf8').replace('search_path:\n  - luts', 'search_path:\n  - luts\n  - ../shared/$GRADES');
    writeFileSync(join(show, 'config.ocio'), text);
    const env = { SHOW: 'other', GRADES: 'grades', SECRET_TOKEN: 'do-not-send' };
    const read = await readColourConfigFiles(join(show, 'config.ocio'), env);
    expect(read.env).toEqual({ SHOW: 'other', GRADES: 'grades' });
    expect(read.files.map((f) => f.path)).toContain('luts/other_film.spi3d');
    expect(read.files.map((f) => f.path)).toContain('../shared/grades/warm.cube');
    expect(read.missing).toEqual([]);
    const page = builderOf(read);
    const disk = await fromDisk(join(show, 'config.ocio'), env);
    expect(comparable(page.displayView('Linear Rec.709', 'Gamma 2.2 - Display', 'Graded Film'))).toEqual(
      comparable(disk.displayView('Linear Rec.709', 'Gamma 2.2 - Display', 'Graded Film')),
    );
  });

  it('lists a LUT that is missing, behind an unset variable, too big or not a LUT, and still reads the rest', async () => {
    const folder = join(dir, 'partial');
    mkdirSync(join(folder, 'luts'), { recursive: true });
    writeFileSync(join(folder, 'luts', 'big.cube'), 'x'.repeat(2048));
    writeFileSync(join(folder, 'luts', 'secret.txt'), 'TOP SECRET');
    writeFileSync(join(folder, 'luts', 'tone.spi1d'), 'Version 1\nFrom 0.0 1.0\nLength 2\nComponents 1\n{\n0.0\n1.0\n}\n');
    const config = [
      'ocio_profile_version: 2',
      'search_path: luts',
      'roles: {default: lin}',
      'colorspaces:',
      '  - !<ColorSpace> {name: lin}',
      '  - !<ColorSpace> {name: a, to_scene_reference: !<FileTransform> {src: tone.spi1d}}',
      '  - !<ColorSpace> {name: b, to_scene_reference: !<FileTransform> {src: gone.cube}}',
      '  - !<ColorSpace> {name: c, to_scene_reference: !<FileTransform> {src: $UNSET_VAR.cube}}',
      '  - !<ColorSpace> {name: d, to_scene_reference: !<FileTransform> {src: big.cube}}',
      '  - !<ColorSpace> {name: e, to_scene_reference: !<FileTransform> {src: secret.txt}}',
    ].join('\n');
    writeFileSync(join(folder, 'config.ocio'), config);
    const read = await readColourConfigFiles(join(folder, 'config.ocio'), {}, { ...DEFAULT_CONFIG_READ_LIMITS, maxLutBytes: 1024 });
    expect(read.files.map((f) => f.path)).toEqual(['config.ocio', 'luts/tone.spi1d']);
    const reasons = Object.fromEntries(read.missing.map((m) => [m.path, m.reason]));
    expect(reasons['gone.cube']).toMatch(/not found \(looked in luts\/gone\.cube\): check the name and search_path/);
    expect(reasons['$UNSET_VAR.cube']).toMatch(/context variable \$UNSET_VAR is not set/);
    expect(reasons['big.cube']).toMatch(/big\.cube is 2 KiB, more than the 1 KiB exrview reads/);
    expect(reasons['secret.txt']).toMatch(/"\.txt" is not a LUT format exrview reads/);
    expect(JSON.stringify(read)).not.toContain('TOP SECRET');
  });

  it('says what is wrong with a config that cannot be read: missing, a folder, too big, malformed (file and line)', async () => {
    await expect(readColourConfigFiles(join(dir, 'nope.ocio'))).rejects.toThrow(
      /cannot read the OCIO config .*nope\.ocio: no such file; check the path/,
    );
    await expect(readColourConfigFiles(join(dir, 'nope.ocio'))).rejects.toBeInstanceOf(ConfigReadError);
    await expect(readColourConfigFiles(dir)).rejects.toThrow(/is a folder: name the \.ocio file in it/);
    writeFileSync(join(dir, 'huge.ocio'), 'x'.repeat(4096));
    await expect(
      readColourConfigFiles(join(dir, 'huge.ocio'), {}, { ...DEFAULT_CONFIG_READ_LIMITS, maxConfigBytes: 1024 }),
    ).rejects.toThrow(/huge\.ocio is 4 KiB, more than the 1 KiB exrview reads: is it the right file\?/);
    writeFileSync(join(dir, 'broken.ocio'), 'ocio_profile_version: 2\nroles: [\n');
    await expect(readColourConfigFiles(join(dir, 'broken.ocio'))).rejects.toThrow(/broken\.ocio.*line/);
  });

  it('reads an .ocioz: the config and the LUTs inside, by their paths in the archive', async () => {
    const entries: Record<string, Uint8Array> = { 'config.ocio': readFileSync(STUDIO), 'README.txt': new TextEncoder().encode('skip me') };
    for (const f of readdirSync(LUTS)) entries[`luts/${f}`] = readFileSync(join(LUTS, f));
    writeFileSync(join(dir, 'studio.ocioz'), zipSync(entries));
    const read = await readColourConfigFiles(join(dir, 'studio.ocioz'), {});
    expect(read.configPath).toBe('config.ocio');
    expect(read.files.map((f) => f.path)).not.toContain('README.txt');
    expect(comparable(builderOf(read).displayView('Linear Rec.709', 'sRGB - Display', 'Film'))).toEqual(
      comparable((await fromDisk(STUDIO)).displayView('Linear Rec.709', 'sRGB - Display', 'Film')),
    );
    writeFileSync(join(dir, 'bad.ocioz'), 'not a zip');
    await expect(readColourConfigFiles(join(dir, 'bad.ocioz'))).rejects.toThrow(/bad\.ocioz is not a readable \.ocioz archive/);
  });

  it('keeps the recent configs in settings.json: a config read joins them, one whose file is gone leaves', async () => {
    const settingsDir = join(dir, 'settings');
    const configs = new ColourConfigs(settingsDir, {});
    const gone = join(dir, 'gone', 'config.ocio');
    mkdirSync(join(dir, 'gone'));
    copyFileSync(STUDIO, gone);
    await configs.read(gone);
    const read = await configs.read(STUDIO);
    expect(read.recentColourConfigs).toEqual([STUDIO, gone]);
    expect(new ColourConfigs(settingsDir).recentConfigs).toEqual([STUDIO, gone]);
    rmSync(gone);
    await expect(configs.read(gone)).rejects.toThrow(/no such file/);
    expect(loadSettings(settingsDir).recentColourConfigs).toEqual([STUDIO]);
  });
});
