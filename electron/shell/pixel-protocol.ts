// Decoded planes for the Electron page over the app's own protocol: `POST app://exrview/api/decodeImage` answers a
// container (PROTOCOL.md) streamed from the host's RAM cache, with no structured clone and no copy through the context bridge.
//
// The same checks as the IPC handlers: only the app's own page (same origin, a request from the page's context), only
// files of folders the user opened (the host knows no others), and a token made per session that only the preload gives out.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { CANCELLED_MESSAGE, type DecodedImage, type DecodeRequest, type HostApi, type PixelLease } from '../../contract/host-api.js';
import { withExactPlanes } from '../../host/decode/plane-bytes.js';
import { CONTAINER_CONTENT_TYPE, containerPieces } from '../../server/container.js';
import { ArgumentError, validateArgs } from '../../contract/validate-args.js';
import { APP_ORIGIN } from './navigation-guard.js';

export const PIXEL_PATH = '/api/decodeImage';
export const PIXEL_TOKEN_HEADER = 'x-exrview-token';
/** Largest request body: a DecodeRequest is a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;
/** Pieces of planes go out in slices of this size (views, not copies), so the stream's consumer is fed steadily. */
const SLICE_BYTES = 4 << 20;

export interface PixelRoute {
  host: HostApi & Partial<PixelLease>;
  /** The session's token (newPixelToken()). */
  token: string;
}

export function newPixelToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Answers one request to the pixel route: a container of the planes, or a JSON error with the status a browser-mode call would get. */
export async function handlePixelRequest(request: Request, route: PixelRoute): Promise<Response> {
  if (request.method !== 'POST') return error(405, `use POST for ${PIXEL_PATH}`);
  // the page's own fetch: same origin, from a document of the app (not a navigation, not another site)
  const origin = request.headers.get('origin');
  if (origin !== APP_ORIGIN) return error(403, `refused: ${PIXEL_PATH} answers only the exrview page (origin was ${origin ?? 'none'})`);
  if (!tokenMatches(request.headers.get(PIXEL_TOKEN_HEADER), route.token)) return error(401, 'bad or missing token');
  let decodeRequest: DecodeRequest;
  try {
    const body = await request.text();
    if (body.length > MAX_BODY_BYTES) return error(413, `the request body is over the limit of ${MAX_BODY_BYTES} bytes`);
    const parsed = JSON.parse(body) as { args?: unknown };
    decodeRequest = validateArgs('decodeImage', parsed.args ?? [])[0] as DecodeRequest;
  } catch (e) {
    return error(
      400,
      e instanceof ArgumentError ? e.message : `could not read the request: ${(e as Error).message}; send {"args":[request]}`,
    );
  }
  let lease: { image: DecodedImage; release(): void };
  try {
    lease = route.host.decodeImageLease
      ? await route.host.decodeImageLease(decodeRequest)
      : { image: await route.host.decodeImage(decodeRequest), release: () => {} };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return error(message.startsWith(CANCELLED_MESSAGE) ? 499 : 500, message);
  }
  const { pieces, totalBytes } = containerPieces(withExactPlanes(lease.image));
  let piece = 0;
  let at = 0;
  let released = false;
  const release = () => {
    if (!released) {
      released = true;
      lease.release();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      while (piece < pieces.length && at >= pieces[piece]!.byteLength) {
        piece++;
        at = 0;
      }
      const current = pieces[piece];
      if (current) {
        controller.enqueue(sliceOf(current, at));
        at += SLICE_BYTES;
        return;
      }
      controller.close();
      release();
    },
    cancel: release,
  });
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': CONTAINER_CONTENT_TYPE,
      'Content-Length': String(totalBytes),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** At most SLICE_BYTES of a piece from `at`: a view, or for planes in shared memory a copy of that slice alone (response streams take ArrayBuffer-backed chunks). */
function sliceOf(piece: Uint8Array, at: number): Uint8Array {
  const view = piece.subarray(at, Math.min(piece.byteLength, at + SLICE_BYTES));
  return typeof SharedArrayBuffer !== 'undefined' && piece.buffer instanceof SharedArrayBuffer ? view.slice() : view;
}

function tokenMatches(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function error(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}
