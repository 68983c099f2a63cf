// `npm run dist` as far as it goes without downloading Electron: electron-builder packs the app around a stand-in Electron
// (`-c.electronDist`), then the test reads what the app ships, runs the packed main entry in Node with Electron's API
// stood in, and asks electron-builder what the Linux installers would hold. Only the download of Electron (and of the
// installer tools, appimagetool and fpm) is left out; the last test does it where GitHub can be reached.

import * as asar from '@electron/asar';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iconFiles, PNG_SIZES } from './make-icons.mjs';
import { packedPackages, productionClosure } from './dist-test/production-closure.js';
import { makeStandInElectron, readFuses } from './dist-test/stand-in-electron.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };
const builderConfig = JSON.parse(readFileSync(join(root, 'electron-builder.json'), 'utf8')) as { electronFuses: Record<string, boolean> };
const electronVersion = (JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string })
  .version;

const work = mkdtempSync(join(tmpdir(), 'exrview-dist-'));
const unpackedApp = join(work, 'release', 'linux-unpacked');
const resources = join(unpackedApp, 'resources');
const archive = join(resources, 'app.asar');
/** The packed app as Node can read it: app.asar extracted into a folder of that name, app.asar.unpacked beside it. */
const layout = join(work, 'layout', 'resources');
const samples = readdirSync(join(root, 'assets', 'samples'))
  .filter((n) => n.endsWith('.exr'))
  .sort();

function runDist(args: string[], timeoutMs: number) {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'dist.mjs'), ...args], { cwd: root, encoding: 'utf8', timeout: timeoutMs });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

/** Runs the packed main entry (dist/electron/main.cjs inside app.asar) in Node, with scripts/dist-test/fake-electron.cjs as `electron`. */
function runPackedMain(args: string[], name: string) {
  const reportFile = join(work, `${name}.report.json`);
  const r = spawnSync(
    process.execPath,
    [
      '--require',
      join(root, 'scripts', 'dist-test', 'fake-electron.cjs'),
      join(layout, 'app.asar', 'dist', 'electron', 'main.cjs'),
      ...args,
    ],
    {
      cwd: work,
      encoding: 'utf8',
      timeout: 90_000,
      env: {
        ...process.env,
        FAKE_ELECTRON_REPORT: reportFile,
        FAKE_ELECTRON_VERSION: electronVersion,
        EXRVIEW_USER_DATA: join(work, name, 'user'),
        XDG_CACHE_HOME: join(work, name, 'cache'),
        EXRVIEW_CACHE_DIR: join(work, name, 'cache'),
      },
    },
  );
  if (!existsSync(reportFile)) throw new Error(`the packed main wrote no report (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as FakeElectronReport;
  // sharp warns that Electron's Linux binaries may not suit it (its own check of process.versions.electron): not this test's subject
  const stderr = r.stderr
    .split('\n')
    .filter((l) => !/^\(node:\d+\) \[SharpElectronLinux\]|^\(Use `node --trace-warnings/.test(l))
    .join('\n');
  return { code: r.status, stdout: r.stdout, stderr, report };
}

interface FakeElectronReport {
  windows: {
    preload: string;
    preloadExists: boolean;
    icon: string | null;
    iconExists: boolean | null;
    sandbox: boolean;
    contextIsolation: boolean;
  }[];
  loadedUrl: string | null;
  errorBoxes: string[];
  workers: string[];
  page: {
    index: { status: number; type: string; csp: boolean };
    assets: { url: string; status: number }[];
    outsideStatus: number;
    version: string;
    folders: string[];
    files: { name: string; status: string }[];
    thumbnail: { widthPx: number; heightPx: number } | null;
    image: { widthPx: number; heightPx: number; planes: number } | null;
  } | null;
  pageError: string | null;
  exitCode: number;
}

// the stand-in is Linux's layout of Electron (macOS wants Electron.app, Windows electron.exe with its resources)
const linux = process.platform === 'linux';

