// The deep panel names the image its samples are of: the file, and the part and layer only where there is a choice.
import { describe, expect, it } from 'vitest';
import { deepSourceLabel } from './DeepPanelSource.js';

const layer = (name: string) => ({ name, view: null, channels: [] });

describe('deepSourceLabel', () => {
  it("is the file's name alone for a file of one part and one layer", () => {
    expect(deepSourceLabel('volumes.exr', [{ name: '', layers: [layer('')] }], 0, '')).toBe('volumes.exr');
  });

  it('names the part (by its name when it has one) in a file of several parts', () => {
    const parts = [
      { name: 'beauty', layers: [layer('')] },
      { name: '', layers: [layer('')] },
    ];
    expect(deepSourceLabel('shot.exr', parts, 0, '')).toBe('shot.exr · part 0 (beauty)');
    expect(deepSourceLabel('shot.exr', parts, 1, '')).toBe('shot.exr · part 1');
  });

  it('names the layer shown in a part of several, the base layer as the pickers do, the first when none is picked', () => {
    const parts = [{ name: 'fx', layers: [layer(''), layer('smoke')] }];
    expect(deepSourceLabel('shot.exr', parts, 0, 'smoke')).toBe('shot.exr · layer smoke');
    expect(deepSourceLabel('shot.exr', parts, 0, '')).toBe('shot.exr · layer (base)');
    expect(deepSourceLabel('shot.exr', parts, 0, 'gone')).toBe('shot.exr · layer (base)');
  });
});
