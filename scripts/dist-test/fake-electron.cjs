// Stands in for the `electron` module (node --require) so the packaged app's main entry runs in plain Node where the
// Electron binary cannot be had: records what main asks of Electron, then plays the page (loads app://exrview/ through
// the app's protocol handler, calls HostApi through its IPC handlers) and writes a report to $FAKE_ELECTRON_REPORT.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload (node --require) that must run before main.cjs loads */

const Module = require('node:module');
const { existsSync, writeFileSync } = require('node:fs');
const workerThreads = require('node:worker_threads');

const PAGE_URL = 'app://exrview/index.html';
const report = {
  argv: [],
  switches: [],
  schemes: [],
  windows: [],
  loadedUrl: null,
  errorBoxes: [],
  workers: [],
  page: null,
  pageError: null,
  exitCode: null,
};

// argv as the packaged app sees it: [executable, ...its arguments] (node's script path is not among them)
process.argv.splice(1, 1);
report.argv = process.argv.slice(1);
Object.defineProperty(process.versions, 'electron', { value: process.env.FAKE_ELECTRON_VERSION ?? '0.0.0-stand-in', enumerable: true });

// every worker thread the app starts, by path: they must start from app.asar.unpacked
const RealWorker = workerThreads.Worker;
workerThreads.Worker = class extends RealWorker {
  constructor(file, options) {
    report.workers.push(String(file instanceof URL ? file.pathname : file));
    super(file, options);
  }
};
Module.syncBuiltinESMExports();

let finished = false;
function finish(code) {
  if (finished) return;
  finished = true;
  report.exitCode = code;
  if (process.env.FAKE_ELECTRON_REPORT) writeFileSync(process.env.FAKE_ELECTRON_REPORT, JSON.stringify(report, null, 1));
  process.exit(code);
}

const appListeners = new Map();
const ipcCalls = new Map();
let protocolHandler = null;
const mainFrame = { url: PAGE_URL };
const webContents = {
  id: 1,
  mainFrame,
  listeners: new Map(),
  send() {},
  on(event, fn) {
    this.listeners.set(event, fn);
  },
  setWindowOpenHandler() {},
  isDestroyed: () => false,
};

class BrowserWindow {
  constructor(options) {
    const preload = options.webPreferences?.preload ?? null;
    report.windows.push({
      preload,
      preloadExists: preload !== null && existsSync(preload),
      icon: options.icon ?? null,
      iconExists: options.icon ? existsSync(options.icon) : null,
      sandbox: options.webPreferences?.sandbox,
      contextIsolation: options.webPreferences?.contextIsolation,
    });
    this.webContents = webContents;
  }
  loadURL(url) {
    report.loadedUrl = url;
    setImmediate(() => {
      webContents.listeners.get('did-finish-load')?.();
      playPage().then(
        () => closeApp(0),
        (error) => {
          report.pageError = error instanceof Error ? (error.stack ?? error.message) : String(error);
          closeApp(1);
        },
      );
    });
    return Promise.resolve();
  }
  once() {}
  on() {}
  show() {}
  maximize() {}
  isDestroyed = () => false;
  isMinimized = () => false;
  isMaximized = () => false;
  getNormalBounds = () => ({ x: 0, y: 0, width: 1400, height: 900 });
}

/** What the page does first: its HTML and scripts through app://, then HostApi calls over IPC (decoding on the workers). */
async function playPage() {
  if (!protocolHandler) throw new Error('main registered no app:// handler');
  const get = async (url) => {
    const response = await protocolHandler(new Request(url));
    return {
      url,
      status: response.status,
      type: response.headers.get('content-type'),
      csp: response.headers.has('content-security-policy'),
      body: await response.text(),
    };
  };
  const index = await get(PAGE_URL);
  const assets = [...index.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], PAGE_URL).href);
  const fetched = await Promise.all(assets.map((url) => get(url)));
  const outside = await get('app://exrview/../../package.json');

  const event = { sender: webContents, senderFrame: mainFrame };
  const call = (method, args) => {
    const handler = ipcCalls.get(`exrview:host:${method}`);
    if (!handler) throw new Error(`no IPC handler for ${method}`);
    return handler(event, args);
  };
  const info = await call('getInfo', []);
  const folder = info.folders[0];
  const files = folder ? await call('listFiles', [folder.id]) : [];
  const first = files.find((f) => f.status === 'ok');
  const thumbnail = first
    ? await call('getThumbnail', [{ requestId: 't1', fileId: first.id, longSidePx: 64, priority: 'thumbnail-visible' }])
    : null;
  const image = first ? await call('decodeImage', [{ requestId: 'd1', fileId: first.id, part: 0, priority: 'preview' }]) : null;
  report.page = {
    index: { status: index.status, type: index.type, csp: index.csp },
    assets: fetched.map(({ url, status, type }) => ({ url, status, type })),
    outsideStatus: outside.status,
    version: info.version,
    folders: info.folders.map((f) => f.displayPath),
    files: files.map((f) => ({ name: f.name, status: f.status })),
    thumbnail: thumbnail && { widthPx: thumbnail.widthPx, heightPx: thumbnail.heightPx, source: thumbnail.source },
    image: image && { widthPx: image.widthPx, heightPx: image.heightPx, planes: image.planes.length, source: image.source },
  };
}

async function closeApp(code) {
  // as Electron does on quit: will-quit closes the host (decode workers, disk cache)
  try {
    await appListeners.get('will-quit')?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    finish(code);
  }
}

const app = {
  isPackaged: true,
  setPath() {},
  getPath: () => process.env.EXRVIEW_USER_DATA ?? '/nonexistent',
  commandLine: {
    appendSwitch(name, value) {
      report.switches.push(value === undefined ? name : `${name}=${value}`);
    },
  },
  requestSingleInstanceLock: () => true,
  quit: () => closeApp(report.errorBoxes.length ? 1 : 0),
  exit: (code = 0) => finish(code),
  on(event, fn) {
    appListeners.set(event, fn);
    return app;
  },
  whenReady: () => Promise.resolve(),
  isReady: () => true,
};

const electron = {
  app,
  BrowserWindow,
  dialog: {
    showErrorBox(title, message) {
      report.errorBoxes.push(`${title}: ${message}`);
    },
    showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  },
  ipcMain: {
    handle(channel, fn) {
      ipcCalls.set(channel, fn);
    },
    on() {},
  },
  Menu: { buildFromTemplate: (template) => template, setApplicationMenu() {} },
  protocol: {
    registerSchemesAsPrivileged(schemes) {
      report.schemes.push(...schemes.map((s) => s.scheme));
    },
    handle(scheme, fn) {
      if (scheme === 'app') protocolHandler = fn;
    },
  },
  session: { defaultSession: { webRequest: { onHeadersReceived() {} }, setPermissionRequestHandler() {}, setPermissionCheckHandler() {} } },
  shell: { openExternal: async () => {} },
};

const realLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  return request === 'electron' ? electron : realLoad.call(this, request, parent, isMain);
};

// a main that never opens a window nor exits would hang the test: give up after a while, saying so
setTimeout(() => {
  report.pageError = 'main neither opened a window nor exited within 60 s';
  finish(1);
}, 60_000).unref();
