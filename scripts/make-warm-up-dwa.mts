// Remakes host/worker/warm-up-dwa.ts: a 128x64 RGBA half image from the project's writer, DWAA-compressed by
// OpenEXR 3.4's exr_recompress (the writer does not write DWA), as base64 for the decode workers' warm-up.
//   npx tsx scripts/make-warm-up-dwa.mts [OPENEXR_3_4_DIR]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeExrFile } from '../codec/writer.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tools = process.argv[2] ?? join(root, '..', 'shared', 'tools', 'openexr-3.4');
const dir = mkdtempSync(join(tmpdir(), 'exrview-warm-up-'));
const W = 128,
  H = 64,
  count = W * H;
/** float to half bits, truncating (enough for a warm-up image) */
const toHalf = (v: number): number => {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setFloat32(0, v);
  const x = dv.getUint32(0);
  const e = ((x >> 23) & 255) - 127 + 15;
  return e <= 0 ? 0 : ((x >>> 31) << 15) | (e << 10) | ((x >> 13) & 1023);
};
// smooth gradients with texture, as renders have: DWA's DCT sees real work
const ch = (name: string, f: (x: number, y: number) => number) => ({
  name,
  pixelType: 'half' as const,
  data: Uint16Array.from({ length: count }, (_, i) => toHalf(f(i % W, Math.floor(i / W)))),
});
writeExrFile(join(dir, 'src.exr'), [
  {
    compression: 'none',
    dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
    channels: [
      ch('A', () => 1),
      ch('B', (x, y) => 0.2 + 0.3 * Math.sin(x / 9) * Math.cos(y / 7)),
      ch('G', (x, y) => 0.5 + 0.4 * Math.sin((x + y) / 13)),
      ch('R', (x, y) => (x / W) * 2 + ((x * 7 + y * 13) % 5) / 50),
    ],
  },
]);
execFileSync(join(tools, 'exr_recompress'), [join(dir, 'src.exr'), join(dir, 'dwaa.exr'), 'dwaa']);
const base64 = readFileSync(join(dir, 'dwaa.exr')).toString('base64');
writeFileSync(
  join(root, 'host/worker/warm-up-dwa.ts'),
  `// A 128x64 RGBA half DWAA image for the decode workers' warm-up (made by scripts/make-warm-up-dwa.mts: the project's\n` +
    `// writer, then OpenEXR 3.4's exr_recompress, since the writer does not write DWA).\n` +
    `export const WARM_UP_DWAA_BASE64 =\n  '${base64.replace(/(.{110})/g, "$1' +\n  '")}';\n`,
);
