// Settings survive restarts, a damaged file gives defaults, and hand-edited values are kept in range.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_RECENT_COLOUR_CONFIGS,
  MAX_RECENT_FOLDERS,
  SETTINGS_FILE,
  defaultUserDataDir,
  emptySettings,
  forgetColourConfig,
  forgetFolder,
  loadSettings,
  rememberColourConfig,
  rememberFolder,
  saveSettings,
  toggleTevListener,
  updateSettings,
} from './settings-store.js';

const dir = mkdtempSync(join(tmpdir(), 'exrview-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('settings', () => {
  it('round-trips the last folder, recent folders and the window', () => {
    let s = rememberFolder(emptySettings(), '/renders/a');
    s = rememberFolder(s, '/renders/b');
    s = rememberFolder(s, '/renders/a');
    s = { ...s, window: { widthPx: 1200, heightPx: 800, x: 10, y: 20, maximized: true } };
    saveSettings(join(dir, 'new', 'sub'), s);
    const back = loadSettings(join(dir, 'new', 'sub'));
    expect(back).toEqual({
      lastFolder: '/renders/a',
      recentFolders: ['/renders/a', '/renders/b'],
      recentColourConfigs: [],
      window: { widthPx: 1200, heightPx: 800, x: 10, y: 20, maximized: true },
      tevListener: { enabled: false, port: 14158 },
    });
  });

  it('keeps at most the most recent folders, and forgets one on request', () => {
    let s = emptySettings();
    for (let i = 0; i < MAX_RECENT_FOLDERS + 5; i++) s = rememberFolder(s, `/f/${i}`);
    expect(s.recentFolders).toHaveLength(MAX_RECENT_FOLDERS);
    expect(s.recentFolders[0]).toBe(`/f/${MAX_RECENT_FOLDERS + 4}`);
    s = forgetFolder(s, s.lastFolder!);
    expect(s.lastFolder).toBeNull();
    expect(s.recentFolders).not.toContain(`/f/${MAX_RECENT_FOLDERS + 4}`);
  });

  it('reads a missing or damaged file as the defaults', () => {
    expect(loadSettings(join(dir, 'missing'))).toEqual(emptySettings());
    writeFileSync(join(dir, SETTINGS_FILE), '{"lastFolder": "/x", ');
    expect(loadSettings(dir)).toEqual(emptySettings());
  });

  it('drops ill-formed values and clamps the window size', () => {
    writeFileSync(
      join(dir, SETTINGS_FILE),
      JSON.stringify({
        lastFolder: 'relative/path',
        recentFolders: ['/ok', 5, '/ok', 'rel', '/nul\u0000'],
        recentColourConfigs: ['/show/config.ocio', 'config.ocio', null, '/show/config.ocio'],
        window: { widthPx: 1e9, heightPx: 10, x: 'left', y: 0, maximized: 'yes' },
      }),
    );
    expect(loadSettings(dir)).toEqual({
      lastFolder: null,
      recentFolders: ['/ok'],
      recentColourConfigs: ['/show/config.ocio'],
      window: { widthPx: 16384, heightPx: 400, maximized: false },
      tevListener: { enabled: false, port: 14158 },
    });
  });

  it("keeps the recent OCIO configs, most recent first, and one owner updating them keeps the other owner's part", () => {
    const own = join(dir, 'configs');
    saveSettings(own, rememberFolder(emptySettings(), '/renders/a'));
    let s = loadSettings(own);
    for (let i = 0; i < MAX_RECENT_COLOUR_CONFIGS + 2; i++) s = rememberColourConfig(s, `/c/${i}.ocio`);
    s = rememberColourConfig(s, '/c/3.ocio');
    expect(s.recentColourConfigs).toHaveLength(MAX_RECENT_COLOUR_CONFIGS);
    expect(s.recentColourConfigs.slice(0, 2)).toEqual(['/c/3.ocio', `/c/${MAX_RECENT_COLOUR_CONFIGS + 1}.ocio`]);
    expect(forgetColourConfig(s, '/c/3.ocio').recentColourConfigs).not.toContain('/c/3.ocio');
    // the host remembers a config while the shell holds its own copy of the settings: the shell's folders survive
    updateSettings(own, (disk) => rememberColourConfig(disk, '/show/config.ocio'));
    expect(loadSettings(own)).toMatchObject({ lastFolder: '/renders/a', recentColourConfigs: ['/show/config.ocio'] });
  });

  it('writes atomically (no temporary file left behind)', () => {
    saveSettings(dir, rememberFolder(emptySettings(), '/z'));
    expect(JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8')).lastFolder).toBe('/z');
  });

  it("uses Electron's userData folder for the app name on each platform", () => {
    expect(defaultUserDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/exrview');
    expect(defaultUserDataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toMatch(/Roaming.exrview$/);
    expect(defaultUserDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/exrview$/);
    expect(defaultUserDataDir({ EXRVIEW_USER_DATA: '/override' }, 'linux')).toBe('/override');
  });
});

describe("settings: tev's listener", () => {
  const at = mkdtempSync(join(tmpdir(), 'exrview-settings-tev-'));
  afterAll(() => rmSync(at, { recursive: true, force: true }));

  it("is off by default, on tev's port; the toggle turns it on, off, and on again after a failed start", () => {
    const off = emptySettings();
    expect(off.tevListener).toEqual({ enabled: false, port: 14158 });
    const on = toggleTevListener(off, false);
    expect(on.tevListener).toEqual({ enabled: true, port: 14158 });
    expect(toggleTevListener(on, false).tevListener.enabled).toBe(false);
    // on but its port was taken: the menu shows it unticked, and a click tries again rather than turning it off
    expect(toggleTevListener(on, true).tevListener.enabled).toBe(true);
    saveSettings(at, on);
    expect(loadSettings(at).tevListener).toEqual({ enabled: true, port: 14158 });
  });

  it('keeps a hand-edited port in 1024–65535, else the default', () => {
    const withTev = (tevListener: unknown) => {
      writeFileSync(join(at, SETTINGS_FILE), JSON.stringify({ tevListener }));
      return loadSettings(at).tevListener;
    };
    expect(withTev({ enabled: true, port: 15000 })).toEqual({ enabled: true, port: 15000 });
    expect(withTev({ enabled: 'yes', port: 80 })).toEqual({ enabled: false, port: 14158 });
    expect(withTev({ enabled: true, port: 70000 })).toEqual({ enabled: true, port: 14158 });
    expect(withTev({ enabled: true, port: 1500.5 })).toEqual({ enabled: true, port: 14158 });
    expect(withTev('on')).toEqual({ enabled: false, port: 14158 });
  });
});
