// LUT files → ops, by extension: `.cube`, `.spi1d`, `.spi3d`, `.spimtx`, `.clf`/`.ctf`, `.3dl`, `.csp` (readers in files/).

import { ColourConfigError } from './errors.js';
import { clfOps, type TransformRequest } from './files/clf.js';
import { cspOps } from './files/csp.js';
import { cubeOps } from './files/cube.js';
import { LutFileError } from './files/lut-error.js';
import { lustre3dlOps } from './files/lustre-3dl.js';
import { spi1dOps } from './files/spi1d.js';
import { spi3dOps } from './files/spi3d.js';
import { spimtxOps } from './files/spimtx.js';
import type { Op } from './ops/op.js';

export type { TransformRequest } from './files/clf.js';

/**
 * The ops a LUT file stands for, in the forward direction; `interpolation` is the FileTransform's. `request` builds the
 * ops of CLF nodes that are config transforms too (FixedFunction, Grading*), through the config's transform path.
 */
export function opsOfLutFile(text: string, file: string, interpolation: string, request?: TransformRequest): Op[] {
  try {
    return readLut(text, file, interpolation, request);
  } catch (error) {
    if (error instanceof LutFileError) throw new ColourConfigError(error.file, error.line, error.reason);
    throw error;
  }
}

function readLut(text: string, file: string, interpolation: string, request: TransformRequest | undefined): Op[] {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  switch (ext) {
    case 'cube':
      return cubeOps(text, file, interpolation);
    case 'spi1d':
      return spi1dOps(text, file, interpolation);
    case 'spi3d':
      return spi3dOps(text, file, interpolation);
    case 'spimtx':
      return spimtxOps(text, file);
    case 'clf':
    case 'ctf':
      return clfOps(text, file, interpolation, request ?? unsupportedRequest(file));
    case '3dl':
      return lustre3dlOps(text, file, interpolation);
    case 'csp':
      return cspOps(text, file, interpolation);
    default:
      throw new ColourConfigError(
        file,
        undefined,
        `LUT format ".${ext}" is not read: use .cube, .spi1d, .spi3d, .spimtx, .clf, .ctf, .3dl or .csp`,
      );
  }
}

function unsupportedRequest(file: string): TransformRequest {
  return (t) => {
    throw new ColourConfigError(file, t.$line, `${t.$tag} nodes need a config to build them: load the LUT through a config`);
  };
}
