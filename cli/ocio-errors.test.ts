// `exrview ocio apply` and `ocio list` with a bad config or LUT: one line naming the file and line, exit 1, no stack trace.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/host/test-files.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'exrview.mjs');
const why = existsSync(join(root, 'dist', 'cli.mjs')) ? '' : 'dist/cli.mjs is missing: run `node scripts/build.mjs`';
if (why) console.warn(`ocio-errors.test: skipped: ${why}`);

const dir = tempDir('exrview-ocio-errors-');
afterAll(() => dir.remove());

function exrview(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, input: '' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A config whose colour space `a` (line 4) goes to `ref` through `transform`. */
function writeConfig(name: string, transform: string, extra = ''): string {
  const path = join(dir.path, name);
  writeFileSync(
    path,
    'ocio_profile_version: 2\ncolorspaces:\n  - !<ColorSpace> {name: ref}\n' +
      `  - !<ColorSpace> {name: a, to_scene_reference: ${transform}}\n${extra}`,
  );
  return path;
}

/** The one line the command prints, checked for what every failure must have. */
function failure(result: ReturnType<typeof exrview>): string {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  return result.stderr.trim();
}

describe.skipIf(!!why)('exrview ocio with bad input', () => {
  it('malformed YAML: ocio list and ocio apply name the config and the line', () => {
    const path = join(dir.path, 'syntax.ocio');
    writeFileSync(path, 'ocio_profile_version: 2\nroles: {a: b\ncolorspaces: []\n');
    expect(failure(exrview('ocio', 'list', path, '--json'))).toMatch(
      new RegExp(`^exrview: ${path}: line 3: not valid YAML .*: fix the syntax at this line$`),
    );
    expect(failure(exrview('ocio', 'apply', path, 'cs', 'a', 'b'))).toMatch(new RegExp(`^exrview: ${path}: line 3: not valid YAML`));
  });

  it('an unknown transform, a self-referencing alias', () => {
    const unknown = writeConfig('unknown.ocio', '!<MatrixTransfrom> {}');
    expect(failure(exrview('ocio', 'list', unknown))).toBe(
      `exrview: ${unknown}: line 4: unknown transform or tag "!<MatrixTransfrom>": OCIO 2 has no such type; check its spelling`,
    );
    const alias = writeConfig('alias.ocio', '!<MatrixTransform> {}', 'roles: &r\n  x: *r\n');
    expect(failure(exrview('ocio', 'apply', alias, 'cs', 'a', 'ref'))).toBe(
      `exrview: ${alias}: line 6: the alias *r refers to a value that holds it: break the loop`,
    );
  });

  it('a circular reference', () => {
    const loop = writeConfig('loop.ocio', '!<ColorSpaceTransform> {src: a, dst: ref}');
    expect(failure(exrview('ocio', 'apply', loop, 'cs', 'a', 'ref'))).toMatch(
      new RegExp(`^exrview: ${loop}: line 4: circular reference: .*; break the loop$`),
    );
  });

  it('a missing LUT, a wrong-sized one and a huge one: the LUT file and its line', () => {
    const missing = writeConfig('missing.ocio', '!<FileTransform> {src: gone.spi1d}');
    expect(failure(exrview('ocio', 'apply', missing, 'cs', 'a', 'ref'))).toBe(
      `exrview: ${missing}: line 4: LUT file "gone.spi1d" not found (looked in ${dir.path}/gone.spi1d): check the name and search_path`,
    );
    mkdirSync(join(dir.path, 'luts'), { recursive: true });
    writeFileSync(join(dir.path, 'luts', 'short.cube'), 'LUT_3D_SIZE 2\n0 0 0\n1 1 1\n');
    const short = writeConfig('short.ocio', '!<FileTransform> {src: luts/short.cube}');
    expect(failure(exrview('ocio', 'apply', short, 'cs', 'a', 'ref'))).toBe(
      `exrview: ${short}: ${dir.path}/luts/short.cube:2: the LUT declares 8 entries but has 2: regenerate it or fix its size line`,
    );
    writeFileSync(join(dir.path, 'luts', 'huge.cube'), 'LUT_3D_SIZE 4096\n0 0 0\n');
    const huge = writeConfig('huge.ocio', '!<FileTransform> {src: luts/huge.cube}');
    expect(failure(exrview('ocio', 'apply', huge, 'cs', 'a', 'ref'))).toBe(
      `exrview: ${huge}: ${dir.path}/luts/huge.cube:1: a 3D LUT of 4096 per side: OCIO reads 2 to 129; resample the LUT`,
    );
  });

  it('a config that is not there, and a built-in that does not exist', () => {
    const nowhere = join(dir.path, 'nowhere.ocio');
    expect(failure(exrview('ocio', 'list', nowhere))).toBe(`exrview: ${nowhere}: cannot read the config (ENOENT): check the path`);
    expect(failure(exrview('ocio', 'list', 'ocio://no-such-config'))).toMatch(
      /^exrview: ocio:\/\/no-such-config: no built-in config of that name: use one of ocio:\/\/default, /,
    );
  });
});
