// Export from the viewer, the pure part: which files, the request through the current view, and what the result means to the user.
import type { ExportRequest, ExportResult, FileEntry, ViewTransform } from '../host-client/api-types.js';
import { selectedInOrder } from '../state/selection.js';
import { formatCube } from '../../shaders/lut-cube.js';
import type { ExportLine, ExportOutcome } from '../state/export-outcome.js';
import { selectionOf, visibleFiles, type AppState } from '../state/store.js';
import { inputSpaceOf } from '../state/colour.js';
import { colourHintsOf } from '../state/file-colour-space.js';
import { exportConfigOf } from './colour.js';

export type { ExportLine, ExportOutcome };

/** What will be exported: the selection in grid order, else the image on screen. */
export function exportTargets(s: AppState): FileEntry[] {
  const files = visibleFiles(s.library);
  const ids = selectedInOrder(
    selectionOf(s),
    files.map((f) => f.id),
  );
  if (!ids.length && s.image.currentFileId !== null) ids.push(s.image.currentFileId);
  const byId = new Map(s.library.files.map((f) => [f.id, f]));
  return ids.map((id) => byId.get(id)).filter((f): f is FileEntry => !!f);
}

/** The layer the preview shows ('' stands for the part's first layer when it has no base layer). */
function shownLayer(s: AppState): string {
  const file = s.library.files.find((f) => f.id === s.image.currentFileId);
  const part = file?.summary?.parts[s.image.part];
  return (part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0])?.name ?? s.image.layer;
}

/** The view the host renders the export through, and notes on what of the screen it cannot reproduce. */
export function exportView(s: AppState): { view: ViewTransform; notes: string[] } {
  const d = s.view.display;
  const notes: string[] = [];
  let channelMode: ViewTransform['channelMode'];
  if (s.image.channel === 'samples') {
    notes.push('The sample-count view is not exported: the flattened colour (RGB) is. Pick RGB to preview what is written.');
    channelMode = 'rgb';
  } else channelMode = s.image.channel;
  if (d.falseColour || d.clipping)
    notes.push('False colour and clipping overlays are screen aids and are not exported: turn them off to preview what is written.');
  const view: ViewTransform = {
    exposureEv: d.exposureEv,
    offset: d.offset,
    gamma: d.gamma,
    displayTransform: d.transform,
    layer: shownLayer(s),
    channelMode,
  };
  // the host parses the same .cube text and applies it with the same reference (shaders/lut-apply.ts)
  if (d.lut) view.lut = { name: d.lut.name, shaper: d.lut.shaper, cube: formatCube(d.lut.lut) };
  const ocio = exportOcio(s, notes);
  if (ocio) view.ocio = ocio;
  return { view, notes };
}

/** The OCIO view on screen as the host builds it again: the same config (a built-in, the host's read, the page's files). */
function exportOcio(s: AppState, notes: string[]): ViewTransform['ocio'] {
  const c = s.colour;
  if (!c.config || !s.view.display.ocio) return undefined;
  const config = exportConfigOf(c.config);
  if ('refused' in config) {
    notes.push(config.refused);
    return undefined;
  }
  const file = s.library.files.find((f) => f.id === s.image.currentFileId);
  return {
    ...config,
    inputSpace: inputSpaceOf(c, s.image.currentFileId, file?.relativePath ?? '', colourHintsOf(file, s.image.part)),
    display: c.display,
    view: c.view,
    ...(c.looks === null ? {} : { looks: c.looks }),
  };
}

export function describeView(v: ViewTransform): string {
  const ev = `${v.exposureEv >= 0 ? '+' : ''}${v.exposureEv.toFixed(1)} EV`;
  const channel = v.channelMode.startsWith('channel:')
    ? v.channelMode.slice('channel:'.length)
    : v.channelMode.startsWith('expr:')
      ? `expression ${v.channelMode.slice('expr:'.length)}`
      : v.channelMode.toUpperCase();
  return `${ev}, ${v.displayTransform}${v.offset ? `, offset ${v.offset}` : ''}${v.gamma !== 1 ? `, gamma ${v.gamma}` : ''}, layer ${v.layer || '(base)'}, ${channel}${v.lut ? `, LUT ${v.lut.name} (${v.lut.shaper === 'display' ? 'after the view' : `on the ${v.lut.shaper} shaper`})` : ''}${v.ocio ? `, OCIO ${v.ocio.inputSpace} → ${v.ocio.display} / ${v.ocio.view}` : ''}`;
}

/**
 * The request for these files. No export folder: Electron's shell asks for one, browser mode returns downloads.
 * The part on screen is sent only when exporting that one image (other files may not have it; the host picks their first image part).
 */
