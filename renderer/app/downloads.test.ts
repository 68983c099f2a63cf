// Browser-mode downloads: one Blob link per file, with a safe name, its bytes and type, each URL revoked afterwards.
import { describe, expect, it } from 'vitest';
import { downloadName, offerDownloads, type DownloadSink } from './downloads.js';

function fakeSink() {
  const clicks: { url: string; name: string; blob: Blob }[] = [];
  const revoked: string[] = [];
  const pauses: number[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  const sink: DownloadSink = {
    createUrl(blob) {
      const url = `blob:${++n}`;
      blobs.set(url, blob);
      return url;
    },
    clickLink(url, name) {
      clicks.push({ url, name, blob: blobs.get(url)! });
    },
    revokeUrl(url) {
      revoked.push(url);
    },
    pause(ms) {
      pauses.push(ms);
      return Promise.resolve();
    },
  };
  return { sink, clicks, revoked, pauses };
}

describe('offerDownloads', () => {
  it('clicks one link per file with its bytes and type, spaced out, and revokes every URL', async () => {
    const { sink, clicks, revoked, pauses } = fakeSink();
    const names = await offerDownloads(
      [
        { fileId: '1', name: 'a.png', mimeType: 'image/png', data: new Uint8Array([1, 2, 3]).buffer },
        { fileId: '2', name: 'b.jpg', mimeType: 'image/jpeg', data: new Uint8Array([4, 5]).buffer },
      ],
      sink,
    );
    expect(names).toEqual(['a.png', 'b.jpg']);
    expect(clicks.map((c) => c.name)).toEqual(['a.png', 'b.jpg']);
    expect(clicks[1]!.blob.type).toBe('image/jpeg');
    expect([...new Uint8Array(await clicks[0]!.blob.arrayBuffer())]).toEqual([1, 2, 3]);
    await Promise.resolve();
    expect(revoked.sort()).toEqual(['blob:1', 'blob:2']);
    // a gap between the two clicks, and a revoke delay per URL
    expect(pauses.filter((p) => p < 1000)).toHaveLength(1);
  });

  it('offers nothing for no downloads', async () => {
    const { sink, clicks } = fakeSink();
    expect(await offerDownloads([], sink)).toEqual([]);
    expect(clicks).toEqual([]);
  });
});

describe('downloadName', () => {
  it('keeps a plain name and strips folders, control and reserved characters, and leading dots', () => {
    expect(downloadName('shot_010_diffuse.png')).toBe('shot_010_diffuse.png');
    expect(downloadName('../../etc/passwd')).toBe('passwd');
    expect(downloadName('a\\b:c?.png')).toBe('b_c_.png');
    expect(downloadName('..hidden.png')).toBe('hidden.png');
    expect(downloadName('')).toBe('export');
  });
});
