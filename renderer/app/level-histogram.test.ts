// Level 0's histogram stands in for the reduced level's only while the image, part, layer and channel it counted are on screen.
import { describe, expect, it } from 'vitest';
import { createAppStore, storeActions } from '../state/store.js';
import { LevelHistogram } from './level-histogram.js';

describe("level 0's histogram", () => {
  it('is kept for the image on screen and given while its layer and channel stay', () => {
    const store = createAppStore();
    const actions = storeActions(store);
    actions.setFiles('f', []);
    const held = new LevelHistogram();
    const bins = new Uint32Array([1, 2, 3]);
    expect(held.keep(store.getState(), 'big', bins)).toBe(false); // not on screen
    store.setState((s) => ({ ...s, image: { ...s.image, currentFileId: 'big' } }));
    expect(held.keep(store.getState(), 'big', bins)).toBe(true);
    expect(held.binsFor(store.getState())).toBe(bins);
    store.setState((s) => ({ ...s, image: { ...s.image, channel: 'channel:R' } }));
    expect(held.binsFor(store.getState())).toBeNull();
    store.setState((s) => ({ ...s, image: { ...s.image, channel: 'rgb', currentFileId: 'other' } }));
    expect(held.binsFor(store.getState())).toBeNull();
  });
});
