// The Cryptomatte controller with the real store and a host that decodes from the shapes fixture's record: a chosen layer
// fetches its ranks and hands the engine its view, clicks and the list pick, a missing layer and a broken one are said,
// and the export asks the host for the matte of the picked names.
import { describe, expect, it } from 'vitest';
import { idOfName, idToFloat } from '../../shaders/cryptomatte/hash.js';
import { manifestJson } from '../../testing/cryptomatte/fixtures.js';
import { SHAPE_NAMES, SHAPES, shapePixels } from '../../testing/cryptomatte/shapes.js';
import type { CryptomatteView } from '../gpu/cryptomatte-view.js';
import type { CryptomatteHeader, DecodedImage, DecodeRequest, ExportRequest, FileHeader } from '../host-client/api-types.js';
import { createAppStore, storeActions } from '../state/store.js';
import { CryptomatteController } from './cryptomatte.js';

const GROUPS = [0, 1].map((g) => ['R', 'G', 'B', 'A'].map((c) => `crypto_object0${g}.${c}`));
const { widthPx, heightPx } = SHAPES;

function decoded(request: DecodeRequest): DecodedImage {
  const planes = new Map(GROUPS.flat().map((n) => [n, new Float32Array(widthPx * heightPx)]));
  shapePixels().forEach((pairs, i) =>
    pairs.slice(0, 4).forEach(([name, coverage], rank) => {
      const group = GROUPS[rank >> 1]!;
      planes.get(group[(rank & 1) * 2]!)![i] = idToFloat(idOfName(name));
      planes.get(group[(rank & 1) * 2 + 1]!)![i] = coverage;
    }),
  );
  return {
    fileId: request.fileId,
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [0, 0, widthPx - 1, heightPx - 1],
    displayWindow: [0, 0, widthPx - 1, heightPx - 1],
    widthPx,
    heightPx,
    planes: request.channels!.map((name) => ({
      name,
      pixelType: 'float',
      xSampling: 1,
      ySampling: 1,
      widthSamples: widthPx,
      heightSamples: heightPx,
      data: planes.get(name)!.buffer,
    })),
    source: 'decode',
    timings: { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs: 0, bytesRead: 0 },
  };
}

const cryptomatte: CryptomatteHeader = {
  layers: [{ name: 'crypto_object', key: 'k', groups: GROUPS, manifestKind: 'inline', manifestJson: manifestJson(SHAPE_NAMES) }],
  problems: [{ layer: 'crypto_broken', kind: 'missing-rank', message: 'Cryptomatte layer crypto_broken has rank channels up to …' }],
};
const header: FileHeader = { fileId: 'f1', version: 2, multipart: false, parts: [{ index: 0, attributes: [], cryptomatte }] };

function setUp() {
  const store = createAppStore();
  const actions = storeActions(store);
  const views: (CryptomatteView | null)[] = [];
  const exports: ExportRequest[] = [];
  const controller = new CryptomatteController({
    api: {
      decodeImage: (request) => Promise.resolve(decoded(request)),
      exportImages: (request) => {
        exports.push(request);
        return Promise.resolve({
          written: [{ fileId: 'f1', path: '/out/shapes_crypto_object_matte.exr', bytes: 10 }],
          skipped: [],
          failed: [],
        });
      },
    },
    store,
    actions,
    setView: (v) => views.push(v),
    downloads: () => ({ offer: () => {} }) as never,
  });
  actions.setImage({ currentFileId: 'f1', part: 0, header });
  return { store, actions, views, exports, controller };
}

const settled = (c: CryptomatteController) =>
  new Promise<void>((resolve) => {
    const check = () => (c.state.kind === 'loading' ? setTimeout(check, 1) : resolve());
    check();
  });

describe('the Cryptomatte controller', () => {
  it('fetches the chosen layer and gives the engine its view; clicks and the list pick; the mode follows', async () => {
    const { store, views, controller } = setUp();
    expect(controller.header()?.layers.map((l) => l.name)).toEqual(['crypto_object']);
    controller.choose('crypto_object');
    await settled(controller);
    expect(controller.state.kind).toBe('ready');
    const view = views.at(-1)!;
    expect([view.widthPx, view.heightPx, view.groups.length, view.picked]).toEqual([widthPx, heightPx, 2, []]);
    expect(controller.nameAt(SHAPES.bunny.cx, SHAPES.bunny.cy)?.name).toBe('bunny');

    expect(controller.pickAt(SHAPES.bunny.cx, SHAPES.bunny.cy, false)).toBe(true);
    expect(controller.pickAt(SHAPES.chair.x0 + 5, SHAPES.chair.y0 + 5, true)).toBe(true);
    expect(store.getState().cryptomatte.picked).toEqual(['bunny', 'chair "red"']);
    controller.toggle('chair "red"');
    controller.toggle('Zürich café');
    expect(store.getState().cryptomatte.picked).toEqual(['bunny', 'Zürich café']);
    expect(views.at(-1)!.picked).toEqual([idOfName('bunny'), idOfName('Zürich café')]);
    // the same ranks go on: the engine uploads them once
    expect(views.at(-1)!.groups).toBe(view.groups);
    controller.pickAt(SHAPES.bunny.cx, SHAPES.bunny.cy, true);
    expect(store.getState().cryptomatte.picked).toEqual(['Zürich café']);
    storeActions(store).setCryptomatte({ mode: 'isolate' });
    expect(views.at(-1)!.mode).toBe('isolate');

    controller.choose(null);
    expect(views.at(-1)).toBeNull();
  });

  it('says why a layer cannot be shown, and names picks the layer lacks', async () => {
    const { actions, controller } = setUp();
    controller.choose('crypto_broken');
    await settled(controller);
    expect(controller.state).toMatchObject({ kind: 'error', message: expect.stringMatching(/crypto_broken has rank channels/) });
    controller.choose('crypto_elsewhere');
    await settled(controller);
    expect(controller.state).toMatchObject({ kind: 'error', message: 'this image has no Cryptomatte layer crypto_elsewhere' });
    controller.choose('crypto_object');
    await settled(controller);
    actions.setCryptomatte({ picked: ['bunny', 'from another shot'] });
    expect(controller.unknownPicks).toEqual(['from another shot']);
  });

  it('exports the matte of the picked names through the host, and asks for picks first', async () => {
    const { actions, exports, controller } = setUp();
    controller.choose('crypto_object');
    await settled(controller);
    expect(await controller.export('exr')).toMatch(/Pick names first/);
    actions.setCryptomatte({ picked: ['bunny', 'chair "red"'] });
    const said = await controller.export('png');
    expect(exports).toHaveLength(1);
    expect(exports[0]).toMatchObject({ fileIds: ['f1'], kind: 'matte', format: 'png', part: 0 });
    expect(exports[0]!.matte).toEqual({ layer: 'crypto_object', names: ['bunny', 'chair "red"'] });
    expect(said).toMatch(/Exported 1 of 1/);
  });
});
