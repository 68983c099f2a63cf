// The viewer's OCIO config: a built-in one from the list, $OCIO at start, the image's colour space from the file rules
// or the user's pick, and the export carrying the same view for the host to build again.
import { describe, expect, it } from 'vitest';
import { createAppStore, storeActions } from '../state/store.js';
import { inputSpaceChoice } from '../state/colour.js';
import { BUILTIN_CHOICES, DEFAULT_BUILTIN, installColour, loadBuiltinColour, startColour } from './colour.js';
import { exportView } from './export-request.js';
import { validateArgs } from '../../contract/validate-args.js';

function setup() {
  const store = createAppStore();
  const actions = storeActions(store);
  installColour(store, actions);
  actions.setFiles('f', [
    {
      id: '1',
      folderId: 'f',
      relativePath: 'shots/a.exr',
      name: 'a.exr',
      sizeBytes: 1,
      mtimeMs: 0,
      status: 'ok',
    },
  ]);
  actions.selectFile('1');
  return { store, actions };
}

describe('built-in configs in the viewer', () => {
  it('lists ACES 2.0 CG first, then Studio, default and every versioned config', () => {
    expect(DEFAULT_BUILTIN.uri).toBe('ocio://cg-config-latest');
    expect(BUILTIN_CHOICES.slice(0, 3).map((c) => c.label)).toEqual([
      'ACES 2.0 CG (ocio://cg-config-latest)',
      'ACES 2.0 Studio (ocio://studio-config-latest)',
      'default (ocio://default)',
    ]);
    expect(BUILTIN_CHOICES).toHaveLength(11);
  });

  it('one pick loads ACES 2.0 CG: its default display and view, the EXR file rule for the image, a processor on the view', async () => {
    const { store, actions } = setup();
    await loadBuiltinColour(actions, store, DEFAULT_BUILTIN.uri);
    const s = store.getState();
    expect(s.colour.error).toBeNull();
    expect(s.colour.config?.source).toBe('builtin');
    expect([s.colour.display, s.colour.view]).toEqual(['sRGB - Display', 'ACES 2.0 - SDR 100 nits (Rec.709)']);
    expect(inputSpaceChoice(s.colour, '1', 'shots/a.exr')).toEqual({ name: 'ACES2065-1', chosenBy: 'EXR' });
    expect(s.view.display.ocio?.ops.length).toBeGreaterThan(0);
    const byRule = s.view.display.ocio!.key;

    actions.setColour({ inputSpaces: { '1': 'ACEScg' } });
    expect(inputSpaceChoice(store.getState().colour, '1', 'shots/a.exr')).toEqual({ name: 'ACEScg', chosenBy: 'picked' });
    expect(store.getState().view.display.ocio!.key).not.toBe(byRule);
    // the export carries the same view, by URI, for the host to build again
    expect(exportView(store.getState()).view.ocio).toEqual({
      config: 'ocio://cg-config-latest',
      inputSpace: 'ACEScg',
      display: 'sRGB - Display',
      view: 'ACES 2.0 - SDR 100 nits (Rec.709)',
    });
  });

  it('$OCIO as a URI is the config at start; an unknown name or a file path says what to do, and the tone-map stays', async () => {
    const { store, actions } = setup();
    await startColour(actions, store, undefined);
    expect(store.getState().colour.config).toBeNull();
    await startColour(actions, store, 'ocio://no-such-config');
    expect(store.getState().colour.error).toMatch(/no built-in config of that name: use one of/);
    await startColour(actions, store, '/studio/config.ocio');
    expect(store.getState().colour.error).toMatch(/\$OCIO is \/studio\/config\.ocio: pick that config/);
    expect(store.getState().colour.config).toBeNull();
    await startColour(actions, store, 'ocio://studio-config-latest');
    expect(store.getState().colour.config?.source).toBe('env');
    expect(store.getState().colour.config?.files.configPath).toBe('ocio://studio-config-latest');
  });

  it('an export request may name a built-in config only: a page naming a path is refused', () => {
    const request = (config: string) => [
      {
        fileIds: ['1'],
        kind: 'image',
        format: 'png',
        overwrite: false,
        view: {
          exposureEv: 0,
          offset: 0,
          gamma: 1,
          displayTransform: 'srgb',
          layer: '',
          channelMode: 'rgb',
          ocio: { config, inputSpace: 'ACEScg', display: 'sRGB - Display', view: 'Un-tone-mapped' },
        },
      },
    ];
    expect(validateArgs('exportImages', request('ocio://default'))[0].view.ocio?.config).toBe('ocio://default');
    expect(() => validateArgs('exportImages', request('/etc/config.ocio'))).toThrow(/must be a built-in config \(ocio:\/\/NAME\)/);
  });
});