export function buildExportRequest(
  s: AppState,
  fileIds: readonly string[],
  options: { overwrite?: boolean; outDir?: string | null } = {},
): ExportRequest {
  const { view } = exportView(s);
  if (view.ocio) view.ocio = { ...view.ocio, inputSpaces: inputSpacesOf(s, fileIds) };
  const e = s.export;
  const request: ExportRequest = { fileIds: [...fileIds], kind: e.kind, format: e.format, overwrite: options.overwrite ?? false, view };
  if (options.outDir) request.outDir = options.outDir;
  if (e.kind === 'thumbnail') request.longSidePx = e.longSidePx;
  else if (fileIds.length === 1 && fileIds[0] === s.image.currentFileId) request.part = s.image.part;
  return request;
}

/** Each file's own input colour space (its pick, the file rules, what its header says), for an export of many files. */
function inputSpacesOf(s: AppState, fileIds: readonly string[]): Record<string, string> {
  const byId = new Map(s.library.files.map((f) => [f.id, f]));
  const spaces: Record<string, string> = {};
  for (const id of fileIds) {
    const file = byId.get(id);
    if (!file) continue;
    try {
      spaces[id] = inputSpaceOf(s.colour, id, file.relativePath, colourHintsOf(file, id === s.image.currentFileId ? s.image.part : 0));
    } catch {
      // a file rule that cannot run: the host says so when it builds the view with the image on screen's space
    }
  }
  return spaces;
}

const ALREADY_EXISTS = / already exists: /;

/** The path in the host's "PATH already exists: …" reason, or null. */
export function existingPathOf(reason: string): string | null {
  const i = reason.search(ALREADY_EXISTS);
  return i > 0 ? reason.slice(0, i) : null;
}

/** The folder of a path, whichever separator the host's platform uses. */
export function folderOf(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i <= 0 ? path.slice(0, i + 1) || path : path.slice(0, i);
}

const kb = (bytes: number): string => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`);

/** The user's view of a result: one line per file, a summary, and the existing files they may choose to overwrite. */
export function describeExport(result: ExportResult, names: ReadonlyMap<string, string>): ExportOutcome {
  const name = (id: string): string => names.get(id) ?? id;
  const lines: ExportLine[] = [];
  // a damaged deep part is written from the chunks that could be read: the line says so
  const damage = (d: { damage?: string; reduced?: string }): string =>
    (d.reduced ? `; ${d.reduced}` : '') + (d.damage ? `; ${d.damage}` : '');
  for (const w of result.written)
    lines.push({ fileId: w.fileId, name: name(w.fileId), status: 'written', text: `written to ${w.path} (${kb(w.bytes)})${damage(w)}` });
  for (const d of result.downloads ?? [])
    lines.push({
      fileId: d.fileId,
      name: name(d.fileId),
      status: 'downloaded',
      text: `saved as the download ${d.name} (${kb(d.data.byteLength)})${damage(d)}`,
    });
  const existing: string[] = [];
  let outDir: string | null = null;
  let cancelled = 0;
  for (const k of result.skipped) {
    const path = existingPathOf(k.reason);
    if (path) {
      existing.push(k.fileId);
      outDir ??= folderOf(path);
    }
    if (k.reason === 'export cancelled') {
      cancelled++;
      continue;
    }
    lines.push({
      fileId: k.fileId,
      name: name(k.fileId),
      status: 'skipped',
      text: path
        ? `not written: ${path} already exists. Confirm "Overwrite" below to replace it, or export to another folder.`
        : `skipped: ${k.reason}`,
    });
  }
  for (const f of result.failed) {
    const hint = /has no layer/.test(f.reason) ? ' Pick the (base) layer, or export this image on its own.' : '';
    lines.push({ fileId: f.fileId, name: name(f.fileId), status: 'failed', text: `failed: ${f.reason}${hint}` });
  }
  const done = result.written.length + (result.downloads?.length ?? 0);
  const damaged = [...result.written, ...(result.downloads ?? [])].filter((d) => d.damage).length;
  const parts = [
    result.downloads?.length ? `${result.downloads.length} downloaded` : `${result.written.length} written`,
    damaged ? `${damaged} with damage` : '',
    existing.length ? `${existing.length} not overwritten` : '',
    result.failed.length ? `${result.failed.length} failed` : '',
  ].filter(Boolean);
  const summary =
    cancelled && !done && !result.failed.length
      ? 'Export cancelled: no folder was chosen. Press Export again and pick a folder.'
      : `Exported ${done} of ${done + result.skipped.length + result.failed.length}: ${parts.join(', ')}.`;
  return { lines, summary, existing: { fileIds: existing, outDir }, error: null };
}
