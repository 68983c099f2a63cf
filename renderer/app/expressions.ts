// Channel expressions in the app: checking the field's text against the image on screen, showing it as the layer,
// and the saved list kept in localStorage (the renderer's settings store; the host keeps no settings).
import { compileExpression, type Compiled } from '../../shaders/expressions/index.js';
import { expressionPick, partChannelNames } from '../model/layer-choice.js';
import type { AppState, AppStore, StoreActions } from '../state/store.js';
import { withSaved } from '../state/expressions.js';

const STORAGE_KEY = 'exrview.expressions.v1';

/** The channel names of the part on screen ([] with none). */
export function shownChannels(s: AppState): string[] {
  const part = s.library.files.find((f) => f.id === s.image.currentFileId)?.summary?.parts[s.image.part];
  return part ? partChannelNames(part) : [];
}

/** The text checked against the image on screen; null for blank text (nothing to say). */
export function checkExpression(s: AppState, text: string): Compiled | null {
  return text.trim() ? compileExpression(text, shownChannels(s)) : null;
}

/** Shows `text` as the layer when it checks against the image on screen (and saves it); the result says why not. */
export function showExpression(store: AppStore, actions: StoreActions, text: string): Compiled | null {
  const s = store.getState();
  const checked = checkExpression(s, text);
  if (!checked?.ok) return checked;
  actions.setChannel(expressionPick(text));
  actions.setExpressions({ text, saved: withSaved(s.expressions.saved, text) });
  return checked;
}

/** The saved expressions from `storage` into the store, and every later change of them back: returns the unsubscribe. */
export function keepSavedExpressions(
  store: AppStore,
  actions: StoreActions,
  storage: Storage | null = globalThis.localStorage ?? null,
): () => void {
  if (!storage) return () => {};
  try {
    const stored: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? '[]');
    if (Array.isArray(stored)) {
      const saved = stored.filter((t): t is string => typeof t === 'string');
      if (saved.length) actions.setExpressions({ saved: [...new Set([...store.getState().expressions.saved, ...saved])] });
    }
  } catch {
    // a malformed entry (written by hand, or by another version) is replaced by the next save
  }
  return store.subscribe((s, before) => {
    if (s.expressions.saved === before.expressions.saved) return;
    try {
      storage.setItem(STORAGE_KEY, JSON.stringify(s.expressions.saved));
    } catch {
      // storage full or refused: the list lasts this session
    }
  });
}
