// For the server tests: raw HTTP over a socket, so a test controls the exact request line and headers (no URL normalisation).

import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Everything received, headers included, for "never a byte of X" checks. */
  raw: Buffer;
}

export interface RawRequest {
  port: number;
  method?: string;
  /** Sent exactly as given. */
  target: string;
  host?: string | null;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
}

export function rawRequest(request: RawRequest): Promise<RawResponse> {
  const body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
  const lines = [`${request.method ?? 'GET'} ${request.target} HTTP/1.1`];
  const host = request.host === undefined ? `127.0.0.1:${request.port}` : request.host;
  if (host !== null) lines.push(`Host: ${host}`);
  for (const [k, v] of Object.entries(request.headers ?? {})) lines.push(`${k}: ${v}`);
  if (body) lines.push(`Content-Length: ${body.length}`);
  lines.push('Connection: close', '', '');
  return new Promise((resolve, reject) => {
    const socket = connect(request.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(request.timeoutMs ?? 5000, () => socket.destroy(new Error(`no answer to ${request.target} in time`)));
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body ?? Buffer.alloc(0)]));
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (error) => (chunks.length ? resolve(parse(Buffer.concat(chunks))) : reject(error)));
    socket.on('end', () => resolve(parse(Buffer.concat(chunks))));
  });
}

function parse(raw: Buffer): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw
    .subarray(0, split < 0 ? raw.length : split)
    .toString('latin1')
    .split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = split < 0 ? Buffer.alloc(0) : raw.subarray(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status, headers, body, raw };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const eol = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
