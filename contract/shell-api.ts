// What the Electron shell adds beside HostApi in the page: commands from the menus, drops and the OS (types and channel names only).

import type { FolderInfo } from './host-api.js';
import { TRANSPORT_METHODS, type TransportMethod } from './host-methods.js';

export type ViewAction =
  | 'zoom-in'
  | 'zoom-out'
  | 'zoom-fit'
  | 'zoom-actual'
  | 'exposure-up'
  | 'exposure-down'
  | 'exposure-reset'
  | 'toggle-diagnostics'
  | 'toggle-header'
  /** The page's full screen (the Fullscreen API, as Shift+F in the page), not the window's own. */
  | 'toggle-fullscreen'
  /** Hide or show the grid and the side panels (Tab in the page). */
  | 'toggle-panels';

/** Main → page: something the user did outside the page (a menu, a drop, a file opened from the OS). */
export type ShellCommand =
  /** The shell opened a folder (menu, recent list, drop, open-file, command line): show it; select the file if named. */
  | { type: 'folder-opened'; folder: FolderInfo; selectFileName?: string }
  /** The user chose File ▸ Export…: export the selection (the page knows it), outDir left out so the shell asks where. */
  | { type: 'export' }
  | { type: 'view'; action: ViewAction }
  | { type: 'help'; topic: 'shortcuts' | 'about' };

/** `window.exrviewShell` in Electron (absent in browser mode). */
export interface ShellApi {
  onCommand(listener: (command: ShellCommand) => void): () => void;
  /** The session's token for the pixel route (app://exrview/api/decodeImage, see pixel-protocol.ts). */
  pixelToken(): Promise<string>;
}

export const CHANNEL_PREFIX = 'exrview:';
/** Main → page: HostEvent. */
export const EVENT_CHANNEL = 'exrview:event';
/** Main → page: ShellCommand. */
export const COMMAND_CHANNEL = 'exrview:command';
/** Page → main: the pixel route's token (answered to the app's own page only). */
export const PIXEL_TOKEN_CHANNEL = 'exrview:pixel-token';
/** Preload → main: paths of files and folders dropped on the window (from trusted drop events only). */
export const DROP_CHANNEL = 'exrview:drop';

export function methodChannel(method: TransportMethod): string {
  return `${CHANNEL_PREFIX}host:${method}`;
}

export const METHOD_CHANNELS: Readonly<Record<TransportMethod, string>> = Object.fromEntries(
  TRANSPORT_METHODS.map((m) => [m, methodChannel(m)]),
) as Record<TransportMethod, string>;
