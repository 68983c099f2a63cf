// ocio_apply run without blocking, several at once: most of each run is OpenColorIO's start-up, not its work.

import { spawn } from 'node:child_process';
import { OCIO_APPLY } from './oracle.js';

/** ocio_apply without blocking, so that several run at once (most of each run is process start-up). */
export function ocioApplyAsync(config: string, args: string[], pixels: Float32Array): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(OCIO_APPLY, [config, ...args], { env: { ...process.env, OCIO_OPT: 'lossless' } });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => errors.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ocio_apply ${args.join(' ')}: ${Buffer.concat(errors).toString().trim()}`));
      const bytes = Buffer.concat(chunks);
      const out = new Float32Array(bytes.length / 4);
      new Uint8Array(out.buffer).set(bytes);
      resolve(out);
    });
    child.stdin.end(Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength));
  });
}

export async function inParallel<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const k = next++;
      results[k] = await jobs[k]!();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}
