// Electron shell commands reach the viewer: folders (and the file to show), Export…, view commands, help; none without a shell.
import { describe, expect, it } from 'vitest';
import type { FolderInfo } from '../host-client/api-types.js';
import type { ShellApi, ShellCommand } from '../../contract/shell-api.js';
import { createAppStore, storeActions } from '../state/store.js';
import { installShellCommands, type ShellTarget } from './shell-commands.js';

function setup() {
  const store = createAppStore();
  const calls: string[] = [];
  const target: ShellTarget = {
    store,
    actions: storeActions(store),
    fit: () => {
      calls.push('fit');
    },
    zoomBy: (f) => {
      calls.push(`zoom ${f}`);
    },
    actualSize: () => {
      calls.push('1:1');
    },
    showFolder: async (folder, name) => {
      calls.push(`folder ${folder.displayPath} ${name ?? '-'}`);
    },
  };
  let listener: ((c: ShellCommand) => void) | null = null;
  const shell: ShellApi = {
    onCommand(l) {
      listener = l;
      return () => {
        listener = null;
      };
    },
    pixelToken: async () => 'token',
  };
  const off = installShellCommands(target, { toggleFullscreen: () => calls.push('full screen') }, shell);
  const send = (c: ShellCommand): void => {
    if (!listener) throw new Error('not listening');
    listener(c);
  };
  return { store, calls, send, off, isListening: () => listener !== null };
}

describe('shell commands', () => {
  it('opens folders the shell opened, with the file to select', () => {
    const { calls, send } = setup();
    const folder: FolderInfo = { id: 'f1', displayPath: '/shots', recursive: false };
    send({ type: 'folder-opened', folder, selectFileName: 'a.exr' });
    send({ type: 'folder-opened', folder });
    expect(calls).toEqual(['folder /shots a.exr', 'folder /shots -']);
  });

  it('Export… opens the export panel', () => {
    const { store, send } = setup();
    send({ type: 'export' });
    expect(store.getState().export.open).toBe(true);
  });

  it('view commands drive exposure, zoom and panels', () => {
    const { store, calls, send } = setup();
    send({ type: 'view', action: 'exposure-up' });
    send({ type: 'view', action: 'exposure-up' });
    send({ type: 'view', action: 'exposure-down' });
    expect(store.getState().view.display.exposureEv).toBe(0.33);
    send({ type: 'view', action: 'exposure-reset' });
    expect(store.getState().view.display.exposureEv).toBe(0);
    for (const action of ['zoom-in', 'zoom-out', 'zoom-fit', 'zoom-actual'] as const) send({ type: 'view', action });
    expect(calls).toEqual(['zoom 2', 'zoom 0.5', 'fit', '1:1']);
    send({ type: 'view', action: 'toggle-diagnostics' });
    send({ type: 'view', action: 'toggle-header' });
    expect(store.getState().ui).toMatchObject({ diagnosticsOpen: true, headerOpen: true });
    send({ type: 'help', topic: 'about' });
    expect(store.getState().ui).toMatchObject({ helpOpen: true, helpTopic: 'about' });
  });

  it('View ▸ Toggle Full Screen and Hide Panels do what Shift+F and Tab do in the page', () => {
    const { store, calls, send } = setup();
    send({ type: 'view', action: 'toggle-fullscreen' });
    send({ type: 'view', action: 'toggle-fullscreen' });
    expect(calls).toEqual(['full screen', 'full screen']);
    expect(store.getState().layout.panelsHidden).toBe(false);
    send({ type: 'view', action: 'toggle-panels' });
    expect(store.getState().layout.panelsHidden).toBe(true);
    send({ type: 'view', action: 'toggle-panels' });
    expect(store.getState().layout.panelsHidden).toBe(false);
  });

  it('stops listening when uninstalled, and does nothing without a shell (browser mode)', () => {
    const { off, isListening } = setup();
    off();
    expect(isListening()).toBe(false);
    const store = createAppStore();
    const offNone = installShellCommands({ store, actions: storeActions(store) } as ShellTarget, { toggleFullscreen() {} }, undefined);
    expect(offNone).toBeTypeOf('function');
    offNone();
  });
});
