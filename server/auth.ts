// Who may talk to the browser-mode server: the loopback Host (against DNS rebinding), our own Origin, the access token.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'exrview_token';
export const TOKEN_HEADER = 'x-exrview-token';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The Host values a browser sends for our address: anything else was reached through a foreign name. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host;
  return typeof host === 'string' && allowedHosts(port).includes(host.toLowerCase());
}

/** A request from a page of another origin (a site the user visits) is refused; requests without Origin are not from pages. */
export function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return allowedHosts(port).some((host) => origin === `http://${host}`);
}

export function tokenMatches(candidate: string | undefined, token: string): boolean {
  if (candidate === undefined) return false;
  const a = Buffer.from(candidate, 'utf8');
  const b = Buffer.from(token, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Where the token came from in this request, if it carries the right one. */
export function presentedToken(req: IncomingMessage, query: URLSearchParams, token: string): 'cookie' | 'header' | 'query' | null {
  if (tokenMatches(cookieValue(req.headers.cookie, TOKEN_COOKIE), token)) return 'cookie';
  const header = req.headers[TOKEN_HEADER];
  if (typeof header === 'string' && tokenMatches(header, token)) return 'header';
  const fromQuery = query.get('token');
  if (fromQuery !== null && tokenMatches(fromQuery, token)) return 'query';
  return null;
}

export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The raw path and the query of a request target; the path stays percent-encoded for the path guard. */
export function splitTarget(target: string): { rawPath: string; query: URLSearchParams } | null {
  // only origin-form targets ("/path?query"); absolute-form ("http://host/") and "*" are refused
  if (!target.startsWith('/')) return null;
  const q = target.indexOf('?');
  const rawPath = q >= 0 ? target.slice(0, q) : target;
  const query = new URLSearchParams(q >= 0 ? target.slice(q + 1) : '');
  return { rawPath, query };
}
