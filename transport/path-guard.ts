// Path checks for untrusted input: a path resolves (symlinks followed) to somewhere inside an allowed folder, or it is refused.

import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** A path refused because it lies outside what was opened, or is malformed: answered 403 (or 404), never read. */
export class PathRefusedError extends Error {}

/** True when `child` is `parent` or below it; both must already be absolute and resolved. */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  if (rel === '') return true;
  return rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
}

/** Characters no path from a client may hold: NUL (truncates in C APIs), backslash (a separator on Windows). */
function refuseOddCharacters(path: string, what: string): void {
  if (path.includes('\0')) throw new PathRefusedError(`${what}: a NUL byte is not allowed in a path`);
  if (path.includes('\\')) throw new PathRefusedError(`${what}: backslashes are not allowed in a path; use /`);
}

/**
 * Resolves `candidate` (relative to `rootReal`, or absolute) and follows symlinks; returns the real path when it
 * lies inside `rootReal`, else throws PathRefusedError. `rootReal` must itself be a real path (see realRoot).
 * Throws PathRefusedError too when the path does not exist, so callers cannot probe outside the root.
 */
export async function resolveInside(rootReal: string, candidate: string, what = 'path'): Promise<string> {
  refuseOddCharacters(candidate, what);
  const lexical = resolve(rootReal, candidate);
  if (!isInside(rootReal, lexical)) throw new PathRefusedError(`${what} "${candidate}" is outside the served folder`);
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw new PathRefusedError(`${what} "${candidate}" does not exist in the served folder`);
  }
  // a symlink inside the folder may point anywhere: judge where it lands
  if (!isInside(rootReal, real)) throw new PathRefusedError(`${what} "${candidate}" leads outside the served folder`);
  return real;
}

/** The real (symlink-free, absolute) path of a folder that will serve as a root. */
export function realRoot(path: string): string {
  return realpathSync.native(resolve(path));
}

/**
 * Turns the raw (still percent-encoded) path of a URL into a relative path for resolveInside, refusing every
 * trick that could climb out: encoded dots and slashes, double encoding, backslashes, NUL, dot segments.
 */
export function urlPathToRelative(rawPath: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw new PathRefusedError('the URL path is not valid percent-encoding');
  }
  // a '%' left after one decode means double encoding (%252e%252e): no file we serve has one in its name
  if (decoded.includes('%')) throw new PathRefusedError('the URL path is encoded twice');
  refuseOddCharacters(decoded, 'the URL path');
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..')) throw new PathRefusedError('the URL path has "." or ".." segments');
  return segments.join('/');
}
