// electron-builder.json says what packaging needs: the targets per platform, the .exr association, the icons, the files the
// app runs from; electron-builder checks it against its own schema. What it packs from it: scripts/dist.test.ts.

import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ICON_DIR, iconFiles } from '../../scripts/make-icons.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = JSON.parse(readFileSync(`${root}/electron-builder.json`, 'utf8')) as Record<string, unknown> & {
  files: string[];
  asarUnpack: string[];
  fileAssociations: { ext: string; name: string; mimeType: string; role: string }[];
  linux: { target: string[]; category: string; maintainer: string; icon: string; executableName: string };
  win: { target: string[]; icon: string };
  mac: { target: string[]; category: string; icon: string };
  electronFuses: Record<string, boolean>;
};
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { main: string };

/** electron-builder's top-level options used or worth using here; anything else is most likely a typo. */
const KNOWN_KEYS = [
  '$schema',
  'appId',
  'productName',
  'copyright',
  'directories',
  'files',
  'extraResources',
  'asar',
  'asarUnpack',
  'fileAssociations',
  'protocols',
  'electronFuses',
  'linux',
  'deb',
  'appImage',
  'win',
  'nsis',
  'mac',
  'dmg',
  'npmRebuild',
  'compression',
  'artifactName',
];

/** A minimal glob match for the patterns used in "files" (** , *, leading !). */
function matches(pattern: string, path: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\/?/g, '\u0000')
    .replace(/\*/g, '[^/]*')
    .replace(/\u0000/g, '.*');
  return new RegExp(`^${re}$`).test(path);
}
function included(path: string): boolean {
  let keep = false;
  for (const pattern of config.files) {
    if (pattern.startsWith('!')) {
      if (matches(pattern.slice(1), path)) keep = false;
    } else if (matches(pattern, path)) keep = true;
  }
  return keep;
}

describe('electron-builder.json', () => {
  it('has only known top-level options', () => {
    expect(Object.keys(config).filter((k) => !KNOWN_KEYS.includes(k))).toEqual([]);
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z0-9-]+){2,}$/);
  });

  it('builds AppImage and deb on Linux, nsis on Windows, dmg on macOS', () => {
    expect(config.linux.target.sort()).toEqual(['AppImage', 'deb']);
    expect(config.linux.maintainer).toBeTruthy(); // deb refuses to build without one
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.mac.category).toMatch(/^public\.app-category\./);
  });

  it('associates .exr files with the app as a viewer', () => {
    expect(config.fileAssociations).toEqual([expect.objectContaining({ ext: 'exr', mimeType: 'image/x-exr', role: 'Viewer' })]);
    // and only there: linux.mimeTypes would list image/x-exr a second time in the .desktop file
    expect(config.linux).not.toHaveProperty('mimeTypes');
  });

  it('points every platform at the icons scripts/make-icons.mjs writes, and installs the command as exrview', () => {
    const made = iconFiles().map((f) => relative(root, f).replace(/\\/g, '/'));
    expect(config.linux.icon).toBe(relative(root, ICON_DIR).replace(/\\/g, '/')); // a folder of NxN.png
    expect(made).toContain(config.win.icon);
    expect(made).toContain(config.mac.icon);
    expect(config.linux.executableName).toBe('exrview');
  });

  it('packs what the app runs from, and not the source maps or benchmarks', () => {
    for (const path of [
      pkg.main,
      'package.json',
      'dist/electron/preload.cjs',
      'dist/decode-worker.mjs',
      'dist/cli.mjs',
      'dist/renderer/index.html',
      'dist/renderer/assets/index-abc.js',
      'assets/samples/layers.exr',
    ]) {
      expect(included(path), path).toBe(true);
    }
    for (const path of [
      'dist/electron/main.cjs.map',
      'dist/gpu-bench/x.mjs',
      'electron/main.ts',
      'node_modules/.bin/tsc',
      'e2e/electron.spec.ts',
    ]) {
      expect(included(path), path).toBe(false);
    }
    // worker threads cannot start from inside an asar archive, nor native modules load from it
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['dist/decode-worker.mjs', 'dist/native/*.node']));
  });

  it('turns off the Electron fuses that would let the binary run as plain Node', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
    });
  });

  const require = createRequire(import.meta.url);
  const schemaPath = (() => {
    try {
      return require.resolve('app-builder-lib/scheme.json');
    } catch {
      return null;
    }
  })();
  it.skipIf(!schemaPath || !existsSync(schemaPath ?? ''))(
    schemaPath
      ? "matches electron-builder's own schema"
      : "matches electron-builder's own schema (skipped: electron-builder is not installed: run `npm install`)",
    async () => {
      const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
        validateConfiguration(c: unknown, log: unknown): Promise<void>;
      };
      const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
      await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    },
  );
});
