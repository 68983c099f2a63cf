// Small HTTP helpers for the browser-mode server: JSON replies with the security headers, a size-limited body reader.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers every reply carries: no sniffing, no framing, no referrer, no caching of API data. */
export function baseHeaders(): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    ...baseHeaders(),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(bytes.length),
    ...extraHeaders,
  });
  res.end(bytes);
}

export function sendError(res: ServerResponse, status: number, message: string, extraHeaders: Record<string, string> = {}): void {
  sendJson(res, status, { error: message }, extraHeaders);
}

/** A request body over the limit: answered 413. */
export class BodyTooLargeError extends Error {}

/** Reads the whole body, refusing (before reading it) one that announces or grows past `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const announced = Number(req.headers['content-length'] ?? 0);
    if (announced > maxBytes) {
      reject(new BodyTooLargeError(`the request body is ${announced} bytes; the limit is ${maxBytes}`));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        reject(new BodyTooLargeError(`the request body is over the limit of ${maxBytes} bytes`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
