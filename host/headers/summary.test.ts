// The grid's summary carries what the page needs to find an image's colour space: chromaticities and a colour-space name.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeExrFile, type WritePart } from '../../codec/writer.js';
import { readSummary } from './summary.js';

const dir = mkdtempSync(join(tmpdir(), 'exrview-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const part = (extra: Partial<WritePart>): WritePart => ({
  dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 1 },
  channels: ['B', 'G', 'R'].map((name) => ({ name, pixelType: 'float' as const, data: new Float32Array(4) })),
  ...extra,
});

describe('colour in the header summary', () => {
  it('gives the chromaticities as [rx, ry, gx, gy, bx, by, wx, wy] and a colour-space attribute by name', async () => {
    const ap1 = { red: [0.713, 0.293], green: [0.165, 0.83], blue: [0.128, 0.044], white: [0.32168, 0.33767] } as const;
    writeExrFile(join(dir, 'ap1.exr'), [
      part({
        chromaticities: { red: [...ap1.red], green: [...ap1.green], blue: [...ap1.blue], white: [...ap1.white] },
        attributes: { 'oiio:ColorSpace': { type: 'string', value: 'ACEScg' } },
      }),
    ]);
    writeExrFile(join(dir, 'plain.exr'), [part({})]);
    const got = await readSummary(join(dir, 'ap1.exr'));
    expect(got.kind).toBe('ok');
    const summary = got.kind === 'ok' ? got.summary.parts[0]! : null;
    expect(summary?.chromaticities?.map((v) => Math.round(v * 1e5) / 1e5)).toEqual([...ap1.red, ...ap1.green, ...ap1.blue, ...ap1.white]);
    expect(summary?.colourSpaceName).toBe('ACEScg');
    const plain = await readSummary(join(dir, 'plain.exr'));
    expect(plain.kind === 'ok' && plain.summary.parts[0]).toMatchObject({ index: 0 });
    expect(plain.kind === 'ok' && 'chromaticities' in plain.summary.parts[0]!).toBe(false);
    expect(plain.kind === 'ok' && 'colourSpaceName' in plain.summary.parts[0]!).toBe(false);
  });
});
