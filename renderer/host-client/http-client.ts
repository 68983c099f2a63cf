// HostApi over HTTP + WebSocket for browser mode: the wire format of PROTOCOL.md, measuring each transfer.
import type { HostApi, HostEvent } from './api-types.js';
import type { BufferPool } from './buffer-pool.js';
import { readContainer } from './container-stream.js';

export const CONTAINER_CONTENT_TYPE = 'application/x-exrview-container';
const TOKEN_KEY = 'exrview-token';

/** One reply's transfer as the renderer saw it. */
export interface TransferRecord {
  method: string;
  bytes: number;
  wallMs: number;
  hostMs: number;
  transferMs: number;
}

/**
 * POST /api/<method> with {"args": [...]}: JSON back, or a container read straight into its buffers. The same call serves
 * browser mode (HTTP) and Electron's pixel route (app://exrview/api/decodeImage): relative URLs, the page's own origin.
 */
export function apiCaller(headers: Promise<Record<string, string>>, pool: BufferPool | null, transfers: TransferRecord[]) {
  return async function call<T>(method: string, args: unknown[]): Promise<T> {
    const t0 = performance.now();
    const send = async (): Promise<Response> =>
      fetch(`/api/${method}`, { method: 'POST', headers: await headers, body: JSON.stringify({ args }), credentials: 'same-origin' });
    let res = await send();
    // 408: the server timed the connection out before reading this request (an idle socket the browser reused), so
    // the request was never handled and is sent once more
    if (res.status === 408) res = await send();
    const type = res.headers.get('content-type') ?? '';
    if (!res.ok) {
      // no reason from the server (a connection it gave up on, or something between): say what to try
      let message = `${method}: HTTP ${res.status} from the exrview server, with no reason given: try again, and if it keeps failing restart exrview (in a browser: exrview serve, then reload the page)`;
      try {
        message = (JSON.parse(await res.text()) as { error?: string }).error ?? message;
      } catch {
        /* not JSON */
      }
      throw new Error(message);
    }
    let value: unknown;
    let bytes: number;
    if (type.startsWith(CONTAINER_CONTENT_TYPE) && res.body) {
      // pixels: each buffer read straight into memory of its own, no whole-body copy
      value = await readContainer(res.body, pool);
      bytes = Number(res.headers.get('content-length') ?? 0);
    } else {
      const text = await res.text();
      bytes = text.length;
      value = (JSON.parse(text) as { result: unknown }).result;
    }
    const wallMs = performance.now() - t0;
    const hostMs = (value as { timings?: { hostMs?: number } } | null)?.timings?.hostMs ?? 0;
    transfers.push({ method, bytes, wallMs, hostMs, transferMs: Math.max(0, wallMs - hostMs) });
    if (transfers.length > 200) transfers.splice(0, transfers.length - 200);
    return value as T;
  };
}

/** The token from `?token=` on first load (kept for the tab, and removed from the address bar); the cookie is the main carrier. */
function takeToken(loc: Location): string | null {
  const params = new URLSearchParams(loc.search);
  const t = params.get('token');
  if (t) {
    sessionStorage.setItem(TOKEN_KEY, t);
    params.delete('token');
    const q = params.toString();
    history.replaceState(null, '', `${loc.pathname}${q ? `?${q}` : ''}${loc.hash}`);
    return t;
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

export interface HttpHost extends HostApi {
  /** The last transfers (newest last), for the diagnostics panel. */
  readonly transfers: TransferRecord[];
}

/** `pool`: where large received buffers (planes) are written; they are handed back when no longer shown. */
export function createHttpHost(loc: Location = window.location, pool: BufferPool | null = null): HttpHost {
  const token = takeToken(loc);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-exrview-token'] = token;
  const transfers: TransferRecord[] = [];
  const listeners = new Set<(e: HostEvent) => void>();

  const call = apiCaller(Promise.resolve(headers), pool, transfers);

  function signal(method: string, args: unknown[]): void {
    void fetch(`/api/${method}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ args }),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => {});
  }

  let socket: WebSocket | null = null;
  function connect(): void {
    const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(`${proto}//${loc.host}/api/events${token ? `?token=${encodeURIComponent(token)}` : ''}`);
    socket.onmessage = (m) => {
      try {
        const event = JSON.parse(String(m.data)) as HostEvent;
        for (const l of listeners) l(event);
      } catch {
        /* a frame that is not an event: ignore */
      }
    };
    socket.onclose = () => {
      socket = null;
      if (listeners.size) setTimeout(connect, 1000);
    };
  }

  return {
    transfers,
    getInfo: () => call('getInfo', []),
    openFolder: (path, options) => call('openFolder', options ? [path ?? null, options] : path !== undefined ? [path] : []),
    closeFolder: (id) => call('closeFolder', [id]),
    listFiles: (id) => call('listFiles', [id]),
    listSequences: (id) => call('listSequences', [id]),
    getHeader: (id) => call('getHeader', [id]),
    decodeImage: (r) => call('decodeImage', [r]),
    getThumbnail: (r) => call('getThumbnail', [r]),
    deepSamples: (r) => call('deepSamples', [r]),
    levelStatistics: (r) => call('levelStatistics', [r]),
    cancel: (id) => signal('cancel', [id]),
    setVisible: (ids, current) => signal('setVisible', [ids, current]),
    setPlayback: (plan) => signal('setPlayback', [plan]),
    exportImages: (r) => call('exportImages', [r]),
    readColourConfig: (path) => call('readColourConfig', path === undefined ? [] : [path]),
    onEvent(listener) {
      listeners.add(listener);
      if (!socket) connect();
      return () => {
        listeners.delete(listener);
        if (!listeners.size) socket?.close();
      };
    },
  };
}
