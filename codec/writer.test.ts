// The writer: every attribute type round-trips, headers follow OpenEXR's rules, bad descriptions are refused.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeAttributeValue, type AttributeValue } from './attributes.js';
import { encodeAttributeValue } from './attributes-write.js';
import { findImageTools } from '../testing/codec/oracle/tools.js';
import { ExrReader } from './reader.js';
import { memorySource } from './source.js';
import { writeExr, writeExrFile, type WritePart } from './writer.js';

const f32 = (v: number) => Math.fround(v);

const EVERY_TYPE: Record<string, AttributeValue> = {
  aBox2i: { type: 'box2i', value: { xMin: -3, yMin: 4, xMax: 100, yMax: 2 ** 30 } },
  aBox2f: { type: 'box2f', value: { xMin: f32(-1.5), yMin: 0, xMax: f32(2.25), yMax: f32(1e30) } },
  aChlist: { type: 'chlist', value: [{ name: 'long.channel.name', pixelType: 'uint', pLinear: true, xSampling: 2, ySampling: 3 }] },
  aChromaticities: {
    type: 'chromaticities',
    value: { red: [f32(0.64), f32(0.33)], green: [f32(0.3), f32(0.6)], blue: [f32(0.15), f32(0.06)], white: [f32(0.3127), f32(0.329)] },
  },
  aCompression: { type: 'compression', value: 'dwab' },
  aDouble: { type: 'double', value: Math.PI },
  aEnvmap: { type: 'envmap', value: 1 },
  aFloat: { type: 'float', value: f32(-0.1) },
  aInt: { type: 'int', value: -123456 },
  aKeycode: {
    type: 'keycode',
    value: { filmMfcCode: 1, filmType: 2, prefix: 3, count: 4, perfOffset: 5, perfsPerFrame: 6, perfsPerCount: 7 },
  },
  aLineOrder: { type: 'lineOrder', value: 'randomY' },
  aM33f: { type: 'm33f', value: [1, 2, 3, 4, 5, 6, 7, 8, f32(9.5)] },
  aM44d: { type: 'm44d', value: Array.from({ length: 16 }, (_, i) => i / 3) },
  aPreview: { type: 'preview', value: { widthPx: 2, heightPx: 1, rgba: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]) } },
  aRational: { type: 'rational', value: { numerator: -24000, denominator: 1001 } },
  aString: { type: 'string', value: 'ünïcode and spaces' },
  aStringvector: { type: 'stringvector', value: ['left', '', 'right'] },
  aFloatvector: { type: 'floatvector', value: [f32(0.5), -2, f32(0.001)] },
  aTiledesc: { type: 'tiledesc', value: { xSizePx: 17, ySizePx: 13, levelMode: 'ripmapLevels', roundingMode: 'roundUp' } },
  aTimecode: { type: 'timecode', value: { timeAndFlags: 0x12345678, userData: 0xdeadbeef } },
  aV2i: { type: 'v2i', value: [-1, 2] },
  aV2f: { type: 'v2f', value: [f32(0.1), 3] },
  aV3d: { type: 'v3d', value: [0.1, 0.2, 0.3] },
  aV3i: { type: 'v3i', value: [1, -2, 3] },
  aDeepImageState: { type: 'deepImageState', value: 2 },
  aCustom: { type: 'unknown', typeName: 'myType', value: Uint8Array.from([9, 8, 7]) },
};

const small = (extra: Partial<WritePart> = {}): WritePart => ({
  dataWindow: { xMin: 0, yMin: 0, xMax: 3, yMax: 2 },
  channels: [{ name: 'Y', pixelType: 'half', data: new Uint16Array(12) }],
  ...extra,
});

describe('attribute encoding', () => {
  for (const [name, value] of Object.entries(EVERY_TYPE)) {
    it(`${value.type === 'unknown' ? value.typeName : value.type} decodes to what was encoded`, () => {
      const typeName = value.type === 'unknown' ? value.typeName : value.type;
      expect(decodeAttributeValue(typeName, encodeAttributeValue(value)), name).toEqual(value);
    });
  }

  it('stores every attribute in a file header, sorted by name', () => {
    const reader = ExrReader.open(memorySource(writeExr([small({ attributes: EVERY_TYPE })])));
    const attributes = reader.parts[0]!.attributes;
    for (const [name, value] of Object.entries(EVERY_TYPE)) expect(attributes.find((a) => a.name === name)?.value, name).toEqual(value);
    const names = attributes.map((a) => a.name);
    expect(names).toEqual([...names].sort());
  });
});

