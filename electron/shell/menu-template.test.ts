// The File menu's tev item: a checkbox that shows the listener's setting and port, says why it is off when its port
// was taken, and toggles through the action main.ts wires to the setting and the listener.

import { describe, expect, it } from 'vitest';
import { menuTemplate, type MenuActions, type MenuItem, type TevMenuState } from './menu-template.js';

function tevItem(tevListener: TevMenuState | undefined, toggled: string[] = []): MenuItem {
  const actions: MenuActions = {
    openFolder: () => {},
    openRecent: () => {},
    clearRecent: () => {},
    command: () => {},
    toggleTevListener: () => toggled.push('toggle'),
  };
  const file = menuTemplate({
    platform: 'linux',
    recentFolders: [],
    devTools: false,
    actions,
    ...(tevListener ? { tevListener } : {}),
  })[0]!;
  const item = file.submenu!.find((i) => i.label?.startsWith('Take Images from tev Clients'));
  if (!item) throw new Error('no tev item in the File menu');
  return item;
}

describe('menu: tev listener', () => {
  it('is an unticked checkbox on tev’s port by default', () => {
    expect(tevItem(undefined)).toMatchObject({ type: 'checkbox', checked: false, label: 'Take Images from tev Clients (127.0.0.1:14158)' });
  });

  it('is ticked while on, names its port, and toggles through the action', () => {
    const toggled: string[] = [];
    const item = tevItem({ enabled: true, port: 15000, error: null }, toggled);
    expect(item).toMatchObject({ checked: true, label: 'Take Images from tev Clients (127.0.0.1:15000)' });
    item.click!();
    expect(toggled).toEqual(['toggle']);
  });

  it('is unticked with the reason when on but its port could not be had', () => {
    const item = tevItem({ enabled: true, port: 14158, error: 'port 14158 for tev’s protocol is in use (is tev running?)' });
    expect(item.checked).toBe(false);
    expect(item.label).toBe(
      'Take Images from tev Clients (127.0.0.1:14158) — off: port 14158 for tev’s protocol is in use (is tev running?)',
    );
  });
});
