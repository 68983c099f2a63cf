// Chunk extents: where each chunk can end, for tables in file order (the fast path) and in any other order.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkExtents } from './chunks.js';

/** The definition: the smallest stored offset (of any part) after `byteOffset`, else the end of the file. */
function endByDefinition(tables: number[][], fileSizeBytes: number, byteOffset: number): number {
  let end = fileSizeBytes;
  for (const t of tables) for (const o of t) if (o >= 0 && o > byteOffset && o < end) end = o;
  return end;
}

const FILE_BYTES = 10_000;

/** Offset tables as readOffsetTables makes them: entries inside the file, or -1 for an entry that points outside. */
const tablesArb = fc.array(
  fc.array(fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 8, max: FILE_BYTES - 1 }) }, { weight: 1, arbitrary: fc.constant(-1) }), {
    maxLength: 40,
  }),
  {
    minLength: 1,
    maxLength: 3,
  },
);

function check(tables: number[][], probes: number[]): void {
  const extents = ChunkExtents.fromTables(
    tables.map((t) => Float64Array.from(t)),
    FILE_BYTES,
  );
  for (const t of tables) for (const o of t) if (o >= 0) expect(extents.endOf(o)).toBe(endByDefinition(tables, FILE_BYTES, o));
  for (const p of probes) expect(extents.endOf(p)).toBe(endByDefinition(tables, FILE_BYTES, p));
}

describe('ChunkExtents', () => {
  it('ends each chunk at the next stored offset, in any order, with repeats and bad entries', () => {
    fc.assert(
      fc.property(tablesArb, fc.array(fc.integer({ min: 0, max: FILE_BYTES }), { maxLength: 20 }), (tables, probes) =>
        check(tables, probes),
      ),
      { numRuns: 500 },
    );
  });

  it('takes tables already in increasing order as they are (the usual file)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 8, max: FILE_BYTES - 1 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 3 }),
        (offsets, partCount) => {
          offsets.sort((a, b) => a - b);
          // consecutive parts' tables, each increasing and after the one before, as a multipart file stores them
          const size = Math.ceil(offsets.length / partCount);
          const tables = Array.from({ length: partCount }, (_, i) => offsets.slice(i * size, (i + 1) * size));
          check(
            tables,
            offsets.map((o) => o + 1),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("places a repeated offset, and one equal to an earlier part's last, like any other", () => {
    check(
      [
        [100, 200, 300],
        [300, 400],
      ],
      [0, 99, 100, 250, 300, 399, 400, 9_999],
    );
    check([[100, 100, 50]], [0, 50, 75, 100, 101]);
    check([[-1, -1]], [0, 5_000]);
  });
});
