// The built preload as the sandbox runs it: it may require only 'electron', and it exposes HostApi and the shell API, nothing of Node.

import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TRANSPORT_METHODS } from '../../contract/host-methods.js';
import { DROP_CHANNEL, METHOD_CHANNELS } from '../../contract/shell-api.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let code = '';

beforeAll(async () => {
  // the same options scripts/build.mjs uses for dist/electron/preload.cjs
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['electron/preload.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    external: ['electron'],
    write: false,
    logLevel: 'silent',
  });
  code = result.outputFiles[0]!.text;
});

/** Runs the bundle with a recording stand-in for the three Electron modules a sandboxed preload may use. */
function runPreload() {
  const exposed = new Map<string, Record<string, unknown>>();
  const required: string[] = [];
  const sent: [string, unknown][] = [];
  const invoked: [string, unknown][] = [];
  const windowListeners = new Map<string, (event: unknown) => void>();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, value: Record<string, unknown>) => exposed.set(key, value) },
    ipcRenderer: {
      invoke: async (channel: string, args: unknown) => (invoked.push([channel, args]), null),
      send: (channel: string, args: unknown) => sent.push([channel, args]),
      on: () => undefined,
      removeListener: () => undefined,
    },
    webUtils: { getPathForFile: (file: { path?: string }) => file.path ?? '' },
  };
  const sandbox = {
    require: (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return electron;
    },
    module: { exports: {} },
    exports: {},
    window: { addEventListener: (type: string, listener: (event: unknown) => void) => windowListeners.set(type, listener) },
  };
  runInNewContext(code, sandbox);
  return { exposed, required, sent, invoked, windowListeners };
}

describe('preload bundle', () => {
  it('requires nothing but electron (a sandboxed preload can load nothing else)', () => {
    const requires = [...code.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect([...new Set(requires)]).toEqual(['electron']);
    expect(runPreload().required).toEqual(['electron']);
  });

  it('exposes window.exrview (exactly HostApi) and window.exrviewShell, and no Node: no require, process or ipcRenderer', () => {
    const { exposed } = runPreload();
    expect([...exposed.keys()].sort()).toEqual(['exrview', 'exrviewShell']);
    expect(Object.keys(exposed.get('exrview')!).sort()).toEqual([...TRANSPORT_METHODS, 'onEvent'].sort());
    expect(Object.keys(exposed.get('exrviewShell')!)).toEqual(['onCommand', 'pixelToken']);
    for (const api of exposed.values()) {
      for (const forbidden of ['require', 'process', 'ipcRenderer', 'invoke', 'send', 'Buffer', 'module'])
        expect(api).not.toHaveProperty(forbidden);
      for (const value of Object.values(api)) expect(typeof value).toBe('function');
    }
  });

  it('sends calls on their own channel with the arguments as one array', async () => {
    const { exposed, invoked, sent } = runPreload();
    const api = exposed.get('exrview') as unknown as { getHeader(id: string): Promise<unknown>; cancel(id: string): void };
    await api.getHeader('f1');
    api.cancel('r1');
    expect(invoked).toEqual([[METHOD_CHANNELS.getHeader, ['f1']]]);
    expect(sent).toEqual([[METHOD_CHANNELS.cancel, ['r1']]]);
  });

  it('sends dropped paths to main only for trusted drops, and only real file paths', () => {
    const { windowListeners, sent } = runPreload();
    const drop = windowListeners.get('drop')!;
    const event = (isTrusted: boolean, files: { path?: string }[]) => ({
      isTrusted,
      dataTransfer: { files },
      preventDefault: () => undefined,
    });
    drop(event(false, [{ path: '/etc' }]));
    drop(event(true, [{}]));
    drop(event(true, [{ path: '/renders/shot' }, {}]));
    expect(sent).toEqual([[DROP_CHANNEL, ['/renders/shot']]]);
  });
});