describe('headers', () => {
  it('sets the long-names flag only when a name needs more than 31 bytes', () => {
    const flags = (bytes: Uint8Array) => new DataView(bytes.buffer).getInt32(4, true);
    expect(flags(writeExr([small()])) & 0x400).toBe(0);
    const long = writeExr([small({ channels: [{ name: 'a'.repeat(40), pixelType: 'half', data: new Uint16Array(12) }] })]);
    expect(flags(long) & 0x400).toBe(0x400);
    expect(ExrReader.open(memorySource(long)).parts[0]!.channels[0]!.name).toBe('a'.repeat(40));
  });

  it('marks single-part tiled files with the tiled flag and multipart files with names, types and chunk counts', () => {
    const tiled = writeExr([small({ tiles: { xSizePx: 2, ySizePx: 2 } })]);
    expect(new DataView(tiled.buffer).getInt32(4, true)).toBe(2 | 0x200);
    const multi = ExrReader.open(memorySource(writeExr([small({ name: 'a' }), small({ name: 'b', tiles: { xSizePx: 3, ySizePx: 1 } })])));
    expect(multi.multipart).toBe(true);
    expect(multi.parts.map((p) => [p.name, p.type, p.chunkCount])).toEqual([
      ['a', 'scanlineimage', 1],
      ['b', 'tiledimage', 6],
    ]);
  });

  it('refuses what OpenEXR would not read', () => {
    expect(() => writeExr([small(), small()])).toThrow(/needs a name/);
    expect(() => writeExr([small({ name: 'a' }), small({ name: 'b', displayWindow: { xMin: 0, yMin: 0, xMax: 9, yMax: 9 } })])).toThrow(
      /displayWindow/,
    );
    expect(() => writeExr([small({ attributes: { dataWindow: { type: 'int', value: 1 } } })])).toThrow(/set by the writer/);
    expect(() => writeExr([small({ channels: [{ name: 'Y', pixelType: 'half', data: new Uint16Array(11) }] })])).toThrow(
      /holds 11 samples, expected 12/,
    );
    expect(() => writeExr([small({ channels: [{ name: 'Y', pixelType: 'float', data: new Uint16Array(12) }] })])).toThrow(
      /is float but its data/,
    );
    expect(() => writeExr([small({ channels: [{ name: 'Y', pixelType: 'half', xSampling: 3, data: new Uint16Array(6) }] })])).toThrow(
      /multiple of channel "Y" sampling/,
    );
    expect(() => writeExr([small({ tiles: { xSizePx: 2, ySizePx: 2 }, lineOrder: 'decreasingY' })])).toThrow(/decreasing/);
  });

  const tools = findImageTools();
  it.skipIf(!tools.oiiotool)(
    `is read by OpenImageIO with every attribute${tools.oiiotool ? '' : ' (skipped: oiiotool is not installed)'}`,
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'exrview-writer-'));
      try {
        const path = join(dir, 'attributes.exr');
        writeExrFile(path, [
          small({
            attributes: { owner: { type: 'string', value: 'exrview' }, aInt: { type: 'int', value: 7 } },
            preview: { widthPx: 1, heightPx: 1, rgba: Uint8Array.from([1, 2, 3, 4]) },
          }),
        ]);
        const info = execFileSync(tools.oiiotool!, ['--info', '-v', path], { encoding: 'utf8' });
        expect(info).toMatch(/4 x\s+3, 1 channel, half openexr/);
        expect(info).toMatch(/Copyright: "exrview"|owner: "exrview"/);
        expect(info).toMatch(/aInt: 7/);
        // the temporary file was renamed into place, nothing is left beside it
        expect(readdirSync(dir)).toEqual(['attributes.exr']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
