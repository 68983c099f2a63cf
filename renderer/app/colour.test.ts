// The viewer's OCIO config: a built-in one from the list, $OCIO at start, the image's colour space from the file rules
// or the user's pick, and the export carrying the same view for the host to build again.
import { describe, expect, it } from 'vitest';
import { createAppStore, storeActions } from '../state/store.js';
import { chosenByText, inputSpaceChoice } from '../state/colour.js';
import {
  BUILTIN_CHOICES,
  DEFAULT_BUILTIN,
  installColour,
  loadBuiltinColour,
  loadHostColour,
  reloadColour,
  startColour,
  type ColourHost,
} from './colour.js';
import { buildExportRequest, exportView } from './export-request.js';
import type { FileSummary } from '../../contract/host-api.js';

/** A one-part RGB summary whose header has these chromaticities. */
function summaryWith(chromaticities: number[]): FileSummary {
  const box: [number, number, number, number] = [0, 0, 0, 0];
  return {
    widthPx: 1,
    heightPx: 1,
    multipart: false,
    views: [],
    parts: [
      {
        index: 0,
        name: '',
        type: 'scanlineimage',
        view: null,
        compression: 'none',
        dataWindow: box,
        displayWindow: box,
        channels: [],
        layers: [],
        tiled: false,
        levelMode: null,
        levelCount: 1,
        hasPreview: false,
        chromaticities,
      },
    ],
  };
}
import { validateArgs } from '../../contract/validate-args.js';
import { ColourConfigs } from '../../host/colour/colour-configs.js';
import { resolve } from 'node:path';

const STUDIO = resolve('testing/colour/configs/studio-test.ocio');

