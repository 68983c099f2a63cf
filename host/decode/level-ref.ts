// One level of one file as it is on disk, and what a decode of it reads from the header: its cache key, layout and parse.

import type { PartInfo } from '../../codec/index.js';
import type { BoxTuple } from '../../contract/host-api.js';
import type { HeaderCache } from '../cache/header-cache.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';
import { levelLayout, type LevelLayout } from './layout.js';

/** One level of one file as it is on disk now. */
export interface LevelRef {
  fileId: string;
  absPath: string;
  sizeBytes: number;
  mtimeMs: number;
  part: number;
  lx: number;
  ly: number;
  displayWindow: BoxTuple;
  deep: boolean;
  /** Every channel of the part, header order. */
  allChannels: readonly string[];
}

/** Every key of a file starts with its path (fileKeyPrefix); size and mtime tell one version from the next. */
export function levelKey(ref: LevelRef): string {
  return `${fileKeyPrefix(ref.absPath)}${ref.sizeBytes}\0${ref.mtimeMs}\0${ref.part}\0${ref.lx}\0${ref.ly}`;
}

/** What the key of every level of a file starts with: its levels are dropped by it when the file changes. */
export function fileKeyPrefix(absPath: string): string {
  return `${absPath}\0`;
}

/** The channels a decode names: null for all of them (the codec's whole-level path), else a copy. */
export function selectedChannels(ref: LevelRef, channels: readonly string[]): string[] | null {
  return channels.length === ref.allChannels.length ? null : [...channels];
}

/**
 * The level's layout for these channels, from the file's header (kept since the library read it, else read now: a
 * few KB; the planes' geometry is in no summary).
 */
export function layoutOf(headers: HeaderCache, ref: LevelRef, channels: string[] | null): LevelLayout | Promise<LevelLayout> {
  const parts = headers.partsOf(ref.absPath, ref.sizeBytes, ref.mtimeMs);
  const layout = (all: PartInfo[]) => {
    const info = all[ref.part];
    if (!info) throw new Error(`${ref.absPath} has no part ${ref.part} (it has ${all.length})`);
    return levelLayout(info, ref.lx, ref.ly, channels);
  };
  return Array.isArray(parts) ? layout(parts) : parts.then(layout);
}

/** The main thread's parse of the file for the workers, where the header cache holds one (else they parse it). */
export function handoffOf(headers: HeaderCache, ref: LevelRef): HeaderHandoff | null {
  return headers.handoffOf(ref.absPath, ref.sizeBytes, ref.mtimeMs);
}
