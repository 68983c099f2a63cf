// Expressions in the app: shown only when they check against the image on screen, kept on the next image, saved and
// read back from storage.
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../host-client/api-types.js';
import { createAppStore, storeActions } from '../state/store.js';
import { checkExpression, keepSavedExpressions, showExpression } from './expressions.js';

function file(id: string, channels: string[]): FileEntry {
  const part = {
    index: 0,
    channels: channels.map((name) => ({ name, pixelType: 'half', xSampling: 1, ySampling: 1 })),
    layers: [{ name: '', view: null, channels }],
  };
  return { id, name: `${id}.exr`, status: 'ok', summary: { parts: [part], views: [] } } as unknown as FileEntry;
}

/** Storage as the browser's: strings by key. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

function setup() {
  const store = createAppStore();
  const actions = storeActions(store);
  store.setState((s) => ({
    library: { ...s.library, files: [file('a', ['diffuse.R', 'diffuse.G', 'diffuse.B', 'Z']), file('b', ['R', 'G', 'B'])] },
  }));
  actions.selectFile('a');
  return { store, actions };
}

describe('channel expressions in the app', () => {
  it('shows an expression that checks as the channel pick, keeps it on the next image, and saves it', () => {
    const { store, actions } = setup();
    expect(checkExpression(store.getState(), 'diffuse * Z')?.ok).toBe(true);
    showExpression(store, actions, 'diffuse * Z');
    expect(store.getState().image.channel).toBe('expr:diffuse * Z');
    expect(store.getState().expressions.saved).toEqual(['diffuse * Z']);
    actions.selectFile('b');
    expect(store.getState().image.channel).toBe('expr:diffuse * Z');
    // it does not fit this image: the reason, at its place
    const checked = checkExpression(store.getState(), 'diffuse * Z');
    expect(checked?.ok).toBe(false);
    if (checked && !checked.ok) expect([checked.error.start, checked.error.end]).toEqual([0, 7]);
  });

  it('leaves the channel alone for an expression that does not check', () => {
    const { store, actions } = setup();
    const result = showExpression(store, actions, 'diffuse +');
    expect(result?.ok).toBe(false);
    expect(store.getState().image.channel).toBe('rgb');
    expect(store.getState().expressions.saved).toEqual([]);
  });

  it('keeps the saved list in storage across sessions, ignoring a malformed entry', () => {
    const storage = new MemoryStorage();
    const first = setup();
    const stop = keepSavedExpressions(first.store, first.actions, storage);
    showExpression(first.store, first.actions, 'Z * 2');
    stop();
    const second = setup();
    keepSavedExpressions(second.store, second.actions, storage);
    expect(second.store.getState().expressions.saved).toEqual(['Z * 2']);
    storage.setItem('exrview.expressions.v1', '{not json');
    const third = setup();
    keepSavedExpressions(third.store, third.actions, storage);
    expect(third.store.getState().expressions.saved).toEqual([]);
  });
});
