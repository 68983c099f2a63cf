// Drops of folders and files on the window in browser mode (Electron's shell handles its own): the dropped item's path
// (file managers put file:// URIs in text/uri-list) opens its folder through the host with the EXR selected; without a
// path (the browser gave only File objects) a dropped name found in the folder shown is selected, else the status says
// what to do instead.
import type { Controller } from './controller.js';

/** Local paths in a text/uri-list (comments and non-file URIs left out). */
export function droppedPaths(uriList: string): string[] {
  const out: string[] = [];
  for (const line of uriList.split(/\r?\n/)) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    try {
      const u = new URL(t);
      if (u.protocol === 'file:') out.push(decodeURIComponent(u.pathname));
    } catch {
      /* not a URI: ignored */
    }
  }
  return out;
}

/** The folder to open for a dropped path, and the file to select when it names an EXR. */
export function dropTarget(path: string): { folder: string; fileName?: string } {
  const clean = path.replace(/\/+$/, '');
  if (!/\.exr$/i.test(clean)) return { folder: clean || '/' };
  const cut = clean.lastIndexOf('/');
  return { folder: cut > 0 ? clean.slice(0, cut) : '/', fileName: clean.slice(cut + 1) };
}

export type DropTarget = Pick<Controller, 'actions' | 'store' | 'openFolder'>;

/** Acts on one drop: its uri-list and the names of its files. */
export async function handleDrop(c: DropTarget, uriList: string, names: readonly string[]): Promise<void> {
  const paths = droppedPaths(uriList);
  if (paths.length) {
    const { folder, fileName } = dropTarget(paths[0]!);
    await c.openFolder(folder);
    if (!fileName) return;
    const file = c.store.getState().library.files.find((f) => f.name === fileName);
    if (file) c.actions.selectFile(file.id);
    return;
  }
  const files = c.store.getState().library.files;
  const hit = files.find((f) => names.includes(f.name));
  if (hit) {
    c.actions.selectFile(hit.id);
    return;
  }
  c.actions.setUi({
    status: names.length
      ? `The browser gave no folder for ${names[0]}${names.length > 1 ? ` and ${names.length - 1} more` : ''}: type its folder into the Folder field (O) to open it.`
      : 'Nothing to open in that drop: drop a folder or an .exr file from the file manager, or type a folder into the Folder field (O).',
  });
}

/** Listens on the window while there is no Electron shell; returns the unsubscribe. */
export function installDrop(c: DropTarget, root: HTMLElement): () => void {
  const over = (e: DragEvent): void => {
    if (!e.dataTransfer) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    root.classList.add('dropping');
  };
  const leave = (e: DragEvent): void => {
    if (!e.relatedTarget) root.classList.remove('dropping');
  };
  const drop = (e: DragEvent): void => {
    e.preventDefault();
    root.classList.remove('dropping');
    const dt = e.dataTransfer;
    if (!dt) return;
    const names = [...dt.files].map((f) => f.name);
    // a .cube LUT dropped is the LUT loader's (lut-file.ts), not a folder to open
    if (names.length > 0 && names.every((n) => /\.cube$/i.test(n))) return;
    void handleDrop(c, dt.getData('text/uri-list'), names);
  };
  window.addEventListener('dragover', over);
  window.addEventListener('dragleave', leave);
  window.addEventListener('drop', drop);
  return () => {
    window.removeEventListener('dragover', over);
    window.removeEventListener('dragleave', leave);
    window.removeEventListener('drop', drop);
  };
}
