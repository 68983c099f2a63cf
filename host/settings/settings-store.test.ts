// Settings survive restarts, a damaged file gives defaults, and hand-edited values are kept in range.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_RECENT_FOLDERS,
  SETTINGS_FILE,
  defaultUserDataDir,
  emptySettings,
  forgetFolder,
  loadSettings,
  rememberFolder,
  saveSettings,
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
      window: { widthPx: 1200, heightPx: 800, x: 10, y: 20, maximized: true },
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
        window: { widthPx: 1e9, heightPx: 10, x: 'left', y: 0, maximized: 'yes' },
      }),
    );
    expect(loadSettings(dir)).toEqual({
      lastFolder: null,
      recentFolders: ['/ok'],
      window: { widthPx: 16384, heightPx: 400, maximized: false },
    });
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
