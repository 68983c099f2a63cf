// What an export meant to the user, as the store keeps it: one line per file, a summary, what may be overwritten.

export interface ExportLine {
  fileId: string;
  name: string;
  status: 'written' | 'downloaded' | 'skipped' | 'failed';
  text: string;
}

export interface ExportOutcome {
  lines: ExportLine[];
  /** One sentence: how many went where. */
  summary: string;
  /** Files skipped because the target exists: the user may confirm overwriting them (into the folder they were meant for). */
  existing: { fileIds: string[]; outDir: string | null };
  /** The request failed as a whole (bad folder, host gone): what happened and what to do. */
  error: string | null;
}
