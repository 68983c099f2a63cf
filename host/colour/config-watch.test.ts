// Watching a config's files: a burst of writes is one change, a save by rename is seen, other files in the folder are
// not, and the stat polling fallback sees what fs.watch sees; the host tells its listeners which config changed.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/host/test-files.js';
import { ConfigFileWatch, type ConfigWatchTiming } from './config-watch.js';
import { ColourConfigs } from './colour-configs.js';

const dir = tempDir('exrview-config-watch-');
afterAll(() => dir.remove());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function files(name: string): { config: string; lut: string } {
  const folder = join(dir.path, name);
  mkdirSync(join(folder, 'luts'), { recursive: true });
  const config = join(folder, 'config.ocio');
  const lut = join(folder, 'luts', 'a.spi1d');
  writeFileSync(config, 'ocio_profile_version: 2\n');
  writeFileSync(lut, 'Version 1\n');
  return { config, lut };
}

describe.each([
  ['fs.watch', { settleMs: 300, pollMs: 50 }],
  ['stat polling', { settleMs: 300, pollMs: 50, pollOnly: true }],
] as [string, ConfigWatchTiming][])('a config watched with %s', (name, timing) => {
  it('a burst of writes to it is one change; a LUT rewritten by rename is another; a file beside them is none', async () => {
    const { config, lut } = files(name.replace(/\W/g, '-'));
    let changes = 0;
    const watch = new ConfigFileWatch([config, lut], () => changes++, timing);
    try {
      await sleep(100);
      writeFileSync(join(config, '..', 'notes.txt'), 'not the config');
      await sleep(700);
      expect(changes).toBe(0);
      for (let i = 0; i < 5; i++) {
        writeFileSync(config, `ocio_profile_version: 2\n# edit ${i}\n`);
        await sleep(20);
      }
      await expect.poll(() => changes, { timeout: 5000 }).toBe(1);
      await sleep(700);
      expect(changes).toBe(1);
      writeFileSync(`${lut}.tmp`, 'Version 1\nFrom 0 1\n');
      renameSync(`${lut}.tmp`, lut);
      await expect.poll(() => changes, { timeout: 5000 }).toBe(2);
    } finally {
      watch.close();
    }
  });
});

describe('the host and a config it read', () => {
  it('an edit of the config file on disk is told as that config, by its path', async () => {
    const folder = join(dir.path, 'host');
    mkdirSync(folder);
    const config = join(folder, 'show.ocio');
    const text = 'ocio_profile_version: 2\nroles: {default: raw}\ncolorspaces:\n  - !<ColorSpace> {name: raw, isdata: true}\n';
    writeFileSync(config, text);
    const changed: string[] = [];
    const configs = new ColourConfigs(undefined, {}, { onChanged: (p) => changed.push(p), watchTiming: { settleMs: 50, pollMs: 50 } });
    try {
      await configs.read(config);
      expect(configs.configAt(config)?.opened.config.colourSpaces.map((cs) => cs.name)).toEqual(['raw']);
      expect(configs.configAt(join(folder, 'other.ocio'))).toBeUndefined();
      writeFileSync(config, `${text}# edited\n`);
      await expect.poll(() => changed, { timeout: 5000 }).toEqual([config]);
    } finally {
      configs.close();
    }
  });
});
