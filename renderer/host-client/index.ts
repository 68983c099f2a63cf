// The HostApi the renderer uses: Electron's preload bridge when present, else the browser-mode HTTP client.
import type { HostApi } from './api-types.js';
import { BufferPool } from './buffer-pool.js';
import { apiCaller, createHttpHost, type TransferRecord } from './http-client.js';
import type { DecodedImage, DecodeRequest } from './api-types.js';

declare global {
  interface Window {
    exrview?: HostApi;
  }
}

export interface RendererHost {
  api: HostApi;
  transport: 'ipc' | 'http';
  transfers: TransferRecord[];
  /** Where received planes land; the controller hands back those of images no longer shown. */
  pool: BufferPool;
}

/** Planes of a few 4K images kept for reuse. */
const POOL_KEEP_BYTES = 512 << 20;

export function connectHost(): RendererHost {
  const pool = new BufferPool(POOL_KEEP_BYTES);
  if (window.exrview) {
    // Electron: calls and events over IPC; decoded planes over the app protocol's pixel route, read straight into the pool
    const shell = window.exrviewShell;
    if (!shell) return { api: window.exrview, transport: 'ipc', transfers: [], pool };
    const transfers: TransferRecord[] = [];
    const headers = shell.pixelToken().then((token) => ({ 'content-type': 'application/json', 'x-exrview-token': token }));
    const call = apiCaller(headers, pool, transfers);
    const api: HostApi = { ...window.exrview, decodeImage: (request: DecodeRequest) => call<DecodedImage>('decodeImage', [request]) };
    return { api, transport: 'ipc', transfers, pool };
  }
  const http = createHttpHost(window.location, pool);
  return { api: http, transport: 'http', transfers: http.transfers, pool };
}