/** The host's real config reading (from disk, the recent list in memory), as the page calls it. */
function diskHost(): ColourHost {
  const configs = new ColourConfigs(undefined, {});
  return { readColourConfig: async (path) => (path === undefined ? null : configs.read(path)) };
}

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
    expect(inputSpaceChoice(s.colour, '1', 'shots/a.exr')).toEqual({ name: 'ACES2065-1', chosenBy: 'EXR', kind: 'rule' });
    expect(s.view.display.ocio?.ops.length).toBeGreaterThan(0);
    const byRule = s.view.display.ocio!.key;

    actions.setColour({ inputSpaces: { '1': 'ACEScg' } });
    expect(inputSpaceChoice(store.getState().colour, '1', 'shots/a.exr')).toEqual({ name: 'ACEScg', chosenBy: 'picked', kind: 'picked' });
    expect(store.getState().view.display.ocio!.key).not.toBe(byRule);
    // the export carries the same view, by URI, for the host to build again
    expect(exportView(store.getState()).view.ocio).toEqual({
      config: 'ocio://cg-config-latest',
      inputSpace: 'ACEScg',
      display: 'sRGB - Display',
      view: 'ACES 2.0 - SDR 100 nits (Rec.709)',
    });
  });

  it('$OCIO as a URI is the config at start; an unknown name or a missing file says what to do, and the tone-map stays', async () => {
    const { store, actions } = setup();
    const host = diskHost();
    await startColour(host, actions, store, {});
    expect(store.getState().colour.config).toBeNull();
    await startColour(host, actions, store, { ocio: 'ocio://no-such-config' });
    expect(store.getState().colour.error).toMatch(/no built-in config of that name: use one of/);
    await startColour(host, actions, store, { ocio: '/studio/config.ocio' });
    expect(store.getState().colour.error).toMatch(
      /could not load the OCIO config: cannot read the OCIO config \/studio\/config\.ocio: no such file/,
    );
    expect(store.getState().colour.config).toBeNull();
    await startColour(host, actions, store, { ocio: 'ocio://studio-config-latest' });
    expect(store.getState().colour.config?.source).toBe('env');
    expect(store.getState().colour.config?.files.configPath).toBe('ocio://studio-config-latest');
  });

  it('$OCIO as a file path: the host reads it with its LUTs, it joins the recent configs, and Reload reads it again', async () => {
    const { store, actions } = setup();
    const host = diskHost();
    await startColour(host, actions, store, { ocio: STUDIO, recentColourConfigs: [] });
    let s = store.getState();
    expect(s.colour.error).toBeNull();
    expect(s.colour.config?.source).toBe('env');
    expect(s.colour.config?.files.hostPath).toBe(STUDIO);
    expect(s.colour.recent).toEqual([STUDIO]);
    expect(s.ui.status).toBe('OCIO config studio-test.ocio loaded');
    // the Film view runs through tone.spi1d and ${SHOW}_film.spi3d, found through search_path and the config's environment
    actions.setColour({ display: 'sRGB - Display', view: 'Film' });
    expect(store.getState().view.display.ocio?.ops.some((op) => op.type === 'lut3d')).toBe(true);
    const before = store.getState().colour.config;
    await reloadColour(host, actions, store);
    s = store.getState();
    expect(s.colour.config).not.toBe(before);
    expect([s.colour.config?.files.hostPath, s.colour.view]).toEqual([STUDIO, 'Film']);
  });

  it("an image's colour space comes from its chromaticities when only the Default rule matches; the picker says so", async () => {
    const { store, actions } = setup();
    const host = diskHost();
    await loadHostColour(host, actions, store, STUDIO, 'recent');
    const rec709 = [0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329];
    const choice = inputSpaceChoice(store.getState().colour, '1', 'shots/a.exr', { chromaticities: rec709 });
    expect(choice).toEqual({ name: 'Linear Rec.709', chosenBy: 'chromaticities', kind: 'file' });
    expect(chosenByText(choice)).toBe('from file: chromaticities');
    // unknown primaries: the Default rule
    const odd = inputSpaceChoice(store.getState().colour, '1', 'shots/a.exr', {
      chromaticities: [0.6, 0.3, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329],
    });
    expect(odd).toEqual({ name: 'Linear Rec.709', chosenBy: 'Default', kind: 'rule' });
    // a file rule that names the path is the config's policy, and comes first: the CG config's EXR rule
    await loadBuiltinColour(actions, store, DEFAULT_BUILTIN.uri);
    expect(inputSpaceChoice(store.getState().colour, '1', 'shots/a.exr', { chromaticities: rec709 }).chosenBy).toBe('EXR');
    expect(inputSpaceChoice(store.getState().colour, '1', 'shots/a.tif', { chromaticities: rec709 })).toEqual({
      name: 'Linear Rec.709 (sRGB)',
      chosenBy: 'chromaticities',
      kind: 'file',
    });
  });

  it("an export of several images carries each image's own colour space: its pick, its file rule, its chromaticities", async () => {
    const { store, actions } = setup();
    const file = (id: string, relativePath: string, chromaticities?: number[]) => ({
      id,
      folderId: 'f',
      relativePath,
      name: relativePath,
      sizeBytes: 1,
      mtimeMs: 0,
      status: 'ok' as const,
      ...(chromaticities ? { summary: summaryWith(chromaticities) } : {}),
    });
    const ap1 = [0.713, 0.293, 0.165, 0.83, 0.128, 0.044, 0.32168, 0.33767];
    actions.setFiles('f', [file('1', 'shots/a.exr'), file('2', 'shots/b.exr'), file('3', 'plates/c.tif', ap1)]);
    actions.selectFile('1');
    await loadBuiltinColour(actions, store, DEFAULT_BUILTIN.uri);
    actions.setColour({ inputSpaces: { '2': 'Linear P3-D65' } });
    const request = buildExportRequest(store.getState(), ['1', '2', '3']);
    expect(request.view.ocio?.inputSpace).toBe('ACES2065-1');
    expect(request.view.ocio?.inputSpaces).toEqual({ '1': 'ACES2065-1', '2': 'Linear P3-D65', '3': 'ACEScg' });
    expect(validateArgs('exportImages', [request])[0].view.ocio?.inputSpaces).toEqual(request.view.ocio?.inputSpaces);
  });

  it('an export request names a built-in config or an absolute path (the host builds from a path only if it read it)', () => {
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
    expect(validateArgs('exportImages', request('/etc/config.ocio'))[0].view.ocio?.config).toBe('/etc/config.ocio');
    expect(() => validateArgs('exportImages', request('etc/config.ocio'))).toThrow(/must be a built-in config \(ocio:\/\/NAME\)/);
  });
});
