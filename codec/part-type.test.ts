// A single-part file's type comes from its version field, as OpenEXR 3.4 reads it: a `type`
// attribute that disagrees (or is no type at all) is ignored; refused only where OpenEXR refuses.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AttributeValue } from './attributes.js';
import { fileStatsOf } from './file-stats.js';
import { ExrError, ExrReader, memorySource } from './index.js';
import { editSinglePartHeader } from '../testing/codec/oracle/header-edit.js';
import { rgbaSource } from '../testing/codec/oracle/images.js';
import { sharedDir } from '../testing/codec/oracle/tools.js';
import { statsJson } from './stats.js';
import { writeExr } from './writer.js';

const dataWindow = { xMin: -3, yMin: 2, xMax: 36, yMax: 32 };
const scanline = writeExr([{ ...rgbaSource(dataWindow, 4), compression: 'zip' }]);
const tiled = writeExr([{ ...rgbaSource(dataWindow, 4), compression: 'piz', tiles: { xSizePx: 16, ySizePx: 8 } }]);
const TILED_FLAG = 0x200;
const NON_IMAGE_FLAG = 0x800;
const typed = (value: string): { name: string; value: AttributeValue } => ({ name: 'type', value: { type: 'string', value } });

const refStats = join(sharedDir, 'tools/openexr-3.4/exr_ref_stats');
const noRef = existsSync(refStats) ? null : `${refStats} is absent (../shared is not beside the repository)`;
let dir = '';
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Our statistics, and OpenEXR 3.4's when its tool is there. */
function statsOf(bytes: Uint8Array): { ours: string; openexr: string | null } {
  dir ||= mkdtempSync(join(tmpdir(), 'exrview-part-type-'));
  const path = join(dir, 'case.exr');
  writeFileSync(path, bytes);
  const ours = statsJson(fileStatsOf(path));
  const openexr = noRef ? null : execFileSync(refStats, [path], { encoding: 'utf8' }).trim();
  return { ours, openexr };
}

describe('part type against the version field (single-part files)', () => {
  const plainScanline = statsOf(scanline).ours;
  const plainTiled = statsOf(tiled).ours;

  for (const type of ['tiledimage', 'deepscanline', 'deeptile', 'scanlineimage', 'no such type']) {
    it(`reads a scanline file whose type attribute says "${type}" as scanline`, () => {
      const { ours, openexr } = statsOf(editSinglePartHeader(scanline, typed(type)));
      expect(ours).toBe(plainScanline);
      expect(JSON.parse(ours).parts[0].type).toBe('scanlineimage');
      if (openexr !== null) expect(ours).toBe(openexr);
    });
  }

  for (const type of ['scanlineimage', 'deepscanline', 'deeptile', 'tiledimage']) {
    it(`reads a tiled file whose type attribute says "${type}" as tiled`, () => {
      const { ours, openexr } = statsOf(editSinglePartHeader(tiled, typed(type)));
      expect(ours).toBe(plainTiled);
      expect(JSON.parse(ours).parts[0].type).toBe('tiledimage');
      if (openexr !== null) expect(ours).toBe(openexr);
    });
  }

  it('ignores a type attribute that is not a string', () => {
    const { ours, openexr } = statsOf(editSinglePartHeader(scanline, { name: 'type', value: { type: 'int', value: 7 } }));
    expect(ours).toBe(plainScanline);
    if (openexr !== null) expect(ours).toBe(openexr);
  });

  it('takes a deep (non-image) single-part file at its type attribute', () => {
    const { ours, openexr } = statsOf(editSinglePartHeader(scanline, typed('scanlineimage'), (v) => v | NON_IMAGE_FLAG));
    expect(ours).toBe(plainScanline);
    if (openexr !== null) expect(ours).toBe(openexr);
  });

  it('refuses what OpenEXR refuses: tiled and deep flags together, tiles read as scanlines', () => {
    expect(() => ExrReader.open(memorySource(editSinglePartHeader(tiled, typed('deeptile'), (v) => v | NON_IMAGE_FLAG)))).toThrow(
      /single-part tiled and also deep/,
    );
    // a tiled file whose tiled flag is cleared is read as scanlines, whose chunks it does not hold
    const reader = ExrReader.open(memorySource(editSinglePartHeader(tiled, typed('tiledimage'), (v) => v & ~TILED_FLAG)));
    expect(reader.parts[0]!.type).toBe('scanlineimage');
    expect(() => reader.decode()).toThrow(ExrError);
  });

  it.skipIf(noRef !== null)(
    `agrees with OpenEXR 3.4 that a tiled file read as scanlines fails${noRef ? ` (skipped: ${noRef})` : ''}`,
    () => {
      dir ||= mkdtempSync(join(tmpdir(), 'exrview-part-type-'));
      const path = join(dir, 'flag-cleared.exr');
      writeFileSync(
        path,
        editSinglePartHeader(tiled, typed('tiledimage'), (v) => v & ~TILED_FLAG),
      );
      let out = '';
      try {
        out = execFileSync(refStats, [path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch (error) {
        out = String((error as { stdout?: string }).stdout ?? '');
      }
      expect(out).toContain('"error"');
    },
  );
});
