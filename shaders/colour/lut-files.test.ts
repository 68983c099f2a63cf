// Bad LUT files of each format: each fails with the file, the line where known, and what to do; never a crash.

import { describe, expect, it } from 'vitest';
import { ColourConfigError } from './errors.js';
import { opsOfLutFile } from './lut-files.js';

function messageOf(text: string, file: string): string {
  try {
    opsOfLutFile(text, file, 'default');
  } catch (error) {
    if (error instanceof ColourConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ColourConfigError');
}

const clf = (body: string): string => `<?xml version="1.0"?>\n<ProcessList id="t" compCLFversion="3">\n${body}\n</ProcessList>\n`;

describe('CLF/CTF', () => {
  it('reads a matrix scaled by its bit depths', () => {
    const ops = opsOfLutFile(
      clf('<Matrix inBitDepth="10i" outBitDepth="32f"><Array dim="3 4">1 0 0 0.5 0 2 0 0 0 0 1 0</Array></Matrix>'),
      'm.clf',
      'default',
    );
    expect(ops).toEqual([{ type: 'matrix', m: [1023, 0, 0, 0, 0, 2046, 0, 0, 0, 0, 1023, 0, 0, 0, 0, 1], offset: [0.5, 0, 0, 0] }]);
  });

  it('names the line of malformed XML, a wrong-sized Array and an unknown node', () => {
    expect(messageOf('<ProcessList>\n<Matrix>\n</ProcessList>', 'a.clf')).toMatch(/^a\.clf:\d+: not well-formed XML/);
    expect(messageOf(clf('<LUT1D>\n<Array dim="4 1">0 1</Array></LUT1D>'), 'b.clf')).toBe(
      'b.clf:3: <LUT1D>: its Array dim="4 1" holds 2 values, not 4: fix the dim or the table',
    );
    expect(messageOf(clf('<Reference path="x.clf"/>'), 'c.ctf')).toMatch(/^c\.ctf:3: <Reference>: this node is not read/);
    expect(messageOf('<Other/>', 'd.clf')).toBe('d.clf:1: the root element is <Other>, not <ProcessList>: not a CLF/CTF file');
    expect(messageOf(clf('<Log style="log7"/>'), 'e.clf')).toMatch(/^e\.clf:3: <Log>: Log style "log7" is not/);
  });

  it('hands FixedFunction nodes to the config path, which needs a config', () => {
    expect(messageOf(clf('<FixedFunction style="RGB_TO_HSV"/>'), 'f.ctf')).toBe(
      'f.ctf:3: FixedFunctionTransform nodes need a config to build them: load the LUT through a config',
    );
  });
});

describe('.3dl, .csp and Resolve .cube', () => {
  it('.3dl: a lattice that is not a cube, a line of two numbers', () => {
    expect(messageOf('0 0 0\n4095 4095 4095\n', 'a.3dl')).toBe(
      'a.3dl:1: the 2 entries from here do not make a cube: the .3dl is cut short',
    );
    expect(messageOf('0 1023\n', 'b.3dl')).toBe('b.3dl:1: a line of fewer than 3 integers: each 3D entry needs red, green and blue');
  });

  it('.3dl: infers 12-bit code values from the largest entry', () => {
    const lattice: string[] = [];
    for (let r = 0; r < 2; r++) for (let g = 0; g < 2; g++) for (let b = 0; b < 2; b++) lattice.push(`${r * 4095} ${g * 4095} ${b * 2048}`);
    const ops = opsOfLutFile(`3DMESH\nMesh 1 12\n${lattice.join('\n')}\n`, 'c.3dl', 'linear');
    expect(ops).toHaveLength(1);
    expect(ops[0]!.type === 'lut3d' && Array.from(ops[0].values.slice(0, 6))).toEqual([0, 0, 0, 0, 0, Math.fround(2048 / 4095)]);
  });

  it('.csp: not a csp, cut short', () => {
    expect(messageOf('CSPLUTV99\n3D\n', 'a.csp')).toBe('a.csp:1: the first line is not "CSPLUTV100": not a .csp LUT');
    expect(messageOf('CSPLUTV100\n1D\n0\n0\n0\n4\n0 0 0\n', 'b.csp')).toBe(
      'b.csp:6: the file ends before the 4 rows this line declares: the .csp is cut short',
    );
  });

  it('Resolve .cube: a shaper and a cube with their input ranges', () => {
    const ops = opsOfLutFile(
      'LUT_1D_SIZE 2\nLUT_1D_INPUT_RANGE 0 4\nLUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE -1 1\n0 0 0\n1 1 1\n' + '0 0 0\n'.repeat(8),
      'r.cube',
      'default',
    );
    expect(ops.map((op) => op.type)).toEqual(['matrix', 'lut1d', 'matrix', 'lut3d']);
    expect(ops[0]).toMatchObject({ m: [0.25, 0, 0, 0, 0, 0.25, 0, 0, 0, 0, 0.25, 0, 0, 0, 0, 1] });
    expect(ops[2]).toMatchObject({ offset: [0.5, 0.5, 0.5, 0] });
    expect(messageOf('LUT_1D_SIZE 2\nLUT_3D_SIZE 2\n0 0 0\n', 's.cube')).toBe(
      's.cube:3: the LUT declares 10 entries but has 1: regenerate it or fix its size line',
    );
  });
});
