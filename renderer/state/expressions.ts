// The channel-expression slice: the field's text, whether its bar is open, and the expressions saved for reuse (kept
// across sessions by renderer/app/expressions-store.ts). The expression shown is the image's channel pick (`expr:TEXT`).
import type { ChannelPick } from '../model/layer-choice.js';

export interface ExpressionsSlice {
  open: boolean;
  text: string;
  saved: string[];
}

export function initialExpressions(): ExpressionsSlice {
  return { open: false, text: '', saved: [] };
}

/** The channel another image opens with: an expression stays (reused on every image), anything else goes back to RGB. */
export const channelForNextImage = (current: ChannelPick): ChannelPick => (current.startsWith('expr:') ? current : 'rgb');

/** `saved` with `text` first (once), at most `keep` of them. */
export function withSaved(saved: readonly string[], text: string, keep = 30): string[] {
  return [text, ...saved.filter((s) => s !== text)].slice(0, keep);
}
