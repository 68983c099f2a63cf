// The page side of HostApi over IPC, built from three IPC primitives so it can be tested without Electron (preload.ts passes ipcRenderer's).

import type { HostApi, HostEvent } from '../../contract/host-api.js';
import { CALL_METHODS, SIGNAL_METHODS, type CallMethod, type SignalMethod } from '../../contract/host-methods.js';
import {
  COMMAND_CHANNEL,
  EVENT_CHANNEL,
  METHOD_CHANNELS,
  PIXEL_TOKEN_CHANNEL,
  type ShellApi,
  type ShellCommand,
} from '../../contract/shell-api.js';

export interface PreloadIpc {
  invoke(channel: string, args: unknown[]): Promise<unknown>;
  send(channel: string, args: unknown[]): void;
  /** Subscribes to main → page messages; returns the unsubscribe. */
  on(channel: string, listener: (payload: unknown) => void): () => void;
}

/** Electron prefixes errors from ipcMain.handle ("Error invoking remote method 'x': Error: …"); the page gets the message alone. */
export function cleanIpcError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(message.replace(/^Error invoking remote method '[^']*': /, '').replace(/^(?:[A-Za-z]*Error): /, ''));
}

export function createPreloadApi(ipc: PreloadIpc): { host: HostApi; shell: ShellApi } {
  const call =
    (method: CallMethod) =>
    async (...args: unknown[]) => {
      try {
        return await ipc.invoke(METHOD_CHANNELS[method], args);
      } catch (error) {
        throw cleanIpcError(error);
      }
    };
  const signal =
    (method: SignalMethod) =>
    (...args: unknown[]) =>
      ipc.send(METHOD_CHANNELS[method], args);

  const methods: Record<string, unknown> = {};
  for (const method of CALL_METHODS) methods[method] = call(method);
  for (const method of SIGNAL_METHODS) methods[method] = signal(method);
  const host = {
    ...methods,
    onEvent: (listener: (event: HostEvent) => void) => ipc.on(EVENT_CHANNEL, (payload) => listener(payload as HostEvent)),
  } as unknown as HostApi;
  const shell: ShellApi = {
    onCommand: (listener) => ipc.on(COMMAND_CHANNEL, (payload) => listener(payload as ShellCommand)),
    pixelToken: async () => String(await ipc.invoke(PIXEL_TOKEN_CHANNEL, [])),
  };
  return { host, shell };
}
