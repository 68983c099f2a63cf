// The deep samples controller over the host's real deep samples task: the clicked pixel's rows, the range's samples
// fetched and packed once however the handles move, packed again for another layer, all dropped for another image.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeExr } from '../../codec/writer.js';
import type { DeepSamplesRequest, PartSummary } from '../../contract/host-api.js';
import { deepSamplesTask } from '../../host/decode/deep-samples-task.js';
import { columnsOf } from '../../shaders/deep/columns.js';
import { compositeRange } from '../../shaders/deep/range-composite.js';
import { deepVolumeSource } from '../../testing/codec/oracle/deep-volumes.js';
import type { DeepRangeView } from '../gpu/deep-range-view.js';
import { createAppStore } from '../state/store.js';
import { DeepSamplesController } from './deep-samples.js';

const W = 9,
  H = 5;
const dir = mkdtempSync(join(tmpdir(), 'exrview-deep-controller-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const deep = deepVolumeSource(W, H, 5, 4);
const path = join(dir, 'deep.exr');
writeFileSync(
  path,
  writeExr([
    {
      compression: 'rle',
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      channels: deep.channels,
      deepSampleCounts: deep.sampleCounts,
    },
  ]),
);

const channels = deep.channels.map((c) => ({ name: c.name, pixelType: c.pixelType, xSampling: 1, ySampling: 1 }));
const part = (type: PartSummary['type']): PartSummary =>
  ({
    index: 0,
    type,
    dataWindow: [0, 0, W - 1, H - 1],
    displayWindow: [0, 0, W - 1, H - 1],
    channels,
    layers: [
      { name: '', view: null, channels: ['R', 'G', 'B', 'A', 'Z', 'ZBack', 'id'] },
      { name: 'diffuse', view: null, channels: ['diffuse.R', 'diffuse.A'] },
    ],
  }) as PartSummary;

function setup(type: PartSummary['type'] = 'deepscanline') {
  const store = createAppStore();
  store.setState((s) => ({ image: { ...s.image, currentFileId: 'f', part: 0, layer: '', channel: 'rgb' } }));
  const asked: DeepSamplesRequest[] = [];
  const views: (DeepRangeView | null)[] = [];
  const d = new DeepSamplesController({
    api: {
      deepSamples: async (request) => {
        asked.push(request);
        const { fileId, ...rest } = request;
        return { fileId, ...deepSamplesTask({ ...rest, path }, { signal: { aborted: false } }).result };
      },
    },
    store,
    currentPart: () => part(type),
    setView: (view) => (views.push(view), true),
  });
  const settled = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  return { store, d, asked, views, settled };
}

describe('DeepSamplesController', () => {
  it('lists the clicked pixel in file order with depth ranks; nothing for a flat part', async () => {
    const flat = setup('scanlineimage');
    expect(flat.d.pick(1, 1)).toBe(false);
    const { d, asked, settled } = setup();
    expect(d.pick(3, 2)).toBe(true);
    await settled();
    const p = 2 * W + 3;
    expect(asked).toEqual([{ fileId: 'f', part: 0, pixel: { xPx: 3, yPx: 2 } }]);
    const list = d.current.list!;
    expect(list.rows.length).toBe(deep.sampleCounts[p]);
    expect(list.rows.map((r) => r.fileIndex)).toEqual([...Array(deep.sampleCounts[p]).keys()]);
    expect([...list.rows.map((r) => r.depthIndex)].sort()).toEqual([...Array(deep.sampleCounts[p]).keys()]);
    const z = list.channels.indexOf('Z');
    const byDepth = [...list.rows].sort((a, b) => a.depthIndex - b.depthIndex).map((r) => r.values[z]!);
    expect(byDepth).toEqual([...byDepth].sort((a, b) => a - b));
    d.pick(-1, 0);
    await settled();
    expect(d.current.list).toBeNull();
    expect(d.current.listError).toMatch(/outside the data window/);
  });

  it('fetches the samples once, composites each handle move from the same packed samples, packs again for another layer', async () => {
    const { store, d, asked, views } = setup();
    await d.toggleRange();
    expect(d.current.range.extent![0]).toBe(1);
    expect(asked).toEqual([{ fileId: 'f', part: 0, sortByDepth: true }]);
    d.setRange(2.5, 6);
    d.setRange(3, 4.5);
    const shown = views.filter((v): v is DeepRangeView => v !== null);
    expect(shown.length).toBe(3);
    expect(new Set(shown.map((v) => v.packed)).size).toBe(1);
    expect(shown.at(-1)!.range).toEqual({ near: 3, far: 4.5 });
    expect(asked.length).toBe(1);
    // the panel's composite is the CPU reference's
    const columns = columnsOf(deepSamplesTask({ path, part: 0, sortByDepth: true }, { signal: { aborted: false } }).result);
    const planes = compositeRange(columns, { near: 3, far: 4.5 });
    expect(d.compositeAt(4, 1)!.values).toEqual(planes.map((p) => p[1 * W + 4]!));

    store.setState((s) => ({ image: { ...s.image, layer: 'diffuse' } }));
    const last = views.at(-1)!;
    expect(last.packed).not.toBe(shown[0]!.packed);
    expect(last.packed.modes).toEqual([2, 0, 0, 2]);
    expect(asked.length).toBe(1);

    store.setState((s) => ({ image: { ...s.image, currentFileId: 'g' } }));
    expect(views.at(-1)).toBeNull();
    expect(d.current.range.on).toBe(false);
  });
  it('says why the range cannot be drawn on an image shown reduced, and draws the flattened view', async () => {
    const { store, d, views } = setup();
    const reduced = { factor: 2, from: 'box-filter', fullWidthPx: W, fullHeightPx: H, over: 'side', limit: 4 } as const;
    store.setState((s) => ({ image: { ...s.image, decoded: { fileId: 'f', reduced } as never } }));
    await d.toggleRange();
    expect(views.at(-1)).toBeNull();
    expect(d.current.range.error).toMatch(/shown reduced/);
  });
});
