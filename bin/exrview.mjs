#!/usr/bin/env node
// The `exrview` command's launcher: runs the built CLI, or says how to build it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli.mjs', import.meta.url);
if (!existsSync(cli)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  process.stderr.write(`exrview: not built yet: run \`npm install\` (or \`npm run build\`) in ${root}\n`);
  process.exit(2);
}
// output piped into a reader that stops early (`| head`) is not an error
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
