// The OpenColorIO e2e specs' picture: four bands of constant scene-linear colour, the CPU reference for them through
// `exrview ocio apply`, and reading the bands back out of a screenshot or an exported PNG.
import { floatPlane } from './serve-fixture.js';
import { expect, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import sharp from 'sharp';

export const STUDIO_TEST_CONFIG = 'testing/colour/configs/studio-test.ocio';
const W = 96,
  H = 64;
/** Four bands of constant scene-linear colour: grey, a saturated orange, a highlight above 1, a dark blue. */
export const BANDS: [number, number, number][] = [
  [0.18, 0.18, 0.18],
  [0.9, 0.3, 0.05],
  [4, 2, 1],
  [0.01, 0.02, 0.05],
];

/** Writes the bands (float RGB, no compression; with `chromaticities` when given) as `name` into `folder`. */
export async function writeBandsExr(
  folder: string,
  name = 'bands.exr',
  chromaticities?: { red: [number, number]; green: [number, number]; blue: [number, number]; white: [number, number] },
): Promise<void> {
  const { writeExrFile } = await import('../codec/writer.js');
  writeExrFile(join(folder, name), [
    {
      dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
      compression: 'none',
      ...(chromaticities ? { chromaticities } : {}),
      channels: ['R', 'G', 'B'].map((name, c) => ({
        name,
        pixelType: 'float' as const,
        data: floatPlane(W, H, (x) => BANDS[Math.floor((x * BANDS.length) / W)]![c]!),
      })),
    },
  ]);
}

/** `exrview ocio apply CONFIG dv SPACE DISPLAY VIEW` on the bands: the CPU's display values. */
export function cpuReference(display: string, view: string, config = STUDIO_TEST_CONFIG, space = 'Linear Rec.709'): number[][] {
  const input = Float32Array.from(BANDS.flatMap((b) => [...b, 1]));
  const r = spawnSync(process.execPath, ['bin/exrview.mjs', 'ocio', 'apply', config, 'dv', space, display, view], {
    input: Buffer.from(input.buffer),
  });
  expect(r.status, r.stderr.toString()).toBe(0);
  const out = new Float32Array(new Uint8Array(r.stdout).buffer);
  return BANDS.map((_, i) => [0, 1, 2].map((c) => out[i * 4 + c]!));
}

/** The 8-bit RGB at the middle of each band of an image: the long runs of one colour on its middle row, less the surround. */
export async function bandsOf(png: Buffer | string): Promise<number[][]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const y = Math.floor(info.height / 2);
  const at = (x: number): number[] => [0, 1, 2].map((c) => data[(y * info.width + x) * info.channels + c]!);
  const runs: { from: number; to: number; rgb: number[] }[] = [];
  for (let x = 0; x < info.width; x++) {
    const last = runs[runs.length - 1];
    if (last && at(x).join() === last.rgb.join()) last.to = x;
    else runs.push({ from: x, to: x, rgb: at(x) });
  }
  let long = runs.filter((r) => r.to - r.from >= info.width / 40);
  // the surround, when the picture is narrower than the preview, is the same grey on both sides
  if (long.length > BANDS.length && long[0]!.rgb.join() === long[long.length - 1]!.rgb.join()) long = long.slice(1, -1);
  return long.map((r) => r.rgb);
}

/** The preview's bands. */
export async function previewBands(page: Page): Promise<number[][]> {
  return bandsOf(await page.getByRole('img', { name: 'Preview' }).screenshot());
}

/** Waits until an image is on screen and not loading, then two animation frames. */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const s = (
      window as unknown as { exrviewApp: { store: { getState(): { image: { currentFileId: string | null; loading: boolean } } } } }
    ).exrviewApp.store.getState();
    return s.image.currentFileId !== null && !s.image.loading;
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Display values (0..1) as 8-bit codes. */
export function codesOf(reference: number[][]): number[][] {
  return reference.map((b) => b.map((v) => Math.round(Math.min(Math.max(v, 0), 1) * 255)));
}

/** How far `shown` is from `reference` (display values in 0..1) in 8-bit codes, at worst; Infinity when the bands differ in count. */
export function worstCodes(shown: number[][], reference: number[][]): number {
  if (shown.length !== reference.length) return Infinity;
  const want = codesOf(reference);
  let worst = 0;
  for (let i = 0; i < want.length; i++) for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(shown[i]![c]! - want[i]![c]!));
  return worst;
}
