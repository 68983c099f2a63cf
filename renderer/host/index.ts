// The HostApi the renderer uses: Electron's preload bridge when present, else the browser-mode HTTP client.
import type { HostApi } from './api-types.js';
import { createHttpHost, type TransferRecord } from './http-client.js';

declare global {
  interface Window { exrview?: HostApi }
}

export interface RendererHost { api: HostApi; transport: 'ipc' | 'http'; transfers: TransferRecord[] }

export function connectHost(): RendererHost {
  if (window.exrview) return { api: window.exrview, transport: 'ipc', transfers: [] };
  const http = createHttpHost();
  return { api: http, transport: 'http', transfers: http.transfers };
}
