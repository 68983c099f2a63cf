// `exrview ocio`: apply an OCIO processor to raw float32 RGBA (stdin → stdout), or list a config's contents.

import { readFileSync } from 'node:fs';
import { applyOps, ColourConfigError, describeConfig, openConfig, ProcessorBuilder } from '../shaders/colour/index.js';
import { FileError } from './failures.js';
import { UsageError } from './usage.js';

/** `exrview ocio apply CONFIG cs SRC DST`, `… dv SRC DISPLAY VIEW`, `exrview ocio list CONFIG --json`. */
export async function runOcio(args: string[]): Promise<number> {
  const [action, configPath, ...rest] = args;
  if (action !== 'apply' && action !== 'list')
    throw new UsageError(`ocio takes "apply" or "list", not ${action === undefined ? 'nothing' : `"${action}"`}`);
  if (configPath === undefined) throw new UsageError(`ocio ${action} needs a CONFIG`);
  if (action === 'list') {
    const extra = rest.filter((a) => a !== '--json');
    if (extra.length) throw new UsageError(`ocio list takes CONFIG [--json], not "${extra[0]}"`);
    const opened = await load(configPath);
    process.stdout.write(
      JSON.stringify(
        guard(configPath, () => describeConfig(opened.builder.config, opened.resolved)),
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  const [mode, ...names] = rest;
  if (mode === 'cs' && names.length !== 2) throw new UsageError('ocio apply CONFIG cs takes SRC DST');
  if (mode === 'dv' && names.length !== 3) throw new UsageError('ocio apply CONFIG dv takes SRC DISPLAY VIEW');
  if (mode !== 'cs' && mode !== 'dv')
    throw new UsageError(`ocio apply CONFIG takes "cs" or "dv", not ${mode === undefined ? 'nothing' : `"${mode}"`}`);
  const { builder } = await load(configPath);
  const ops = guard(configPath, () =>
    mode === 'cs'
      ? builder.colourSpace(names[0]!, names[1]!)
      : builder.displayView(names[0]!, names[1]!, names[2]!, process.env.OCIO_LOOKS),
  );
  const input = await readStdin();
  if (input.length % 16 !== 0) throw new UsageError(`stdin holds ${input.length} bytes, not whole RGBA float32 pixels (16 bytes each)`);
  const pixels = new Float32Array(input.length / 4);
  new Uint8Array(pixels.buffer).set(input);
  applyOps(ops, pixels);
  process.stdout.write(Buffer.from(pixels.buffer));
  return 0;
}

/** A `.ocio` path, a `.ocioz` archive or an `ocio://` built-in config. */
async function load(configPath: string): Promise<{ builder: ProcessorBuilder; resolved: string }> {
  const reader = {
    readText: (path: string) => readFileSync(path, 'utf8'),
    readBytes: (path: string) => readFileSync(path),
    env: process.env,
  };
  const opened = await guardAsync(configPath, () => openConfig(configPath, reader));
  return { builder: new ProcessorBuilder(opened.config, opened.files), resolved: opened.resolved };
}

async function guardAsync<T>(configPath: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    return guard(configPath, () => {
      throw error;
    });
  }
}

/** A config error becomes `exrview: CONFIG: reason` (exit 1). */
function guard<T>(configPath: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ColourConfigError) {
      const where =
        error.file === configPath
          ? error.line !== undefined
            ? `line ${error.line}: `
            : ''
          : `${error.file}${error.line !== undefined ? `:${error.line}` : ''}: `;
      throw new FileError(configPath, where + error.reason);
    }
    throw error;
  }
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
