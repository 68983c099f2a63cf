// The GPU bench's entry: `node dist/gpu-bench/bench.mjs [bench|verify|soak|lost] [--quick] [--out FILE]`; prints one JSON object last.
import { openDawnDevice } from './dawn.ts';
import { verifyUploads } from './verify.ts';

const args = process.argv.slice(2);
const mode = args.find((a) => !a.startsWith('--')) ?? 'bench';

async function main(): Promise<unknown> {
  const dawn = await openDawnDevice();
  if (mode === 'verify') {
    const cases = await verifyUploads(dawn.device);
    return { mode, adapter: dawn.adapterInfo, ok: cases.every((c) => c.ok), cases };
  }
  throw new Error(`unknown mode ${mode}`);
}

main().then(
  (result) => {
    console.log(JSON.stringify(result));
    process.exit(0);
  },
  (e: unknown) => {
    console.log(JSON.stringify({ mode, ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }));
    process.exit(1);
  },
);
