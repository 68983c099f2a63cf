// POST /api/<method>: parses and checks the call, runs it on the host, answers JSON or a binary container.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { CANCELLED_MESSAGE, type DecodedImage, type DecodeRequest, type HostApi, type PixelLease } from '../contract/host-api.js';
import { withExactPlanes } from '../host/decode/plane-bytes.js';
import { CANCELLABLE_METHODS, isSignalMethod, isTransportMethod, type TransportMethod } from '../contract/host-methods.js';
import { PathRefusedError } from '../transport/path-guard.js';
import { ArgumentError, validateArgs } from '../contract/validate-args.js';
import { CONTAINER_CONTENT_TYPE, containerPieces, holdsBuffers } from './container.js';
import { BodyTooLargeError, baseHeaders, readBody, sendError, sendJson } from './http-util.js';

/** HTTP status for a cancelled request (nginx's "client closed request"); the message starts with CANCELLED_MESSAGE. */
const CANCELLED_STATUS = 499;

export async function handleApiCall(
  host: HostApi & Partial<PixelLease>,
  name: string,
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
): Promise<void> {
  if (!isTransportMethod(name)) {
    sendError(res, 404, `unknown method "${name}"`);
    return;
  }
  if (req.method !== 'POST') {
    sendError(res, 405, `use POST for /api/${name}`, { Allow: 'POST' });
    return;
  }
  let args: unknown[];
  try {
    args = parseCall(await readBody(req, maxBodyBytes), name);
  } catch (error) {
    if (error instanceof BodyTooLargeError) sendError(res, 413, error.message, { Connection: 'close' });
    else if (error instanceof ArgumentError) sendError(res, 400, error.message);
    else sendError(res, 400, `could not read the request: ${messageOf(error)}`);
    return;
  }
  if (isSignalMethod(name)) {
    // fire-and-forget: answer at once, then act
    res.writeHead(204, baseHeaders()).end();
    try {
      callHost(host, name, args);
    } catch {
      // a cancel for a request that is already done, or similar: nothing to report to anyone
    }
    return;
  }
  const requestId = cancellableId(name, args);
  // a client that goes away before its reply wants the work dropped
  const onClose = (): void => {
    if (!res.writableFinished && requestId !== undefined) host.cancel(requestId);
  };
  res.on('close', onClose);
  let release = (): void => {};
  try {
    let result: unknown;
    if (name === 'decodeImage' && host.decodeImageLease) {
      // the planes are written straight from the host's RAM cache; their memory is released once the reply is sent
      const lease = await host.decodeImageLease(args[0] as DecodeRequest);
      result = withExactPlanes(lease.image);
      release = lease.release;
    } else {
      result = await callHost(host, name, args);
      if (name === 'decodeImage') result = withExactPlanes(result as DecodedImage);
    }
    if (res.destroyed) return;
    if (holdsBuffers(result)) {
      const { pieces, totalBytes } = containerPieces(result);
      res.writeHead(200, { ...baseHeaders(), 'Content-Type': CONTAINER_CONTENT_TYPE, 'Content-Length': String(totalBytes) });
      const sent = release;
      release = () => {};
      res.once('close', sent);
      // no copy: each piece is a view on the value's own buffers; the socket takes them as they are
      for (const piece of pieces) res.write(piece);
      res.end();
    } else {
      sendJson(res, 200, { result: result ?? null });
    }
  } catch (error) {
    if (res.destroyed) return;
    const message = messageOf(error);
    if (error instanceof PathRefusedError) sendError(res, 403, message);
    else if (error instanceof ArgumentError) sendError(res, 400, message);
    else if (message.startsWith(CANCELLED_MESSAGE)) sendError(res, CANCELLED_STATUS, message);
    else sendError(res, 500, message);
  } finally {
    res.off('close', onClose);
    release();
  }
}

function parseCall(body: Buffer, name: TransportMethod): unknown[] {
  if (body.length === 0) return validateArgs(name, []);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new ArgumentError(`the request body is not valid JSON (${messageOf(error)}); send {"args":[...]}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ArgumentError('the request body must be a JSON object {"args":[...]}');
  }
  return validateArgs(name, (parsed as { args?: unknown }).args ?? []);
}

function callHost(host: HostApi, name: TransportMethod, args: unknown[]): unknown {
  const method = host[name] as (...a: unknown[]) => unknown;
  return method.apply(host, args);
}

function cancellableId(name: TransportMethod, args: unknown[]): string | undefined {
  if (!CANCELLABLE_METHODS.includes(name as (typeof CANCELLABLE_METHODS)[number])) return undefined;
  const request = args[0] as { requestId?: unknown } | undefined;
  return typeof request?.requestId === 'string' ? request.requestId : undefined;
}

/** The message a user can act on; never a stack trace. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
