// ExposureContrastTransform: linear, video and log styles, forward and inverse, as OCIO's renderers compute them.

import type { ExposureContrastOp } from './op.js';

const MIN_PIVOT = 0.001;
const MIN_CONTRAST = 0.001;
const VIDEO_OETF_POWER = 0.54644808743169393;

export function applyExposureContrast(op: ExposureContrastOp, rgba: Float32Array): void {
  const contrast = Math.max(MIN_CONTRAST, op.contrast * op.gamma);
  const inverse = op.direction === 'inverse';
  if (op.style === 'log') {
    const pivot = Math.max(MIN_PIVOT, Math.log2(Math.max(MIN_PIVOT, op.pivot) / 0.18) * op.logExposureStep + op.logMidGray);
    const exposure = op.exposure * op.logExposureStep;
    for (let i = 0; i < rgba.length; i += 4) {
      for (let c = 0; c < 3; c++) {
        const x = rgba[i + c]!;
        rgba[i + c] = inverse ? (x - pivot) / contrast + pivot - exposure : (x + exposure - pivot) * contrast + pivot;
      }
    }
    return;
  }
  const video = op.style === 'video';
  const exposure = video ? Math.pow(Math.pow(2, op.exposure), VIDEO_OETF_POWER) : Math.pow(2, op.exposure);
  const pivot = video ? Math.pow(Math.max(MIN_PIVOT, op.pivot), VIDEO_OETF_POWER) : Math.max(MIN_PIVOT, op.pivot);
  for (let i = 0; i < rgba.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      const x = rgba[i + c]!;
      if (contrast === 1) rgba[i + c] = inverse ? x / exposure : x * exposure;
      else if (!inverse) rgba[i + c] = Math.pow(Math.max(0, (x * exposure) / pivot) || 0, contrast) * pivot;
      else rgba[i + c] = (Math.pow(Math.max(0, x / pivot) || 0, 1 / contrast) * pivot) / exposure;
    }
  }
}
