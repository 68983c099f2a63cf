// The browser-mode server: the renderer bundle and HostApi over HTTP + WebSocket, on 127.0.0.1 only, behind a token.

import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HostApi, PixelLease } from '../contract/host-api.js';
import { contentSecurityPolicy } from '../transport/csp.js';
import { PathRefusedError, realRoot } from '../transport/path-guard.js';
import { findStaticFile } from '../transport/static-files.js';
import { handleApiCall, messageOf } from './api-routes.js';
import { hostAllowed, newToken, originAllowed, presentedToken, splitTarget, tokenCookie } from './auth.js';
import { browserModeHost } from './browser-host.js';
import { withLiveImages } from '../host/tev/live-host.js';
import type { LiveImages } from '../host/tev/live-images.js';
import { createEventHub, refuseUpgrade } from './events.js';
import { baseHeaders, sendError } from './http-util.js';

export const LOOPBACK = '127.0.0.1';

export interface ServerOptions {
  /** The host; the server restricts it to `rootDir` (see browserModeHost). */
  host: HostApi & Partial<PixelLease>;
  /** The served folder: the only one a page may open, never written to. */
  rootDir: string;
  /** The built renderer (dist/renderer); null when it is not built (pages then answer 404 saying so). */
  staticDir: string | null;
  /** 0 (default): a free port. */
  port?: number;
  /** Images tev clients send (`--tev`): listed with the folder's files (see withLiveImages). */
  live?: LiveImages;
  token?: string;
  maxBodyBytes?: number;
  maxEventClients?: number;
  /** Open the served folder before the first page asks (default true): getInfo then lists it. */
  openAtStart?: { recursive: boolean } | false;
  /** How long a client may take over a request's headers and over the whole request, and how often that is checked. */
  timeouts?: { headersMs: number; requestMs: number; checkEveryMs: number };
}

/** Slow or stuck clients do not hold sockets forever. */
const DEFAULT_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 30_000 };

/**
 * The answer on a connection whose request the HTTP parser gave up on. A timeout is 408, as Node answers by default:
 * the request was never handled, and a browser that had the connection idle (preconnected, or kept alive) sends the
 * request again on another. A plain 400 there reached the page as a failed decode (seen in CI: "decodeImage: HTTP 400").
 */
export function clientErrorAnswer(code: string | undefined): string {
  const status =
    code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? '408 Request Timeout'
      : code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : '400 Bad Request';
  return `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  address: AddressInfo;
  close(): Promise<void>;
}

/** 16 MiB: an export request carries its .cube LUT as text, up to ~7 MB for a 65^3 cube. */
const DEFAULT_MAX_BODY_BYTES = 16 << 20;
const DEFAULT_MAX_EVENT_CLIENTS = 32;
const NO_TOKEN_MESSAGE = 'bad or missing token: open the address that `exrview serve` printed (it carries the token)';

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const rootReal = realRoot(options.rootDir);
  const staticReal = options.staticDir === null ? null : realRoot(options.staticDir);
  const restricted = browserModeHost(options.host, rootReal);
  const host = options.live ? withLiveImages(restricted, options.live) : restricted;
  const token = options.token ?? newToken();
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // progressive: the server listens once the first screen's files are read, not every header of a big folder
  if (options.openAtStart !== false)
    await host.openFolder(undefined, { recursive: options.openAtStart?.recursive ?? false, progressive: true });
  const events = await createEventHub(host, options.maxEventClients ?? DEFAULT_MAX_EVENT_CLIENTS);
  let port = 0;

  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const server: Server = createServer({ maxHeaderSize: 16 * 1024, connectionsCheckingInterval: timeouts.checkEveryMs }, (req, res) => {
    handleRequest(req, res).catch((error: unknown) => sendError(res, 500, messageOf(error)));
  });
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.maxConnections = 256;

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req, port)) {
      sendError(res, 403, `this server answers only to ${LOOPBACK}:${port} (the Host header was "${req.headers.host ?? ''}")`);
      return;
    }
    const target = splitTarget(req.url ?? '');
    if (!target) {
      sendError(res, 400, 'the request target must be a path starting with /');
      return;
    }
    const via = presentedToken(req, target.query, token);
    if (!via) {
      sendError(res, 401, NO_TOKEN_MESSAGE);
      return;
    }
    if (!originAllowed(req, port)) {
      sendError(res, 403, 'requests from other web pages are refused');
      return;
    }
    if (target.rawPath.startsWith('/api/')) {
      const name = target.rawPath.slice('/api/'.length);
      if (name === 'events') sendError(res, 426, 'connect to /api/events with a WebSocket', { Upgrade: 'websocket' });
      else await handleApiCall(host, name, req, res, maxBodyBytes);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, 405, 'only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
      return;
    }
    if (via === 'query' && target.rawPath === '/') {
      // keep the token out of the address bar (and the history): a cookie carries it from now on
      res.writeHead(302, { ...baseHeaders(), Location: '/', 'Set-Cookie': tokenCookie(token) }).end();
      return;
    }
    await serveStatic(req, res, target.rawPath);
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> {
    if (staticReal === null) {
      sendError(res, 404, 'the viewer page is not built: run `npm run build`');
      return;
    }
    let file;
    try {
      file = await findStaticFile(staticReal, rawPath);
    } catch (error) {
      if (error instanceof PathRefusedError) sendError(res, 403, error.message);
      else throw error;
      return;
    }
    if (!file) {
      const hint = rawPath === '/' ? ': the renderer is not built; run `npm run build`' : '';
      sendError(res, 404, `no such file: ${rawPath}${hint}`);
      return;
    }
    res.writeHead(200, {
      ...baseHeaders(),
      'Cache-Control': 'no-cache',
      'Content-Type': file.contentType,
      'Content-Length': String(file.sizeBytes),
      'Content-Security-Policy': contentSecurityPolicy({ connectSrc: [`ws://${LOOPBACK}:${port}`, `ws://localhost:${port}`] }),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(file.path);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const target = splitTarget(req.url ?? '');
    if (!hostAllowed(req, port)) refuseUpgrade(socket, 403, `this server answers only to ${LOOPBACK}:${port}`);
    else if (!target || target.rawPath !== '/api/events') refuseUpgrade(socket, 404, 'the only WebSocket is /api/events');
    else if (!presentedToken(req, target.query, token)) refuseUpgrade(socket, 401, NO_TOKEN_MESSAGE);
    else if (!originAllowed(req, port)) refuseUpgrade(socket, 403, 'connections from other web pages are refused');
    else events.accept(req, socket, head);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (socket.writable) socket.end(clientErrorAnswer(error.code));
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  port = address.port;
  return {
    url: `http://${LOOPBACK}:${port}/?token=${token}`,
    port,
    token,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        events.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
