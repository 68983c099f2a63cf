// The Electron pixel route with the standard Request/Response Electron's protocol.handle uses (Node's own, here): checks, the container, leases.
import { describe, expect, it } from 'vitest';
import type { DecodedImage, DecodeRequest, HostApi, PixelLease } from '../../contract/host-api.js';
import { decodeContainer } from '../../server/container.js';
import { APP_ORIGIN } from './navigation-guard.js';
import { handlePixelRequest, PIXEL_TOKEN_HEADER, type PixelRoute } from './pixel-protocol.js';

const TOKEN = 'session-token-0123456789';

function image(request: DecodeRequest, shared: boolean): DecodedImage {
  const plane = (name: string, value: number) => {
    const data = shared ? new SharedArrayBuffer(6 * 4 * 2) : new ArrayBuffer(6 * 4 * 2);
    new Uint16Array(data).fill(value);
    return { name, pixelType: 'half' as const, xSampling: 1, ySampling: 1, widthSamples: 6, heightSamples: 4, data };
  };
  return {
    fileId: request.fileId,
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [0, 0, 5, 3],
    displayWindow: [0, 0, 5, 3],
    widthPx: 6,
    heightPx: 4,
    planes: (request.channels ?? ['R', 'G']).map((name, i) => plane(name, 0x3c00 + i)),
    source: 'decode',
    timings: { readMs: 1, decompressMs: 2, unpackMs: 3, queueMs: 0, hostMs: 7, bytesRead: 9 },
  };
}

/** A host whose leases are counted: taken, and released. */
function leasingHost(options: { fail?: string; shared?: boolean } = {}) {
  const leases = { taken: 0, released: 0 };
  const host = {
    async decodeImage(request: DecodeRequest) {
      return image(request, false);
    },
    async decodeImageLease(request: DecodeRequest) {
      if (options.fail) throw new Error(options.fail);
      leases.taken++;
      return { image: image(request, options.shared ?? true), release: () => void leases.released++ };
    },
  } as unknown as HostApi & PixelLease;
  return { route: { host, token: TOKEN } satisfies PixelRoute, leases };
}

const decodeRequest: DecodeRequest = { requestId: 'r1', fileId: 'f1', part: 0, channels: ['B', 'R'], priority: 'preview' };

function post(init: { origin?: string | null; token?: string | null; body?: string; method?: string } = {}): Request {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (init.origin !== null) headers.set('origin', init.origin ?? APP_ORIGIN);
  if (init.token !== null) headers.set(PIXEL_TOKEN_HEADER, init.token ?? TOKEN);
  const method = init.method ?? 'POST';
  return new Request('app://exrview/api/decodeImage', {
    method,
    headers,
    ...(method === 'POST' ? { body: init.body ?? JSON.stringify({ args: [decodeRequest] }) } : {}),
  });
}

describe('the pixel route', () => {
  it('answers the asked-for planes as a container, streamed from shared memory, and releases the lease once sent', async () => {
    const { route, leases } = leasingHost();
    const res = await handlePixelRequest(post(), route);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-exrview-container');
    const body = new Uint8Array(await res.arrayBuffer());
    expect(body.byteLength).toBe(Number(res.headers.get('content-length')));
    const value = decodeContainer(body) as DecodedImage;
    expect(value.planes.map((p) => p.name)).toEqual(['B', 'R']);
    expect([...new Uint16Array(value.planes[1]!.data)]).toEqual(new Array(24).fill(0x3c01));
    expect(leases).toEqual({ taken: 1, released: 1 });
  });

  it('releases the lease when the page stops reading', async () => {
    const { route, leases } = leasingHost();
    const res = await handlePixelRequest(post(), route);
    await res.body!.cancel();
    expect(leases).toEqual({ taken: 1, released: 1 });
  });

  it('refuses another origin, a missing or wrong token, another method and a malformed request, without asking the host', async () => {
    const { route, leases } = leasingHost();
    const cases: [Request, number, RegExp][] = [
      [post({ origin: 'https://example.com' }), 403, /answers only the exrview page/],
      [post({ origin: null }), 403, /origin was none/],
      [post({ token: null }), 401, /token/],
      [post({ token: 'session-token-9876543210' }), 401, /token/],
      [post({ method: 'GET' }), 405, /use POST/],
      [post({ body: '{"args":' }), 400, /could not read the request/],
      [post({ body: JSON.stringify({ args: [{ fileId: 'f1' }] }) }), 400, /decodeImage/],
    ];
    for (const [request, status, message] of cases) {
      const res = await handlePixelRequest(request, route);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    }
    expect(leases.taken).toBe(0);
  });

  it("passes the host's errors on as they are: cancelled requests as 499, others as 500", async () => {
    const cancelled = await handlePixelRequest(post(), leasingHost({ fail: 'cancelled: request r1' }).route);
    expect(cancelled.status).toBe(499);
    const broken = await handlePixelRequest(post(), leasingHost({ fail: 'a.exr: ZIP chunk 3 is damaged' }).route);
    expect(broken.status).toBe(500);
    expect(((await broken.json()) as { error: string }).error).toBe('a.exr: ZIP chunk 3 is damaged');
  });
});
