// Cube environment maps (OpenEXR's six faces stacked vertically: +X, -X, +Y, -Y, +Z, -Z) resampled to a 2:1
// lat-long picture, for `exrview thumbs`: an env map's thumbnail shows the whole sphere the way lat-long maps do.
// Directions follow OpenEXR's LatLongMap and CubeMap (ImfEnvmap.cpp), as shaders/env-latlong.wgsl does on the GPU.
import type { FileHeader, PartSummary } from '../../contract/host-api.js';

/** True when the part is a cube map by its envmap attribute and has the stacked shape (height six times width). */
export function isCubeEnvmap(header: FileHeader, part: PartSummary): boolean {
  const w = part.dataWindow[2] - part.dataWindow[0] + 1,
    h = part.dataWindow[3] - part.dataWindow[1] + 1;
  const attr = header.parts[part.index]?.attributes.find((a) => a.type === 'envmap');
  return !!attr && /cube-face/.test(attr.text) && h === 6 * w;
}

/** The stacked-image position (x, y in px) OpenEXR's CubeMap gives direction (dx, dy, dz), for faces of `sof` px. */
export function cubeTexel(dx: number, dy: number, dz: number, sof: number): [number, number] {
  const ax = Math.abs(dx),
    ay = Math.abs(dy),
    az = Math.abs(dz);
  let face: number, px: number, py: number;
  if (ax >= ay && ax >= az) {
    px = dy / ax;
    py = dz / ax;
    face = dx > 0 ? 0 : 1;
  } else if (ay >= az) {
    px = dx / ay;
    py = dz / ay;
    face = dy > 0 ? 2 : 3;
  } else {
    px = dx / az;
    py = dy / az;
    face = dz > 0 ? 4 : 5;
  }
  const pifX = ((px + 1) / 2) * (sof - 1),
    pifY = ((py + 1) / 2) * (sof - 1);
  const minY = face * sof,
    maxX = sof - 1,
    maxY = minY + sof - 1;
  switch (face) {
    case 0:
      return [pifY, maxY - pifX];
    case 1:
      return [maxX - pifY, maxY - pifX];
    case 2:
      return [pifX, maxY - pifY];
    case 3:
      return [pifX, minY + pifY];
    case 4:
      return [maxX - pifX, maxY - pifY];
    default:
      return [pifX, maxY - pifY];
  }
}

/** Interleaved half RGBA of a stacked cube (sof x 6 sof) → half RGBA lat-long of 4 sof x 2 sof (nearest texel). */
export function cubeToLatLongHalf(
  rgbaHalf: Uint16Array,
  widthPx: number,
  heightPx: number,
): { rgbaHalf: Uint16Array; widthPx: number; heightPx: number } {
  const sof = Math.max(1, Math.min(widthPx, Math.floor(heightPx / 6)));
  const w = 4 * sof,
    h = 2 * sof;
  const out = new Uint16Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const latitude = -Math.PI * (y / Math.max(1, h - 1) - 0.5);
    for (let x = 0; x < w; x++) {
      const longitude = -2 * Math.PI * (x / Math.max(1, w - 1) - 0.5);
      const [tx, ty] = cubeTexel(
        Math.sin(longitude) * Math.cos(latitude),
        Math.sin(latitude),
        Math.cos(longitude) * Math.cos(latitude),
        sof,
      );
      const sx = Math.min(widthPx - 1, Math.max(0, Math.round(tx))),
        sy = Math.min(heightPx - 1, Math.max(0, Math.round(ty)));
      out.set(rgbaHalf.subarray((sy * widthPx + sx) * 4, (sy * widthPx + sx) * 4 + 4), (y * w + x) * 4);
    }
  }
  return { rgbaHalf: out, widthPx: w, heightPx: h };
}
