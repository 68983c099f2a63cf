// Writes the LUTs of formats-test.ocio, one or two per file format, into DIR (its $FORMAT_LUTS); deterministic.
// The oracle test runs it into a temporary folder: node testing/colour/configs/make-format-luts.mjs DIR

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node make-format-luts.mjs DIR');
mkdirSync(dir, { recursive: true });
const fmt = (v) => v.toFixed(6);
const write = (name, text) => writeFileSync(join(dir, name), text);
const grid = (n, fn) => {
  const rows = [];
  // red fastest
  for (let b = 0; b < n; b++) for (let g = 0; g < n; g++) for (let r = 0; r < n; r++) rows.push(fn(r / (n - 1), g / (n - 1), b / (n - 1)));
  return rows;
};
const gridBlueFastest = (n, fn) => {
  const rows = [];
  for (let r = 0; r < n; r++) for (let g = 0; g < n; g++) for (let b = 0; b < n; b++) rows.push(fn(r / (n - 1), g / (n - 1), b / (n - 1)));
  return rows;
};
// an invertible colour twist: monotonic in each channel, with some crosstalk
const spow = (v, p) => Math.sign(v) * Math.abs(v) ** p;
const twist = (x, y, z) => [
  0.8 * x + 0.15 * spow(y, 2) + 0.05 * z,
  0.1 * x + 0.85 * spow(y, 0.5) + 0.05 * z,
  0.05 * x + 0.1 * y + 0.85 * spow(z, 1.2),
];

// Resolve .cube: a 1D shaper over -0.1..4 then a 9³ cube over 0..1.2
{
  const n1 = 32;
  const shaper = Array.from({ length: n1 }, (_, i) => {
    const x = -0.1 + (4.1 * i) / (n1 - 1);
    const v = Math.log2(Math.max(x, 0) + 0.05) / 8 + 0.55;
    return [v, v * 0.98, v * 1.01].map(fmt).join(' ');
  });
  const cube = grid(9, (r, g, b) =>
    twist(r * 1.2, g * 1.2, b * 1.2)
      .map(fmt)
      .join(' '),
  );
  write(
    'shaper.cube',
    `# a Resolve cube with a shaper\nLUT_1D_SIZE ${n1}\nLUT_1D_INPUT_RANGE -0.1 4.0\nLUT_3D_SIZE 9\nLUT_3D_INPUT_RANGE 0 1.2\n` +
      `${shaper.join('\n')}\n${cube.join('\n')}\n`,
  );
}

// Iridas .cube with TITLE and DOMAIN_MIN/MAX: an invertible 3D LUT whose inverse the config uses
{
  const cube = grid(17, (r, g, b) =>
    twist(r * 1.5 - 0.25, g * 1.5 - 0.25, b * 1.5 - 0.25)
      .map(fmt)
      .join(' '),
  );
  write('twist.cube', `TITLE "twist"\nLUT_3D_SIZE 17\nDOMAIN_MIN -0.25 -0.25 -0.25\nDOMAIN_MAX 1.25 1.25 1.25\n${cube.join('\n')}\n`);
}

// Lustre .3dl: a 10-bit shaper (a gentle curve) and a 17³ 12-bit lattice, blue fastest
{
  const shaper = Array.from({ length: 17 }, (_, i) => Math.round(1023 * Math.pow(i / 16, 0.9)));
  const lattice = gridBlueFastest(17, (r, g, b) =>
    twist(r, g, b)
      .map((v) => Math.round(Math.min(Math.max(v, 0), 1) * 4095))
      .join(' '),
  );
  write('film.3dl', `3DMESH\nMesh 4 12\n${shaper.join(' ')}\n${lattice.join('\n')}\n\nLUT8\ngamma 1.0\n`);
}

// cineSpace .csp, 3D with a prelut that is not the identity
{
  const cube = grid(11, (r, g, b) => twist(r, g, b).map(fmt).join(' '));
  write(
    'grade.csp',
    'CSPLUTV100\n3D\n\nBEGIN METADATA\na test LUT\nEND METADATA\n\n' +
      '5\n-0.1 0.2 0.6 1.5 4.0\n0.0 0.3 0.6 0.85 1.0\n' +
      '3\n0.0 0.5 1.0\n0.0 0.45 1.0\n' +
      '2\n0.0 1.0\n0.0 1.0\n\n' +
      `11 11 11\n${cube.join('\n')}\n`,
  );
}

// cineSpace .csp, 1D without a prelut
{
  const rows = Array.from({ length: 64 }, (_, i) => {
    const x = i / 63;
    return [x ** 0.8, x ** 0.9 * 0.95, x * 0.9 + 0.05 * x * x].map(fmt).join(' ');
  });
  write('curve.csp', `CSPLUTV100\n1D\n\n0\n0\n0\n\n64\n${rows.join('\n')}\n`);
}

