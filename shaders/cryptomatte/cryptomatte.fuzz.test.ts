// Bad Cryptomatte input of any kind: manifests of any text or JSON, IDs shared by several names, headers of random
// attributes and channels, rank pairs with NaN, ±Inf and any ID bits. A typed error with a message, or a result, never
// another throw; the matte and the view stay defined.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CryptomatteError } from './errors.js';
import { idOfName } from './hash.js';
import { findCryptomattes, type ChannelHeader } from './layers.js';
import { idOfPick, nameOfId, parseManifest } from './manifest.js';
import { interleaveGroup, matteCpu, type RankGroupPlanes } from './matte-cpu.js';
import { cryptomatteViewCpu } from './view-cpu.js';

/** Runs `f`; a CryptomatteError of `kind` is fine (with a message a person can read), anything else fails. */
function typedOr<T>(f: () => T, kinds: readonly string[]): T | null {
  try {
    return f();
  } catch (e) {
    expect(e).toBeInstanceOf(CryptomatteError);
    expect(kinds).toContain((e as CryptomatteError).kind);
    expect((e as CryptomatteError).message.length).toBeGreaterThan(15);
    return null;
  }
}

describe('Cryptomatte: fuzzed bad input', () => {
  it('a manifest of any text or JSON parses or says what is wrong', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 200, unit: 'binary' }),
      fc.json({ maxDepth: 3 }),
      fc
        .dictionary(
          fc.string({ maxLength: 12, unit: 'binary' }),
          fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 10 }), fc.jsonValue()),
        )
        .map((o) => JSON.stringify(o)),
    );
    fc.assert(
      fc.property(text, (json) => {
        const manifest = typedOr(() => parseManifest(json, 'the crypto_object manifest'), ['bad-manifest']);
        if (!manifest) return;
        // every listed name maps to an ID and back to a name of that ID
        for (const name of manifest.names) {
          const id = manifest.idOf.get(name)!;
          expect(manifest.idOf.get(nameOfId(manifest, id))).toBe(id);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('names sharing an ID (hash collisions) are reported, each picks that ID, the ID names the first', () => {
    const names = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(names, fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 12, maxLength: 12 }), (list, slots) => {
        const ids = [0x0000000a, 0x3f800000, 0xdeadbeef, 0x7fc00000];
        const object = Object.fromEntries(list.map((n, k) => [n, ids[slots[k]!]!.toString(16).padStart(8, '0')]));
        // in the order JSON.parse gives them (integer-like keys first)
        const entries = Object.entries(object);
        const manifest = parseManifest(JSON.stringify(object), 'm');
        const byId = new Map<number, string[]>();
        for (const [n, hex] of entries) byId.set(parseInt(hex, 16), [...(byId.get(parseInt(hex, 16)) ?? []), n]);
        const expected = [...byId].filter(([, ns]) => ns.length > 1).map(([id, ns]) => ({ id, names: ns }));
        expect(manifest.collisions).toEqual(expected);
        for (const [n, hex] of entries) {
          expect(idOfPick(manifest, n, 'crypto_object')).toBe(parseInt(hex, 16));
          expect(nameOfId(manifest, parseInt(hex, 16))).toBe(byId.get(parseInt(hex, 16))![0]);
        }
        // IDs that are not the hash of their name are listed as such
        expect(manifest.mismatched).toEqual(entries.filter(([n, hex]) => idOfName(n) !== parseInt(hex, 16)).map(([n]) => n));
      }),
      { numRuns: 500 },
    );
  });

  it('a header of random Cryptomatte attributes and channels gives layers and typed problems, never a throw', () => {
    const key = fc.constantFrom('abc', '0a1b2c3', 'x/y', '');
    const field = fc.constantFrom('name', 'hash', 'conversion', 'manifest', 'manif_file', 'other');
    const value = fc.oneof(
      fc.constantFrom('crypto_object', 'crypto.mat', 'MurmurHash3_32', 'uint32_to_float32', '{"a":"13851a76"}', ''),
      fc.string({ maxLength: 20 }),
    );
    const channel = fc.record({
      name: fc.oneof(
        fc
          .tuple(
            fc.constantFrom('crypto_object', 'crypto.mat', 'x'),
            fc.constantFrom('00', '01', '03', '0', 'aa'),
            fc.constantFrom('R', 'G', 'B', 'A', 'Z'),
          )
          .map(([l, g, c]) => `${l}${g}.${c}`),
        fc.string({ maxLength: 20 }),
      ),
      pixelType: fc.constantFrom<ChannelHeader['pixelType']>('float', 'half', 'uint'),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, field, value), { maxLength: 12 }),
        fc.uniqueArray(channel, { maxLength: 24, selector: (c) => c.name }),
        (attributes, channels) => {
          const map = new Map(attributes.map(([k, f, v]) => [`cryptomatte/${k}/${f}`, v]));
          const scan = findCryptomattes(map, channels);
          for (const p of scan.problems) {
            expect(p).toBeInstanceOf(CryptomatteError);
            expect(p.message.length).toBeGreaterThan(15);
          }
          for (const layer of scan.layers) expect(layer.groups.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('rank pairs with NaN, ±Inf, negative or huge coverage and any ID bits: the matte is the float32 sum, the view never NaN', () => {
    const coverage = fc.oneof(
      fc.float({ noDefaultInfinity: false, noNaN: false }),
      fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, 1, 0.5, 3.4e38),
    );
    const id = fc.oneof(fc.constantFrom(0, 0x7fc00000, 0x7f800000, 0xffffffff, 0x3f800000), fc.integer({ min: 0, max: 0xffffffff }));
    const pixel = fc.tuple(id, coverage, id, coverage);
    fc.assert(
      fc.property(
        fc.array(fc.array(pixel, { minLength: 6, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
        fc.array(id, { maxLength: 4 }),
        (groupsRows, picked) => {
          const pixels = 6;
          const groups = groupsRows.map((rows) =>
            [0, 1, 2, 3].map((c) => {
              const plane = new Float32Array(pixels);
              const bits = new Uint32Array(plane.buffer);
              rows.forEach((r, i) => (c % 2 === 0 ? (bits[i] = r[c]!) : (plane[i] = r[c]!)));
              return plane;
            }),
          ) as unknown as RankGroupPlanes[];
          const matte = matteCpu(groups, picked, pixels);
          const set = new Set(picked);
          for (let i = 0; i < pixels; i++) {
            let sum = 0;
            for (const rows of groupsRows) {
              if (set.has(rows[i]![0])) sum = Math.fround(sum + Math.fround(rows[i]![1]));
              if (set.has(rows[i]![2])) sum = Math.fround(sum + Math.fround(rows[i]![3]));
            }
            expect(Object.is(matte[i], sum) || (Number.isNaN(matte[i]) && Number.isNaN(sum))).toBe(true);
          }
          const interleaved = groups.map((g) => interleaveGroup(g, pixels));
          const beauty = new Float32Array(pixels * 4).fill(0.5);
          for (const mode of [0, 1, 2, 3] as const) {
            const view = cryptomatteViewCpu({ groups: interleaved, matte, beauty, picked, mode, pixelCount: pixels });
            // broken coverage adds nothing and the rest is clamped: every value finite, within what the ranks can sum to;
            // the overlay's tint divides by the matte, which picked coverages cancelling to a subnormal make +Inf (on the
            // GPU too): never NaN, never negative
            for (const v of view) {
              expect(v).toBeGreaterThanOrEqual(0);
              if (mode !== 1) expect(v).toBeLessThanOrEqual(2 * groups.length + 1);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
