// Builds native/build/exrkernels.node with the system C compiler when one and Node's headers exist; silent no-op otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, 'src', 'kernels.c');
const output = join(here, 'build', 'exrkernels.node');

export function buildNative({ quiet = false } = {}) {
  if (process.env.EXRVIEW_NATIVE === '0') return { built: false, reason: 'EXRVIEW_NATIVE=0' };
  if (process.platform !== 'linux' && process.platform !== 'darwin') return { built: false, reason: `no native build on ${process.platform}` };
  if (existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs) return { built: true, reason: 'up to date' };
  const prefix = process.config.variables.node_prefix ?? '/usr';
  const includeDir = [join(prefix, 'include', 'node'), '/usr/include/node', '/usr/local/include/node'].find((d) => existsSync(join(d, 'node_api.h')));
  if (!includeDir) return { built: false, reason: "Node's C headers (node_api.h) are not installed" };
  const cc = process.env.CC ?? 'cc';
  mkdirSync(dirname(output), { recursive: true });
  const args = ['-O3', '-std=c11', '-shared', '-fPIC', '-Wall', `-I${includeDir}`, source, '-o', output];
  if (process.platform === 'darwin') args.push('-undefined', 'dynamic_lookup');
  const r = spawnSync(cc, args, { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    const reason = r.error ? `no C compiler (${cc})` : `compile failed: ${r.stderr.trim().split('\n')[0]}`;
    if (!quiet) console.log(`exrview: native kernels not built (${reason}); the TypeScript kernels are used`);
    return { built: false, reason };
  }
  return { built: true, reason: 'built' };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(buildNative());