// CLF: every analytic node, with integer bit depths on the matrix and the LUT
{
  const lut = Array.from({ length: 1024 }, (_, i) => {
    const x = i / 1023;
    return [x ** 0.7, x ** 0.75, x ** 0.8].map((v) => fmt(v * 4095)).join(' ');
  });
  write(
    'nodes.clf',
    `<?xml version="1.0" encoding="UTF-8"?>
<ProcessList compCLFversion="3" id="exrview-nodes">
  <Description>every CLF node exrview reads</Description>
  <Range inBitDepth="32f" outBitDepth="32f" style="noClamp">
    <minInValue>-0.25</minInValue><maxInValue>8</maxInValue><minOutValue>0</minOutValue><maxOutValue>1</maxOutValue>
  </Range>
  <Matrix inBitDepth="32f" outBitDepth="10i">
    <Array dim="3 4">
      0.9 0.05 0.05 2
      0.02 0.95 0.03 0
      0.01 0.04 0.95 -1
    </Array>
  </Matrix>
  <LUT1D inBitDepth="10i" outBitDepth="12i" interpolation="linear">
    <Array dim="1024 3">
${lut.join('\n')}
    </Array>
  </LUT1D>
  <Range inBitDepth="12i" outBitDepth="32f">
    <minInValue>0</minInValue><maxInValue>4095</maxInValue><minOutValue>0.001</minOutValue><maxOutValue>2</maxOutValue>
  </Range>
  <Log inBitDepth="32f" outBitDepth="32f" style="cameraLinToLog">
    <LogParams base="2" logSideSlope="0.09" logSideOffset="0.6" linSideSlope="1" linSideOffset="0.005" linSideBreak="0.01" />
  </Log>
  <Exponent inBitDepth="32f" outBitDepth="32f" style="monCurveRev">
    <ExponentParams exponent="2.4" offset="0.055" />
  </Exponent>
  <ASC_CDL inBitDepth="32f" outBitDepth="32f" style="FwdNoClamp">
    <SOPNode><Slope>1.1 1.0 0.9</Slope><Offset>0.01 0 -0.01</Offset><Power>1.1 1.0 0.95</Power></SOPNode>
    <SatNode><Saturation>0.9</Saturation></SatNode>
  </ASC_CDL>
  <Log inBitDepth="32f" outBitDepth="32f" style="antiLog2" />
</ProcessList>
`,
  );
}

// CTF: hueAdjust, a half-domain LUT of raw halfs, inverse 1D and 3D LUTs, Gamma, a tetrahedral 3D LUT
{
  const half = new Float32Array(1);
  const bits = new Uint32Array(half.buffer);
  const toHalfBits = (v) => {
    half[0] = v;
    const x = bits[0];
    const sign = (x >>> 16) & 0x8000;
    const e = ((x >>> 23) & 0xff) - 127 + 15;
    if (v === 0) return sign;
    if (e <= 0) return sign | Math.round(Math.abs(v) / 2 ** -24);
    if (e >= 31) return sign | 0x7bff;
    return sign | (e << 10) | Math.round((x & 0x7fffff) / 8192);
  };
  const fromHalfBits = (h) => {
    const s = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 31,
      m = h & 1023;
    if (e === 0) return s * m * 2 ** -24;
    if (e === 31) return m ? NaN : s * Infinity;
    return s * (1 + m / 1024) * 2 ** (e - 15);
  };
  const halfRows = [];
  for (let code = 0; code < 65536; code++) {
    const x = fromHalfBits(code);
    // halving is exact in half floats: the table has no flat steps from rounding, so its inverse is well defined
    const y = Number.isFinite(x) ? x / 2 : 0;
    halfRows.push(toHalfBits(y));
  }
  const hueLut = Array.from({ length: 256 }, (_, i) => {
    const x = i / 255;
    return fmt(x * x * (3 - 2 * x));
  });
  const invLut = Array.from({ length: 128 }, (_, i) => {
    const x = i / 127;
    return [x ** 1.5, x ** 1.4, x ** 1.3].map(fmt).join(' ');
  });
  const cube = gridBlueFastest(5, (r, g, b) => twist(r, g, b).map(fmt).join(' '));
  write(
    'nodes.ctf',
    `<?xml version="1.0" encoding="UTF-8"?>
<ProcessList version="2.0" id="exrview-ctf">
  <LUT1D inBitDepth="32f" outBitDepth="16f" halfDomain="true" rawHalfs="true">
    <Array dim="65536 1">
${halfRows.join('\n')}
    </Array>
  </LUT1D>
  <ExposureContrast inBitDepth="16f" outBitDepth="32f" style="linear">
    <ECParams exposure="0.3" contrast="1.1" gamma="1" pivot="0.18" />
  </ExposureContrast>
  <Gamma inBitDepth="32f" outBitDepth="32f" style="basicMirrorFwd">
    <GammaParams gamma="1.2" />
  </Gamma>
  <Range inBitDepth="32f" outBitDepth="32f">
    <minInValue>0</minInValue><maxInValue>1</maxInValue><minOutValue>0</minOutValue><maxOutValue>1</maxOutValue>
  </Range>
  <LUT1D inBitDepth="32f" outBitDepth="32f" hueAdjust="dw3">
    <Array dim="256 1">
${hueLut.join('\n')}
    </Array>
  </LUT1D>
  <InverseLUT1D inBitDepth="32f" outBitDepth="32f">
    <Array dim="128 3">
${invLut.join('\n')}
    </Array>
  </InverseLUT1D>
  <LUT3D inBitDepth="32f" outBitDepth="32f" interpolation="tetrahedral">
    <Array dim="5 5 5 3">
${cube.join('\n')}
    </Array>
  </LUT3D>
  <InverseLUT3D inBitDepth="32f" outBitDepth="32f">
    <Array dim="5 5 5 3">
${cube.join('\n')}
    </Array>
  </InverseLUT3D>
</ProcessList>
`,
  );
}

// CTF: fixed functions, which map to the config's FixedFunctionTransform ops
write(
  'fixed.ctf',
  `<?xml version="1.0" encoding="UTF-8"?>
<ProcessList version="2.0" id="exrview-fixed">
  <FixedFunction inBitDepth="32f" outBitDepth="32f" style="RGB_TO_HSV" />
  <Matrix inBitDepth="32f" outBitDepth="32f">
    <Array dim="3 3 3">
      1 0 0
      0 0.8 0
      0 0 1
    </Array>
  </Matrix>
  <FixedFunction inBitDepth="32f" outBitDepth="32f" style="HSV_TO_RGB" />
</ProcessList>
`,
);
