// The folders the user opened through the shell (picker, recent list, drop, OS, command line): the only places IPC may touch.

import { realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PathRefusedError, isInside } from '../../transport/path-guard.js';

export class FolderGrants {
  private readonly roots = new Set<string>();

  /**
   * Grants a folder (or, for a file, the folder that holds it) that the user chose outside the page.
   * Returns the folder's real path.
   */
  async grant(path: string): Promise<string> {
    const real = await realpath(path);
    const folder = (await stat(real)).isDirectory() ? real : dirname(real);
    this.roots.add(folder);
    return folder;
  }

  /** The real path of `path` when it lies in a granted folder (symlinks followed), else PathRefusedError. */
  async check(path: string, what = 'path'): Promise<string> {
    if (typeof path !== 'string' || path.includes('\0')) throw new PathRefusedError(`${what} is not a valid path`);
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      throw new PathRefusedError(`${what} "${path}" does not exist or cannot be read`);
    }
    for (const root of this.roots) if (isInside(root, real)) return real;
    throw new PathRefusedError(`${what} "${path}" is not in a folder you opened: open it with File ▸ Open Folder… first`);
  }

  get folders(): string[] {
    return [...this.roots];
  }
}
