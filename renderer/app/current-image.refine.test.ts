// A huge image's small first level is never left on screen as if it were the image: a show that finds it in the GPU
// cache (a layer, channel or file switched back to while it was refined, a device restored under its upload) refines
// it, sharing the refinement under way. The engine here keeps planes and layers as the texture cache does.
import { describe, expect, it } from 'vitest';
import type { DecodedImage, FileEntry, PartSummary } from '../host-client/api-types.js';
import type { RendererHost } from '../host-client/index.js';
import { emptyShowReport, PlanesLackingError, type ImageKey, type ShowReport } from '../gpu/engine-types.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { layerKey, planesOf, type LayerChoice } from '../model/layer-choice.js';
import { ForegroundLoad } from '../loading/foreground-load.js';
import type { FetchedImage, FetchPriority, PlaneFetcher } from '../loading/plane-fetcher.js';
import { createAppStore, storeActions } from '../state/store.js';
import { CurrentImage } from './current-image.js';

const SMALL_PX = 2048;
const FINER_PX = 8192;
const LAYERS = { '': ['R', 'G', 'B'], diffuse: ['diffuse.R', 'diffuse.G', 'diffuse.B'] };

const part: PartSummary = {
  index: 0,
  name: '',
  type: 'scanlineimage',
  view: null,
  compression: 'zip',
  dataWindow: [0, 0, 32767, 16383],
  displayWindow: [0, 0, 32767, 16383],
  channels: Object.values(LAYERS)
    .flat()
    .map((name) => ({ name, pixelType: 'half', xSampling: 1, ySampling: 1 })),
  layers: Object.entries(LAYERS).map(([name, channels]) => ({ name, view: null, channels })),
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
  summary: { widthPx: 32768, heightPx: 16384, multipart: false, views: [], parts: [part] },
});

function level(fileId: string, channels: readonly string[], widthPx: number): DecodedImage {
  const heightPx = widthPx / 2;
  const factor = 32768 / widthPx;
  return {
    fileId,
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [0, 0, widthPx - 1, heightPx - 1],
    displayWindow: [0, 0, widthPx - 1, heightPx - 1],
    widthPx,
    heightPx,
    source: 'decode',
    timings: {} as DecodedImage['timings'],
    planes: channels.map((name) => ({
      name,
      pixelType: 'half' as const,
      xSampling: 1,
      ySampling: 1,
      widthSamples: widthPx,
      heightSamples: heightPx,
      data: new ArrayBuffer(8),
    })),
    reduced: { factor, from: 'box-filter', fullWidthPx: 32768, fullHeightPx: 16384, over: 'side', limit: 8192 },
  };
}

const fetchedOf = (image: DecodedImage): FetchedImage => ({
  image,
  hostSource: 'decode',
  host: image.timings,
  transferBytes: 0,
  transferMs: 0,
});

/** One image's planes and layers, of one size, as TextureCache keeps them. */
interface Held {
  widthPx: number;
  planes: Set<string>;
  layers: Set<string>;
}

function setup() {
  const store = createAppStore();
  const actions = storeActions(store);
  actions.setFiles('f', [file('a'), file('b')]);
  /** The finer levels asked of the host, answered by the test. */
  const finerRequests: { fileId: string; channels: readonly string[]; answer: () => void }[] = [];
  const finer = (fileId: string, channels: readonly string[]) =>
    new Promise<FetchedImage>((resolve) =>
      finerRequests.push({ fileId, channels, answer: () => resolve(fetchedOf(level(fileId, channels, FINER_PX))) }),
    );
  // as PlaneFetcher: the picked image's first frame a small level that comes with its refinement
  const fetcher = {
    fetch: async (key: ImageKey, channels: readonly string[], priority: FetchPriority): Promise<FetchedImage> => {
      if (priority !== 'preview') return finer(key.fileId, channels);
      return { ...fetchedOf(level(key.fileId, channels, SMALL_PX)), refine: () => finer(key.fileId, channels) };
    },
  } as unknown as PlaneFetcher;

  const held = new Map<string, Held>();
  /** What the engine drew last: the layer and the size of its level. */
  let screen: { fileId: string; layer: string; widthPx: number } | null = null;
  /** Frames held back by the test (a device being replaced under an upload); drawn at once otherwise. */
  let holdFrames = false;
  const heldFrames: (() => void)[] = [];
  const engine = {
    lacks: (key: ImageKey, choice: LayerChoice) => {
      const image = held.get(key.fileId);
      if (image?.layers.has(layerKey(choice))) return [];
      return planesOf(choice).filter((n) => !image?.planes.has(n));
    },
    show: (key: ImageKey, choice: LayerChoice, fetched: DecodedImage | null): Promise<ShowReport> => {
      let image = held.get(key.fileId);
      // planes of another size replace everything held of the image
      if (fetched && image && fetched.widthPx !== image.widthPx) image = undefined;
      if (fetched) {
        image ??= { widthPx: fetched.widthPx, planes: new Set(), layers: new Set() };
        for (const p of fetched.planes) image.planes.add(p.name);
        held.set(key.fileId, image);
      }
      const missing = planesOf(choice).filter((n) => !image?.planes.has(n));
      if (!image || missing.length) return Promise.reject(new PlanesLackingError(missing));
      image.layers.add(layerKey(choice));
      const drawn = { fileId: key.fileId, layer: layerKey(choice), widthPx: image.widthPx };
      return new Promise((resolve) => {
        const draw = () => {
          screen = drawn;
          resolve(emptyShowReport(key.fileId));
        };
        if (holdFrames) heldFrames.push(draw);
        else draw();
      });
    },
    forgetFile: (fileId: string) => held.delete(fileId),
    setDisplay: () => {},
    clearImage: () => (screen = null),
  } as unknown as ViewEngine;
  const host = {
    api: { getHeader: () => new Promise(() => {}), setVisible: () => {} },
    pool: { give: () => {} },
  } as unknown as RendererHost;
  const currentFile = () => store.getState().library.files.find((f) => f.id === store.getState().image.currentFileId);
  const image = new CurrentImage({
    host,
    store,
    actions,
    fetcher,
    foreground: new ForegroundLoad(),
    engine: () => engine,
    recyclesPlanes: () => false,
    currentFile,
    currentPart: () => currentFile()?.summary?.parts[0],
    fit: () => {},
    shown: () => {},
  });
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  };
  return {
    image,
    store,
    actions,
    finerRequests,
    settle,
    screen: () => screen,
    frames: {
      hold: (v: boolean) => (holdFrames = v),
      drawAll: () => heldFrames.splice(0).forEach((draw) => draw()),
    },
    /** The layer key of a layer's RGB view, as the engine keys it. */
    rgb: (layer: keyof typeof LAYERS) => `direct:${LAYERS[layer].join('|')}|-`,
  };
}

