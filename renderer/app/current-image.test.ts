// The click comes first: from a show's start to its first sharp frame the foreground gate holds the page's other work;
// a failed show and a click that supersedes a show let it go too, but only once the newest show is done.
import { describe, expect, it } from 'vitest';
import type { DecodedImage, FileEntry, PartSummary } from '../host-client/api-types.js';
import type { RendererHost } from '../host-client/index.js';
import { emptyShowReport, type ShowReport } from '../gpu/engine-types.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { ForegroundLoad } from '../loading/foreground-load.js';
import type { FetchedImage, PlaneFetcher } from '../loading/plane-fetcher.js';
import { createAppStore, storeActions } from '../state/store.js';
import { CurrentImage } from './current-image.js';

const part: PartSummary = {
  index: 0,
  name: '',
  type: 'scanlineimage',
  view: null,
  compression: 'zip',
  dataWindow: [0, 0, 1, 1],
  displayWindow: [0, 0, 1, 1],
  channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'half', xSampling: 1, ySampling: 1 })),
  layers: [{ name: '', view: null, channels: ['R', 'G', 'B'] }],
  tiled: false,
  levelMode: null,
  levelCount: 1,
  hasPreview: false,
};
const file = (id: string): FileEntry => ({
  id,
  folderId: 'f',
  relativePath: `${id}.exr`,
  name: `${id}.exr`,
  sizeBytes: 1,
  mtimeMs: 0,
  status: 'ok',
  summary: { widthPx: 2, heightPx: 2, multipart: false, views: [], parts: [part] },
});
const fetched = (fileId: string): FetchedImage => ({
  image: {
    fileId,
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [0, 0, 1, 1],
    displayWindow: [0, 0, 1, 1],
    widthPx: 2,
    heightPx: 2,
    source: 'decode',
    timings: {} as DecodedImage['timings'],
    planes: ['R', 'G', 'B'].map((name) => ({
      name,
      pixelType: 'half' as const,
      xSampling: 1,
      ySampling: 1,
      widthSamples: 2,
      heightSamples: 2,
      data: new ArrayBuffer(8),
    })),
  },
  hostSource: 'decode',
  host: {} as DecodedImage['timings'],
  transferBytes: 0,
  transferMs: 0,
});

/** A host whose decodes and an engine whose first frames the test lets through one by one. */
function setup() {
  const store = createAppStore();
  const actions = storeActions(store);
  actions.setFiles('f', [file('a'), file('b')]);
  const decodes: { fileId: string; answer: (e?: Error) => void }[] = [];
  const frames: { fileId: string; draw: () => void }[] = [];
  const fetcher = {
    fetch: (key: { fileId: string }) =>
      new Promise<FetchedImage>((resolve, reject) =>
        decodes.push({ fileId: key.fileId, answer: (e) => (e ? reject(e) : resolve(fetched(key.fileId))) }),
      ),
  } as unknown as PlaneFetcher;
  /** Crops the engine took in (the live image's region path); false: it holds no layer to take them. */
  const patches: { region: DecodedImage['dataWindow'] }[] = [];
  let engineTakesCrops = true;
  const regionDecodes: { region: unknown; answer: () => void }[] = [];
  const engine = {
    updateRegion: (_key: unknown, _choice: unknown, crop: DecodedImage) => {
      if (engineTakesCrops) patches.push({ region: crop.dataWindow });
      return engineTakesCrops;
    },
    lacks: () => ['R', 'G', 'B'],
    forgetFile: () => {},
    setDisplay: () => {},
    clearImage: () => {},
    show: (key: { fileId: string }) =>
      new Promise<ShowReport>((resolve) => frames.push({ fileId: key.fileId, draw: () => resolve(emptyShowReport(key.fileId)) })),
  } as unknown as ViewEngine;
  const host = {
    api: {
      getHeader: () => new Promise(() => {}),
      setVisible: () => {},
      decodeImage: (r: { fileId: string; region: { xPx: number; yPx: number; widthPx: number; heightPx: number } }) =>
        new Promise<DecodedImage>((resolve) =>
          regionDecodes.push({
            region: r.region,
            answer: () => {
              // the crop's samples all 1.0 (as half)
              const { xPx: x, yPx: y, widthPx: w, heightPx: h } = r.region;
              const whole = fetched(r.fileId).image;
              const data = () => new Uint16Array(w * h).fill(0x3c00).buffer;
              const planes = whole.planes.map((p) => ({ ...p, widthSamples: w, heightSamples: h, data: data() }));
              resolve({ ...whole, dataWindow: [x, y, x + w - 1, y + h - 1], widthPx: w, heightPx: h, planes });
            },
          }),
        ),
    },
    pool: { give: () => {} },
  } as unknown as RendererHost;
  const foreground = new ForegroundLoad();
  const image = new CurrentImage({
    host,
    store,
    actions,
    fetcher,
    foreground,
    engine: () => engine,
    recyclesPlanes: () => false,
    currentFile: () => store.getState().library.files.find((f) => f.id === store.getState().image.currentFileId),
    currentPart: () => store.getState().library.files.find((f) => f.id === store.getState().image.currentFileId)?.summary?.parts[0],
    fit: () => {},
    shown: () => {},
  });
  // what the grid, the analyses and the prefetch would do: wait for the gate
  const ran: string[] = [];
  const background = (what: string) => foreground.whenIdle(() => ran.push(what));
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const click = (fileId: string) => {
    actions.selectFile(fileId);
    return image.show(true);
  };
  const live = { image, patches, regionDecodes, takesCrops: (v: boolean) => (engineTakesCrops = v) };
  return { foreground, decodes, frames, ran, background, settle, click, store, live };
}

