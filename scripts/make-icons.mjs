// Makes the app icon in every size and format the platforms need from the one drawing, assets/icon.svg:
// PNGs named NxN.png (Linux desktop entries, the window), exrview.ico (Windows), exrview.icns (macOS). Run by the build.
import { IconIcns, IconIco } from '@shockpkg/icon-encoder';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = fileURLToPath(new URL('..', import.meta.url));
export const ICON_SOURCE = join(root, 'assets', 'icon.svg');
export const ICON_DIR = join(root, 'assets', 'icons');

/** The hicolor sizes Linux desktops look for, plus 1024 for macOS's largest. */
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** Windows shows 16 to 256; NSIS refuses an .ico without 256. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS entries (type, pixels) in the order iconutil writes them; @2x types hold twice the nominal size. */
export const ICNS_ENTRIES = [
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic04', 16],
  ['ic14', 512],
  ['ic09', 512],
  ['ic05', 32],
  ['ic10', 1024],
  ['ic11', 32],
];
const STAMP = '.source-sha256';

/** Renders the drawing at `sizePx` square from the vector (not scaled down from a large bitmap), as PNG. */
async function renderPng(svg, sizePx) {
  // the drawing is 1024 units wide: librsvg renders at 72 dpi per unit
  return sharp(svg, { density: (72 * sizePx) / 1024 })
    .resize(sizePx, sizePx, { fit: 'fill' })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** What the icons were made from: the drawing and this script. Unchanged → nothing to do. */
function sourceHash(source) {
  return createHash('sha256')
    .update(readFileSync(source))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex');
}

export function iconFiles(outDir = ICON_DIR) {
  return [...PNG_SIZES.map((s) => join(outDir, `${s}x${s}.png`)), join(outDir, 'exrview.ico'), join(outDir, 'exrview.icns')];
}

/** True when the icons in `outDir` were made from the current drawing and script. */
export function iconsUpToDate(source = ICON_SOURCE, outDir = ICON_DIR) {
  const stamp = join(outDir, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sourceHash(source) && iconFiles(outDir).every((f) => existsSync(f));
}

/** Writes every PNG size, the .ico and the .icns into `outDir`; returns the files written. */
export async function makeIcons(source = ICON_SOURCE, outDir = ICON_DIR) {
  const svg = readFileSync(source);
  mkdirSync(outDir, { recursive: true });
  const png = new Map();
  for (const size of new Set([...PNG_SIZES, ...ICO_SIZES, ...ICNS_ENTRIES.map(([, s]) => s)])) png.set(size, await renderPng(svg, size));
  for (const size of PNG_SIZES) writeFileSync(join(outDir, `${size}x${size}.png`), png.get(size));

  const ico = new IconIco();
  // null: PNG-compressed where Windows reads it (256), BMP for the small sizes older readers expect
  for (const size of ICO_SIZES) await ico.addFromPng(png.get(size), null);
  writeFileSync(join(outDir, 'exrview.ico'), ico.encode());

  const icns = new IconIcns();
  icns.toc = true;
  for (const [type, size] of ICNS_ENTRIES) await icns.addFromPng(png.get(size), [type]);
  writeFileSync(join(outDir, 'exrview.icns'), icns.encode());

  writeFileSync(join(outDir, STAMP), sourceHash(source) + '\n');
  return iconFiles(outDir);
}

// `node scripts/make-icons.mjs [--force] [--out DIR]`
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const outDir = outAt >= 0 ? args[outAt + 1] : ICON_DIR;
  if (!outDir || args.some((a, i) => a.startsWith('-') && a !== '--force' && a !== '--out' && args[i - 1] !== '--out')) {
    console.error('usage: node scripts/make-icons.mjs [--force] [--out DIR]');
    process.exit(2);
  }
  if (!args.includes('--force') && iconsUpToDate(ICON_SOURCE, outDir)) {
    console.log(`exrview: icons in ${outDir} are up to date`);
  } else {
    const t0 = performance.now();
    const files = await makeIcons(ICON_SOURCE, outDir);
    console.log(`exrview: made ${files.length} icon files in ${outDir} in ${Math.round(performance.now() - t0)} ms`);
  }
}
