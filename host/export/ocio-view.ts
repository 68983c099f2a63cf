// The OpenColorIO processor an export or a thumbnail run goes through, built on the host from a config (an `ocio://`
// built-in or a file read from disk) with the same ops the viewer draws with; kept per view, as a folder shares one.
import { readFileSync } from 'node:fs';
import { ProcessorBuilder, openConfig, type ConfigReader } from '../../shaders/colour/index.js';
import type { OcioDisplay } from '../../shaders/display-params.js';
import type { ViewOcio } from '../../contract/host-api.js';

/** Reads a config and its LUT files from disk, with the process's environment for `$VAR`s in search paths. */
export const diskReader: ConfigReader = {
  readText: (path) => readFileSync(path, 'utf8'),
  readBytes: (path) => new Uint8Array(readFileSync(path)),
  env: process.env,
};

const builders = new Map<string, Promise<ProcessorBuilder>>();
const displays = new Map<string, OcioDisplay>();

/** The processor from the view's input colour space through its display, view and looks; throws ColourConfigError. */
export async function ocioDisplayOf(v: ViewOcio, reader: ConfigReader = diskReader): Promise<OcioDisplay> {
  const id = JSON.stringify([v.config, v.inputSpace, v.display, v.view, v.looks ?? null]);
  const known = displays.get(id);
  if (known) return known;
  let builder = builders.get(v.config);
  if (!builder) {
    builder = openConfig(v.config, reader).then((opened) => new ProcessorBuilder(opened.config, opened.files));
    builders.set(v.config, builder);
    builder.catch(() => builders.delete(v.config)); // a fixed config file is read again next time
  }
  const ops = (await builder).displayView(v.inputSpace, v.display, v.view, v.looks);
  const display = { ops, key: id };
  displays.set(id, display);
  return display;
}
