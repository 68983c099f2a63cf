// Bad configs and LUTs as a user meets them: each fails with a ColourConfigError naming the file and line, in bounded time
// and memory, never a crash (a RangeError, a stack overflow) or a hang.

import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';
import { ColourConfigError, ColourExpansionError } from './errors.js';
import { opsOfLutFile } from './lut-files.js';
import { applyOps, MAX_EXPANSION_STEPS, ProcessorBuilder, type ColourFiles } from './processor.js';

/** Runs `run`, which must throw a ColourConfigError within `ms` (far above what it takes: a hang never ends); returns the message. */
function messageOf(run: () => unknown, ms = 10_000): string {
  const t0 = performance.now();
  try {
    run();
  } catch (error) {
    expect(performance.now() - t0, 'failed, but slowly').toBeLessThan(ms);
    if (error instanceof ColourConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ColourConfigError');
}

/** A config with colour space `a` whose to_scene_reference is `transform` (on line 4), and `ref`. */
const withTransform = (transform: string, extra = ''): string =>
  'ocio_profile_version: 2\ncolorspaces:\n  - !<ColorSpace> {name: ref}\n' +
  `  - !<ColorSpace> {name: a, to_scene_reference: ${transform}}\n${extra}`;

const filesOf = (byPath: Record<string, string>): ColourFiles => ({
  readText: (path) => {
    const text = byPath[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT ${path}`), { code: 'ENOENT' });
    return text;
  },
});

describe('malformed YAML', () => {
  it('names the line of a syntax error, a duplicate key and a tab indent', () => {
    expect(messageOf(() => parseConfig('ocio_profile_version: 2\nroles:\n  a: "unclosed\n', 'q.ocio'))).toMatch(
      /^q\.ocio:4: not valid YAML \(Missing closing "quote\): fix the syntax at this line$/,
    );
    expect(messageOf(() => parseConfig('ocio_profile_version: 2\nroles: {}\nroles: {}\n', 'dup.ocio'))).toMatch(
      /^dup\.ocio:3: not valid YAML/,
    );
    expect(messageOf(() => parseConfig('ocio_profile_version: 2\nroles:\n\ta: b\n', 'tab.ocio'))).toMatch(/^tab\.ocio:3: not valid YAML/);
  });

  it('an alias that holds itself: a message, not a stack overflow', () => {
    expect(messageOf(() => parseConfig('ocio_profile_version: 2\nroles: &r\n  x: *r\n', 'self.ocio'))).toBe(
      'self.ocio:3: the alias *r refers to a value that holds it: break the loop',
    );
    expect(messageOf(() => parseConfig('ocio_profile_version: 2\nsearch_path: &p [a, *p]\n', 'list.ocio'))).toBe(
      'list.ocio:2: the alias *p refers to a value that holds it: break the loop',
    );
  });

  it('an alias with no anchor', () => {
    expect(messageOf(() => parseConfig('ocio_profile_version: 2\nroles: {a: *nowhere}\n', 'n.ocio'))).toBe(
      'n.ocio:2: the alias *nowhere names no anchor: define &nowhere before it',
    );
  });

  it('an alias bomb (a billion values from a few lines) stops early, at the alias that expands too far', () => {
    const rows = ['ocio_profile_version: 2', 'l0: &l0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let k = 1; k < 9; k++)
      rows.push(
        `l${k}: &l${k} [${Array<string>(10)
          .fill(`*l${k - 1}`)
          .join(', ')}]`,
      );
    expect(messageOf(() => parseConfig(rows.join('\n'), 'bomb.ocio'))).toBe(
      'bomb.ocio:6: aliases expand to too many values: write the repeated parts out once',
    );
  });

  it('values nested deeper than any config: a message, not a stack overflow', () => {
    expect(messageOf(() => parseConfig(`ocio_profile_version: 2\nx: ${'['.repeat(100)}${']'.repeat(100)}\n`, 'deep.ocio'))).toMatch(
      /^deep\.ocio:2: values nest more than 64 deep: flatten them$/,
    );
    expect(messageOf(() => parseConfig(`ocio_profile_version: 2\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`, 'deeper.ocio'))).toMatch(
      /^deeper\.ocio:\d+: values nest too deep to read: flatten them$/,
    );
  });
});

describe('unknown transforms', () => {
  it('an unknown tag, and a known tag that is not a transform', () => {
    expect(messageOf(() => parseConfig(withTransform('!<MatrixTransfrom> {}'), 'u.ocio'))).toMatch(/^u\.ocio:4: unknown transform or tag/);
    const config = parseConfig(withTransform('!<View> {name: v}'), 'v.ocio');
    expect(messageOf(() => new ProcessorBuilder(config, filesOf({})).colourSpace('a', 'ref'))).toBe(
      'v.ocio:4: View is not supported yet: exrview cannot apply this part of the config',
    );
    expect(messageOf(() => parseConfig(withTransform('{matrix: [1]}'), 'w.ocio'))).toMatch(/^w\.ocio:4: a transform without a type/);
  });

  it('a group with an empty or untyped child, at any depth', () => {
    const group = (child: string): string => `ocio_profile_version: 2
colorspaces:
  - !<ColorSpace>
    name: a
    to_scene_reference: !<GroupTransform>
      children:
        - !<GroupTransform>
          children:
            - ${child}
`;
    expect(messageOf(() => parseConfig(group(''), 'g.ocio'))).toBe(
      'g.ocio:9: a GroupTransform child without a type: write it as `!<MatrixTransform> {...}` or similar',
    );
    expect(messageOf(() => parseConfig(group('{value: 2}'), 'h.ocio'))).toBe(
      'h.ocio:9: a GroupTransform child without a type: write it as `!<MatrixTransform> {...}` or similar',
    );
    expect(messageOf(() => parseConfig(withTransform('!<GroupTransform> {children: {a: 1}}'), 'i.ocio'))).toBe(
      "i.ocio:4: a GroupTransform's `children` must be a list of transforms",
    );
  });
});

describe('circular references', () => {
  const builderOf = (text: string): ProcessorBuilder => new ProcessorBuilder(parseConfig(text, 'loop.ocio'), filesOf({}));

  it('a colour space that reaches itself through ColorSpaceTransform', () => {
    const text = withTransform('!<ColorSpaceTransform> {src: a, dst: ref}');
    expect(messageOf(() => builderOf(text).colourSpace('a', 'ref'))).toMatch(/^loop\.ocio:4: circular reference: .*a.*; break the loop$/);
  });

  it('a named transform that names itself', () => {
    const named = '  - !<NamedTransform> {name: nt, transform: !<ColorSpaceTransform> {src: nt, dst: ref}}\n';
    const text = `${withTransform('!<MatrixTransform> {}')}named_transforms:\n${named}`;
    expect(messageOf(() => builderOf(text).colourSpace('nt', 'ref'))).toMatch(
      /^loop\.ocio:\d+: circular reference: named transform nt → .*named transform nt; break the loop$/,
    );
  });

  it('looks that apply each other', () => {
    const text = `${withTransform('!<MatrixTransform> {}')}looks:
  - !<Look> {name: one, process_space: ref, transform: !<LookTransform> {src: ref, dst: ref, looks: two}}
  - !<Look> {name: two, process_space: ref, transform: !<LookTransform> {src: ref, dst: ref, looks: one}}
displays:
  d:
    - !<View> {name: v, colorspace: ref, looks: one}
`;
    expect(messageOf(() => builderOf(text).displayView('a', 'd', 'v'))).toMatch(
      /^loop\.ocio:\d+: circular reference: look one → look two → look one; break the loop$/,
    );
  });

  it('a view whose view transform goes through the same view', () => {
    const text = `ocio_profile_version: 2
colorspaces:
  - !<ColorSpace> {name: ref}
display_colorspaces:
  - !<ColorSpace> {name: disp}
view_transforms:
  - !<ViewTransform> {name: vt, from_scene_reference: !<DisplayViewTransform> {src: ref, display: d, view: v}}
displays:
  d:
    - !<View> {name: v, view_transform: vt, display_colorspace: disp}
`;
    expect(messageOf(() => builderOf(text).displayView('ref', 'd', 'v'))).toMatch(
      /^loop\.ocio:\d+: circular reference: view d\/v → .*view d\/v/,
    );
  });
});

describe('references that fan out without looping', () => {
  /** As messageOf's bound: without the cap these would expand billions of times, minutes at the least. */
  const HANG_MS = 10_000;
  const builderOf = (text: string): ProcessorBuilder => new ProcessorBuilder(parseConfig(text, 'fan.ocio'), filesOf({}));

  /** Space l0 converts through l1 three times, l1 through l2 three times…: 3^depth expansions of the leaf, none circular. */
  function tripling(depth: number, display = ''): string {
    const rows = ['ocio_profile_version: 2', 'colorspaces:', '  - !<ColorSpace> {name: ref}'];
    for (let k = 0; k < depth; k++) {
      const child = `!<ColorSpaceTransform> {src: l${k + 1}, dst: ref}`;
      rows.push(`  - !<ColorSpace> {name: l${k}, to_scene_reference: !<GroupTransform> {children: [${child}, ${child}, ${child}]}}`);
    }
    rows.push(`  - !<ColorSpace> {name: l${depth}, to_scene_reference: !<MatrixTransform> {offset: [0.1, 0, 0, 0]}}`);
    return rows.join('\n') + '\n' + display;
  }

  it('spaces that each name the next three times, 20 deep: refused at the cap, naming the processor and what to do', () => {
    const error = (() => {
      const t0 = performance.now();
      try {
        builderOf(tripling(20)).colourSpace('l0', 'ref');
      } catch (caught) {
        expect(performance.now() - t0, 'failed, but slowly').toBeLessThan(HANG_MS);
        return caught;
      }
      throw new Error('expected a ColourExpansionError');
    })();
    expect(error).toBeInstanceOf(ColourExpansionError);
    expect(error).toBeInstanceOf(ColourConfigError);
    const expansion = error as ColourExpansionError;
    expect(expansion.limit).toBe(MAX_EXPANSION_STEPS);
    expect(expansion.chain[0]).toBe('colour space conversion l0 → ref');
    expect(expansion.message).toMatch(
      new RegExp(
        `^fan\\.ocio:\\d+: colour space conversion l0 → ref expands to more than ${MAX_EXPANSION_STEPS} transforms and ops ` +
          '\\(at colour space l\\d+ → .* → ref\\): the config refers to the same spaces over and over; ' +
          'refer to each once, or bake the chain into one LUT$',
      ),
    );
  });

  it('the same chain reached through a view, and a group of many references to a space that is itself a big group', () => {
    const view = 'displays:\n  d:\n    - !<View> {name: v, colorspace: l0}\n';
    expect(messageOf(() => builderOf(tripling(20, view)).displayView('ref', 'd', 'v'))).toMatch(
      /^fan\.ocio:\d+: view d\/v expands to more than \d+ transforms and ops/,
    );
    const matrices = Array.from({ length: 2000 }, () => '!<MatrixTransform> {offset: [0.1, 0, 0, 0]}').join(', ');
    const references = Array.from({ length: 2000 }, () => '!<ColorSpaceTransform> {src: big, dst: ref}').join(', ');
    const text = `ocio_profile_version: 2
colorspaces:
  - !<ColorSpace> {name: ref}
  - !<ColorSpace> {name: big, to_scene_reference: !<GroupTransform> {children: [${matrices}]}}
  - !<ColorSpace> {name: many, to_scene_reference: !<GroupTransform> {children: [${references}]}}
`;
    expect(messageOf(() => builderOf(text).colourSpace('many', 'ref'))).toMatch(
      /^fan\.ocio:5: colour space conversion many → ref expands to more than \d+ transforms and ops/,
    );
  });

  it('below the cap the same shapes build, and the count starts again for each processor', () => {
    const builder = builderOf(tripling(6));
    // 3^6 offsets of 0.1 take some 13,500 steps a build: ten builds pass the cap unless each starts from zero
    for (let k = 0; k < 10; k++) {
      const pixel = Float32Array.of(0, 0, 0, 1);
      applyOps(builder.colourSpace('l0', 'ref'), pixel);
      expect(pixel[0]).toBeCloseTo(72.9, 3);
    }
  });
});

/** Each LUT format: a file of the right kind with the wrong amount of data, and the line the message must name. */
const WRONG_SIZED: [file: string, text: string, message: RegExp][] = [
  ['s.cube', 'LUT_3D_SIZE 2\n0 0 0\n1 1 1\n', /^s\.cube:2: the LUT declares 8 entries but has 2/],
  ['l.cube', 'LUT_1D_SIZE 2\n0 0 0\n1 1 1\n1 1 1\n', /^l\.cube:4: more rows than the 2 entries the size lines declare/],
  ['s.spi1d', 'Version 1\nFrom 0 1\nLength 4\nComponents 1\n{\n0\n1\n}\n', /^s\.spi1d:6: Length says 4 entries but the table has 2/],
  ['l.spi1d', 'Version 1\nFrom 0 1\nLength 2\nComponents 1\n{\n0\n1\n2\n}\n', /^l\.spi1d:8: more rows than the 2 entries Length declares/],
  ['s.spi3d', 'SPILUT 1.0\n3 3\n2 2 2\n0 0 0 0 0 0\n', /^s\.spi3d:3: the 2³ lattice this line declares misses entries/],
  ['s.spimtx', '1 0 0 0\n0 1 0 0\n', /^s\.spimtx:1: expected 12 numbers, found 8/],
  ['s.3dl', '0 0 0\n1023 1023 1023\n0 0 0\n', /^s\.3dl:1: the 3 entries from here do not make a cube/],
  [
    's.csp',
    'CSPLUTV100\n3D\n2\n0 1\n0 1\n2\n0 1\n0 1\n2\n0 1\n0 1\n2 2 2\n0 0 0\n',
    /^s\.csp:12: the file ends before the 2³ rows this line declares/,
  ],
  [
    's.clf',
    '<ProcessList id="p" compCLFversion="3">\n<LUT3D>\n<Array dim="2 2 2 3">0 0 0</Array></LUT3D>\n</ProcessList>\n',
    /^s\.clf:2: <LUT3D>: its Array dim="2 2 2 3" holds 3 values, not 24/,
  ],
  [
    's.ctf',
    '<ProcessList id="p" version="1.3">\n\n<LUT1D>\n<Array dim="3 1">0 1</Array></LUT1D>\n</ProcessList>\n',
    /^s\.ctf:3: <LUT1D>: its Array dim="3 1" holds 2 values, not 3/,
  ],
];

/**
 * Each LUT format declaring a table far larger than OCIO reads: refused at the size line, before anything that size is allocated.
 * (A .3dl declares no size: its table grows with the file's rows, and stops at 129³ of them.)
 */
const HUGE: [file: string, text: string, message: RegExp][] = [
  ['h3.cube', 'TITLE "big"\nLUT_3D_SIZE 4096\n0 0 0\n', /^h3\.cube:2: a 3D LUT of 4096 per side: OCIO reads 2 to 129/],
  ['h1.cube', 'LUT_1D_SIZE 100000000\n0 0 0\n', /^h1\.cube:1: a 1D LUT of 100000000 entries: OCIO reads 2 to 1048576/],
  ['h.spi1d', 'Version 1\nFrom 0 1\nLength 100000000\nComponents 3\n{\n0 0 0\n}\n', /^h\.spi1d:3: a 1D LUT of 100000000 entries/],
  ['h.spi3d', 'SPILUT 1.0\n3 3\n4096 4096 4096\n0 0 0 0 0 0\n', /^h\.spi3d:3: a 3D LUT of 4096 per side/],
  ['h1.csp', 'CSPLUTV100\n1D\n0\n0\n0\n100000000\n0 0 0\n', /^h1\.csp:6: 1D LUT size "100000000" is not 1 to 1048576/],
  ['h3.csp', 'CSPLUTV100\n3D\n0\n0\n0\n4096 4096 4096\n0 0 0\n', /^h3\.csp:6: a 3D LUT of 4096 per side/],
  [
    'h1.clf',
    '<ProcessList id="p" compCLFversion="3">\n<LUT1D>\n<Array dim="100000000 3">0 0 0</Array></LUT1D>\n</ProcessList>\n',
    /^h1\.clf:2: <LUT1D>: an Array of 300000000 values is too large to read/,
  ],
  [
    'h3.ctf',
    '<ProcessList id="p" version="1.3">\n<LUT3D>\n<Array dim="4096 4096 4096 3">0 0 0</Array></LUT3D>\n</ProcessList>\n',
    /^h3\.ctf:2: <LUT3D>: an Array of .* values is too large to read/,
  ],
];

describe('LUT files of each format', () => {
  it('XML that trips the XML parser itself: what is wrong, not the exception of the parser', () => {
    const message = messageOf(() => opsOfLutFile('<?xml version="1.0" encoding="UTF-8"?>\n<!ProcessLi', 'x.ctf', 'linear'));
    expect(message).toBe('x.ctf:2: not well-formed XML (a malformed tag or declaration): fix the file');
  });

  it.each(WRONG_SIZED)('%s of the wrong size names its line', (file, text, message) => {
    expect(messageOf(() => opsOfLutFile(text, `/luts/${file}`, 'linear'))).toMatch(new RegExp(`^/luts/${message.source.slice(1)}`));
  });

  it.each(HUGE)('%s, far too large, is refused at its size line', (file, text, message) => {
    const before = process.memoryUsage().arrayBuffers;
    expect(messageOf(() => opsOfLutFile(text, file, 'linear'))).toMatch(message);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 2 ** 20);
  });

  it.each(['cube', 'spi1d', 'spi3d', 'spimtx', 'clf', 'ctf', '3dl', 'csp'])(
    'a missing .%s names the config line that asks for it and where it looked',
    (ext) => {
      const config = parseConfig(withTransform(`!<FileTransform> {src: gone.${ext}}`, 'search_path: [luts, more]\n'), '/c/m.ocio');
      const builder = new ProcessorBuilder(config, filesOf({}));
      expect(messageOf(() => builder.colourSpace('a', 'ref'))).toBe(
        `/c/m.ocio:4: LUT file "gone.${ext}" not found (looked in /c/luts/gone.${ext}, /c/more/gone.${ext}): ` +
          'check the name and search_path',
      );
    },
  );

  it('a wrong-sized LUT read through a config names the LUT file and its line', () => {
    for (const [file, text, message] of WRONG_SIZED) {
      const config = parseConfig(withTransform(`!<FileTransform> {src: ${file}}`), '/c/w.ocio');
      const builder = new ProcessorBuilder(config, filesOf({ [`/c/${file}`]: text }));
      expect(messageOf(() => builder.colourSpace('a', 'ref'))).toMatch(new RegExp(`^/c/${message.source.slice(1)}`));
    }
  });
});
