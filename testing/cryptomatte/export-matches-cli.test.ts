// The viewer's matte export (HostApi.exportImages, kind 'matte') against `exrview matte`: byte for byte the same file, EXR
// and PNG, for names that need escaping, a sidecar manifest, an ID picked as <hex>; and the header's layers for the viewer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMatte } from '../../cli/matte.js';
import type { ExportRequest, FileEntry } from '../../contract/host-api.js';
import { exportImages } from '../../host/export/export.js';
import { cryptomatteHeader, openMatteReader } from '../../host/export/matte.js';
import { idHex, idOfName } from '../../shaders/cryptomatte/hash.js';
import { tempDir } from '../host/test-files.js';
import { MATERIAL_NAMES, writeCryptomatteFixture } from './fixtures.js';

const dir = tempDir('exrview-matte-export-');
afterAll(() => dir.remove());
const fixture = writeCryptomatteFixture(dir.path);
const entry: FileEntry = {
  id: 'f1',
  folderId: 'd',
  relativePath: 'cryptomatte.exr',
  name: 'cryptomatte.exr',
  sizeBytes: 0,
  mtimeMs: 0,
  status: 'ok',
};
const view = { exposureEv: 0, offset: 0, gamma: 1, displayTransform: 'srgb', layer: '', channelMode: 'rgb' } as const;

async function exported(format: 'exr' | 'png', layer: string, names: string[]): Promise<Buffer> {
  const request: ExportRequest = { fileIds: ['f1'], kind: 'matte', format, overwrite: true, view, matte: { layer, names } };
  const result = await exportImages(request, {
    file: () => ({ entry, absPath: fixture.file }),
    decode: () => Promise.reject(new Error('a matte export decodes the file itself')),
    thumbnail: () => Promise.reject(new Error('no thumbnails here')),
  });
  expect(result.failed).toEqual([]);
  expect(result.downloads).toHaveLength(1);
  expect(result.downloads![0]!.name).toBe(`cryptomatte_${layer}_matte.${format}`);
  return Buffer.from(result.downloads![0]!.data);
}

async function cli(format: 'exr' | 'png', layer: string, names: string[]): Promise<Buffer> {
  const out = join(dir.path, `cli-${layer}-${names.length}.${format}`);
  const escaped = names.map((n) => n.replace(/\\/g, '\\\\').replace(/,/g, '\\,')).join(',');
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    expect(await runMatte([fixture.file, '--layer', layer, '--names', escaped, '--out', out])).toBe(0);
  } finally {
    process.stdout.write = write;
  }
  return readFileSync(out);
}

describe("the viewer's matte export", () => {
  const cases: [string, string[]][] = [
    ['crypto_object', ['bunny', 'a,b', 'chair "red"', 'back\\slash', 'line\nbreak', 'Zürich café']],
    ['crypto_material', [MATERIAL_NAMES[1]!, MATERIAL_NAMES[2]!]],
    ['crypto_asset', [`<${idHex(idOfName('asset_rock'))}>`]],
  ];
  for (const format of ['exr', 'png'] as const)
    for (const [layer, names] of cases)
      it(`writes exactly what exrview matte writes: ${layer}, ${names.length} names, ${format.toUpperCase()}`, async () => {
        const ui = await exported(format, layer, names);
        const command = await cli(format, layer, names);
        expect(ui.length).toBeGreaterThan(100);
        expect(ui.equals(command)).toBe(true);
      });

  it('says which name a layer lacks, and refuses JPEG', async () => {
    const request: ExportRequest = {
      fileIds: ['f1'],
      kind: 'matte',
      format: 'exr',
      overwrite: true,
      view,
      matte: { layer: 'crypto_object', names: ['no such thing'] },
    };
    const sources = {
      file: () => ({ entry, absPath: fixture.file }),
      decode: () => Promise.reject(new Error('unused')),
      thumbnail: () => Promise.reject(new Error('unused')),
    };
    const result = await exportImages(request, sources);
    expect(result.failed[0]?.reason).toMatch(/"no such thing" is not in crypto_object's manifest/);
    await expect(exportImages({ ...request, format: 'jpg' }, sources)).rejects.toThrow(/EXR .* or PNG/);
  });
});

describe('the header of a Cryptomatte file, for the viewer', () => {
  it('lists every layer with its rank groups and its manifest, the sidecar read from beside the image', () => {
    const { reader, close } = openMatteReader(fixture.file);
    try {
      const header = cryptomatteHeader(fixture.file, reader.parts[0]!)!;
      expect(header.problems).toEqual([]);
      const byName = new Map(header.layers.map((l) => [l.name, l]));
      expect([...byName.keys()].sort()).toEqual(['crypto_asset', 'crypto_material', 'crypto_object']);
      expect(byName.get('crypto_object')!.groups).toHaveLength(3);
      expect(byName.get('crypto_object')!.manifestKind).toBe('inline');
      expect(byName.get('crypto_material')!.manifestJson).toBe(readFileSync(fixture.sidecar, 'utf8'));
      expect(byName.get('crypto_asset')!.manifestJson).toBeNull();
      expect(byName.get('crypto_asset')!.manifestWarning).toMatch(/no manifest: names are hashed/);
    } finally {
      close();
    }
  });
});
