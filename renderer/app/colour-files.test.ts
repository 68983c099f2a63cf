// OCIO configs as files in the viewer: an .ocioz picked in the page, the config an export carries for the host to build
// again (a built-in, a host-read path, a picked config's files), and a config edited on disk read again with no click.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppStore, storeActions, type AppStore } from '../state/store.js';
import { ProcessorBuilder, applyOps, openConfig } from '../../shaders/colour/index.js';
import { diskReader } from '../../host/export/ocio-view.js';
import { ColourConfigs } from '../../host/colour/colour-configs.js';
import { validateArgs } from '../../contract/validate-args.js';
import type { HostEvent } from '../../contract/host-api.js';
import { tempDir } from '../../testing/host/test-files.js';
import { installColour, installColourReload, loadColourFiles, loadHostColour, type ColourHost } from './colour.js';
import { buildExportRequest, exportView } from './export-request.js';

const CONFIGS = resolve('testing/colour/configs');
const STUDIO = join(CONFIGS, 'studio-test.ocio');
const V1 = join(CONFIGS, 'v1-test.ocio');
const OCIOARCHIVE = resolve('../shared/tools/ocio-2/ocioarchive');
const dir = tempDir('exrview-colour-files-');
afterAll(() => dir.remove());

function setup() {
  const store = createAppStore();
  const actions = storeActions(store);
  installColour(store, actions);
  const file = { id: '1', folderId: 'f', relativePath: 'a.exr', name: 'a.exr', sizeBytes: 1, mtimeMs: 0, status: 'ok' as const };
  actions.setFiles('f', [file]);
  actions.selectFile('1');
  return { store, actions };
}

/** The config's files as a page's picker hands them over: the config and its luts/ folder's files. */
function pickedFiles(config: string): File[] {
  const luts = join(CONFIGS, 'luts');
  return [config, ...readdirSync(luts).map((f) => join(luts, f))].map((p) => new File([readFileSync(p)], p.split('/').pop()!));
}

/** The display values of a few scene-linear colours through `display` / `view` from `space`. */
function through(builder: ProcessorBuilder, space: string, display: string, view: string): number[] {
  const rgba = Float32Array.of(0.18, 0.18, 0.18, 1, 0.9, 0.3, 0.05, 1, 4, 2, 1, 1, 0.01, 0.02, 0.05, 1);
  applyOps(builder.displayView(space, display, view), rgba);
  return [...rgba];
}

async function diskBuilder(path: string): Promise<ProcessorBuilder> {
  const opened = await openConfig(path, diskReader);
  return new ProcessorBuilder(opened.config, opened.files);
}

function shownValues(store: AppStore): number[] {
  const rgba = Float32Array.of(0.18, 0.18, 0.18, 1, 0.9, 0.3, 0.05, 1, 4, 2, 1, 1, 0.01, 0.02, 0.05, 1);
  applyOps(store.getState().view.display.ocio!.ops, rgba);
  return [...rgba];
}

describe('an .ocioz archive picked in the page', () => {
  const expectLoaded = async (archive: Uint8Array<ArrayBuffer>): Promise<void> => {
    const { store, actions } = setup();
    await loadColourFiles(actions, store, [new File([archive], 'show.ocioz')]);
    const s = store.getState();
    expect(s.colour.error).toBeNull();
    expect(s.ui.status).toBe('OCIO config show.ocioz loaded');
    actions.setColour({ display: 'sRGB', view: 'Film', inputSpaces: { '1': 'lg10' } });
    // the Film view runs through the archive's LUTs: what the disk config builds, value for value
    const shown = shownValues(store);
    expect(shown).toEqual(through(await diskBuilder(V1), 'lg10', 'sRGB', 'Film'));
    expect(new Set(shown.filter((_, i) => i % 4 === 0)).size).toBe(4); // the LUTs tell the colours apart
  };

  it.skipIf(!existsSync(OCIOARCHIVE))("loads one that OpenColorIO's ocioarchive packed, LUTs and all", async () => {
    execFileSync(OCIOARCHIVE, ['--iconfig', V1, join(dir.path, 'v1')], { stdio: 'ignore' });
    await expectLoaded(Uint8Array.from(readFileSync(join(dir.path, 'v1.ocioz'))));
  });

  it('loads one zipped here, with its LUTs in a folder', async () => {
    const luts = join(CONFIGS, 'luts');
    const entries: Record<string, Uint8Array> = { 'config.ocio': readFileSync(V1) };
    for (const f of readdirSync(luts)) entries[`luts/${f}`] = readFileSync(join(luts, f));
    await expectLoaded(zipSync(entries));
  });

  it('a broken or oversized archive says so, and the view on screen stays', async () => {
    const { store, actions } = setup();
    await loadColourFiles(actions, store, pickedFiles(STUDIO));
    const before = store.getState().colour.config;
    await loadColourFiles(actions, store, [new File([Uint8Array.of(1, 2, 3)], 'bad.ocioz')]);
    expect(store.getState().colour.error).toMatch(/bad\.ocioz is not a readable \.ocioz archive .*re-pack it with ocioarchive/);
    await loadColourFiles(actions, store, [new File([zipSync({ 'luts/a.cube': new Uint8Array(8) })], 'empty.ocioz')]);
    expect(store.getState().colour.error).toMatch(/empty\.ocioz .*holds no \.ocio config/);
    // an entry that says it unpacks past the cap (its central directory claims 2 GiB) is refused before it is inflated
    const bomb = zipSync({ 'config.ocio': new Uint8Array(1024) });
    const central = new DataView(bomb.buffer).getUint32(bomb.length - 6, true);
    new DataView(bomb.buffer).setUint32(central + 24, 2 ** 31, true);
    await loadColourFiles(actions, store, [new File([bomb], 'bomb.ocioz')]);
    expect(store.getState().colour.error).toMatch(/bomb\.ocioz .*more than exrview reads/);
    expect(store.getState().colour.config).toBe(before);
  });
});

