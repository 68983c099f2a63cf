// Browser mode's export destination: the host's encoded files offered as downloads (a Blob behind an <a download>).
import type { ExportResult } from '../host-client/api-types.js';

type Download = NonNullable<ExportResult['downloads']>[number];

/** The page side of a download: make a URL for a Blob, follow it as a download, let it go. Injected so tests need no DOM. */
export interface DownloadSink {
  createUrl(blob: Blob): string;
  clickLink(url: string, fileName: string): void;
  revokeUrl(url: string): void;
  /** Waits between files: Chromium drops a burst of clicks on download links, one after another works. */
  pause(ms: number): Promise<void>;
}

/** A name safe to save under: no folders, no control characters, never empty or hidden. */
export function downloadName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\x00-\x1f\x7f<>:"|?*]+/g, '_').replace(/^\.+/, '');
  return clean || 'export';
}

export const DOWNLOAD_GAP_MS = 150;
/** How long a URL stays alive after its click: the browser reads the Blob asynchronously. */
export const REVOKE_AFTER_MS = 60_000;

/** Offers every download; returns the names they were offered under. */
export async function offerDownloads(downloads: readonly Download[], sink: DownloadSink): Promise<string[]> {
  const names: string[] = [];
  for (const [i, d] of downloads.entries()) {
    if (i > 0) await sink.pause(DOWNLOAD_GAP_MS);
    const name = downloadName(d.name);
    const url = sink.createUrl(new Blob([d.data], { type: d.mimeType }));
    sink.clickLink(url, name);
    void sink.pause(REVOKE_AFTER_MS).then(() => sink.revokeUrl(url));
    names.push(name);
  }
  return names;
}

/** The sink of a real page. */
export function documentSink(doc: Document = document): DownloadSink {
  return {
    createUrl: (blob) => URL.createObjectURL(blob),
    revokeUrl: (url) => URL.revokeObjectURL(url),
    clickLink(url, fileName) {
      const a = doc.createElement('a');
      a.href = url;
      a.download = fileName;
      a.rel = 'noopener';
      a.style.display = 'none';
      doc.body.append(a);
      a.click();
      a.remove();
    },
    pause: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
}
