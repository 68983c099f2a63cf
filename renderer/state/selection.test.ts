// The grid's multi-selection: clicks with and without modifiers, keyboard in a grid of columns, pruning.
import { describe, expect, it } from 'vitest';
import { clickSelect, EMPTY_SELECTION, keySelect, pruneSelection, selectedInOrder, type Selection } from './selection.js';

const order = ['a', 'b', 'c', 'd', 'e', 'f'];
const none = { toggle: false, range: false };
const key = (k: string, shift = false, ctrl = false) => ({ key: k, shift, ctrl });

describe('clickSelect', () => {
  it('a plain click selects one and shows it', () => {
    const s = clickSelect({ ids: ['a', 'b'], anchor: 'a', focus: 'b' }, order, 'd', none);
    expect(s).toEqual({ ids: ['d'], anchor: 'd', focus: 'd' });
  });

  it('Ctrl/Cmd-click adds and removes one, keeping the rest', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 'b', none);
    s = clickSelect(s, order, 'e', { toggle: true, range: false });
    expect(s).toEqual({ ids: ['b', 'e'], anchor: 'e', focus: 'e' });
    s = clickSelect(s, order, 'b', { toggle: true, range: false });
    // removing one keeps the image on screen
    expect(s).toEqual({ ids: ['e'], anchor: 'b', focus: 'e' });
  });

  it('Shift-click selects the range from the anchor, either direction, replacing the rest', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 'c', none);
    s = clickSelect(s, order, 'e', { toggle: false, range: true });
    expect(selectedInOrder(s, order)).toEqual(['c', 'd', 'e']);
    expect(s.anchor).toBe('c');
    s = clickSelect(s, order, 'a', { toggle: false, range: true });
    expect(selectedInOrder(s, order)).toEqual(['a', 'b', 'c']);
  });

  it('Ctrl+Shift-click adds the range to what is selected', () => {
    let s: Selection = { ids: ['f'], anchor: 'b', focus: 'f' };
    s = clickSelect(s, order, 'c', { toggle: true, range: true });
    expect(selectedInOrder(s, order)).toEqual(['b', 'c', 'f']);
  });

  it('Shift-click with no anchor selects just that one', () => {
    expect(clickSelect(EMPTY_SELECTION, order, 'd', { toggle: false, range: true })).toEqual({ ids: ['d'], anchor: 'd', focus: 'd' });
  });
});

describe('keySelect (3 columns)', () => {
  const at = (id: string): Selection => ({ ids: [id], anchor: id, focus: id });

  it('arrows move by one or by a row and select the new one alone, clamped at the ends', () => {
    expect(keySelect(at('a'), order, key('ArrowRight'), 3)).toEqual(at('b'));
    expect(keySelect(at('b'), order, key('ArrowDown'), 3)).toEqual(at('e'));
    expect(keySelect(at('e'), order, key('ArrowUp'), 3)).toEqual(at('b'));
    expect(keySelect(at('a'), order, key('ArrowLeft'), 3)).toEqual(at('a'));
    expect(keySelect(at('e'), order, key('ArrowDown'), 3)).toEqual(at('f'));
    expect(keySelect(at('c'), order, key('End'), 3)).toEqual(at('f'));
    expect(keySelect(at('c'), order, key('Home'), 3)).toEqual(at('a'));
  });

  it('Shift+arrows extend from the anchor', () => {
    let s = keySelect(at('b'), order, key('ArrowRight', true), 3)!;
    s = keySelect(s, order, key('ArrowDown', true), 3)!;
    expect(selectedInOrder(s, order)).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(s.focus).toBe('f');
    s = keySelect(s, order, key('Home', true), 3)!;
    expect(selectedInOrder(s, order)).toEqual(['a', 'b']);
  });

  it('Ctrl+arrows move the focus only; Space then toggles it; Shift+Space selects the range to it', () => {
    let s = keySelect(at('a'), order, key('ArrowRight', false, true), 3)!;
    s = keySelect(s, order, key('ArrowRight', false, true), 3)!;
    expect(s).toEqual({ ids: ['a'], anchor: 'a', focus: 'c' });
    s = keySelect(s, order, key(' '), 3)!;
    expect(selectedInOrder(s, order)).toEqual(['a', 'c']);
    s = keySelect(s, order, key(' '), 3)!;
    expect(selectedInOrder(s, order)).toEqual(['a']);
    s = keySelect({ ...s, anchor: 'a', focus: 'd' }, order, key(' ', true), 3)!;
    expect(selectedInOrder(s, order)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('Ctrl+A selects all; other keys are not selection keys', () => {
    expect(keySelect(at('c'), order, key('a', false, true), 3)!.ids).toEqual(order);
    expect(keySelect(at('c'), order, key('e'), 3)).toBeNull();
    expect(keySelect(at('c'), [], key('ArrowRight'), 3)).toBeNull();
  });

  it('starts at the first option when nothing has the focus', () => {
    expect(keySelect(EMPTY_SELECTION, order, key('ArrowDown'), 3)).toEqual(at('a'));
  });
});

describe('selection upkeep', () => {
  it('lists the selection in grid order and prunes removed files', () => {
    const s: Selection = { ids: ['e', 'a', 'c'], anchor: 'c', focus: 'e' };
    expect(selectedInOrder(s, order)).toEqual(['a', 'c', 'e']);
    expect(pruneSelection(s, (id) => id !== 'c' && id !== 'e')).toEqual({ ids: ['a'], anchor: null, focus: null });
  });
});
