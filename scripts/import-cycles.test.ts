// No import cycles among the project's modules, nor loops between its folders (static, dynamic and type-only imports all count).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { SOURCE_ROOMS } from './rooms.mjs';

const root = join(__dirname, '..');
const FOLDERS = [...SOURCE_ROOMS, 'testing', 'bench', 'scripts'];

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|tsx|mts)$/.test(name) && !/\.test\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Relative imports of a module: `import … from`, `export … from`, `import('…')` and side-effect imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => m[1]!);
  const found: string[] = [];
  for (const spec of specs) {
    const base = resolve(dirname(file), spec.replace(/\.(js|mjs|ts|tsx)$/, ''));
    const hit = ['.ts', '.tsx', '.mts', '/index.ts'].map((ext) => base + ext).find((p) => existsSync(p));
    if (hit) found.push(hit);
  }
  return found;
}

/** Strongly connected components of more than one module (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component);
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return out;
}

it('has no import cycles', () => {
  const files = FOLDERS.flatMap((f) => (existsSync(join(root, f)) ? sources(join(root, f)) : []));
  expect(files.length).toBeGreaterThan(100);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const found = cycles(graph).map((c) =>
    c
      .map((f) => relative(root, f))
      .sort()
      .join(' ↔ '),
  );
  expect(found).toEqual([]);
});

it('has no import loops between folders', () => {
  const files = FOLDERS.flatMap((f) => (existsSync(join(root, f)) ? sources(join(root, f)) : []));
  // a file's folder → the folders of what it imports; imports within one folder are no edge
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = relative(root, dirname(file));
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const target of importsOf(file)) {
      const to = relative(root, dirname(target));
      if (to !== from) edges.add(to);
    }
  }
  const folderGraph = new Map([...graph].map(([folder, edges]) => [folder, [...edges]]));
  const found = cycles(folderGraph).map((c) => c.sort().join(' ↔ '));
  expect(found).toEqual([]);
});
