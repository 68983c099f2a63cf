// The codec's public surface: what the host, the command and the tests import.

export { ExrError, type ExrErrorKind, type ExrErrorWhere } from './core/errors.js';
export type { Attribute, AttributeValue, TileDescription, Chromaticities, Preview, LineOrder } from './attributes.js';
export type { PartInfo, PartType, Level, ReadLimits } from './part.js';
export { DEFAULT_LIMITS } from './part.js';
export { ExrReader, type DecodedImage, type DecodedChannel, type DecodeOptions, type PlaneData, type StageTimings } from './reader.js';
export { memorySource, type ByteSource } from './source.js';
export { openFileSource, type FileSource } from './file-source.js';
export { channelStats, partSummary, type PartStats, type ChannelStats } from './stats.js';
export { HALF_TO_FLOAT, halfToFloat, floatToHalf } from './core/half.js';
export type { Channel, Compression, PixelType, Box2i, BlockLayout } from './core/types.js';
export { decodeDeep, DEFAULT_MAX_DEEP_SAMPLES, type DeepImage, type DeepChannel, type DeepDecodeOptions } from './deep.js';
export { flattenDeep } from './deep-flatten.js';
export { writeExr, writeExrFile, encodeExr, type WritePart, type WriteChannel, type WriteTiles, type EncodedFile } from './writer.js';
export { writeExrFileStreaming, type StreamPart, type BlockSource, type BlockPixels } from './writer-stream.js';
export { encodeAttributeValue } from './attributes-write.js';
export { lumaChromaToRgba, lumaChromaKind, luminanceWeights, DEFAULT_CHROMATICITIES, type LumaChromaKind } from './luma-chroma.js';
export { partLayers, partViews, splitView, previewOf, type Layer, type LayerChannel, type PartLayers } from './layers.js';
export { readerStats, fileStatsOf, type FileStats } from './file-stats.js';
export { missingRegions, type ChunkFailure, type MissingChunks } from './missing.js';

// Below the façade: what the host's staged decode, thumbnails and command line use of the codec's stages.
export { nativeStatus, nativeKernels } from './compression/native.js';
export { wasmStatus } from './compression/wasm.js';
export {
  kernelTierReport,
  describeKernelTiers,
  decodeTier,
  describeDecodeTier,
  type DecodeTier,
  type KernelTierReport,
} from './compression/tiers.js';
export { attributeText, attributeValueText } from './attribute-text.js';
export { statsJson } from './stats.js';
export { type AbortSignalLike, type ParsedFile, withTables, refreshParsed } from './reader.js';
export type { ChunkWalk } from './chunk-walk.js';
export { COMPRESSIONS, PIXEL_TYPES, PIXEL_TYPE_BYTES } from './core/types.js';
export { findLevel, buildParts } from './part.js';
export { sampleCount, floorMod } from './core/sampling.js';
export { reserveTransientChunks, decompressSamples, decompressTransient, type ChunkSamples } from './compression/index.js';
export { reserveTransientReads } from './file-source.js';
export { headersFromPrefix, parseRawHeaders } from './header.js';
export { minChunkHeaderBytes } from './chunks.js';
export { prefixSource } from './source.js';
export { chunkPlace, chunksForRegion, uncompressedBytes } from './blocks.js';
export { applyLut, type PizPlanes } from './compression/piz.js';
