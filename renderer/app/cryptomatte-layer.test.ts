// The viewer's Cryptomatte layer: the name under a pixel, the checks of a malformed layer (ranks out of order, IDs no name
// has, NaN coverage, a manifest that is not JSON), picks to IDs, and the list's names.
import { describe, expect, it } from 'vitest';
import { idHex, idOfName, idToFloat } from '../../shaders/cryptomatte/hash.js';
import { SHAPE_NAMES, SHAPES, shapePixels } from '../../testing/cryptomatte/shapes.js';
import { manifestJson } from '../../testing/cryptomatte/fixtures.js';
import { checkRanks, idAt, listedNames, loadLayer, pickedIds, type CryptomatteLayerInfo } from './cryptomatte-layer.js';

const GROUPS = [0, 1].map((g) => ['R', 'G', 'B', 'A'].map((c) => `crypto_object0${g}.${c}`));

function planesOf(pixels: readonly (readonly (readonly [string, number])[])[]): Map<string, Float32Array> {
  const planes = new Map(GROUPS.flat().map((n) => [n, new Float32Array(pixels.length)]));
  pixels.forEach((pairs, i) =>
    pairs.slice(0, 4).forEach(([name, coverage], rank) => {
      const [idName, coverageName] = [GROUPS[rank >> 1]![(rank & 1) * 2]!, GROUPS[rank >> 1]![(rank & 1) * 2 + 1]!];
      planes.get(idName)![i] = idToFloat(idOfName(name));
      planes.get(coverageName)![i] = coverage;
    }),
  );
  return planes;
}

function info(manifestJsonText: string | null): CryptomatteLayerInfo {
  return {
    name: 'crypto_object',
    key: 'k',
    groups: GROUPS,
    manifestKind: manifestJsonText ? 'inline' : 'none',
    manifestJson: manifestJsonText,
  };
}

const box = { originX: 10, originY: 20, widthPx: SHAPES.widthPx, heightPx: SHAPES.heightPx };

describe('a Cryptomatte layer in the viewer', () => {
  const planes = planesOf(shapePixels());
  const layer = loadLayer(info(manifestJson(SHAPE_NAMES)), (n) => planes.get(n) ?? null, box);

  it('names the most covering ID under a pixel (absolute coordinates), with its coverage', () => {
    expect(layer.notes).toEqual([]);
    const { bunny, chair } = SHAPES;
    expect(idAt(layer, 10 + bunny.cx, 20 + bunny.cy)).toEqual({ id: idOfName('bunny'), name: 'bunny', coverage: 1 });
    expect(idAt(layer, 10 + chair.x0 + 5, 20 + chair.y0 + 5)?.name).toBe('chair "red"');
    expect(idAt(layer, 10 + 2, 20 + 2)?.name).toBe('floor');
    expect(idAt(layer, 9, 20)).toBeNull();
    expect(idAt(layer, 10 + SHAPES.widthPx, 20)).toBeNull();
  });

  it('turns picks into IDs, and says which names it lacks', () => {
    expect(pickedIds(layer, ['bunny', `<${idHex(42)}>`, 'nobody'])).toEqual({ ids: [idOfName('bunny'), 42], unknown: ['nobody'] });
  });

  it("lists the manifest's names; without a manifest, the IDs the pixels hold as <hex>", () => {
    expect(listedNames(layer).map((n) => n.name)).toEqual([...SHAPE_NAMES].sort());
    const bare = loadLayer(info(null), (n) => planes.get(n) ?? null, box);
    expect(bare.manifest).toBeNull();
    expect(
      listedNames(bare)
        .map((n) => n.name)
        .sort(),
    ).toEqual(SHAPE_NAMES.map((n) => `<${idHex(idOfName(n))}>`).sort());
    expect(idAt(bare, 10 + SHAPES.bunny.cx, 20 + SHAPES.bunny.cy)?.name).toBe(`<${idHex(idOfName('bunny'))}>`);
  });

  it('says where ranks are out of order, coverage is NaN, and IDs match no name', () => {
    const pixels = [
      [
        ['bunny', 0.25],
        ['floor', 0.75],
      ],
      [['stranger', 1]],
      [
        ['floor', Number.NaN],
        ['bunny', 0.5],
      ],
    ] as const;
    const bad = planesOf(pixels);
    const groups = GROUPS.map((names) => names.map((n) => bad.get(n)!)) as unknown as Parameters<typeof checkRanks>[1];
    const manifest = loadLayer(info(manifestJson(SHAPE_NAMES)), (n) => planes.get(n) ?? null, box).manifest;
    const notes = checkRanks('crypto_object', groups, pixels.length, manifest);
    expect(notes).toHaveLength(3);
    expect(notes[0]).toMatch(/ranks are out of order in 1 pixel /);
    expect(notes[1]).toMatch(/1 rank coverage value is NaN/);
    expect(notes[2]).toContain(`1 ID in the pixels match no name of the manifest (${idHex(idOfName('stranger'))})`);
  });

  it('keeps a layer whose manifest is not JSON, names hashed, and says so', () => {
    const broken = loadLayer(info('{"bunny": '), (n) => planes.get(n) ?? null, box);
    expect(broken.manifest).toBeNull();
    expect(broken.notes[0]).toMatch(/crypto_object's manifest is not valid JSON/);
  });

  it('refuses planes that did not arrive whole', () => {
    expect(() => loadLayer(info(null), () => new Float32Array(3), box)).toThrow(/did not arrive whole/);
  });
});
