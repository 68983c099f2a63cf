// Sony Pictures Imageworks `.spimtx`: a 3×4 matrix whose offsets are in 16-bit code values.

import type { Op } from '../ops/op.js';
import { numbers } from './text.js';

export function spimtxOps(text: string, file: string): Op[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const v = numbers(words, file, 1, 12);
  return [
    {
      type: 'matrix',
      m: [v[0]!, v[1]!, v[2]!, 0, v[4]!, v[5]!, v[6]!, 0, v[8]!, v[9]!, v[10]!, 0, 0, 0, 0, 1],
      offset: [v[3]! / 65535, v[7]! / 65535, v[11]! / 65535, 0],
    },
  ];
}
