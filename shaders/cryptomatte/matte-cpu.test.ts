// The CPU matte on files written as the specification says: it equals the generator's own record of each pixel's coverage.
import { afterAll, describe, expect, it } from 'vitest';
import { ExrReader, openFileSource, type DecodedImage } from '../../codec/index.js';
import { expectedMatte, writeCryptomatteFixture } from '../../testing/cryptomatte/fixtures.js';
import { tempDir } from '../../testing/host/test-files.js';
import { idOfName } from './hash.js';
import { findCryptomattes } from './layers.js';
import { interleaveGroup, matteCpu, type RankGroupPlanes } from './matte-cpu.js';

const dir = tempDir('exrview-cryptomatte-');
afterAll(() => dir.remove());
const fixture = writeCryptomatteFixture(dir.path);

function decodeFixture(): { image: DecodedImage; scan: ReturnType<typeof findCryptomattes> } {
  const source = openFileSource(fixture.file);
  try {
    const reader = ExrReader.open(source);
    const part = reader.parts[0]!;
    const strings = new Map(part.attributes.flatMap((a) => (a.value.type === 'string' ? [[a.name, a.value.value] as const] : [])));
    return { image: reader.decode(), scan: findCryptomattes(strings, part.channels) };
  } finally {
    source.close();
  }
}

describe('matteCpu', () => {
  const { image, scan } = decodeFixture();
  const planes = (layer: string): RankGroupPlanes[] =>
    scan.layers
      .find((l) => l.name === layer)!
      .groups.map(
        (names) => names.map((n) => image.channels.find((c) => c.name === n)!.data as Float32Array) as unknown as RankGroupPlanes,
      );
  const pixels = fixture.widthPx * fixture.heightPx;

  it('finds the three layers of the generated file', () => {
    expect(scan.problems).toEqual([]);
    expect(scan.layers.map((l) => [l.name, l.groups.length, l.manifest.kind]).sort()).toEqual([
      ['crypto_asset', 1, 'none'],
      ['crypto_material', 2, 'sidecar'],
      ['crypto_object', 3, 'inline'],
    ]);
  });

  it("equals the specification's matte for every name alone and for pairs, bit for bit", () => {
    for (const truth of Object.values(fixture.layers)) {
      const groups = planes(truth.name);
      const picks = [...truth.names.map((n) => [n]), [truth.names[0]!, truth.names[truth.names.length - 1]!], [...truth.names]];
      for (const pick of picks) {
        const matte = matteCpu(groups, pick.map(idOfName), pixels);
        expect(Buffer.from(matte.buffer).equals(Buffer.from(expectedMatte(truth, pick).buffer)), `${truth.name}: ${pick.join(', ')}`).toBe(
          true,
        );
      }
      // every pixel's coverage is there, so all names together cover what the pixel's pairs sum to
      const all = matteCpu(groups, truth.names.map(idOfName), pixels);
      expect(all.some((v) => v > 0.99)).toBe(true);
      expect(all.some((v) => v === 0)).toBe(true);
    }
  });

  it('is zero everywhere for no pick or an ID no pixel holds', () => {
    const groups = planes('crypto_object');
    expect(matteCpu(groups, [], pixels).every((v) => v === 0)).toBe(true);
    expect(matteCpu(groups, [idOfName('nobody')], pixels).every((v) => v === 0)).toBe(true);
  });

  it('interleaves a group as RGBA bit for bit', () => {
    const [group] = planes('crypto_object');
    const rgba = interleaveGroup(group!, pixels);
    expect(rgba[4 * 7 + 2]).toBe(group![2][7]);
    expect(new Uint32Array(rgba.buffer)[4 * 9]).toBe(new Uint32Array(group![0].buffer)[9]);
  });
});
