import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  colourErrorMessage,
  initialColour,
  inputSpaceOf,
  loadColourConfig,
  ocioDisplayOf,
  withConfig,
  type ColourFileSet,
} from './colour.js';

const DIR = 'testing/colour/configs';

/** studio-test.ocio with its LUTs as a picker gives them: flat names, no folders. */
function studioFiles(): ColourFileSet {
  const texts = new Map<string, string>([['studio-test.ocio', readFileSync(join(DIR, 'studio-test.ocio'), 'utf8')]]);
  for (const f of readdirSync(join(DIR, 'luts'))) texts.set(f, readFileSync(join(DIR, 'luts', f), 'utf8'));
  return { configPath: 'studio-test.ocio', texts };
}

describe('colour slice', () => {
  it('loads a config with its LUTs picked beside it and starts on its first display and view', () => {
    const slice = withConfig(initialColour(), loadColourConfig(studioFiles(), 'file'));
    expect(slice.display).toBe('sRGB - Display');
    // OCIO lists a display's own views before the shared ones
    expect(slice.view).toBe('Log');
    expect(inputSpaceOf(slice, 'a', 'shots/a.exr')).toBe('Linear Rec.709');
    expect(inputSpaceOf({ ...slice, inputSpaces: { a: 'Cam Log' } }, 'a', 'shots/a.exr')).toBe('Cam Log');
  });

  it('builds each processor once per config, keyed by its ops', () => {
    const slice = { ...withConfig(initialColour(), loadColourConfig(studioFiles(), 'file')), view: 'Film' };
    const film = ocioDisplayOf(slice, 'Linear Rec.709')!;
    expect(film.ops.length).toBeGreaterThan(2);
    expect(ocioDisplayOf(slice, 'Linear Rec.709')).toBe(film);
    const log = ocioDisplayOf({ ...slice, view: 'Log' }, 'Linear Rec.709')!;
    expect(log.key).not.toBe(film.key);
    expect(ocioDisplayOf({ ...slice, config: null }, 'Linear Rec.709')).toBeNull();
  });

  it('a broken config or a missing LUT names the file and line', () => {
    const broken: ColourFileSet = { configPath: 'broken.ocio', texts: new Map([['broken.ocio', 'ocio_profile_version: 2\nroles: [\n']]) };
    expect(() => loadColourConfig(broken, 'file')).toThrow(/^broken\.ocio/);
    const files = studioFiles();
    files.texts.delete('tone.spi1d');
    const slice = { ...withConfig(initialColour(), loadColourConfig(files, 'file')), view: 'Film' };
    let message = '';
    try {
      ocioDisplayOf(slice, 'Linear Rec.709');
    } catch (error) {
      message = colourErrorMessage(error);
    }
    expect(message).toMatch(/^studio-test\.ocio:\d+: LUT file "tone\.spi1d" not found/);
  });
});