describe.skipIf(!linux)(linux ? 'npm run dist' : 'npm run dist (skipped: the stand-in Electron has the Linux layout only)', () => {
  beforeAll(() => {
    for (const built of ['dist/electron/main.cjs', 'dist/cli.mjs', 'dist/renderer/index.html']) {
      if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run \`npm run build\` (npm test does)`);
    }
    const standIn = makeStandInElectron(join(work, 'electron'), electronVersion);
    // --prebuilt: npm test has just built dist/, and building it again would rewrite files the other test files are reading
    const dist = runDist(['--prebuilt', '--dir', `-c.electronDist=${standIn}`, `-c.directories.output=${join(work, 'release')}`], 240_000);
    if (dist.code !== 0) throw new Error(`npm run dist -- --dir failed (exit ${dist.code}):\n${dist.output}`);
    asar.extractAll(archive, join(layout, 'app.asar'));
    cpSync(join(resources, 'app.asar.unpacked'), join(layout, 'app.asar.unpacked'), { recursive: true });
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  describe('npm run dist -- --dir (Electron stood in)', () => {
    it('makes the unpacked app: the exrview executable and resources/app.asar', () => {
      expect(existsSync(join(unpackedApp, 'exrview'))).toBe(true);
      expect(existsSync(archive)).toBe(true);
      expect(existsSync(join(resources, 'app.asar.unpacked', 'dist', 'decode-worker.mjs'))).toBe(true);
    });

    it("flips the Electron fuses as electron-builder.json says (@electron/fuses on the stand-in's fuse wire)", () => {
      expect(readFuses(join(unpackedApp, 'exrview'))).toMatchObject(builderConfig.electronFuses);
    });

    it('ships what the app runs from: main, preload, command line, worker, the whole renderer, samples, window icon', () => {
      const packed = new Set(asar.listPackage(archive, { isPack: false }).map((p) => p.replace(/\\/g, '/')));
      const renderer = readdirSync(join(root, 'dist', 'renderer'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && !e.name.endsWith('.map'))
        .map((e) => `/${join(e.parentPath, e.name).slice(root.length).replace(/\\/g, '/').replace(/^\/+/, '')}`);
      expect(renderer.length).toBeGreaterThan(1);
      for (const file of [
        '/package.json',
        '/dist/electron/main.cjs',
        '/dist/electron/preload.cjs',
        '/dist/cli.mjs',
        '/dist/decode-worker.mjs',
        '/assets/icons/512x512.png',
        ...renderer,
        ...samples.map((s) => `/assets/samples/${s}`),
      ]) {
        expect(packed.has(file), file).toBe(true);
      }
    });

    it('ships no source, tests, source maps, dev-only bundles or dev dependencies', () => {
      const packed = asar.listPackage(archive, { isPack: false }).map((p) => p.replace(/\\/g, '/'));
      const own = packed.filter((p) => !p.startsWith('/node_modules/'));
      expect(own.filter((p) => /\.(map|ts|tsx)$|\.test\.|\.spec\./.test(p))).toEqual([]);
      expect(
        own.filter((p) =>
          /^\/(common|codec|contract|host|transport|server|cli|electron|renderer|shaders|native|testing|e2e|bench|scripts|bin)\//.test(p),
        ),
      ).toEqual([]);
      // the GPU thumbnail process needs Node and Dawn's webgpu package, which the app does not carry; the sample maker ran at
      // build time; the host alone is for benches (main and the command line carry their own)
      expect(own).not.toContain('/dist/gpu-thumbs-child.mjs');
      expect(own).not.toContain('/dist/make-samples.mjs');
      expect(own).not.toContain('/dist/host.mjs');
      expect(packedPackages(packed)).toEqual(productionClosure(root));
      const shipped = new Set(packedPackages(packed).map((l) => l.replace(/^.*node_modules\//, '')));
      for (const dev of Object.keys(pkg.devDependencies)) expect(shipped.has(dev), dev).toBe(false);
      const packedPkg = JSON.parse(asar.extractFile(archive, 'package.json').toString()) as Record<string, unknown>;
      expect(packedPkg).not.toHaveProperty('devDependencies');
      expect(packedPkg.version).toBe(pkg.version);
    });

    it('carries only dependencies the Node side imports (the renderer is bundled: React and zustand are dev dependencies)', () => {
      // esbuild renames a local createRequire() result that shadows require (require2): still an import of the package
      const bundles = ['dist/electron/main.cjs', 'dist/cli.mjs', 'dist/decode-worker.mjs']
        .map((f) => readFileSync(join(root, f), 'utf8'))
        .join('\n');
      const imported = new Set(
        [...bundles.matchAll(/(?:from\s*|import\(\s*|require\d*\(\s*)["']((?:@[^/"']+\/)?[^/"'.][^/"']*)/g)]
          .map((m) => m[1]!)
          .filter((n) => !n.startsWith('node:')),
      );
      const deps = Object.keys(
        (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
      );
      for (const dep of deps) expect(imported.has(dep), `${dep} is in dependencies but no Node-side bundle imports it`).toBe(true);
    });

    it('unpacks what cannot run from inside app.asar: the worker and every native module; the worker finds its imports there', () => {
      const packed = asar.listPackage(archive, { isPack: false }).map((p) => p.replace(/\\/g, '/').replace(/^\//, ''));
      const unpacked = (file: string) => (asar.statFile(archive, file) as { unpacked?: boolean }).unpacked === true;
      expect(unpacked('dist/decode-worker.mjs')).toBe(true);
      const natives = packed.filter((p) => p.endsWith('.node'));
      expect(natives.length).toBeGreaterThan(0); // sharp's
      for (const native of natives) expect(unpacked(native), native).toBe(true);
      // the project's own kernels, where this checkout built them
      const ownNative = existsSync(join(root, 'dist', 'native'))
        ? readdirSync(join(root, 'dist', 'native')).filter((n) => n.endsWith('.node'))
        : [];
      for (const name of ownNative) expect(existsSync(join(resources, 'app.asar.unpacked', 'dist', 'native', name)), name).toBe(true);
      // the WebAssembly kernels, the tier every platform has where the addon was not built (codec/compression/wasm.ts)
      expect(unpacked('dist/wasm/exr_kernels.wasm')).toBe(true);
      // a worker started from app.asar.unpacked resolves packages from app.asar.unpacked/node_modules only
      const worker = join(layout, 'app.asar.unpacked', 'dist', 'decode-worker.mjs');
      const bare = [...readFileSync(worker, 'utf8').matchAll(/(?:from\s*|import\(\s*)["']((?:@[^/"']+\/)?[^/"'.][^"']*)["']/g)]
        .map((m) => m[1]!)
        .filter((n) => !n.startsWith('node:'));
      for (const specifier of bare) expect(() => createRequire(worker).resolve(specifier), specifier).not.toThrow();
    });

    it('ships the WebAssembly of every dependency that has some', () => {
      const packed = new Set(asar.listPackage(archive, { isPack: false }).map((p) => p.replace(/\\/g, '/')));
      for (const location of productionClosure(root)) {
        const wasm = readdirSync(join(root, location), { recursive: true, withFileTypes: true }).filter(
          (e) => e.isFile() && e.name.endsWith('.wasm'),
        );
        for (const file of wasm) {
          const path = `/${join(file.parentPath, file.name).slice(root.length).replace(/\\/g, '/').replace(/^\/+/, '')}`;
          expect(packed.has(path), path).toBe(true);
        }
      }
    });
  });

  describe('the packed main entry, run in Node with Electron stood in', () => {
    it('opens the window on the packed page, serves it through app://, opens the samples and decodes them on workers from app.asar.unpacked', () => {
      const { code, report } = runPackedMain([], 'window');
      expect(report.pageError).toBeNull();
      expect(report.errorBoxes).toEqual([]);
      expect(code).toBe(0);
      expect(report.windows).toHaveLength(1);
      const win = report.windows[0]!;
      expect(win.preload).toBe(join(layout, 'app.asar', 'dist', 'electron', 'preload.cjs'));
      expect(win.preloadExists).toBe(true);
      expect([win.sandbox, win.contextIsolation]).toEqual([true, true]);
      if (process.platform === 'linux')
        expect([win.icon, win.iconExists]).toEqual([join(layout, 'app.asar', 'assets', 'icons', '512x512.png'), true]);
      expect(report.loadedUrl).toBe('app://exrview/index.html');
      const page = report.page!;
      expect(page.index).toEqual({ status: 200, type: 'text/html; charset=utf-8', csp: true });
      expect(page.assets.length).toBeGreaterThan(0);
      for (const asset of page.assets) expect(asset.status, asset.url).toBe(200);
      expect(page.outsideStatus).toBe(404);
      expect(page.version).toBe(pkg.version);
      expect(page.folders).toEqual([join(layout, 'app.asar', 'assets', 'samples')]);
      expect(page.files).toEqual(samples.map((name) => ({ name, status: 'ok' })));
      expect(page.thumbnail?.widthPx).toBe(64);
      expect(page.image?.planes).toBeGreaterThan(0);
      expect(report.workers.length).toBeGreaterThan(0);
      for (const worker of report.workers) expect(worker).toBe(join(layout, 'app.asar.unpacked', 'dist', 'decode-worker.mjs'));
    });

    it('runs the exrview command instead of the window: --version, info, stats --json', () => {
      const version = runPackedMain(['--version'], 'version');
      expect([version.code, version.stdout, version.report.windows]).toEqual([0, `exrview ${pkg.version}\n`, []]);
      const sample = join(layout, 'app.asar', 'assets', 'samples', samples[0]!);
      const info = runPackedMain(['info', sample], 'info');
      expect(info.code).toBe(0);
      expect(info.stdout).toContain('compression (type compression)');
      const stats = runPackedMain(['--no-sandbox', 'stats', sample, '--json'], 'stats');
      expect(stats.code).toBe(0);
      expect(Object.keys(JSON.parse(stats.stdout) as object)).toEqual(['parts']);
      expect(stats.report.windows).toEqual([]);
    });

    it('runs thumbs on the CPU with workers from app.asar.unpacked, saying why there is no GPU process', () => {
      const out = join(work, 'thumbs-out');
      mkdirSync(out);
      const thumbs = runPackedMain(['thumbs', join(layout, 'app.asar', 'assets', 'samples'), '--out', out], 'thumbs');
      expect(thumbs.stderr).toBe('');
      expect(thumbs.code).toBe(0);
      expect(readdirSync(out).sort()).toEqual(samples.map((s) => s.replace(/\.exr$/, '.png')));
      expect(thumbs.stdout).toContain('the installed app has no GPU process for thumbnails');
      expect(thumbs.report.workers.length).toBeGreaterThan(0);
      for (const worker of thumbs.report.workers) expect(worker.includes(`${sep}app.asar.unpacked${sep}`), worker).toBe(true);
    });

    it('answers a mistyped command with the nearest one, exit 2, no window', () => {
      const r = runPackedMain(['stat', 'x.exr'], 'stat');
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe('exrview: unknown command "stat": did you mean "stats"?');
      expect(r.report.windows).toEqual([]);
    });
  });

  describe('the Linux installers, as electron-builder would make them (their tools are downloaded, so they stop before)', () => {
    interface Captured {
      desktop?: string;
      desktopFileName?: string;
      fpmArgs?: string[];
      debFiles?: Record<string, string>;
    }
    const captured: Captured = {};
    beforeAll(async () => {
      const { build, Platform } = await import('electron-builder');
      await build({
        projectDir: root,
        targets: Platform.LINUX.createTarget(['AppImage', 'deb']),
        prepackaged: unpackedApp,
        publish: 'never',
        // merged over electron-builder.json: only where the (never written) installers would go
        config: { directories: { output: join(work, 'installers') } },
        // electron-builder's own hook, called with what each target computed just before it runs appimagetool or fpm
        effectiveOptionComputed: async (computed: unknown) => {
          if (Array.isArray(computed)) {
            const args = computed[0] as string[];
            captured.fpmArgs = args;
            const readArg = (flag: string) => readFileSync(args[args.indexOf(flag) + 1]!, 'utf8');
            const mapped = Object.fromEntries(
              args.filter((a) => a.includes('=/usr/')).map((a) => [a.slice(a.indexOf('=') + 1), a.slice(0, a.indexOf('='))]),
            );
            captured.debFiles = {
              afterInstall: readArg('--after-install'),
              mime: readFileSync(mapped['/usr/share/mime/packages/exrview.xml']!, 'utf8'),
              ...Object.fromEntries(Object.keys(mapped).map((k) => [k, mapped[k]!])),
            };
          } else {
            Object.assign(captured, computed as { desktop: string; desktopFileName: string });
          }
          return true;
        },
      });
    }, 120_000);

    it('AppImage: a desktop entry named exrview.desktop that opens .exr files with the exrview icon', () => {
      expect(captured.desktopFileName).toBe('exrview.desktop');
      const entry = Object.fromEntries(
        captured
          .desktop!.trim()
          .split('\n')
          .slice(1)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      expect(entry).toMatchObject({
        Name: 'exrview',
        Type: 'Application',
        Icon: 'exrview',
        StartupWMClass: 'exrview',
        MimeType: 'image/x-exr;',
        Categories: 'Graphics;',
      });
      expect(entry.Exec).toMatch(/ %U$/);
    });

    it('deb: every icon size in hicolor, the .exr MIME type, the desktop entry, and /usr/bin/exrview', () => {
      const files = captured.debFiles!;
      for (const size of PNG_SIZES)
        expect(files[`/usr/share/icons/hicolor/${size}x${size}/apps/exrview.png`], `${size}`).toBe(
          iconFiles().find((f) => f.endsWith(`${sep}${size}x${size}.png`)),
        );
      expect(files['/usr/share/applications/exrview.desktop']).toBeTruthy();
      expect(files.mime).toContain('<mime-type type="image/x-exr">');
      expect(files.mime).toContain('<glob pattern="*.exr"/>');
      // the command on PATH: the package links the executable into /usr/bin
      expect(files.afterInstall).toMatch(/ln -sf '\/opt\/exrview\/exrview' '\/usr\/bin\/exrview'/);
      const args = captured.fpmArgs!;
      expect(args[args.indexOf('--name') + 1]).toBe('exrview');
      expect(args).toContain(`${unpackedApp}/=/opt/exrview`);
    });
  });
});

/** Whether electron-builder could download Electron here: its zip already cached, or GitHub reachable. */
async function electronDownload(): Promise<{ possible: boolean; why: string }> {
  const zip = `electron-v${electronVersion}-${process.platform}-${process.arch}.zip`;
  const cache = process.env.electron_config_cache ?? join(homedir(), '.cache', 'electron');
  const cached = existsSync(cache) && readdirSync(cache, { recursive: true }).some((f) => String(f).endsWith(zip));
  if (cached) return { possible: true, why: `${zip} is in ${cache}` };
  const url = `https://github.com/electron/electron/releases/download/v${electronVersion}/${zip}`;
  try {
    await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    return { possible: true, why: `${url} answers` };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { possible: false, why: `electron-builder downloads ${zip} from github.com, which cannot be reached from here (${cause})` };
  }
}

const download = linux ? await electronDownload() : { possible: false, why: 'not Linux' };
if (linux && !download.possible)
  console.log(
    `dist: the test with the real Electron is skipped: ${download.why}; the packaging above ran with a stand-in Electron instead`,
  );

describe.skipIf(!linux)('npm run dist -- --dir with the real Electron', () => {
  it.skipIf(!download.possible)(
    download.possible ? 'downloads Electron and packs the app around it' : `skipped: ${download.why}`,
    () => {
      const out = join(work, 'real');
      const dist = runDist(['--prebuilt', '--dir', `-c.directories.output=${out}`], 900_000);
      expect(dist.code, dist.output).toBe(0);
      const executable = join(out, 'linux-unpacked', 'exrview');
      expect(existsSync(executable)).toBe(true);
      expect(readFuses(executable)).toMatchObject(builderConfig.electronFuses);
      expect(
        asar.listPackage(join(out, 'linux-unpacked', 'resources', 'app.asar'), { isPack: false }).map((p) => p.replace(/\\/g, '/')),
      ).toContain('/dist/electron/main.cjs');
    },
    900_000,
  );
});
