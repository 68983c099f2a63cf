// The Cryptomatte slice: which Cryptomatte layer the preview shows (null: none), the picked names, and how their matte shows.

/** How picked mattes show: tinted over the beauty, as the matte alone (grey), or the beauty times the matte. */
export type MatteMode = 'overlay' | 'alpha' | 'isolate';
export const MATTE_MODES: readonly MatteMode[] = ['overlay', 'alpha', 'isolate'];

export interface CryptomatteSlice {
  /** The Cryptomatte layer shown (its `name` attribute), or null. */
  layer: string | null;
  /** Picked names: manifest names, or `<hex>` IDs where the layer has no manifest (or the ID no name). */
  picked: string[];
  mode: MatteMode;
  /** The panel of names is open. */
  panelOpen: boolean;
}

export function initialCryptomatte(): CryptomatteSlice {
  return { layer: null, picked: [], mode: 'overlay', panelOpen: false };
}

/** `picked` with `name` added, or taken out when there; `only` replaces the picks with it. */
export function togglePick(picked: readonly string[], name: string, only: boolean): string[] {
  if (only) return picked.length === 1 && picked[0] === name ? [] : [name];
  return picked.includes(name) ? picked.filter((n) => n !== name) : [...picked, name];
}
