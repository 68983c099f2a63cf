// Runs an export from the viewer: the request through the current view, downloads in browser mode, the outcome into the store.
import type { RendererHost } from '../host-client/index.js';
import type { AppStore, StoreActions } from '../state/store.js';
import { offerDownloads, type DownloadSink } from './downloads.js';
import { buildExportRequest, describeExport, exportTargets, type ExportOutcome } from './export-request.js';

export interface ExportOptions {
  /** Default: the selection (or the image on screen). */
  fileIds?: string[];
  /** Only after the user confirmed replacing existing files. */
  overwrite?: boolean;
  /** The folder a first export went to (Electron), so confirming an overwrite does not ask again. */
  outDir?: string | null;
}

const failure = (error: string): ExportOutcome => ({ lines: [], summary: '', existing: { fileIds: [], outDir: null }, error });

export async function runExport(
  host: RendererHost,
  store: AppStore,
  actions: StoreActions,
  sink: () => DownloadSink,
  options: ExportOptions = {},
): Promise<ExportOutcome> {
  const s = store.getState();
  if (s.export.running) return s.export.outcome ?? failure('An export is already running: wait for it to finish.');
  const fileIds = options.fileIds ?? exportTargets(s).map((f) => f.id);
  let outcome: ExportOutcome;
  if (!fileIds.length) {
    outcome = failure('Nothing to export: select images in the grid (click, Ctrl/Cmd-click, Shift-click), then press Export again.');
  } else {
    actions.setExport({ running: true, outcome: null });
    const what = `${fileIds.length} ${s.export.kind === 'thumbnail' ? 'thumbnail' : 'image'}${fileIds.length === 1 ? '' : 's'}`;
    actions.setUi({ status: `exporting ${what}…` });
    try {
      const request = buildExportRequest(s, fileIds, { overwrite: options.overwrite ?? false, outDir: options.outDir ?? null });
      const result = await host.api.exportImages(request);
      if (result.downloads?.length) await offerDownloads(result.downloads, sink());
      outcome = describeExport(result, new Map(store.getState().library.files.map((f) => [f.id, f.name])));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      outcome = failure(`Export of ${what} failed, nothing was written: ${message}`);
    }
  }
  actions.setExport({ running: false, outcome, open: true });
  actions.setUi({ status: outcome.error ?? outcome.summary });
  return outcome;
}
