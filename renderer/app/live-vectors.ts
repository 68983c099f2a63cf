// The vector graphics tev clients sent for live images, by file id: the latest whole list from the host's events,
// else the list the image's header carried when it was shown (a page opened after the client drew).
import type { FileHeader, VectorCommand } from '../host-client/api-types.js';

export class LiveVectors {
  private readonly byFile = new Map<string, readonly VectorCommand[]>();
  private readonly listeners = new Set<() => void>();

  set(fileId: string, commands: readonly VectorCommand[]): void {
    this.byFile.set(fileId, commands);
    for (const l of this.listeners) l();
  }

  /** What to draw over `fileId`: an event's list, or its header's (when `header` is that file's). */
  of(fileId: string | null, header: FileHeader | null): readonly VectorCommand[] {
    if (!fileId) return [];
    return this.byFile.get(fileId) ?? (header?.fileId === fileId ? (header.vectorGraphics ?? []) : []);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
