// What exrview remembers between runs (last folder, recent folders and OCIO configs, window size), in settings.json under the user data folder.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export interface WindowState {
  widthPx: number;
  heightPx: number;
  x?: number;
  y?: number;
  maximized: boolean;
}

export interface Settings {
  lastFolder: string | null;
  /** Most recent first, absolute paths. */
  recentFolders: string[];
  /** OCIO config files opened through the host, most recent first, absolute paths. */
  recentColourConfigs: string[];
  window: WindowState | null;
  /** tev's remote-display protocol (opt-in): whether the app listens on 127.0.0.1:`port` for tev clients. */
  tevListener: TevListenerSetting;
}

export interface TevListenerSetting {
  enabled: boolean;
  /** 1024–65535; tev's own port by default. */
  port: number;
}

/** tev's port: clients written for tev reach exrview unchanged. */
export const DEFAULT_TEV_PORT = 14158;

export const SETTINGS_FILE = 'settings.json';
export const MAX_RECENT_FOLDERS = 10;
export const MAX_RECENT_COLOUR_CONFIGS = 8;
const MIN_WINDOW_PX = 400;
const MAX_WINDOW_PX = 16_384;

export function emptySettings(): Settings {
  return {
    lastFolder: null,
    recentFolders: [],
    recentColourConfigs: [],
    window: null,
    tevListener: { enabled: false, port: DEFAULT_TEV_PORT },
  };
}

/**
 * Electron's userData folder for an app named "exrview", so that `exrview serve` and `npm start` find the folder
 * the app last showed. main.ts sets the same path on the app.
 */
export function defaultUserDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.EXRVIEW_USER_DATA) return env.EXRVIEW_USER_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'exrview');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'exrview');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'exrview');
}

/** Reads the settings; a missing or damaged file gives the defaults (it is rewritten on the next save). */
export function loadSettings(userDataDir: string): Settings {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(userDataDir, SETTINGS_FILE), 'utf8'));
  } catch {
    return emptySettings();
  }
  return sanitize(raw);
}

/** Writes to a temporary file and renames it, so a crash never leaves half a settings file. */
export function saveSettings(userDataDir: string, settings: Settings): void {
  mkdirSync(userDataDir, { recursive: true });
  const path = join(userDataDir, SETTINGS_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(sanitize(settings), null, 2) + '\n');
  renameSync(temporary, path);
}

/**
 * Reads the file, changes it and writes it back: for what two owners keep in one file (the shell its folders and
 * window, the host its recent configs), so that neither writes back an old copy of the other's part.
 */
export function updateSettings(userDataDir: string, change: (current: Settings) => Settings): Settings {
  const next = change(loadSettings(userDataDir));
  saveSettings(userDataDir, next);
  return sanitize(next);
}

/** The config moves to the top of the recent configs. */
export function rememberColourConfig(settings: Settings, path: string): Settings {
  const recentColourConfigs = [path, ...settings.recentColourConfigs.filter((p) => p !== path)].slice(0, MAX_RECENT_COLOUR_CONFIGS);
  return { ...settings, recentColourConfigs };
}

export function forgetColourConfig(settings: Settings, path: string): Settings {
  return { ...settings, recentColourConfigs: settings.recentColourConfigs.filter((p) => p !== path) };
}

/** The folder becomes the last one and moves to the top of the recent list. */
export function rememberFolder(settings: Settings, folder: string): Settings {
  const recentFolders = [folder, ...settings.recentFolders.filter((f) => f !== folder)].slice(0, MAX_RECENT_FOLDERS);
  return { ...settings, lastFolder: folder, recentFolders };
}

export function forgetFolder(settings: Settings, folder: string): Settings {
  return {
    ...settings,
    lastFolder: settings.lastFolder === folder ? null : settings.lastFolder,
    recentFolders: settings.recentFolders.filter((f) => f !== folder),
  };
}

/** The listener on or off, on its port. */
export function setTevListener(settings: Settings, enabled: boolean): Settings {
  return { ...settings, tevListener: { ...settings.tevListener, enabled } };
}

/** The menu's toggle: on turns off; off, or on but failed to start (`failed`: its port was in use), turns (or tries again) on. */
export function toggleTevListener(settings: Settings, failed: boolean): Settings {
  return setTevListener(settings, !(settings.tevListener.enabled && !failed));
}

/** Keeps only well-formed values: the file may have been edited by hand or written by another version. */
function sanitize(raw: unknown): Settings {
  const out = emptySettings();
  if (typeof raw !== 'object' || raw === null) return out;
  const o = raw as Record<string, unknown>;
  // an absolute path: a folder, or a config file
  const isPath = (v: unknown): v is string =>
    typeof v === 'string' && v.length > 0 && v.length < 4096 && isAbsolute(v) && !v.includes('\0');
  if (isPath(o.lastFolder)) out.lastFolder = o.lastFolder;
  if (Array.isArray(o.recentFolders)) out.recentFolders = [...new Set(o.recentFolders.filter(isPath))].slice(0, MAX_RECENT_FOLDERS);
  if (Array.isArray(o.recentColourConfigs))
    out.recentColourConfigs = [...new Set(o.recentColourConfigs.filter(isPath))].slice(0, MAX_RECENT_COLOUR_CONFIGS);
  const w = o.window as Record<string, unknown> | null | undefined;
  if (w && typeof w === 'object') {
    const size = (v: unknown) =>
      typeof v === 'number' && Number.isFinite(v) ? Math.round(Math.min(MAX_WINDOW_PX, Math.max(MIN_WINDOW_PX, v))) : null;
    const position = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) < 100_000 ? v : undefined);
    const widthPx = size(w.widthPx);
    const heightPx = size(w.heightPx);
    if (widthPx !== null && heightPx !== null) {
      out.window = { widthPx, heightPx, maximized: w.maximized === true };
      const x = position(w.x);
      const y = position(w.y);
      if (x !== undefined && y !== undefined) Object.assign(out.window, { x, y });
    }
  }
  const tev = o.tevListener as Record<string, unknown> | null | undefined;
  if (tev && typeof tev === 'object') {
    // ports below 1024 need privileges the app does not have: such a port keeps the default
    const port =
      Number.isSafeInteger(tev.port) && (tev.port as number) >= 1024 && (tev.port as number) <= 65_535 ? (tev.port as number) : null;
    out.tevListener = { enabled: tev.enabled === true, port: port ?? DEFAULT_TEV_PORT };
  }
  return out;
}
