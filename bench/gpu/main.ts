// The GPU bench's entry: `node dist/gpu-bench/bench.mjs [all|bench|checks|upload|compute|thumbnail|lookdev|compare|verify|soak|lost] [--quick] [--soak N] [--out FILE]`; prints one JSON object last.
import './install-globals.js'; // first: shaders/ reads GPU* globals at load time
import { writeFileSync } from 'node:fs';
import { adapterKey, openDawnDevice } from './dawn.js';
import { verifyUploads } from './verify.js';
import { benchCompute, benchThumbnails, benchUploads, hostInfo } from './bench.js';
import { loseDevice, soak, soakWriteTexture } from './soak.js';
import { benchLookdev } from './lookdev.js';
import { benchCompare } from './compare.js';

async function main(): Promise<unknown> {
  const args = process.argv.slice(2);
  const mode = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? 'all';
  const quick = args.includes('--quick');
  const soakIdx = args.indexOf('--soak');
  const soakCount = soakIdx >= 0 ? Number(args[soakIdx + 1]) : 500;
  const log = (m: string) => process.stderr.write(`[gpu-bench ${((performance.now() / 1000) | 0).toString().padStart(4)}s] ${m}\n`);
  const t0 = performance.now();
  const dawn = await openDawnDevice();
  const head = {
    adapter: { ...dawn.adapterInfo, key: adapterKey(dawn.adapterInfo) },
    timestampQuery: dawn.timestamps,
    host: hostInfo(),
    quick,
  };
  const result: Record<string, unknown> = { bench: 'exrview gpu', mode, ...head };
  // 'checks': the correctness runs (verify, soak, device loss) without the timings
  const want = (m: string) => mode === 'all' || mode === m || (mode === 'checks' && ['verify', 'soak', 'lost'].includes(m));
  const step = async (name: string, fn: () => Promise<unknown>) => {
    try {
      result[name] = await fn();
    } catch (e) {
      result[name] = { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
  };
  if (want('verify'))
    await step('verify', async () => {
      const cases = await verifyUploads(dawn.device);
      return { ok: cases.every((c) => c.ok), cases: cases.length, failed: cases.filter((c) => !c.ok) };
    });
  const opts = { quick, entry: new URL('./cpu-worker.mjs', import.meta.url), log };
  if (want('bench') || mode === 'upload') await step('upload', () => benchUploads(dawn, opts));
  if (want('bench') || mode === 'compute') await step('compute', () => benchCompute(dawn, opts));
  if (want('bench') || mode === 'thumbnail') await step('thumbnail', () => benchThumbnails(dawn, opts));
  if (mode === 'all' || mode === 'lookdev') await step('lookdev', () => benchLookdev(dawn, opts));
  if (want('bench') || mode === 'compare') await step('compare', () => benchCompare(dawn, opts));
  if (want('soak')) {
    await step('soak', () => soak(dawn.device, soakCount, 3840, 2160, log));
    await step('soakWriteTexture', () => soakWriteTexture(dawn.device, quick ? 20 : 100));
  }
  if (want('lost')) await step('deviceLoss', () => loseDevice(dawn.device)); // last: it destroys the device
  result.wallSeconds = Math.round((performance.now() - t0) / 100) / 10;
  const outIdx = args.indexOf('--out');
  if (outIdx >= 0) writeFileSync(args[outIdx + 1]!, JSON.stringify(result, null, 2));
  return result;
}

{
  main().then(
    (result) => {
      console.log(JSON.stringify(result));
      process.exit(0);
    },
    (e: unknown) => {
      console.log(JSON.stringify({ bench: 'exrview gpu', ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }));
      process.exit(1);
    },
  );
}