describe('a small first level found in the GPU cache', () => {
  it('is refined when its layer is switched back to during the refinement, sharing the request under way', async () => {
    const t = setup();
    t.actions.selectFile('a');
    const first = t.image.show(true);
    await t.settle();
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb(''), widthPx: SMALL_PX });
    expect(t.finerRequests.map((r) => r.channels)).toEqual([LAYERS['']]);
    // another layer while the first refines, then back to the first: a GPU-cache hit of its small level
    t.actions.setLayer('diffuse');
    const second = t.image.show(false);
    await t.settle();
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb('diffuse'), widthPx: SMALL_PX });
    t.actions.setLayer('');
    const third = t.image.show(false);
    await t.settle();
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb(''), widthPx: SMALL_PX });
    expect(t.store.getState().image.loading).toBe(true);
    // the first layer's finer level was asked for once, and lands for the show on screen now
    expect(t.finerRequests.map((r) => r.channels)).toEqual([LAYERS[''], LAYERS.diffuse]);
    t.finerRequests[0]!.answer();
    await Promise.all([first, third]);
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb(''), widthPx: FINER_PX });
    expect(t.store.getState().image.loading).toBe(false);
    expect(t.store.getState().image.decoded?.widthPx).toBe(FINER_PX);
    // the abandoned layer's finer level lands late: the screen keeps the finer level shown
    t.finerRequests[1]!.answer();
    await second;
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb(''), widthPx: FINER_PX });
  });

  it('is refined when a channel of its planes is picked during the refinement', async () => {
    const t = setup();
    t.actions.selectFile('a');
    const first = t.image.show(true);
    await t.settle();
    // the engine holds the small R plane: the channel's layer is built from it, nothing fetched
    t.actions.setChannel('channel:R');
    const second = t.image.show(false);
    await t.settle();
    expect(t.screen()).toEqual({ fileId: 'a', layer: 'y:R|-|-|-', widthPx: SMALL_PX });
    t.finerRequests[0]!.answer();
    await Promise.all([first, second]);
    expect(t.finerRequests).toHaveLength(1);
    expect(t.screen()).toEqual({ fileId: 'a', layer: 'y:R|-|-|-', widthPx: FINER_PX });
    expect(t.store.getState().image.loading).toBe(false);
  });

  it('is refined when its file is picked again during the refinement', async () => {
    const t = setup();
    t.actions.selectFile('a');
    const first = t.image.show(true);
    await t.settle();
    t.actions.selectFile('b');
    const second = t.image.show(true);
    await t.settle();
    t.actions.selectFile('a');
    const third = t.image.show(true);
    await t.settle();
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb(''), widthPx: SMALL_PX });
    expect(t.finerRequests.map((r) => r.fileId)).toEqual(['a', 'b']);
    t.finerRequests[0]!.answer();
    await Promise.all([first, third]);
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb(''), widthPx: FINER_PX });
    t.finerRequests[1]!.answer();
    await second;
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb(''), widthPx: FINER_PX });
  });

  it('is refined when the show that fetched it was superseded before it refined (a device restored under its upload)', async () => {
    const t = setup();
    t.frames.hold(true);
    t.actions.selectFile('a');
    const first = t.image.show(true);
    await t.settle();
    // the small level is on the GPU, its frame not yet drawn; the device comes back and the image is shown again
    const again = t.image.show(false, false);
    await t.settle();
    t.frames.drawAll();
    await t.settle();
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb(''), widthPx: SMALL_PX });
    // the refinement that came with the small level, asked for by the show that found it
    expect(t.finerRequests.map((r) => r.channels)).toEqual([LAYERS['']]);
    t.finerRequests[0]!.answer();
    await t.settle();
    t.frames.drawAll();
    await Promise.all([first, again]);
    expect(t.screen()).toEqual({ fileId: 'a', layer: t.rgb(''), widthPx: FINER_PX });
    expect(t.store.getState().image.loading).toBe(false);
  });

  it('is not refined again once the finer level replaced it', async () => {
    const t = setup();
    t.actions.selectFile('a');
    const first = t.image.show(true);
    await t.settle();
    t.finerRequests[0]!.answer();
    await first;
    t.actions.setChannel('channel:G');
    await t.image.show(false);
    expect(t.finerRequests).toHaveLength(1);
    expect(t.screen()).toEqual({ fileId: 'a', layer: 'y:G|-|-|-', widthPx: FINER_PX });
  });
});
