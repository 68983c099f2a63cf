// Writes the small LUTs the oracle configs use (run once: node testing/colour/configs/make-luts.mjs); deterministic.

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'luts');
const fmt = (v) => v.toFixed(6);

// a filmic-ish S-curve on a log-encoded input in [0, 1]
const curve = (x) => Math.pow(x, 1.6) / (Math.pow(x, 1.6) + Math.pow(0.5 * (1 - x) + 0.02, 1.4));

// .spi1d over the domain -0.125..1.125, 1024 entries
{
  const n = 1024;
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(`  ${fmt(curve(Math.min(Math.max(-0.125 + (1.25 * i) / (n - 1), 0), 1)) * 1.02 - 0.01)}`);
  writeFileSync(join(dir, 'tone.spi1d'), `Version 1\nFrom -0.125 1.125\nLength ${n}\nComponents 1\n{\n${rows.join('\n')}\n}\n`);
}

// .spi3d, 17³: a hue-twisting look on display values
{
  const n = 17;
  const rows = [];
  for (let r = 0; r < n; r++)
    for (let g = 0; g < n; g++)
      for (let b = 0; b < n; b++) {
        const [x, y, z] = [r, g, b].map((k) => k / (n - 1));
        const mean = (x + y + z) / 3;
        const out = [x * 0.9 + 0.1 * y * y, y * 0.95 + 0.05 * Math.sqrt(z), z * 0.85 + 0.15 * mean];
        rows.push(`${r} ${g} ${b} ${out.map(fmt).join(' ')}`);
      }
  writeFileSync(join(dir, 'test_film.spi3d'), `SPILUT 1.0\n3 3\n${n} ${n} ${n}\n${rows.join('\n')}\n`);
}

// .cube 3D, 9³, domain 0..1, red fastest
{
  const n = 9;
  const rows = [];
  for (let b = 0; b < n; b++)
    for (let g = 0; g < n; g++)
      for (let r = 0; r < n; r++) {
        const [x, y, z] = [r, g, b].map((k) => k / (n - 1));
        rows.push([Math.sqrt(x) * 0.7 + 0.3 * y, y * y * 0.8 + 0.2 * z, z * 0.6 + 0.4 * x * y].map(fmt).join(' '));
      }
  writeFileSync(join(dir, 'look3d.cube'), `TITLE "look3d"\n# a small 3D look\nLUT_3D_SIZE ${n}\n${rows.join('\n')}\n`);
}

// .cube 1D, 64 entries, domain 0..4 (a warm-up curve per channel)
{
  const n = 64;
  const rows = [];
  for (let i = 0; i < n; i++) {
    const x = (4 * i) / (n - 1);
    rows.push([x * 1.05, x, x * 0.92 + 0.01 * Math.sin(x)].map(fmt).join(' '));
  }
  writeFileSync(join(dir, 'warm.cube'), `LUT_1D_SIZE ${n}\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 4 4 4\n${rows.join('\n')}\n`);
}

// .spimtx: a gamut matrix with an offset (in 16-bit code values)
writeFileSync(join(dir, 'gamut.spimtx'), '0.8 0.15 0.05 655.35\n0.05 0.9 0.05 0\n0.02 0.08 0.9 -327.675\n');
