// The icon pipeline: every PNG size, the .ico and the .icns made from assets/icon.svg, and each holds the drawing.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ICNS_ENTRIES, ICO_SIZES, ICON_SOURCE, PNG_SIZES, iconFiles, iconsUpToDate, makeIcons } from './make-icons.mjs';

const outDir = mkdtempSync(join(tmpdir(), 'exrview-icons-'));
beforeAll(async () => {
  await makeIcons(ICON_SOURCE, outDir);
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The PNG images inside an .ico (its directory: count, then 16-byte entries with size and offset). */
function icoEntries(ico: Buffer): { widthPx: number; data: Buffer }[] {
  expect(ico.readUInt16LE(0)).toBe(0);
  expect(ico.readUInt16LE(2)).toBe(1); // 1: icon
  const entries = [];
  for (let i = 0; i < ico.readUInt16LE(4); i++) {
    const e = 6 + 16 * i;
    const size = ico.readUInt32LE(e + 8);
    const offset = ico.readUInt32LE(e + 12);
    entries.push({ widthPx: ico[e] || 256, data: ico.subarray(offset, offset + size) });
  }
  return entries;
}

/** The (type, data) chunks of an .icns: 'icns' + length, then chunks of 4-letter type + length + data. */
function icnsChunks(icns: Buffer): { type: string; data: Buffer }[] {
  expect(icns.toString('latin1', 0, 4)).toBe('icns');
  expect(icns.readUInt32BE(4)).toBe(icns.length);
  const chunks = [];
  for (let at = 8; at < icns.length;) {
    const length = icns.readUInt32BE(at + 4);
    chunks.push({ type: icns.toString('latin1', at, at + 4), data: icns.subarray(at + 8, at + length) });
    at += length;
  }
  return chunks;
}

describe('make-icons', () => {
  it('writes every file and knows they are up to date until the drawing changes', () => {
    for (const file of iconFiles(outDir)) expect(existsSync(file), file).toBe(true);
    expect(iconsUpToDate(ICON_SOURCE, outDir)).toBe(true);
    // a different drawing (here: a stand-in file) makes them stale
    expect(iconsUpToDate(join(__dirname, 'make-icons.mjs'), outDir)).toBe(false);
  });

  it('renders each PNG size square, with the drawing on a transparent margin', async () => {
    for (const size of PNG_SIZES) {
      const image = sharp(join(outDir, `${size}x${size}.png`));
      const meta = await image.metadata();
      expect([meta.width, meta.height, meta.channels, meta.format]).toEqual([size, size, 4, 'png']);
      if (size < 64) continue;
      const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)];
      expect(pixel(0, 0)[3], 'corner transparent').toBe(0);
      // the centre is the bright opening of the aperture, opaque
      const centre = pixel(size / 2, size / 2);
      expect(centre[3]).toBe(255);
      expect(Math.min(...centre.slice(0, 3))).toBeGreaterThan(200);
      // and the blades around it are coloured, not grey
      const blade = pixel(Math.round(size * 0.5), Math.round(size * 0.22));
      expect(Math.max(...blade.slice(0, 3)) - Math.min(...blade.slice(0, 3))).toBeGreaterThan(80);
    }
  });

  it('packs the Windows sizes into the .ico, 256 included (NSIS needs it)', async () => {
    const entries = icoEntries(readFileSync(join(outDir, 'exrview.ico')));
    expect(entries.map((e) => e.widthPx)).toEqual(ICO_SIZES);
    // the 256 entry is PNG; its pixels are the 256 rendering
    const big = entries.find((e) => e.widthPx === 256)!;
    expect(big.data.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect((await sharp(big.data).metadata()).width).toBe(256);
  });

  it('packs the macOS types into the .icns, each PNG at its size', async () => {
    const chunks = icnsChunks(readFileSync(join(outDir, 'exrview.icns')));
    expect(chunks[0]!.type).toBe('TOC ');
    const images = chunks.filter((c) => c.type !== 'TOC ');
    expect(images.map((c) => c.type)).toEqual(ICNS_ENTRIES.map(([type]) => type));
    for (const [i, [type, size]] of ICNS_ENTRIES.entries()) {
      const data = images[i]!.data;
      // ic04/ic05 are ARGB (packbits), the rest PNG
      if (type === 'ic04' || type === 'ic05') continue;
      expect((await sharp(data).metadata()).width, type).toBe(size);
    }
  });
});
