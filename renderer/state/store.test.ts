// The store's actions and selectors: exposure steps and limits, filter/sort, next/previous, layer picks.
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../host-client/api-types.js';
import { createAppStore, storeActions, visibleFiles, EXPOSURE_RANGE_EV } from './store.js';
import { layerChoice } from '../model/layer-choice.js';

const file = (id: string, name: string, sizeBytes = 1, mtimeMs = 0): FileEntry => ({
  id,
  folderId: 'f',
  relativePath: name,
  name,
  sizeBytes,
  mtimeMs,
  status: 'ok',
});

describe('store', () => {
  it('steps exposure by a third of a stop on the grid of thirds and clamps to the range', () => {
    const store = createAppStore();
    const a = storeActions(store);
    a.stepExposure(1);
    a.stepExposure(1);
    a.stepExposure(-1);
    expect(store.getState().view.display.exposureEv).toBe(0.33);
    a.stepExposure(1);
    a.stepExposure(1);
    expect(store.getState().view.display.exposureEv).toBe(1);
    a.setExposure(0.25);
    a.stepExposure(1);
    expect(store.getState().view.display.exposureEv).toBe(0.67);
    a.setExposure(1000);
    expect(store.getState().view.display.exposureEv).toBe(EXPOSURE_RANGE_EV);
  });

  it('filters by name and sorts naturally, by size or by time', () => {
    const store = createAppStore();
    const a = storeActions(store);
    a.setFiles('f', [file('1', 'shot10.exr', 5, 1), file('2', 'shot2.exr', 9, 3), file('3', 'plate.exr', 1, 2)]);
    expect(visibleFiles(store.getState().library).map((f) => f.name)).toEqual(['plate.exr', 'shot2.exr', 'shot10.exr']);
    a.setFilter('SHOT');
    expect(visibleFiles(store.getState().library).map((f) => f.id)).toEqual(['2', '1']);
    a.setFilter('');
    a.setSort('size');
    expect(visibleFiles(store.getState().library).map((f) => f.id)).toEqual(['2', '1', '3']);
    a.setSort('mtime');
    expect(visibleFiles(store.getState().library).map((f) => f.id)).toEqual(['2', '3', '1']);
  });

  it('next/previous wrap around in grid order', () => {
    const store = createAppStore();
    const a = storeActions(store);
    a.setFiles('f', [file('1', 'a.exr'), file('2', 'b.exr'), file('3', 'c.exr')]);
    expect(a.stepImage(1)).toBe('1'); // nothing selected: the first
    expect(a.stepImage(1)).toBe('2');
    expect(a.stepImage(1)).toBe('3');
    expect(a.stepImage(1)).toBe('1');
    expect(a.stepImage(-1)).toBe('3');
  });

  it('picks planes for RGB, Y/RY/BY, single channels and named channels', () => {
    expect(layerChoice({ name: '', view: null, channels: ['R', 'G', 'B', 'A'] }, 'rgba')).toEqual({
      choice: { slots: ['R', 'G', 'B', 'A'], mode: 'direct' },
      channelView: 'rgba',
    });
    expect(layerChoice({ name: 'diffuse', view: null, channels: ['diffuse.R', 'diffuse.G', 'diffuse.B'] }, 'g').choice.slots).toEqual([
      'diffuse.R',
      'diffuse.G',
      'diffuse.B',
      null,
    ]);
    expect(layerChoice({ name: '', view: null, channels: ['Y', 'RY', 'BY'] }, 'rgb').choice).toEqual({
      slots: ['Y', 'RY', 'BY', null],
      mode: 'yc',
    });
    expect(layerChoice({ name: '', view: null, channels: ['Y'] }, 'rgb').choice.mode).toBe('y');
    expect(layerChoice({ name: '', view: null, channels: ['Z'] }, 'rgb').choice).toEqual({ slots: ['Z', null, null, null], mode: 'y' });
    expect(layerChoice({ name: '', view: null, channels: ['R', 'G', 'B', 'Z'] }, 'channel:Z')).toEqual({
      choice: { slots: ['Z', null, null, null], mode: 'y' },
      channelView: 'rgb',
    });
  });

  it("selection: one file on select, the grid's focus shows, removed files leave it, a new folder clears it", () => {
    const store = createAppStore();
    const a = storeActions(store);
    a.setFiles('f', [file('1', 'a.exr'), file('2', 'b.exr'), file('3', 'c.exr')]);
    a.selectFile('2');
    expect(store.getState().library).toMatchObject({ selection: ['2'], anchor: '2' });
    a.setChannel('r');
    a.select({ ids: ['2', '3'], anchor: '2', focus: '2' });
    // the focus did not move: the image on screen keeps its channel
    expect(store.getState().image).toMatchObject({ currentFileId: '2', channel: 'r' });
    a.select({ ids: ['2', '3'], anchor: '2', focus: '3' });
    expect(store.getState().image).toMatchObject({ currentFileId: '3', channel: 'rgb' });
    a.removeFiles(['2']);
    expect(store.getState().library).toMatchObject({ selection: ['3'], anchor: null });
    a.setFiles('g', [file('9', 'z.exr')]);
    expect(store.getState().library.selection).toEqual([]);
  });
});
