// The packages a packaged app must carry: package.json's dependencies and theirs, as installed (from package-lock.json).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * Install locations (`node_modules/a`, `node_modules/a/node_modules/b`) reachable from the root's dependencies through
 * dependencies, optional dependencies that are installed here, and peer dependencies, resolved as Node does: the
 * nearest node_modules up from the package that asks.
 */
export function productionClosure(root: string): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const rootEntry = lock.packages['']!;
  const found = new Set<string>();
  const visit = (from: string, entry: LockEntry) => {
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}),
    ];
    for (const name of names) {
      const location = resolveFrom(from, name, lock.packages);
      // an optional dependency for another platform is not installed, and not needed
      if (location === null || !existsSync(join(root, location)) || found.has(location)) continue;
      found.add(location);
      visit(location, lock.packages[location]!);
    }
  };
  visit('', { dependencies: rootEntry.dependencies ?? {} });
  return [...found].sort();
}

function resolveFrom(from: string, name: string, packages: Record<string, LockEntry>): string | null {
  for (let dir = from; ;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return null;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up < 0 ? '' : dir.slice(0, up);
  }
}

/** The install locations of the packages in a list of packed paths (`/node_modules/a/…`, `/node_modules/@s/b/node_modules/c/…`). */
export function packedPackages(paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    const parts = path.replace(/^[\\/]/, '').split(/[\\/]/);
    const location: string[] = [];
    for (let i = 0; i < parts.length && parts[i] === 'node_modules';) {
      const width = parts[i + 1]?.startsWith('@') ? 2 : 1;
      if (parts.length <= i + width + 1) break; // the folder itself, or a scope folder: not a package's file
      location.push('node_modules', ...parts.slice(i + 1, i + 1 + width));
      found.add(location.join('/'));
      i += 1 + width;
    }
  }
  return [...found].sort();
}
