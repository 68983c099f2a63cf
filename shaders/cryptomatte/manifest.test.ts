// Manifests: parsed both ways, names that need escaping, collisions, and the errors of malformed ones.
import { describe, expect, it } from 'vitest';
import { manifestJson, MATERIAL_NAMES, OBJECT_NAMES } from '../../testing/cryptomatte/fixtures.js';
import { idOfName } from './hash.js';
import { idOfPick, nameOfId, parseManifest } from './manifest.js';

describe('parseManifest', () => {
  it('looks names up both ways, with JSON escapes and non-ASCII, raw or as \\u escapes', () => {
    for (const asciiOnly of [false, true]) {
      const json = manifestJson(OBJECT_NAMES, asciiOnly);
      if (asciiOnly) expect(json).toMatch(/^[\x20-\x7e]*$/);
      const manifest = parseManifest(json, 'test');
      expect(manifest.names).toHaveLength(OBJECT_NAMES.length);
      for (const name of OBJECT_NAMES) {
        expect(manifest.idOf.get(name)).toBe(idOfName(name));
        expect(nameOfId(manifest, idOfName(name))).toBe(name);
      }
      expect(manifest.collisions).toEqual([]);
      expect(manifest.mismatched).toEqual([]);
    }
  });

  it('sorts names by code point and reports collisions and IDs that are not the hash of their name', () => {
    const manifest = parseManifest('{"b":"0000000A","a":"a","c":"00000001"}', 'test');
    expect(manifest.names).toEqual(['a', 'b', 'c']);
    expect(manifest.collisions).toEqual([{ id: 10, names: ['b', 'a'] }]);
    expect(manifest.mismatched).toEqual(['b', 'a', 'c']);
    expect(nameOfId(manifest, 10)).toBe('b');
    expect(nameOfId(manifest, 0xdead)).toBe('<0000dead>');
    expect(nameOfId(null, 0x13851a76)).toBe('<13851a76>');
  });

  it('says what is wrong with a malformed manifest', () => {
    expect(() => parseManifest('{"a": "13851a76",', 'the crypto_object manifest')).toThrow(/the crypto_object manifest is not valid JSON/);
    expect(() => parseManifest('["a"]', 'm')).toThrow(/not a JSON object of name: "hex ID" pairs/);
    expect(() => parseManifest('{"a": 12}', 'm')).toThrow(/the ID of "a" is 12, not 8 hex digits/);
    expect(() => parseManifest('{"a": "xyz"}', 'm')).toThrow(/the ID of "a" is "xyz"/);
    expect(() => parseManifest('{"a": "123456789"}', 'm')).toThrow(/not 8 hex digits/);
  });
});

describe('idOfPick', () => {
  const manifest = parseManifest(manifestJson([...MATERIAL_NAMES, '<1234abcd>']), 'm');
  it('takes a listed name (even one that looks like <hex>), an ID as <hex>, and hashes names without a manifest', () => {
    expect(idOfPick(manifest, 'mtl "glass"', 'l')).toBe(idOfName('mtl "glass"'));
    expect(idOfPick(manifest, '<1234abcd>', 'l')).toBe(idOfName('<1234abcd>'));
    expect(idOfPick(manifest, '<00C0FFEE>', 'l')).toBe(0xc0ffee);
    expect(idOfPick(null, 'bunny', 'l')).toBe(0x13851a76);
  });
  it('refuses a name the manifest lacks', () => {
    expect(() => idOfPick(manifest, 'mtl_wod', 'crypto_material')).toThrow(
      /"mtl_wod" is not in crypto_material's manifest \(6 names\); list them with --list/,
    );
  });
});
