// Loading a .cube LUT the user picked or dropped: parse it, put it in the view, or say on the status line what is wrong.
import { CubeParseError, parseCube } from '../../shaders/lut-cube.js';
import type { LutShaper } from '../../shaders/lut-apply.js';
import type { StoreActions } from '../state/store.js';

/** The biggest file read: a 65^3 .cube is about 7 MB of text. */
const MAX_CUBE_BYTES = 12 * 1024 * 1024;

export function isCubeFile(name: string): boolean {
  return /\.cube$/i.test(name);
}

/** Parses `text` as the LUT named `name` and applies it on `shaper`; returns the error message shown, or null. */
export function applyCubeText(actions: StoreActions, name: string, text: string, shaper: LutShaper): string | null {
  try {
    const lut = parseCube(text);
    actions.setDisplay({ lut: { lut, shaper, name } });
    actions.setUi({
      status: `LUT ${name} loaded: ${lut.kind === '3d' ? `${lut.size}³` : `1D, ${lut.size} entries`}${lut.title ? ` (${lut.title})` : ''}`,
    });
    return null;
  } catch (error) {
    const why = error instanceof CubeParseError ? error.message : error instanceof Error ? error.message : String(error);
    const message = `could not load the LUT ${name}: ${why}. Fix the file or export it again as a .cube (LUT_3D_SIZE up to 65 or LUT_1D_SIZE)`;
    actions.setUi({ status: message });
    return message;
  }
}

export async function loadCubeFile(actions: StoreActions, file: File, shaper: LutShaper): Promise<string | null> {
  if (file.size > MAX_CUBE_BYTES) {
    const message = `could not load the LUT ${file.name}: it is ${Math.round(file.size / 1e6)} MB, more than a 65³ .cube can be. Pick a .cube file`;
    actions.setUi({ status: message });
    return message;
  }
  return applyCubeText(actions, file.name, await file.text(), shaper);
}

/** Dropping a .cube file anywhere on the window loads it (other drops are left to whoever handles them). */
export function installLutDrop(target: Window, actions: StoreActions, shaper: () => LutShaper): () => void {
  const cubeIn = (e: DragEvent): File | null => [...(e.dataTransfer?.files ?? [])].find((f) => isCubeFile(f.name)) ?? null;
  const over = (e: DragEvent): void => {
    if ([...(e.dataTransfer?.items ?? [])].some((i) => i.kind === 'file')) e.preventDefault();
  };
  const drop = (e: DragEvent): void => {
    const file = cubeIn(e);
    if (!file) return;
    e.preventDefault();
    e.stopPropagation();
    void loadCubeFile(actions, file, shaper());
  };
  target.addEventListener('dragover', over);
  target.addEventListener('drop', drop, true);
  return () => {
    target.removeEventListener('dragover', over);
    target.removeEventListener('drop', drop, true);
  };
}
