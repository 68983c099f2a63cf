// The browser-mode API caller against a stubbed fetch: a 408 (request never handled) is sent once more; other errors are not.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiCaller } from './http-client.js';

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const bare = (status: number): Response => new Response(null, { status });

function stubFetch(answers: Response[]) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(url);
    return answers.shift()!;
  });
  return calls;
}

describe('apiCaller', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends a request again once when the server timed its connection out (408), and returns that answer', async () => {
    const calls = stubFetch([bare(408), json(200, { result: { folders: [] } })]);
    const call = apiCaller(Promise.resolve({}), null, []);
    await expect(call('getInfo', [])).resolves.toEqual({ folders: [] });
    expect(calls).toEqual(['/api/getInfo', '/api/getInfo']);
  });

  it('does not send again after another error, and says what the server said', async () => {
    const calls = stubFetch([json(400, { error: 'fileId "x" is not in an open folder' })]);
    const call = apiCaller(Promise.resolve({}), null, []);
    await expect(call('decodeImage', [{}])).rejects.toThrow('fileId "x" is not in an open folder');
    expect(calls).toHaveLength(1);
  });

  it('a second 408 is an error naming the method and status', async () => {
    stubFetch([bare(408), bare(408)]);
    const call = apiCaller(Promise.resolve({}), null, []);
    await expect(call('decodeImage', [{}])).rejects.toThrow('decodeImage: HTTP 408');
  });
});
