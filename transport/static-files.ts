// Finds the file of the renderer bundle a URL asks for, refusing anything outside the bundle folder.

import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { contentTypeFor } from './content-types.js';
import { PathRefusedError, resolveInside, urlPathToRelative } from './path-guard.js';

export interface StaticFile {
  path: string;
  contentType: string;
  sizeBytes: number;
}

/**
 * The bundle file for a raw URL path ('/' is index.html), or null when there is none (404).
 * Throws PathRefusedError for paths that try to leave the bundle (403).
 */
export async function findStaticFile(staticReal: string, rawUrlPath: string): Promise<StaticFile | null> {
  const relative = urlPathToRelative(rawUrlPath);
  let path: string;
  try {
    path = await resolveInside(staticReal, relative === '' ? 'index.html' : relative, 'the URL path');
  } catch (error) {
    // a missing file is a 404; a path that escapes is a 403 (resolveInside says which)
    if (error instanceof PathRefusedError && /does not exist/.test(error.message)) return null;
    throw error;
  }
  const info = await stat(path);
  if (info.isDirectory()) return findIndex(staticReal, path);
  if (!info.isFile()) return null;
  return { path, contentType: contentTypeFor(path), sizeBytes: info.size };
}

async function findIndex(staticReal: string, dir: string): Promise<StaticFile | null> {
  try {
    const path = await resolveInside(staticReal, join(dir, 'index.html'));
    const info = await stat(path);
    return info.isFile() ? { path, contentType: contentTypeFor(path), sizeBytes: info.size } : null;
  } catch {
    return null;
  }
}
