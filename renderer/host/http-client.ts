// HostApi over HTTP + WebSocket for browser mode: the wire format of PROTOCOL.md, measuring each transfer.
import type { HostApi, HostEvent } from './api-types.js';

export const CONTAINER_CONTENT_TYPE = 'application/x-exrview-container';
const TOKEN_KEY = 'exrview-token';

/** One reply's transfer as the renderer saw it. */
export interface TransferRecord { method: string; bytes: number; wallMs: number; hostMs: number; transferMs: number }

/** Turns a container body into its value, with ArrayBuffers put back where `{"$buffer": i}` stands. No copies. */
export function decodeContainer(body: ArrayBuffer): unknown {
  const view = new DataView(body);
  const jsonLength = view.getUint32(0, true);
  const meta = JSON.parse(new TextDecoder().decode(new Uint8Array(body, 4, jsonLength))) as { value: unknown; buffers: [number, number][] };
  const buffers = meta.buffers.map(([offset, length]) => (offset === 0 && length === body.byteLength ? body : body.slice(offset, offset + length)));
  const revive = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(revive);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.$buffer === 'number' && Object.keys(o).length === 1) return buffers[o.$buffer];
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(o)) out[k] = revive(x);
      return out;
    }
    return v;
  };
  return revive(meta.value);
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

export function createHttpHost(loc: Location = window.location): HttpHost {
  const token = takeToken(loc);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-exrview-token'] = token;
  const transfers: TransferRecord[] = [];
  const listeners = new Set<(e: HostEvent) => void>();

  async function call<T>(method: string, args: unknown[]): Promise<T> {
    const t0 = performance.now();
    const res = await fetch(`/api/${method}`, { method: 'POST', headers, body: JSON.stringify({ args }), credentials: 'same-origin' });
    const body = await res.arrayBuffer();
    const wallMs = performance.now() - t0;
    const type = res.headers.get('content-type') ?? '';
    if (!res.ok) {
      let message = `${method}: HTTP ${res.status}`;
      try { message = (JSON.parse(new TextDecoder().decode(body)) as { error?: string }).error ?? message; } catch { /* not JSON */ }
      throw new Error(message);
    }
    const value = type.startsWith(CONTAINER_CONTENT_TYPE) ? decodeContainer(body) : (JSON.parse(new TextDecoder().decode(body)) as { result: unknown }).result;
    const hostMs = (value as { timings?: { hostMs?: number } } | null)?.timings?.hostMs ?? 0;
    transfers.push({ method, bytes: body.byteLength, wallMs, hostMs, transferMs: Math.max(0, wallMs - hostMs) });
    if (transfers.length > 200) transfers.splice(0, transfers.length - 200);
    return value as T;
  }

  function signal(method: string, args: unknown[]): void {
    void fetch(`/api/${method}`, { method: 'POST', headers, body: JSON.stringify({ args }), credentials: 'same-origin', keepalive: true }).catch(() => {});
  }

  let socket: WebSocket | null = null;
  function connect(): void {
    const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(`${proto}//${loc.host}/api/events${token ? `?token=${encodeURIComponent(token)}` : ''}`);
    socket.onmessage = (m) => {
      try {
        const event = JSON.parse(String(m.data)) as HostEvent;
        for (const l of listeners) l(event);
      } catch { /* a frame that is not an event: ignore */ }
    };
    socket.onclose = () => { socket = null; if (listeners.size) setTimeout(connect, 1000); };
  }

  return {
    transfers,
    getInfo: () => call('getInfo', []),
    openFolder: (path, options) => call('openFolder', options ? [path ?? null, options] : path !== undefined ? [path] : []),
    closeFolder: (id) => call('closeFolder', [id]),
    listFiles: (id) => call('listFiles', [id]),
    getHeader: (id) => call('getHeader', [id]),
    decodeImage: (r) => call('decodeImage', [r]),
    getThumbnail: (r) => call('getThumbnail', [r]),
    cancel: (id) => signal('cancel', [id]),
    setVisible: (ids, current) => signal('setVisible', [ids, current]),
    exportImages: (r) => call('exportImages', [r]),
    onEvent(listener) {
      listeners.add(listener);
      if (!socket) connect();
      return () => { listeners.delete(listener); if (!listeners.size) socket?.close(); };
    },
  };
}
