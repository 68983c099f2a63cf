// Serves one bundled test harness (testing/renderer/*.ts) on 127.0.0.1 for the GPU shader specs: a page that loads it.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface HarnessServer {
  url: string;
  close(): Promise<void>;
}

/** Bundles `entry` (relative to the repository root, WGSL as text) and serves it at `url`. */
export async function serveHarness(entry: string): Promise<HarnessServer> {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-harness-'));
  await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    format: 'esm',
    outfile: join(dir, 'harness.js'),
    loader: { '.wgsl': 'text' },
    target: 'es2022',
    logLevel: 'warning',
  });
  const js = readFileSync(join(dir, 'harness.js'));
  const server = createServer((req, res) => {
    if (req.url === '/harness.js') {
      res.setHeader('content-type', 'text/javascript');
      res.end(js);
      return;
    }
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><html><body><script type="module" src="/harness.js"></script></body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return {
    url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
