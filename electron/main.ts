// The Electron main process: one hardened window on the app's own page, menus, folder grants, and HostApi over IPC (logic lives in shell/).

import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  protocol,
  session,
  shell,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
  type WebContents,
} from 'electron';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeDecodeTier } from '../codec/index.js';
import type { FolderInfo, HostApi, PixelLease } from '../contract/host-api.js';
import { createHost } from '../host/host.js';
import { withLiveImages } from '../host/tev/live-host.js';
import { TevSwitch } from '../host/tev/tev-switch.js';
import { hasExrFiles, packageRoot, rendererBuilt, rendererDir, samplesDir, unpackedPath, windowIcon } from '../host/settings/app-paths.js';
import { commandArgs } from './shell/command-line.js';
import { FolderGrants } from './shell/folder-grants.js';
import { createIpcHandlers, createSenderCheck, droppedPaths, type SenderInfo } from './shell/ipc-handlers.js';
import { menuTemplate } from './shell/menu-template.js';
import { APP_HOST, APP_SCHEME, APP_START_URL, blockNavigation, permissionAllowed, windowOpenDecision } from './shell/navigation-guard.js';
import { targetFromArgv, targetFromPath, type OpenTarget } from './shell/open-targets.js';
import {
  defaultUserDataDir,
  forgetFolder,
  loadSettings,
  rememberFolder,
  SETTINGS_FILE,
  toggleTevListener,
  updateSettings,
  type Settings,
} from '../host/settings/settings-store.js';
import { handlePixelRequest, newPixelToken, PIXEL_PATH } from './shell/pixel-protocol.js';
import { COMMAND_CHANNEL, DROP_CHANNEL, EVENT_CHANNEL, PIXEL_TOKEN_CHANNEL, type ShellCommand } from '../contract/shell-api.js';
import { chromiumSwitches } from './shell/webgpu-switches.js';
import { contentSecurityPolicy } from '../transport/csp.js';
import { PathRefusedError, realRoot } from '../transport/path-guard.js';
import { findStaticFile } from '../transport/static-files.js';

const root = packageRoot();
const userDataDir = defaultUserDataDir();
// the same folder `exrview serve` and `npm start` read the last folder from
app.setPath('userData', userDataDir);
for (const s of chromiumSwitches(process.platform)) app.commandLine.appendSwitch(s.name, s.value);
// the page is served from app://exrview/: a secure, standard origin (module scripts, fetch) that maps only to dist/renderer
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
]);

/** Arguments after the executable (packaged) or after `electron .` (development). */
const userArgs = (argv: string[]) => argv.slice(app.isPackaged ? 1 : 2);

const commandLine = commandArgs(userArgs(process.argv), process.cwd());
if (commandLine) {
  // `exrview info FILE` and the like: the command, not the viewer (and not handed to a running viewer)
  void runCommand(commandLine);
} else if (!app.requestSingleInstanceLock()) {
  // another exrview is running: it receives our arguments through 'second-instance'
  app.quit();
} else {
  run();
}

/** The `exrview` command inside the installed app: the command's bundle runs here, no window, and the app exits with its code. */
async function runCommand(args: string[]): Promise<void> {
  // output piped into a reader that stops early (`| head`) is not an error
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => app.exit(0));
  let code = 1;
  try {
    const cli = (await import(pathToFileURL(join(__dirname, '..', 'cli.mjs')).href)) as { main(argv: string[]): Promise<number> };
    code = await cli.main(args);
  } catch (error) {
    process.stderr.write(`exrview: the command line could not start (${(error as Error).message}); reinstall exrview\n`);
  }
  app.exit(code);
}

/** The page's full screen on or off, as its Shift+F does (run in the page with a user gesture). */
const TOGGLE_PAGE_FULLSCREEN = 'document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()';

