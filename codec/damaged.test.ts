// Every file of OpenEXR's damaged corpus is refused with a typed error or decoded; nothing crashes or hangs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExrError, ExrReader, openFileSource } from './index.js';

const damagedDir = join(__dirname, '..', '..', 'shared', 'corpus', 'openexr-images', 'Damaged');
const available = existsSync(damagedDir);

describe.skipIf(!available)('damaged corpus (../shared/corpus/openexr-images/Damaged)', () => {
  const files = available ? readdirSync(damagedDir).filter((n) => !n.endsWith('.rst') && statSync(join(damagedDir, n)).isFile()) : [];

  it('has the files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  for (const name of files) {
    it(`${name.slice(0, 60)}: refused cleanly or decoded`, () => {
      const t0 = performance.now();
      const source = openFileSource(join(damagedDir, name));
      let outcome: 'decoded' | 'refused';
      try {
        const reader = ExrReader.open(source);
        for (const part of reader.parts) {
          if (part.isDeep) continue;
          reader.decode({ part: part.index });
        }
        outcome = 'decoded';
      } catch (error) {
        // a typed error with a reason, never a TypeError or an engine error
        expect(error).toBeInstanceOf(ExrError);
        expect((error as ExrError).reason.length).toBeGreaterThan(0);
        outcome = 'refused';
      } finally {
        source.close();
      }
      expect(['decoded', 'refused']).toContain(outcome);
      expect(performance.now() - t0).toBeLessThan(10_000);
    });
  }
});

if (!available) {
  describe('damaged corpus', () => {
    it.skip(`skipped: ${damagedDir} is absent (the shared corpus sits beside the checkout)`, () => {});
  });
}
