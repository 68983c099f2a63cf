// Which OCIO config files a page may have the host read: `$OCIO`, a recent config, or a config file in a folder it may open.

import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { HostInfo } from '../contract/host-api.js';
import { PathRefusedError } from './path-guard.js';

const CONFIG_FILE = /\.(ocio|ocioz|ya?ml)$/i;

/**
 * The path to read when the page may name it: the host's own `$OCIO` as set, one of its recent configs, or (a config
 * file by its extension) one that `inOpenedFolder` accepts by its real path. Else PathRefusedError saying what to do.
 */
export async function checkConfigPath(
  path: string,
  info: Pick<HostInfo, 'ocio' | 'recentColourConfigs'>,
  inOpenedFolder: (real: string) => Promise<boolean>,
): Promise<string> {
  if (path.includes('\0')) throw new PathRefusedError('the OCIO config path is not a valid path');
  if (info.ocio !== undefined && path === info.ocio) return path;
  const recent = info.recentColourConfigs ?? [];
  if (recent.includes(resolve(path))) return resolve(path);
  if (!CONFIG_FILE.test(path)) throw new PathRefusedError(`"${path}" is not an OCIO config (.ocio, .ocioz, .yaml): name the config file`);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw new PathRefusedError(`the OCIO config "${path}" does not exist or cannot be read`);
  }
  if (recent.includes(real) || (await inOpenedFolder(real))) return real;
  throw new PathRefusedError(
    `the OCIO config "${path}" is not $OCIO, a recent config or in a folder you opened: open its folder first, or set $OCIO to it`,
  );
}
