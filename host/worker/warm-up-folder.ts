// The temporary folder the warm-ups write their images to, so that they are read from a file as real work is.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new temporary folder, or null where none can be made (a full or read-only temporary folder). */
export function makeWarmUpFolder(): string | null {
  try {
    return mkdtempSync(join(tmpdir(), 'exrview-warm-up-'));
  } catch {
    return null;
  }
}

/** Removes the folder and what was written to it; never throws (a warm-up is best effort). */
export function removeWarmUpFolder(dir: string | null): void {
  if (!dir) return;
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // left in the temporary folder for the system to clean
  }
}