function run(): void {
  let settings: Settings = loadSettings(userDataDir);
  let win: BrowserWindow | null = null;
  let pageReady = false;
  const queued: ShellCommand[] = [];
  let pendingTarget: OpenTarget | null = targetFromArgv(userArgs(process.argv), process.cwd());

  // worker threads cannot start from inside app.asar: packaging unpacks the worker (electron-builder.json asarUnpack)
  const workerPath = app.isPackaged ? unpackedPath(join(__dirname, '..', 'decode-worker.mjs')) : undefined;
  const fileHost = createHost({ userDataDir, settingsDir: userDataDir, mode: 'electron', ...(workerPath ? { workerPath } : {}) });
  // the decode workers start and warm their codec now, while the page loads, not on the first click
  void fileHost.startWorkers().catch(() => {});
  // tev's protocol, opt-in (File menu, the tevListener setting): what clients send is listed with every folder's files
  const tev = new TevSwitch({
    settingsFile: join(userDataDir, SETTINGS_FILE),
    log: (line) => console.log(`exrview: tev: ${line}`),
  });
  const host = withLiveImages(fileHost, tev.images);
  const applyTevSetting = async (): Promise<void> => {
    const state = await tev.set(settings.tevListener);
    if (state.listening) console.log(`exrview: taking images over tev's protocol on 127.0.0.1:${state.port}`);
    buildMenu();
    if (state.error) dialog.showErrorBox('exrview', `tev's protocol is off: ${state.error}`);
  };
  // which decode tier runs and why the one above is off: on the terminal `npm start` ran in
  console.log(`exrview: ${describeDecodeTier()}`);
  const grants = new FolderGrants();
  const isTrustedSender = createSenderCheck(() => win?.webContents.id ?? null);
  // decoded planes go to the page over the app protocol (no IPC clone, no context-bridge copy), behind this session's token
  const pixelToken = newPixelToken();

  const save = () => {
    try {
      // the host keeps the recent OCIO configs in the same file: its part is kept as the file has it
      updateSettings(userDataDir, (disk) => ({ ...settings, recentColourConfigs: disk.recentColourConfigs }));
    } catch (error) {
      console.error(`exrview: could not save settings in ${userDataDir}: ${(error as Error).message}`);
    }
  };
  const send = (command: ShellCommand) => {
    if (win && pageReady) win.webContents.send(COMMAND_CHANNEL, command);
    else queued.push(command);
  };
  const handlers = createIpcHandlers({
    host,
    grants,
    isTrustedSender,
    pickFolder: async (purpose) => {
      const options = {
        title: purpose === 'open' ? 'Open Folder' : 'Export To',
        properties: ['openDirectory' as const, 'createDirectory' as const],
      };
      const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    pickConfigFile: async () => {
      const options = {
        title: 'Open OCIO Config',
        properties: ['openFile' as const],
        filters: [{ name: 'OpenColorIO config', extensions: ['ocio', 'ocioz', 'yaml', 'yml'] }],
      };
      const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    onFolderOpened: (path) => {
      settings = rememberFolder(settings, path);
      save();
      buildMenu();
    },
  });

  /** Opens what the user chose outside the page and tells the page; failures become a message, not a crash. */
  const openTarget = async (target: OpenTarget): Promise<void> => {
    try {
      const folder: FolderInfo | null = await handlers.openGranted(target.folder);
      if (folder) send({ type: 'folder-opened', folder, ...(target.fileName ? { selectFileName: target.fileName } : {}) });
    } catch (error) {
      settings = forgetFolder(settings, target.folder);
      save();
      buildMenu();
      dialog.showErrorBox('exrview', `Could not open ${target.folder}: ${(error as Error).message}`);
    }
  };

  function buildMenu(): void {
    const template = menuTemplate({
      platform: process.platform,
      recentFolders: settings.recentFolders,
      devTools: !app.isPackaged,
      tevListener: { ...settings.tevListener, error: tev.state.error },
      actions: {
        openFolder: () => {
          void (async () => {
            const options = { title: 'Open Folder', properties: ['openDirectory' as const] };
            const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
            if (!result.canceled && result.filePaths[0]) await openTarget({ folder: result.filePaths[0] });
          })();
        },
        openRecent: (path) => void openTarget({ folder: path }),
        clearRecent: () => {
          settings = { ...settings, recentFolders: [] };
          save();
          buildMenu();
        },
        toggleTevListener: () => {
          settings = toggleTevListener(settings, tev.state.error !== null);
          save();
          void applyTevSetting();
        },
        command: (command) => {
          // the page's Fullscreen API wants a user gesture, and a menu click is none in the page: the call runs as one
          // (executeJavaScript's userGesture); the page follows fullscreenchange, as for Shift+F and its button
          if (command.type === 'view' && command.action === 'toggle-fullscreen' && win && pageReady)
            void win.webContents.executeJavaScript(TOGGLE_PAGE_FULLSCREEN, true).catch(() => send(command));
          else send(command);
        },
      },
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  }

  listenIpc(handlers, isTrustedSender, pixelToken, (target) => void openTarget(target));
  host.onEvent((event) => {
    if (win && !win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event);
  });

  app.on('second-instance', (_event, argv, cwd) => {
    const target = targetFromArgv(userArgs(argv), cwd);
    if (target) void openTarget(target);
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  // macOS: an .exr double-clicked in Finder (may arrive before 'ready')
  app.on('open-file', (event, path) => {
    event.preventDefault();
    const target = targetFromPath(path);
    if (!target) return;
    if (app.isReady()) void openTarget(target);
    else pendingTarget = target;
  });
  app.on('web-contents-created', (_event, contents) => harden(contents));
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => {
    void tev.close();
    void fileHost.close();
  });

  void app.whenReady().then(async () => {
    if (!rendererBuilt(root)) {
      dialog.showErrorBox(
        'exrview',
        `The viewer page is not built (${rendererDir(root)} is missing): run \`npm run build\`, then start exrview again.`,
      );
      app.quit();
      return;
    }
    serveApp(host, pixelToken);

    // the first folder: the one the OS or command line named, else the last one, else the samples
    const first =
      pendingTarget ??
      (settings.lastFolder ? targetFromPath(settings.lastFolder) : null) ??
      (hasExrFiles(samplesDir(root)) ? { folder: samplesDir(root) } : null);
    pendingTarget = null;
    if (first) await openTarget(first);
    queued.length = 0; // the page lists folders open at start through getInfo
    buildMenu();
    if (settings.tevListener.enabled) void applyTevSetting();
    win = createWindow(settings);
    win.webContents.on('did-finish-load', () => {
      pageReady = true;
      for (const command of queued.splice(0)) win?.webContents.send(COMMAND_CHANNEL, command);
    });
    win.on('close', () => {
      if (!win) return;
      const bounds = win.getNormalBounds();
      settings = {
        ...settings,
        window: { widthPx: bounds.width, heightPx: bounds.height, x: bounds.x, y: bounds.y, maximized: win.isMaximized() },
      };
      save();
    });
    win.on('closed', () => {
      win = null;
      pageReady = false;
    });
    await win.loadURL(APP_START_URL);
  });
}

/** The page's IPC: HostApi calls and signals, the pixel token, and drops, each from the exrview window only. */
function listenIpc(
  handlers: ReturnType<typeof createIpcHandlers>,
  isTrustedSender: (sender: SenderInfo) => boolean,
  pixelToken: string,
  open: (target: OpenTarget) => void,
): void {
  const senderInfo = (event: IpcMainEvent | IpcMainInvokeEvent): SenderInfo => ({
    webContentsId: event.sender.id,
    isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
    frameUrl: event.senderFrame?.url ?? '',
  });
  for (const [channel, handler] of handlers.calls) ipcMain.handle(channel, (event, args: unknown) => handler(senderInfo(event), args));
  for (const [channel, handler] of handlers.signals) ipcMain.on(channel, (event, args: unknown) => handler(senderInfo(event), args));
  ipcMain.handle(PIXEL_TOKEN_CHANNEL, (event) => {
    if (!isTrustedSender(senderInfo(event))) throw new Error('refused: the pixel token is only for the exrview window');
    return pixelToken;
  });
  // drops come from the preload's trusted drop listener (paths from webUtils.getPathForFile, which page script cannot forge)
  ipcMain.on(DROP_CHANNEL, (event, raw: unknown) => {
    if (!isTrustedSender(senderInfo(event))) return;
    const target = droppedPaths(raw)
      .map(targetFromPath)
      .find((t) => t !== null);
    if (target) open(target);
  });
}

/** The app:// protocol (the built page and the pixel route), the CSP on every response, and the permission policy. */
function serveApp(host: HostApi & Partial<PixelLease>, pixelToken: string): void {
  const staticReal = realRoot(rendererDir(root));
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('not found', { status: 404 });
    if (url.pathname === PIXEL_PATH) return handlePixelRequest(request, { host, token: pixelToken });
    try {
      const file = await findStaticFile(staticReal, url.pathname);
      if (!file) return new Response('not found', { status: 404 });
      return new Response(await readFile(file.path), {
        headers: {
          'Content-Type': file.contentType,
          'Content-Security-Policy': contentSecurityPolicy(),
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch (error) {
      return new Response(error instanceof PathRefusedError ? 'forbidden' : 'error', {
        status: error instanceof PathRefusedError ? 403 : 500,
      });
    }
  });
  // the CSP on every response, not only those of the app:// handler. Written out (not computed) so electronegativity can
  // evaluate it; electron/shell/main-csp.test.ts checks it is contentSecurityPolicy() word for word.
  // electronegativity CSP_GLOBAL_CHECK (reviewed): script-src 'self' is only as safe as what 'self' serves; app://exrview
  // serves the built renderer bundle alone (no JSONP, no AngularJS, no user files: images come over IPC)
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [
          "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-src 'none'; frame-ancestors 'none'",
        ],
      },
    });
  });
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(permissionAllowed(permission)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => permissionAllowed(permission));
}

function createWindow(settings: Settings): BrowserWindow {
  const w = settings.window;
  const icon = process.platform === 'linux' ? windowIcon(root) : null;
  const win = new BrowserWindow({
    width: w?.widthPx ?? 1400,
    height: w?.heightPx ?? 900,
    ...(w?.x !== undefined && w.y !== undefined ? { x: w.x, y: w.y } : {}),
    minWidth: 640,
    minHeight: 400,
    show: false,
    backgroundColor: '#1b1b1b',
    title: 'exrview',
    ...(icon ? { icon } : {}),
    webPreferences: {
      // electronegativity PRELOAD_JS_CHECK (reviewed): the preload exposes only HostApi and onCommand through contextBridge,
      // each a function that forwards to one fixed channel; ipcRenderer itself never reaches the page
      preload: join(__dirname, 'preload.cjs'),
      // the page gets HostApi through contextBridge and nothing else of Node or Electron
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // middle-click would otherwise open links in a new window, around setWindowOpenHandler
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (w?.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  return win;
}

/** Every web contents (the window and anything it might create): no navigation away, no new windows, no webviews. */
function harden(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (blockNavigation(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (blockNavigation(url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (blockNavigation(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url);
    // electronegativity OPEN_EXTERNAL_JS_CHECK (reviewed): only plain https URLs get here (isSafeExternalUrl)
    if (decision.openExternally) void shell.openExternal(decision.openExternally);
    return { action: decision.action };
  });
}
