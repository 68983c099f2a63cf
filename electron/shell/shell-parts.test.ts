// The menu, the OS open targets and the Chromium switches: the plain parts main.ts hands to Electron.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { menuTemplate, type MenuItem } from './menu-template.js';
import { targetFromArgv, targetFromPath } from './open-targets.js';
import type { ShellCommand } from '../../contract/shell-api.js';
import { chromiumSwitches } from './webgpu-switches.js';

const dir = mkdtempSync(join(tmpdir(), 'exrview-shell-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function find(items: MenuItem[], label: string): MenuItem {
  for (const item of items) {
    if (item.label === label) return item;
    const inner = item.submenu && findMaybe(item.submenu, label);
    if (inner) return inner;
  }
  throw new Error(`no menu item "${label}"`);
}
function findMaybe(items: MenuItem[], label: string): MenuItem | null {
  try {
    return find(items, label);
  } catch {
    return null;
  }
}

describe('menu', () => {
  const log: string[] = [];
  const commands: ShellCommand[] = [];
  const template = menuTemplate({
    platform: 'linux',
    recentFolders: ['/renders/shot-010', '/renders/shot-020'],
    devTools: false,
    actions: {
      openFolder: () => log.push('open'),
      openRecent: (p) => log.push(`recent ${p}`),
      clearRecent: () => log.push('clear'),
      command: (c) => commands.push(c),
      toggleTevListener: () => log.push('tev'),
    },
  });

  it('has File, View and Help with Open Folder…, Open Recent, Export…', () => {
    expect(template.map((m) => m.label)).toEqual(['File', 'View', 'Help']);
    find(template, 'Open Folder…').click!();
    find(template, 'Export…').click!();
    find(template, 'Fit to Window').click!();
    find(template, 'About exrview').click!();
    const recent = find(template, 'Open Recent').submenu!;
    recent[1]!.click!();
    find(template, 'Clear Recent').click!();
    expect(log).toEqual(['open', 'recent /renders/shot-020', 'clear']);
    expect(commands).toEqual([{ type: 'export' }, { type: 'view', action: 'zoom-fit' }, { type: 'help', topic: 'about' }]);
  });

  it('has View ▸ Hide Panels (Tab) and Toggle Full Screen (Shift+F), sent to the page, which keeps its keys', () => {
    commands.length = 0;
    const panels = find(template, 'Hide Panels');
    const full = find(template, 'Toggle Full Screen');
    expect([panels.accelerator, full.accelerator]).toEqual(['Tab', 'Shift+F']);
    // the page handles these keys (a field keeps Tab and F): the menu shows them without taking them
    expect([panels.registerAccelerator, full.registerAccelerator]).toEqual([false, false]);
    panels.click!();
    full.click!();
    expect(commands).toEqual([
      { type: 'view', action: 'toggle-panels' },
      { type: 'view', action: 'toggle-fullscreen' },
    ]);
    // one full screen, the page's: the window's own role would disagree with the toolbar's button and Shift+F
    expect(JSON.stringify(template)).not.toContain('togglefullscreen');
  });

  it('has no developer tools in a packaged app, and a macOS app menu on macOS', () => {
    expect(JSON.stringify(template)).not.toContain('toggleDevTools');
    const mac = menuTemplate({
      platform: 'darwin',
      recentFolders: [],
      devTools: true,
      actions: { openFolder() {}, openRecent() {}, clearRecent() {}, command() {}, toggleTevListener() {} },
    });
    expect(mac[0]!.role).toBe('appMenu');
    expect(find(mac, 'No recent folders').enabled).toBe(false);
  });
});

describe('open targets', () => {
  it('opens a folder as itself and an .exr file as its folder with the file selected', () => {
    mkdirSync(join(dir, 'shots'));
    writeFileSync(join(dir, 'shots', 'a.exr'), '');
    writeFileSync(join(dir, 'notes.txt'), '');
    expect(targetFromPath(join(dir, 'shots'))).toEqual({ folder: join(dir, 'shots') });
    expect(targetFromPath(join(dir, 'shots', 'a.exr'))).toEqual({ folder: join(dir, 'shots'), fileName: 'a.exr' });
    expect(targetFromPath(join(dir, 'notes.txt'))).toBeNull();
    expect(targetFromPath(join(dir, 'missing'))).toBeNull();
    expect(targetFromArgv(['--enable-logging', 'missing', 'shots/a.exr'], dir)).toEqual({ folder: join(dir, 'shots'), fileName: 'a.exr' });
    expect(targetFromArgv(['--inspect'], dir)).toBeNull();
  });
});

describe('Chromium switches', () => {
  it('enables WebGPU (and Vulkan) on Linux only', () => {
    expect(chromiumSwitches('linux').map((s) => s.name)).toEqual(['enable-unsafe-webgpu', 'enable-features']);
    expect(chromiumSwitches('linux')[1]!.value).toContain('Vulkan');
    expect(chromiumSwitches('darwin')).toEqual([]);
    expect(chromiumSwitches('win32')).toEqual([]);
  });
});
