// A stand-in for an unpacked Electron distribution (electron-builder's electronDist) where the real one cannot be downloaded:
// an `electron` executable that only says what it is, carrying Electron's fuse wire so electron-builder's fuse step runs on it.

import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Electron's fuse sentinel (@electron/fuses): the fuse wire follows it as version, length, then one byte per fuse. */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_WIRE_VERSION = 1;
/** Electron's fuses in wire order, as shipped ('1' on, '0' off): electron-builder.json's electronFuses flips them. */
export const FUSES = [
  ['runAsNode', '1'],
  ['enableCookieEncryption', '0'],
  ['enableNodeOptionsEnvironmentVariable', '1'],
  ['enableNodeCliInspectArguments', '1'],
  ['enableEmbeddedAsarIntegrityValidation', '0'],
  ['onlyLoadAppFromAsar', '0'],
  ['loadBrowserProcessSpecificV8Snapshot', '0'],
  ['grantFileProtocolExtraPrivileges', '1'],
] as const;

/** Writes the stand-in into `dir` (Linux layout: `electron` and `version`); returns `dir`. */
export function makeStandInElectron(dir: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  const script = '#!/bin/sh\necho "exrview test stand-in for Electron: the real binary could not be downloaded" >&2\nexit 1\n';
  const wire = Buffer.from(FUSES.map(([, state]) => state).join(''), 'latin1');
  const executable = join(dir, 'electron');
  writeFileSync(
    executable,
    Buffer.concat([Buffer.from(script), Buffer.from(SENTINEL, 'latin1'), Buffer.from([FUSE_WIRE_VERSION, wire.length]), wire]),
  );
  chmodSync(executable, 0o755);
  writeFileSync(join(dir, 'version'), version);
  return dir;
}

/** The fuses of a (stand-in or real) Electron executable, by name: true on, false off. */
export function readFuses(executable: string): Record<string, boolean> {
  const bytes = readFileSync(executable);
  const at = bytes.indexOf(SENTINEL, 0, 'latin1');
  if (at < 0) throw new Error(`${executable} has no fuse wire`);
  const wire = at + SENTINEL.length;
  const length = bytes[wire + 1]!;
  return Object.fromEntries(FUSES.slice(0, length).map(([name], i) => [name, bytes[wire + 2 + i] === 0x31]));
}