describe('the config an export carries', () => {
  it('a config the host read goes by its path; a picked one with its text and LUT files; the contract takes both', async () => {
    const { store, actions } = setup();
    await loadHostColour(
      { readColourConfig: async (p) => (p ? new ColourConfigs(undefined, {}).read(p) : null) },
      actions,
      store,
      STUDIO,
      'recent',
    );
    actions.setColour({ display: 'sRGB - Display', view: 'Film' });
    const hostRead = exportView(store.getState());
    expect(hostRead.notes).toEqual([]);
    expect(hostRead.view.ocio).toMatchObject({ config: STUDIO, inputSpace: 'Linear Rec.709', display: 'sRGB - Display', view: 'Film' });
    expect(hostRead.view.ocio?.files).toBeUndefined();

    await loadColourFiles(actions, store, [...pickedFiles(STUDIO), new File(['not a LUT'], 'notes.txt')]);
    const request = buildExportRequest(store.getState(), ['1']);
    const files = request.view.ocio?.files;
    expect(request.view.ocio?.config).toBe('studio-test.ocio');
    expect(files?.configPath).toBe('studio-test.ocio');
    // the config and its LUTs, nothing else that was picked with them
    expect(files?.files.map((f) => f.path).sort()).toEqual(['studio-test.ocio', ...readdirSync(join(CONFIGS, 'luts'))].sort());
    expect(validateArgs('exportImages', [request])[0].view.ocio?.files).toEqual(files);
  });

  it('the contract refuses a relative path, a config missing from its files, and files past the size cap', () => {
    const request = (ocio: object) => [
      {
        fileIds: ['1'],
        kind: 'image',
        format: 'png',
        overwrite: false,
        view: { exposureEv: 0, offset: 0, gamma: 1, displayTransform: 'srgb', layer: '', channelMode: 'rgb', ocio },
      },
    ];
    const view = { inputSpace: 'ACEScg', display: 'sRGB - Display', view: 'Un-tone-mapped' };
    expect(validateArgs('exportImages', request({ ...view, config: '/show/config.ocio' }))[0].view.ocio?.config).toBe('/show/config.ocio');
    expect(() => validateArgs('exportImages', request({ ...view, config: 'config.ocio' }))).toThrow(
      /built-in config .* or a config file's absolute path/,
    );
    const files = (list: { path: string; text: string }[]) => ({ ...view, config: 'c.ocio', files: { configPath: 'c.ocio', files: list } });
    expect(() => validateArgs('exportImages', request(files([{ path: 'luts/a.cube', text: '' }])))).toThrow(/must hold the config c\.ocio/);
    const big = 'x'.repeat(7 * 2 ** 20);
    expect(() =>
      validateArgs(
        'exportImages',
        request(
          files([
            { path: 'c.ocio', text: big },
            { path: 'a.cube', text: big },
          ]),
        ),
      ),
    ).toThrow(/more than \d+ characters/);
  });
});

describe('a config edited on disk', () => {
  it('is read again with no click: the view follows; a config that now fails names its file and line, and the view stays', async () => {
    const show = join(dir.path, 'show');
    cpSync(join(CONFIGS, 'luts'), join(show, 'luts'), { recursive: true });
    copyFileSync(STUDIO, join(show, 'config.ocio'));
    const path = join(show, 'config.ocio');
    const listeners = new Set<(e: HostEvent) => void>();
    const configs = new ColourConfigs(
      undefined,
      {},
      {
        onChanged: (p) => listeners.forEach((l) => l({ type: 'colour-config-changed', path: p })),
        watchTiming: { settleMs: 50, pollMs: 100 },
      },
    );
    const host: ColourHost & { onEvent: (l: (e: HostEvent) => void) => () => void } = {
      readColourConfig: async (p) => (p ? configs.read(p) : null),
      onEvent: (l) => (listeners.add(l), () => listeners.delete(l)),
    };
    try {
      const { store, actions } = setup();
      installColourReload(host, actions, store);
      await loadHostColour(host, actions, store, path, 'recent');
      actions.setColour({ display: 'sRGB - Display', view: 'Film' });
      const film = shownValues(store);
      // a LUT the view runs through is edited: every value of tone.spi1d halved
      const tone = join(show, 'luts', 'tone.spi1d');
      writeFileSync(
        tone,
        readFileSync(tone, 'utf8').replace(/^(\s*)([-\d.e]+)\s*$/gm, (_, s: string, v: string) => `${s}${Number(v) / 2}`),
      );
      await expect.poll(() => store.getState().ui.status, { timeout: 10_000 }).toBe('OCIO config config.ocio loaded (changed on disk)');
      expect(store.getState().colour.view).toBe('Film');
      const edited = shownValues(store);
      expect(edited).not.toEqual(film);
      expect(edited).toEqual(through(await diskBuilder(path), 'Linear Rec.709', 'sRGB - Display', 'Film'));

      const config = store.getState().colour.config;
      writeFileSync(path, readFileSync(path, 'utf8').replace('roles:', 'roles: [\n'));
      await expect.poll(() => store.getState().colour.error, { timeout: 10_000 }).toMatch(/show\/config\.ocio:\d+: not valid YAML/);
      expect(store.getState().colour.config).toBe(config);
      expect(shownValues(store)).toEqual(edited);
    } finally {
      configs.close();
    }
  });
});
