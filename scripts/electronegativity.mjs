// Runs @doyensec/electronegativity on the files that touch Electron and fails on any finding not fixed or justified below.
// `node scripts/electronegativity.mjs` prints each finding with its verdict; exit 1 when one is unjustified, 2 when it cannot run.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Findings that stay, each with why it is safe. Keyed by check id and file; the code carries the same reason in a comment.
 * Anything not listed here fails the run.
 */
export const JUSTIFIED = {
  'CSP_GLOBAL_CHECK main.ts':
    "csp-evaluator warns that script-src 'self' is risky with JSONP, AngularJS or user uploads; app://exrview serves only the built renderer bundle (no JSONP, no Angular, no user files: images travel over IPC)",
  'PRELOAD_JS_CHECK main.ts':
    'the preload exposes only HostApi and onCommand through contextBridge, each a function on one fixed channel; ipcRenderer never reaches the page (electron/shell/preload-bundle.test.ts)',
  'OPEN_EXTERNAL_JS_CHECK main.ts':
    'only plain https URLs reach shell.openExternal (isSafeExternalUrl, electron/shell/navigation-guard.test.ts)',
};

/** The Electron side as packaged: main, preload, their plain modules, package.json, and the page's HTML when built. */
function stage() {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-electronegativity-'));
  cpSync(join(root, 'electron', 'main.ts'), join(dir, 'main.ts'));
  cpSync(join(root, 'electron', 'preload.ts'), join(dir, 'preload.ts'));
  for (const name of readdirSync(join(root, 'electron', 'shell'))) {
    if (name.endsWith('.ts') && !name.endsWith('.test.ts')) cpSync(join(root, 'electron', 'shell', name), join(dir, 'shell', name));
  }
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  const page = join(root, 'dist', 'renderer', 'index.html');
  if (existsSync(page)) cpSync(page, join(dir, 'index.html'));
  return dir;
}

export function runElectronegativity() {
  const require = createRequire(import.meta.url);
  let cli;
  try {
    cli = join(require.resolve('@doyensec/electronegativity/package.json'), '..', 'dist', 'index.js');
  } catch {
    return { error: '@doyensec/electronegativity is not installed: run `npm install`' };
  }
  const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  const dir = stage();
  // SARIF, not CSV: its CSV writer writes the header and the rows with two racing async writes, and the header
  // sometimes lands over the first row (seen once in CI: a finding whose id was the tail of the CSP).
  const report = join(dir, 'findings.sarif');
  try {
    // -e: the installed Electron version, so it does not go online to look it up
    const run = spawnSync(process.execPath, [cli, '-i', dir, '-r', '-v', 'false', '-e', electronVersion, '-o', report], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (run.status !== 0 || !existsSync(report))
      return { error: `electronegativity failed (exit ${run.status}): ${(run.stderr || run.stdout).trim().split('\n').pop()}` };
    const findings = parseSarif(readFileSync(report, 'utf8')).map((f) => ({
      ...f,
      key: `${f.issue} ${f.filename}`,
      why: JUSTIFIED[`${f.issue} ${f.filename}`] ?? null,
    }));
    return { findings };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each result of the SARIF report as { issue, filename, location (line:column), description }. */
function parseSarif(text) {
  const results = JSON.parse(text).runs.flatMap((run) => run.results ?? []);
  return results.map((r) => {
    const where = r.locations?.[0]?.physicalLocation;
    const region = where?.region ?? {};
    return {
      issue: r.ruleId,
      filename: where?.artifactLocation?.uri ?? '',
      location: `${region.startLine ?? 0}:${region.startColumn ?? 0}`,
      description: r.message?.text ?? '',
    };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = runElectronegativity();
  if (result.error) {
    console.error(`exrview: ${result.error}`);
    process.exit(2);
  }
  for (const f of result.findings)
    console.log(`${f.why ? 'justified' : 'UNJUSTIFIED'}  ${f.issue} ${f.filename}:${f.location}  ${f.why ?? f.description}`);
  const bad = result.findings.filter((f) => !f.why);
  console.log(`exrview: electronegativity: ${result.findings.length} findings, ${bad.length} unjustified`);
  process.exit(bad.length ? 1 : 0);
}
