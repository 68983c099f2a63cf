// Conformance: `exrview stats` of every corpus file equals what the OpenEXR C++ library decodes (shared/corpus/reference).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStatsOf } from './file-stats.js';
import { statsJson } from './stats.js';

const shared = resolve(__dirname, '../../shared');
const referenceDir = join(shared, 'corpus/reference');
const imagesDir = join(shared, 'corpus/openexr-images');
const present = existsSync(referenceDir) && existsSync(imagesDir);

function referenceFiles(): string[] {
  return (readdirSync(referenceDir, { recursive: true }) as string[]).filter((f) => f.endsWith('.json')).sort();
}

describe.skipIf(!present)('OpenEXR reference corpus', () => {
  const files = present ? referenceFiles() : [];
  it('has reference files to compare with', () => {
    expect(files.length).toBeGreaterThan(40);
  });
  for (const file of files) {
    it(`${file} matches OpenEXR`, () => {
      const want = readFileSync(join(referenceDir, file), 'utf8').trim();
      const exr = join(imagesDir, file.replace(/\.json$/, '.exr'));
      // byte for byte what `exrview stats --json` prints: same keys, same order, numbers as %.9g
      expect(statsJson(fileStatsOf(exr))).toBe(want);
    });
  }
});

if (!present) {
  describe('OpenEXR reference corpus', () => {
    it.skip(`skipped: ${referenceDir} is absent (the corpus lives in ../shared beside the repository)`, () => {});
  });
}
