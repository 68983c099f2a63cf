// The grid's thumbnail requests to the host: one per file the engine lacks, and where the file has an embedded preview, that first.
import type { FileEntry, HostApi, Thumbnail, ThumbnailMissing } from '../host-client/api-types.js';

/** What the requests need of the engine. */
export interface ThumbnailSink {
  putThumbnail(fileId: string, t: Thumbnail): void;
  hasThumbnail(fileId: string): boolean;
}

export class ThumbnailRequests {
  /** Files whose thumbnail has been asked for and not yet answered: the request's number. */
  private readonly pending = new Map<string, number>();
  /** Numbers the requests, so that two for one file (one asked before the file changed) never share a host request id. */
  private requestCount = 0;
  /** Files whose cell shows the embedded preview while the thumbnail is still to come. */
  private readonly provisional = new Set<string>();
  /** Files whose thumbnail failed: not asked again until the file changes (forget). */
  private readonly broken = new Set<string>();
  /** Thumbnails (not previews) handed to the engine. */
  shown = 0;

  constructor(
    private readonly api: HostApi,
    private readonly sink: () => ThumbnailSink | null,
    private readonly longSidePx: number,
    private readonly changed: () => void,
    /** A thumbnail the host could not make: the codec's reason (cancellations are not failures). */
    private readonly failed: (fileId: string, reason: string) => void = () => {},
    /** A damaged file's thumbnail, made of its readable chunks: what it lacks. */
    private readonly damaged: (fileId: string, missing: ThumbnailMissing) => void = () => {},
  ) {}

  /** The file changed on disk: its next request is a new one, and the thumbnail held (of the version before) a stand-in. */
  forget(fileId: string): void {
    this.pending.delete(fileId);
    this.broken.delete(fileId);
    if (this.sink()?.hasThumbnail(fileId)) this.provisional.add(fileId);
  }

  /**
   * Asks for the thumbnails of these files that the engine does not have. A file with an embedded
   * preview shows it first (read with the header, in milliseconds) until its thumbnail arrives; the
   * preview never replaces a thumbnail that came first.
   */
  request(files: readonly FileEntry[]): void {
    for (const f of files) {
      const id = f.id;
      // a damaged file whose header reads gets a thumbnail of what can be read; one still being written, of its chunks
      // so far (asked again as more land)
      const readable = f.status === 'ok' || (f.status === 'error' && f.summary !== undefined) || f.rendering !== undefined;
      if (!readable || this.broken.has(id) || this.pending.has(id) || (this.sink()?.hasThumbnail(id) && !this.provisional.has(id)))
        continue;
      const n = ++this.requestCount;
      this.pending.set(id, n);
      // an answer to a request asked before the file changed (forget) is of the version before: a stand-in at most
      const current = () => this.pending.get(id) === n;
      const base = { fileId: id, longSidePx: this.longSidePx, priority: 'thumbnail-visible' as const };
      if (f.summary?.parts.some((p) => p.hasPreview) && !this.sink()?.hasThumbnail(id)) {
        this.api
          .getThumbnail({ ...base, requestId: `tp-${id}-${n}`, embeddedPreview: true })
          .then((t) => {
            const sink = this.sink();
            if (!sink || !current() || sink.hasThumbnail(id)) return; // the thumbnail came first
            sink.putThumbnail(id, t);
            if (t.source === 'embedded-preview') this.provisional.add(id);
            this.changed();
          })
          .catch(() => {});
      }
      this.api
        .getThumbnail({ ...base, requestId: `t-${id}-${n}` })
        .then((t) => {
          const sink = this.sink();
          if (!current()) {
            // the version before: shown only where the cell has nothing yet, and still asked for again
            if (sink && !sink.hasThumbnail(id)) {
              sink.putThumbnail(id, t);
              this.provisional.add(id);
              this.changed();
            }
            return;
          }
          sink?.putThumbnail(id, t);
          if (t.missing) this.damaged(id, t.missing);
          this.provisional.delete(id);
          this.shown++;
          this.changed();
        })
        .catch((e: unknown) => {
          const reason = e instanceof Error ? e.message : String(e);
          if (current() && !reason.startsWith('cancelled')) {
            this.broken.add(id);
            this.failed(id, reason);
          }
        })
        .finally(() => {
          if (current()) this.pending.delete(id);
        });
    }
  }
}
