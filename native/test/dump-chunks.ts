// Writes every chunk of the given EXR files as kernel calls for native/test/harness.c: `npx tsx native/test/dump-chunks.ts OUT FILE...`.
//
// Record (little-endian u32s): kernel (0 zip, 1 rle, 2 piz, 3 pxr24, 4 b44), srcBytes, dstBytes,
// layoutWords, then the source bytes and the layout's int32s (native-layout.ts). One record of
// kernel 99 first carries B44's pLinear log table (65536 u16) when a file needs it.
import { writeFileSync } from 'node:fs';
import { chunkPlace, uncompressedBytes } from '../../codec/blocks.js';
import { b44LogTable } from '../../codec/compression/b44-log-table.js';
import { nativeLayout } from '../../codec/compression/native-layout.js';
import { ExrReader, openFileSource, type Compression } from '../../codec/index.js';

const KERNELS: Partial<Record<Compression, number>> = { zip: 0, zips: 0, rle: 1, piz: 2, pxr24: 3, b44: 4, b44a: 4 };

const [out, ...files] = process.argv.slice(2);
if (!out || files.length === 0) {
  console.error('usage: npx tsx native/test/dump-chunks.ts OUT FILE...');
  process.exit(2);
}
const pieces: Uint8Array[] = [];
const record = (kernel: number, src: Uint8Array, dstBytes: number, layout: Int32Array) => {
  const head = new Uint32Array([kernel, src.length, dstBytes, layout.length]);
  pieces.push(
    new Uint8Array(head.buffer),
    src.slice(),
    new Uint8Array(layout.buffer.slice(layout.byteOffset, layout.byteOffset + layout.byteLength)),
  );
};
const table = b44LogTable();
record(99, new Uint8Array(table.buffer, table.byteOffset, table.byteLength), 0, new Int32Array(0));
let count = 0;
for (const file of files) {
  const source = openFileSource(file);
  try {
    const reader = ExrReader.open(source);
    for (const part of reader.parts) {
      const kernel = KERNELS[part.compression];
      if (part.isDeep || kernel === undefined) continue;
      const chunks = part.isTiled ? part.levels[0]!.tilesX * part.levels[0]!.tilesY : part.chunkCount;
      for (let index = 0; index < chunks; index++) {
        const block = chunkPlace(part, index).block;
        const data = reader.readChunk(part.index, index).data;
        const dstBytes = uncompressedBytes(block);
        if (data.length >= dstBytes) continue; // stored raw
        record(kernel, data, dstBytes, nativeLayout(block));
        count++;
      }
    }
  } catch (error) {
    console.error(`${file}: ${(error as Error).message}`);
  } finally {
    source.close();
  }
}
writeFileSync(out, Buffer.concat(pieces));
console.log(`${count} chunks written to ${out}`);
