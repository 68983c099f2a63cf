// MurmurHash3_x86_32 and the spec's float conversion against published values.
import { describe, expect, it } from 'vitest';
import { floatToId, hashToId, idHex, idOfName, idToFloat, murmur3x86_32 } from './hash.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('murmur3x86_32', () => {
  it("matches the algorithm's published vectors (seed 0 unless given)", () => {
    expect(murmur3x86_32(bytes(''))).toBe(0);
    expect(murmur3x86_32(bytes(''), 1)).toBe(0x514e28b7);
    expect(murmur3x86_32(bytes(''), 0xffffffff)).toBe(0x81f16f39);
    expect(murmur3x86_32(new Uint8Array([0, 0, 0, 0]))).toBe(0x2362f9de);
    expect(murmur3x86_32(bytes('hello'))).toBe(0x248bfa47);
    expect(murmur3x86_32(bytes('The quick brown fox jumps over the lazy dog'))).toBe(0x2e4ff723);
    // every tail length: 1, 2 and 3 bytes past a block
    expect(murmur3x86_32(new Uint8Array([0x21, 0x43, 0x65]))).toBe(0x7e4a8634);
    expect(murmur3x86_32(new Uint8Array([0x21, 0x43]))).toBe(0xa0f7b07a);
    expect(murmur3x86_32(new Uint8Array([0x21]))).toBe(0x72661cf4);
  });
});

describe('Cryptomatte IDs', () => {
  it("match the specification's manifest example", () => {
    expect(idHex(idOfName('bunny'))).toBe('13851a76');
    expect(idHex(idOfName('default'))).toBe('42c9679f');
  });

  it('hash the UTF-8 bytes of names beyond ASCII', () => {
    expect(idOfName('café')).toBe(hashToId(murmur3x86_32(new Uint8Array([0x63, 0x61, 0x66, 0xc3, 0xa9]))));
  });

  it('flip bit 23 where the exponent is all zeros or all ones, so the float is finite and normal', () => {
    expect(hashToId(0x00000001)).toBe(0x00800001);
    expect(hashToId(0x7f800000)).toBe(0x7f000000);
    expect(hashToId(0xff812345)).toBe(0xff012345);
    expect(hashToId(0x3f800000)).toBe(0x3f800000);
    for (let i = 0; i < 2000; i++) {
      const value = idToFloat(idOfName(`name ${i}`));
      expect(Number.isFinite(value) && (value === 0 || Math.abs(value) >= 2 ** -126)).toBe(true);
    }
  });

  it('round-trip through their float32', () => {
    for (const name of ['bunny', 'Zürich café', 'rabbit 🐇']) expect(floatToId(idToFloat(idOfName(name)))).toBe(idOfName(name));
  });
});
