// Which crop of level 0 a view zoomed in past a reduced level needs, and the fetches for it: latest wins, a pan within
// the crop held asks for nothing, a request no longer needed is cancelled.
import { describe, expect, it } from 'vitest';
import type { BoxTuple, DecodedImage, DecodeRequest } from '../host-client/api-types.js';
import { layerKey } from '../model/layer-choice.js';
import { CROP_GRID_PX, RegionFetch, wantedCrop, type RegionView } from './region-fetch.js';
import { cropCovers, visibleBox } from '../gpu/crop-geometry.js';

const choice: RegionView['choice'] = { slots: ['R', 'G', 'B', null], mode: 'direct' };
const view = (centerX: number, centerY: number, zoom = 1): RegionView => ({
  key: { fileId: 'f', part: 0 },
  choice,
  dataWindow: [0, 0, 16383, 8191],
  factor: 2,
  panZoom: { zoom, centerX, centerY },
  canvasWidthPx: 1280,
  canvasHeightPx: 800,
  maxSidePx: 8192,
});

describe('the crop a view needs', () => {
  it('is none at fit or at the reduced level’s own scale', () => {
    expect(wantedCrop(view(8192, 4096, 0.078))).toBeNull();
    expect(wantedCrop(view(8192, 4096, 0.5))).toBeNull();
    expect(wantedCrop({ ...view(8192, 4096), factor: 1 })).toBeNull();
  });

  it('is the visible rectangle and a margin, snapped to the grid from the data window, clipped to it', () => {
    const box = wantedCrop(view(8192, 4096))!;
    // visible 7552..8831 × 3696..4495, 256 px more, out to the 1024 grid
    expect(box).toEqual([7168, 3072, 9215, 5119]);
    expect(cropCovers(box, [0, 0, 16383, 8191], visibleBox(view(8192, 4096).panZoom, 1280, 800))).toBe(true);
    // a corner: clipped to the data window, and it still holds all of the image on screen
    const corner = view(576, 352);
    expect(wantedCrop(corner)).toEqual([0, 0, 2047, 1023]);
    expect(cropCovers(wantedCrop(corner)!, corner.dataWindow, visibleBox(corner.panZoom, 1280, 800))).toBe(true);
    // a data window off the origin: the grid starts there
    const off = { ...view(8192 - 100, 4096 - 100), dataWindow: [-100, -100, 16283, 8091] as BoxTuple };
    expect((wantedCrop(off)![0]! + 100) % CROP_GRID_PX).toBe(0);
  });

  it('drops the margin, then the grid, where the texture limit is smaller; none past the image', () => {
    const small = { ...view(8192, 4096), maxSidePx: 2048 };
    const box = wantedCrop(small)!;
    expect(box[2] - box[0] + 1).toBeLessThanOrEqual(2048);
    expect(cropCovers(box, small.dataWindow, visibleBox(small.panZoom, 1280, 800))).toBe(true);
    expect(wantedCrop(view(-5000, 4096))).toBeNull();
  });
});

describe('fetching the crop', () => {
  function harness() {
    const requests: DecodeRequest[] = [];
    const cancelled: string[] = [];
    const answers = new Map<string, (image: DecodedImage) => void>();
    const put: BoxTuple[] = [];
    let current = view(8192, 4096);
    let held: { key: { fileId: string; part: number }; layer: string; box: BoxTuple } | null = null;
    const fetch = new RegionFetch({
      decodeImage: (r) => {
        requests.push(r);
        return new Promise((resolve) => answers.set(r.requestId, resolve));
      },
      cancel: (id) => cancelled.push(id),
      view: () => current,
      held: () => held,
      put: async (key, _choice, image) => {
        put.push(image.dataWindow);
        held = { key, layer: layerKey(choice), box: image.dataWindow };
      },
      failed: (m) => {
        throw new Error(m);
      },
    });
    const answer = (r: DecodeRequest) => {
      const g = r.region!;
      answers.get(r.requestId)!({ dataWindow: [g.xPx, g.yPx, g.xPx + g.widthPx - 1, g.yPx + g.heightPx - 1] } as DecodedImage);
    };
    return { fetch, requests, cancelled, put, answer, setView: (v: RegionView) => (current = v) };
  }

  it('asks for the layer’s planes of the crop, cancels one a later view no longer needs, and shows only the latest', async () => {
    const h = harness();
    const first = h.fetch.update();
    expect(h.requests[0]).toMatchObject({ channels: ['R', 'G', 'B'], region: { xPx: 7168, yPx: 3072, widthPx: 2048, heightPx: 2048 } });
    h.setView(view(12000, 4096));
    const second = h.fetch.update();
    expect(h.cancelled).toEqual([h.requests[0]!.requestId]);
    h.answer(h.requests[0]!);
    h.answer(h.requests[1]!);
    await Promise.all([first, second]);
    expect(h.put).toEqual([[10240, 3072, 13311, 5119]]);
  });

  it('asks for nothing while the crop held covers what the view needs', async () => {
    const h = harness();
    const first = h.fetch.update();
    h.answer(h.requests[0]!);
    await first;
    h.setView(view(8192 + 200, 4096 - 100));
    await h.fetch.update();
    expect(h.requests).toHaveLength(1);
    // nearer its edge than half the margin: the next crop is asked for
    h.setView(view(8192 + 500, 4096));
    void h.fetch.update();
    expect(h.requests).toHaveLength(2);
  });
});
