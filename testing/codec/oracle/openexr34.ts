// Test support: OpenEXR 3.4's tools in ../shared (exr_recompress, exr_ref_stats), or why they cannot be used.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDir } from './tools.js';

const dir = join(sharedDir, 'tools/openexr-3.4');

export interface OpenExr34 {
  /** Rewrites a flat single-part file with another compression (OpenEXR 3.4 names: htj2k256, htj2k32). */
  recompress(input: string, output: string, compression: string): void;
  /** OpenEXR 3.4's statistics, the JSON of `exrview stats --json` (an {"error"} object when it refuses the file). */
  refStats(path: string): string;
}

export function findOpenExr34(): { tools: OpenExr34 } | { reason: string } {
  const recompress = join(dir, 'exr_recompress');
  const refStats = join(dir, 'exr_ref_stats');
  if (!existsSync(recompress) || !existsSync(refStats)) return { reason: `${dir} is absent (../shared is not beside the repository)` };
  return {
    tools: {
      recompress: (input, output, compression) =>
        void execFileSync(recompress, [input, output, compression], { stdio: ['ignore', 'ignore', 'pipe'] }),
      refStats: (path) => {
        try {
          return execFileSync(refStats, [path], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'pipe'],
            maxBuffer: 64 * 1024 * 1024,
          }).trim();
        } catch (error) {
          const text = String((error as { stdout?: string }).stdout ?? '').trim();
          if (!text) throw error;
          return text;
        }
      },
    },
  };
}
