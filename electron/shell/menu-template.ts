// The application menu as plain data: File (Open Folder…, Open Recent, Export…), View (zoom, exposure, panels, full
// screen), Help; main.ts hands it to Menu.buildFromTemplate.

import { basename } from 'node:path';
import type { ShellCommand, ViewAction } from '../../contract/shell-api.js';

/** The subset of Electron's MenuItemConstructorOptions used here (structurally compatible with it). */
export interface MenuItem {
  label?: string;
  role?:
    | 'quit'
    | 'close'
    | 'togglefullscreen'
    | 'reload'
    | 'toggleDevTools'
    | 'about'
    | 'appMenu'
    | 'editMenu'
    | 'windowMenu'
    | 'copy'
    | 'paste'
    | 'selectAll';
  type?: 'separator' | 'submenu' | 'checkbox';
  /** A checkbox item's tick. */
  checked?: boolean;
  accelerator?: string;
  /** Windows and Linux: false shows the accelerator without taking the key from the page, which handles it itself. */
  registerAccelerator?: boolean;
  enabled?: boolean;
  submenu?: MenuItem[];
  click?: () => void;
}

export interface MenuActions {
  openFolder(): void;
  openRecent(path: string): void;
  clearRecent(): void;
  command(command: ShellCommand): void;
  /** tev's protocol: the listener on or off (the setting saved, the listener started or stopped). */
  toggleTevListener(): void;
}

/** The tev listener's setting, and why it is off although on (its port in use…), for the menu item. */
export interface TevMenuState {
  enabled: boolean;
  port: number;
  error: string | null;
}

export function menuTemplate(options: {
  platform: NodeJS.Platform;
  recentFolders: string[];
  devTools: boolean;
  actions: MenuActions;
  /** Default: off, on tev's port. */
  tevListener?: TevMenuState;
}): MenuItem[] {
  const { actions } = options;
  const view = (label: string, action: ViewAction, accelerator?: string): MenuItem => ({
    label,
    ...(accelerator ? { accelerator } : {}),
    click: () => actions.command({ type: 'view', action }),
  });
  // keys the page already handles (Tab, Shift+F): shown in the menu but left to the page, so typing them in a field still works
  const pageKey = (label: string, action: ViewAction, accelerator: string): MenuItem => ({
    ...view(label, action, accelerator),
    registerAccelerator: false,
  });
  const recent: MenuItem[] = options.recentFolders.length
    ? [
        ...options.recentFolders.map((path) => ({ label: `${basename(path) || path} — ${path}`, click: () => actions.openRecent(path) })),
        { type: 'separator' as const },
        { label: 'Clear Recent', click: () => actions.clearRecent() },
      ]
    : [{ label: 'No recent folders', enabled: false }];
  const menu: MenuItem[] = [
    {
      label: 'File',
      submenu: [
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
        { label: 'Open Recent', submenu: recent },
        { type: 'separator' },
        { label: 'Export…', accelerator: 'CmdOrCtrl+E', click: () => actions.command({ type: 'export' }) },
        { type: 'separator' },
        tevItem(options.tevListener ?? { enabled: false, port: 14158, error: null }, actions),
        { type: 'separator' },
        options.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'View',
      submenu: [
        view('Zoom In', 'zoom-in', 'CmdOrCtrl+='),
        view('Zoom Out', 'zoom-out', 'CmdOrCtrl+-'),
        view('Fit to Window', 'zoom-fit', 'CmdOrCtrl+0'),
        view('Actual Size', 'zoom-actual', 'CmdOrCtrl+1'),
        { type: 'separator' },
        view('Exposure Up', 'exposure-up', ']'),
        view('Exposure Down', 'exposure-down', '['),
        view('Reset Exposure', 'exposure-reset', '\\'),
        { type: 'separator' },
        view('Header', 'toggle-header', 'CmdOrCtrl+I'),
        view('Diagnostics', 'toggle-diagnostics', 'CmdOrCtrl+D'),
        pageKey('Hide Panels', 'toggle-panels', 'Tab'),
        { type: 'separator' },
        // the page's full screen, as Shift+F and the toolbar's button give it, so the three agree on whether it is on
        pageKey('Toggle Full Screen', 'toggle-fullscreen', 'Shift+F'),
        ...(options.devTools ? [{ role: 'toggleDevTools' as const }] : []),
      ],
    },
    {
      label: 'Help',
      submenu: [
        { label: 'Keyboard Shortcuts', click: () => actions.command({ type: 'help', topic: 'shortcuts' }) },
        { label: 'About exrview', click: () => actions.command({ type: 'help', topic: 'about' }) },
      ],
    },
  ];
  // macOS puts the app menu first and expects Edit for copy/paste in text fields
  return options.platform === 'darwin' ? [{ role: 'appMenu' }, ...menu.slice(0, 1), { role: 'editMenu' }, ...menu.slice(1)] : menu;
}

/** Opt-in: renderers that speak tev's protocol send their images to 127.0.0.1 (only) on the setting's port. */
function tevItem(tev: TevMenuState, actions: MenuActions): MenuItem {
  const failed = tev.enabled && tev.error ? ` — off: ${tev.error}` : '';
  return {
    label: `Take Images from tev Clients (127.0.0.1:${tev.port})${failed}`,
    type: 'checkbox',
    checked: tev.enabled && !tev.error,
    click: () => actions.toggleTevListener(),
  };
}
