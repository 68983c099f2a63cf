// `exrview matte` from outside: mattes written as EXR and PNG equal the specification's on the generated file, --list,
// and the errors of bad usage (exit 2) and malformed layers (exit 1), each one line without a stack trace.
import { spawnSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ExrReader, openFileSource, writeExrFile, type WriteChannel } from '../codec/index.js';
import { expectedMatte, layerKey, MATERIAL_NAMES, OBJECT_NAMES, writeCryptomatteFixture } from '../testing/cryptomatte/fixtures.js';
import { tempDir } from '../testing/host/test-files.js';
import { idHex, idOfName } from '../shaders/cryptomatte/hash.js';
import { splitNames } from './matte.js';

const bin = join(__dirname, '..', 'bin', 'exrview.mjs');
const dir = tempDir('exrview-matte-');
afterAll(() => dir.remove());
const fixture = writeCryptomatteFixture(dir.path);

function exrview(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, 'matte', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function readA(path: string): Float32Array {
  const source = openFileSource(path);
  try {
    const image = ExrReader.open(source).decode();
    expect(image.channels.map((c) => c.name)).toEqual(['A']);
    return image.channels[0]!.data as Float32Array;
  } finally {
    source.close();
  }
}

const same = (a: Float32Array, b: Float32Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe('exrview matte', () => {
  it("writes the specification's matte of names that need escaping, as float EXR", () => {
    const picks = ['bunny', 'a,b', 'chair "red"', 'Zürich café', 'line\nbreak'];
    const out = join(dir.path, 'object.exr');
    const r = exrview(
      fixture.file,
      '--layer',
      'crypto_object',
      '--names',
      'bunny,a\\,b, chair "red" ,Zürich café,line\nbreak',
      '--out',
      out,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/object\.exr: crypto_object matte of 5 names, 48×32, \d+ pixels covered/);
    const expected = expectedMatte(fixture.layers.object, picks);
    expect(expected.some((v) => v > 0)).toBe(true);
    expect(same(readA(out), expected)).toBe(true);
  });

  it('reads names from a sidecar manifest, and hashes them (with a warning) where there is none', () => {
    const material = join(dir.path, 'material.exr');
    expect(exrview(fixture.file, '--layer', 'crypto_material', '--names', 'mtl "glass",mtl_métal', '--out', material).code).toBe(0);
    expect(same(readA(material), expectedMatte(fixture.layers.material, ['mtl "glass"', 'mtl_métal']))).toBe(true);
    const asset = join(dir.path, 'asset.exr');
    const r = exrview(fixture.file, '--layer', 'crypto_asset', '--names', 'asset_ÿ', '--out', asset);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('crypto_asset has no manifest: names are hashed, not checked against the file');
    expect(same(readA(asset), expectedMatte(fixture.layers.asset, ['asset_ÿ']))).toBe(true);
  });

  it('picks an ID as <hex>, and writes 8-bit grey PNG of the same matte', async () => {
    const out = join(dir.path, 'matte.png');
    const r = exrview(fixture.file, '--layer', 'crypto_object', '--names', `<${idHex(idOfName('default'))}>,bunny`, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([fixture.widthPx, fixture.heightPx, 3]);
    const expected = expectedMatte(fixture.layers.object, ['default', 'bunny']);
    const grey = Array.from(expected, (v) => Math.round(Math.min(1, Math.max(0, v)) * 255));
    expect(Array.from({ length: expected.length }, (_, i) => data[i * 3]!)).toEqual(grey);
  });

  it('lists the layers, a layer’s names (one line each, control characters quoted) and its names as JSON', () => {
    const layers = exrview(fixture.file, '--list');
    expect(layers.code).toBe(0);
    expect(layers.stdout).toBe(
      'crypto_asset: 2 ranks, no manifest\ncrypto_material: 4 ranks, sidecar manifest\ncrypto_object: 6 ranks, inline manifest\n',
    );
    const names = exrview(fixture.file, '--layer', 'crypto_object', '--list');
    expect(names.code).toBe(0);
    const lines = names.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(OBJECT_NAMES.length);
    expect(lines).toContain(`${idHex(idOfName('line\nbreak'))}  "line\\nbreak"`);
    expect(lines).toContain(`13851a76  bunny`);
    const json = exrview(fixture.file, '--layer', 'crypto_material', '--list', '--json');
    expect(JSON.parse(json.stdout)).toEqual({
      layer: 'crypto_material',
      manifest: 'sidecar',
      names: Object.fromEntries(MATERIAL_NAMES.map((n) => [n, idHex(idOfName(n))])),
    });
    // no manifest: the IDs the pixels hold
    const ids = exrview(fixture.file, '--layer', 'crypto_asset', '--list');
    expect(ids.stdout.trimEnd().split('\n').sort()).toEqual(
      fixture.layers.asset.names.map((n) => `${idHex(idOfName(n))}  <${idHex(idOfName(n))}>`).sort(),
    );
  });

  it('says what is wrong with the arguments, exit 2', () => {
    const cases: [string[], RegExp][] = [
      [[fixture.file, '--layer', 'crypto_object', '--names', 'bunnny', '--out', 'x.exr'], /"bunnny" is not in crypto_object's manifest/],
      [
        [fixture.file, '--layer', 'crypto_obj', '--names', 'bunny', '--out', 'x.exr'],
        /no Cryptomatte layer "crypto_obj"; the layers are crypto_asset/,
      ],
      [[fixture.file, '--names', 'bunny', '--out', 'x.exr'], /there are 3 Cryptomatte layers .*: name one with --layer/],
      [[fixture.file, '--layer', 'crypto_object', '--names', 'bunny', '--out', 'x.jpg'], /--out must end in .exr \(float\) or .png/],
      [[fixture.file, '--layer', 'crypto_object', '--out', 'x.exr'], /matte needs --names/],
      [[fixture.file, '--layer', 'crypto_object', '--names', ' , ', '--out', 'x.exr'], /--names is empty/],
      [[fixture.file, '--list', '--out', 'x.exr'], /--list prints names/],
      [[dir.path, '--list'], /is a folder, not an EXR file; run `exrview matte /],
    ];
    for (const [args, message] of cases) {
      const r = exrview(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('usage: exrview matte FILE');
    }
  });

  it('says what is wrong with a malformed layer or manifest, exit 1, without a stack trace', () => {
    const plane = () => new Float32Array(4);
    const rankGroup = (label: string): WriteChannel[] =>
      ['R', 'G', 'B', 'A'].map((c) => ({ name: `${label}.${c}`, pixelType: 'float', data: plane() }));
    const write = (name: string, channels: WriteChannel[], extra: Record<string, string>) => {
      const path = join(dir.path, name);
      const key = `cryptomatte/${layerKey('crypto_object')}`;
      const attributes = Object.fromEntries(
        Object.entries({ name: 'crypto_object', hash: 'MurmurHash3_32', conversion: 'uint32_to_float32', ...extra }).map(([k, v]) => [
          `${key}/${k}`,
          { type: 'string' as const, value: v },
        ]),
      );
      writeExrFile(path, [{ dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 1 }, channels, attributes }]);
      return path;
    };
    writeFileSync(join(dir.path, 'bad.json'), '{"bunny": 1}');
    const cases: [string, RegExp][] = [
      [
        write('gap.exr', [...rankGroup('crypto_object00'), ...rankGroup('crypto_object02')], {}),
        /up to crypto_object02 but not crypto_object01/,
      ],
      [write('json.exr', rankGroup('crypto_object00'), { manifest: '{"bunny": "13851a76"' }), /crypto_object's manifest is not valid JSON/],
      [write('hash.exr', rankGroup('crypto_object00'), { hash: 'md5' }), /uses hash "md5"; only MurmurHash3_32/],
      [
        write('sidecar.exr', rankGroup('crypto_object00'), { manif_file: 'bad.json' }),
        /manifest file bad\.json: the ID of "bunny" is 1, not 8 hex/,
      ],
    ];
    for (const [path, message] of cases) {
      const r = exrview(path, '--layer', 'crypto_object', '--names', 'bunny', '--out', join(dir.path, 'x.exr'));
      expect(r.code, path).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('warns when a picked name shares its ID with another name of the manifest', () => {
    const path = join(dir.path, 'collision.exr');
    const id = idHex(idOfName('bunny'));
    writeExrFile(path, [
      {
        dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 0 },
        channels: ['R', 'G', 'B', 'A'].map((c) => ({
          name: `crypto_object00.${c}`,
          pixelType: 'float' as const,
          data: new Float32Array(2),
        })),
        attributes: {
          'cryptomatte/abc1234/name': { type: 'string', value: 'crypto_object' },
          'cryptomatte/abc1234/manifest': { type: 'string', value: JSON.stringify({ bunny: id, hare: id }) },
        },
      },
    ]);
    const r = exrview(path, '--names', 'hare', '--out', join(dir.path, 'collision-matte.exr'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('"bunny" and "hare" share one ID: the matte holds them all');
  });

  it('goes on without a sidecar that is not there, saying so', () => {
    renameSync(fixture.sidecar, `${fixture.sidecar}.away`);
    try {
      const r = exrview(fixture.file, '--layer', 'crypto_material', '--names', 'mtl_wood', '--out', join(dir.path, 'away.exr'));
      expect(r.code).toBe(0);
      expect(r.stderr).toContain("crypto_material's manifest file cryptomatte.crypto_material.json is not beside the image");
      expect(same(readA(join(dir.path, 'away.exr')), expectedMatte(fixture.layers.material, ['mtl_wood']))).toBe(true);
    } finally {
      renameSync(`${fixture.sidecar}.away`, fixture.sidecar);
    }
  });
});

describe('splitNames', () => {
  it('splits on commas, keeps escaped commas and backslashes, trims', () => {
    expect(splitNames('a, b\\,c ,d\\\\e')).toEqual(['a', 'b,c', 'd\\e']);
  });
});
