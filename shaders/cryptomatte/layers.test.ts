// Detecting Cryptomatte layers from header attributes and channels, and the errors of malformed ones.
import { describe, expect, it } from 'vitest';
import { CryptomatteError } from './errors.js';
import { findCryptomattes, pickLayer, type ChannelHeader } from './layers.js';

const group = (name: string, g: string, pixelType: ChannelHeader['pixelType'] = 'float'): ChannelHeader[] =>
  ['R', 'G', 'B', 'A'].map((c) => ({ name: `${name}${g}.${c}`, pixelType }));
const attrs = (entries: Record<string, string>) => new Map(Object.entries(entries));
const object = { 'cryptomatte/0a1b2c3/name': 'crypto_object', 'cryptomatte/0a1b2c3/hash': 'MurmurHash3_32' };

function problem(entries: Record<string, string>, channels: ChannelHeader[]): CryptomatteError {
  const scan = findCryptomattes(attrs(entries), channels);
  expect(scan.layers).toEqual([]);
  expect(scan.problems).toHaveLength(1);
  return scan.problems[0]!;
}

describe('findCryptomattes', () => {
  it('finds every layer with its rank groups in order, whatever order the channels come in', () => {
    const channels = [...group('crypto_object', '02'), ...group('crypto_object', '00'), ...group('crypto_object', '01')];
    channels.push(...group('crypto_material', '00'), { name: 'crypto_object.R', pixelType: 'half' }, { name: 'R', pixelType: 'half' });
    const scan = findCryptomattes(
      attrs({
        ...object,
        'cryptomatte/0a1b2c3/conversion': 'uint32_to_float32',
        'cryptomatte/0a1b2c3/manifest': '{"a":"00000001"}',
        'cryptomatte/ffff000/name': 'crypto_material',
        'cryptomatte/ffff000/manif_file': 'mat.json',
        owner: 'someone',
      }),
      channels,
    );
    expect(scan.problems).toEqual([]);
    expect(scan.layers.map((l) => [l.name, l.manifest, l.groups.length])).toEqual([
      ['crypto_object', { kind: 'inline', json: '{"a":"00000001"}' }, 3],
      ['crypto_material', { kind: 'sidecar', path: 'mat.json' }, 1],
    ]);
    expect(scan.layers[0]!.groups[1]).toEqual(['crypto_object01.R', 'crypto_object01.G', 'crypto_object01.B', 'crypto_object01.A']);
  });

  it('takes a name with dots and regex characters literally, and a layer without a manifest as hash-only', () => {
    const scan = findCryptomattes(attrs({ 'cryptomatte/k/name': 'View.Crypto+Object' }), [
      ...group('View.Crypto+Object', '00'),
      ...group('ViewXCrypto+Object', '01'),
    ]);
    expect(scan.layers[0]!.manifest).toEqual({ kind: 'none' });
    expect(scan.layers[0]!.groups).toHaveLength(1);
  });

  it('says which rank group is missing when they are not numbered from 00 without a gap', () => {
    const error = problem(object, [...group('crypto_object', '00'), ...group('crypto_object', '02')]);
    expect(error.kind).toBe('missing-rank');
    expect(error.layer).toBe('crypto_object');
    expect(error.message).toMatch(/up to crypto_object02 but not crypto_object01.*re-export/);
  });

  it('names the channels a rank group lacks', () => {
    const error = problem(object, group('crypto_object', '00').slice(0, 2));
    expect(error.kind).toBe('missing-channel');
    expect(error.message).toContain('lacks crypto_object00.B, crypto_object00.A');
  });

  it('refuses half rank channels, an unknown hash or conversion, no channels, no name', () => {
    expect(problem(object, group('crypto_object', '00', 'half')).kind).toBe('not-float');
    expect(problem({ ...object, 'cryptomatte/0a1b2c3/hash': 'md5' }, group('crypto_object', '00')).message).toMatch(
      /uses hash "md5"; only MurmurHash3_32/,
    );
    expect(problem({ ...object, 'cryptomatte/0a1b2c3/conversion': 'none' }, group('crypto_object', '00')).kind).toBe('unknown-conversion');
    expect(problem(object, []).kind).toBe('no-ranks');
    expect(problem({ 'cryptomatte/abc/hash': 'MurmurHash3_32' }, []).kind).toBe('missing-name');
  });

  it('keeps the good layers beside a bad one', () => {
    const scan = findCryptomattes(attrs({ ...object, 'cryptomatte/b/name': 'crypto_asset' }), group('crypto_asset', '00'));
    expect(scan.layers.map((l) => l.name)).toEqual(['crypto_asset']);
    expect(scan.problems.map((p) => p.layer)).toEqual(['crypto_object']);
  });
});

describe('pickLayer', () => {
  const scan = findCryptomattes(attrs({ ...object, 'cryptomatte/b/name': 'crypto_asset' }), group('crypto_asset', '00'));
  it('finds a layer by name, the only one without a name, and says what there is otherwise', () => {
    expect(pickLayer(scan, 'crypto_asset').name).toBe('crypto_asset');
    expect(pickLayer(scan, undefined).name).toBe('crypto_asset');
    expect(() => pickLayer(scan, 'crypto_nope')).toThrow(/no Cryptomatte layer "crypto_nope"; the layers are crypto_asset/);
    expect(() => pickLayer(scan, 'crypto_object')).toThrow(/not crypto_object00|no rank channels/);
    expect(() => pickLayer(findCryptomattes(new Map(), []), undefined)).toThrow(/no Cryptomatte layer here/);
  });
});
