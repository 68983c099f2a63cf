// Optional native kernels (N-API, built at install when a C compiler is present); null when absent or disabled.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface NativeKernels {
  /** Fills `out` exactly; returns null, or the reason the block is damaged. */
  huffmanDecodeInto(src: Uint8Array, out: Uint16Array): string | null;
  wav2Decode(buf: Uint16Array, base: number, nx: number, ox: number, ny: number, oy: number, maxValue: number): void;
}

declare const __dirname: string | undefined;

let loaded: NativeKernels | null | undefined;

/** Where the built addon may be: beside the source, or relative to a bundle in dist/. */
function candidates(): string[] {
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  return [join(here, 'build', 'exrkernels.node'), join(here, '..', 'native', 'build', 'exrkernels.node'), join(here, '..', '..', 'native', 'build', 'exrkernels.node')];
}

/** The native kernels, loaded once per thread; EXRVIEW_NATIVE=0 turns them off (benchmarks, oracle tests). */
export function nativeKernels(): NativeKernels | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.env.EXRVIEW_NATIVE === '0') return loaded;
  const path = candidates().find((p) => existsSync(p));
  if (!path) return loaded;
  try {
    const require = createRequire(typeof __dirname === 'string' ? join(__dirname, 'x.js') : import.meta.url);
    loaded = require(path) as NativeKernels;
  } catch {
    // a stale or foreign build: the TypeScript kernels do the same work
    loaded = null;
  }
  return loaded;
}