describe('CurrentImage and the foreground gate', () => {
  it('holds background work from the click until the first sharp frame, then lets it run', async () => {
    const { foreground, decodes, frames, ran, background, settle, click } = setup();
    const shown = click('a');
    expect(foreground.busy).toBe(true);
    background('grid');
    decodes[0]!.answer();
    await settle();
    // planes are on the GPU, the frame is not yet: still held
    expect(frames).toHaveLength(1);
    expect(ran).toEqual([]);
    frames[0]!.draw();
    await shown;
    expect(foreground.busy).toBe(false);
    expect(ran).toEqual(['grid']);
  });

  it('lets background work go when the load fails', async () => {
    const { foreground, decodes, ran, background, click, store } = setup();
    const shown = click('a');
    background('thumbnails');
    decodes[0]!.answer(new Error('a.exr: chunk 3 cannot be read'));
    await shown;
    expect(store.getState().image.error).toContain('chunk 3');
    expect(foreground.busy).toBe(false);
    expect(ran).toEqual(['thumbnails']);
  });

  it('a click during a load holds the work until the newer image is on screen', async () => {
    const { foreground, decodes, frames, ran, background, settle, click } = setup();
    const first = click('a');
    background('prefetch');
    const second = click('b');
    // the first image lands after the second click: its frame is not the one waited for, so the gate still holds
    decodes[0]!.answer();
    await settle();
    frames[0]!.draw();
    await first;
    expect(foreground.busy).toBe(true);
    expect(ran).toEqual([]);
    decodes[1]!.answer();
    await settle();
    expect(frames.map((f) => f.fileId)).toEqual(['a', 'b']);
    frames[1]!.draw();
    await second;
    expect(foreground.busy).toBe(false);
    expect(ran).toEqual(['prefetch']);
  });
});

describe("CurrentImage: a live image's updated region", () => {
  it('waits for a show under way, then fetches the crop alone and patches the engine and the CPU copy in place', async () => {
    const { decodes, frames, settle, click, store, live } = setup();
    const shown = click('a');
    const patched = live.image.refreshRegion('a', { xPx: 1, yPx: 1, widthPx: 1, heightPx: 1 });
    // more lands meanwhile: one crop, their box, after the show
    void live.image.refreshRegion('a', { xPx: 1, yPx: 0, widthPx: 1, heightPx: 1 });
    await settle();
    expect(live.regionDecodes).toEqual([]);
    decodes[0]!.answer();
    await settle();
    frames[0]!.draw();
    await shown;
    await settle();
    expect(live.regionDecodes.map((d) => d.region)).toEqual([{ xPx: 1, yPx: 0, widthPx: 1, heightPx: 2 }]);
    const before = store.getState().image.decoded!;
    live.regionDecodes[0]!.answer();
    await patched;
    expect(live.patches).toEqual([{ region: [1, 0, 1, 1] }]);
    const after = store.getState().image.decoded!;
    // a new object over the same planes, the crop's samples (1.0 as half) at (1, 0) and (1, 1)
    expect(after).not.toBe(before);
    expect([...new Uint16Array(after.planes[0]!.data)]).toEqual([0, 0x3c00, 0, 0x3c00]);
    // no whole fetch
    expect(decodes).toHaveLength(1);
  });

  it('shows the image again whole when the engine cannot take the crop', async () => {
    const { decodes, frames, settle, click, live } = setup();
    const shown = click('a');
    decodes[0]!.answer();
    await settle();
    frames[0]!.draw();
    await shown;
    live.takesCrops(false);
    void live.image.refreshRegion('a', { xPx: 0, yPx: 0, widthPx: 1, heightPx: 1 });
    await settle();
    live.regionDecodes[0]!.answer();
    await expect.poll(() => decodes.length, { timeout: 3000 }).toBe(2);
    expect(live.patches).toEqual([]);
  });
});
