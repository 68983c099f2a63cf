// The OpenColorIO controls in the Look group: pick a config (a built-in one from the list, a recent one, or a file
// with its LUT files), then display, view, look and the image's input colour space; Reload reads the files again,
// × goes back to the tone-map presets.
import { useRef } from 'react';
import { activeDisplays, activeViews } from '../../shaders/colour/rules.js';
import {
  BUILTIN_CHOICES,
  DEFAULT_BUILTIN,
  loadBuiltinColour,
  loadColourFiles,
  loadHostColour,
  reloadColour,
  removeColour,
} from '../app/colour.js';
import { chosenByText, inputSpaceChoice, type InputSpaceChoice } from '../state/colour.js';
import { colourHintsOf } from '../state/file-colour-space.js';
import type { OcioConfig } from '../../shaders/colour/index.js';
import { useApp, useController } from './context.js';

/** A display and, when the view on screen is not one of its views, its first view. */
function pickDisplayIn(config: OcioConfig, name: string, view: string): { display: string; view: string } {
  const d = config.displays.find((x) => x.name === name);
  const views = d ? activeViews(config, d) : [];
  return { display: name, view: views.some((v) => v.name === view) ? view : (views[0]?.name ?? '') };
}

/** The config picker's entry that opens the file picker, the one standing for a config file already loaded, and recent ones. */
const FILE = '\u0000file';
const FILE_SHOWN = '\u0000loaded';
const RECENT = '\u0000recent:';

const SOURCE_NAMES = { env: 'from $OCIO', file: 'a picked file', recent: 'a recent config', builtin: 'built in' } as const;

/** A recent config as the picker lists it: its file name, and its folder's name when two share a file name. */
function recentLabel(path: string, all: string[]): string {
  const parts = path.split('/');
  const name = parts.pop()!;
  const shared = all.filter((p) => p.split('/').pop() === name).length > 1;
  return shared ? `${name} (${parts.pop() ?? ''})` : name;
}

export function ColourControls() {
  const c = useController();
  const colour = useApp((s) => s.colour);
  const fileId = useApp((s) => s.image.currentFileId);
  const file = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId));
  const part = useApp((s) => s.image.part);
  const path = file?.relativePath ?? '';
  const input = useRef<HTMLInputElement>(null);
  const config = colour.config?.builder.config;
  const display = config?.displays.find((d) => d.name === colour.display);
  const pickDisplay = (name: string): { display: string; view: string } => pickDisplayIn(config!, name, colour.view);
  let choice: InputSpaceChoice = { name: '', chosenBy: '', kind: '' };
  try {
    choice = inputSpaceChoice(colour, fileId, path, colourHintsOf(file, part));
  } catch {
    // a file rule that fails says so when the view is built
  }
  const inputSpace = choice.name;
  const configUri = colour.config?.files.configPath ?? '';
  const builtin = configUri.startsWith('ocio://');
  const hostPath = colour.config?.files.hostPath;
  // Electron's own file picker: the host reads the config with its LUTs from disk, and it joins the recent list
  const shellPicker = c.info?.mode === 'electron';
  const pickFile = (): void => {
    if (shellPicker) void loadHostColour(c.host.api, c.actions, c.store, undefined, 'file');
    else input.current?.click();
  };
  const pickConfig = (value: string): void => {
    if (value === FILE) pickFile();
    else if (value === '') removeColour(c.actions);
    else if (value.startsWith(RECENT)) void loadHostColour(c.host.api, c.actions, c.store, value.slice(RECENT.length), 'recent');
    else void loadBuiltinColour(c.actions, c.store, value);
  };
  const shown = !colour.config
    ? ''
    : builtin
      ? configUri
      : hostPath !== undefined && colour.recent.includes(hostPath)
        ? RECENT + hostPath
        : FILE_SHOWN;
  return (
    <span className="ocio">
      <input
        ref={input}
        type="file"
        multiple
        aria-label="OCIO config files"
        hidden
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length) void loadColourFiles(c.actions, c.store, files);
          e.target.value = '';
        }}
      />
      <select
        aria-label="OCIO config"
        title="The OpenColorIO config the view goes through: a built-in one, or a file; none: the tone-map presets (] / [: next / previous)"
        value={shown}
        onChange={(e) => pickConfig(e.target.value)}
      >
        <option value="">No OCIO (tone-map)</option>
        {BUILTIN_CHOICES.map((b) => (
          <option key={b.uri} value={b.uri}>
            {b.label}
          </option>
        ))}
        {colour.recent.length > 0 && (
          <optgroup label="Recent configs">
            {colour.recent.map((p) => (
              <option key={p} value={RECENT + p} title={p}>
                {recentLabel(p, colour.recent)}
              </option>
            ))}
          </optgroup>
        )}
        {shown === FILE_SHOWN && <option value={FILE_SHOWN}>{colour.config!.name}</option>}
        <option value={FILE}>Config file…</option>
      </select>
      {!colour.config && (
        <button
          type="button"
          title={`Use the built-in ${DEFAULT_BUILTIN.label} (]: the next config, this one after none)`}
          onClick={() => void loadBuiltinColour(c.actions, c.store, DEFAULT_BUILTIN.uri)}
        >
          ACES 2.0
        </button>
      )}
      <button
        type="button"
        title={
          shellPicker
            ? 'Load an OpenColorIO config file (.ocio, .ocioz): its LUT files are read from beside it (Shift+Q)'
            : 'Load an OpenColorIO config: pick the .ocio file together with the LUT files it uses, or an .ocioz archive (Shift+Q)'
        }
        onClick={pickFile}
      >
        OCIO…
      </button>
      {colour.error && (
        <span className="ocio-error" role="alert" title={colour.error}>
          ⚠
        </span>
      )}
      {config && (
        <>
          <span
            className="ocio-name"
            aria-label="OCIO config name"
            title={`${hostPath ?? colour.config!.name} (${SOURCE_NAMES[colour.config!.source]})`}
          >
            {config.name || colour.config!.name}
          </span>
          <select
            aria-label="Input colour space"
            title={`The image's colour space: ${
              choice.kind === 'picked'
                ? 'picked for this image'
                : choice.kind === 'file'
                  ? `from the file's ${choice.chosenBy}`
                  : `from the file rule "${choice.chosenBy}"`
            }`}
            value={inputSpace}
            onChange={(e) => fileId && c.actions.setColour({ inputSpaces: { ...colour.inputSpaces, [fileId]: e.target.value } })}
          >
            {config.colourSpaces
              .filter((cs) => !config.inactive.has(cs.name) || cs.name === inputSpace)
              .map((cs) => (
                <option key={cs.name} value={cs.name}>
                  {cs.name}
                </option>
              ))}
          </select>
          <span className="ocio-rule" aria-label="Input colour space chosen by">
            {chosenByText(choice)}
          </span>
          <select aria-label="OCIO display" value={colour.display} onChange={(e) => c.actions.setColour(pickDisplay(e.target.value))}>
            {activeDisplays(config).map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
              </option>
            ))}
          </select>
          <select aria-label="OCIO view" value={colour.view} onChange={(e) => c.actions.setColour({ view: e.target.value })}>
            {(display ? activeViews(config, display) : []).map((v) => (
              <option key={v.name} value={v.name}>
                {v.name}
              </option>
            ))}
          </select>
          <select
            aria-label="OCIO look"
            value={colour.looks ?? '\u0000view'}
            onChange={(e) => c.actions.setColour({ looks: e.target.value === '\u0000view' ? null : e.target.value })}
          >
            <option value={'\u0000view'}>view's looks</option>
            <option value="">no look</option>
            {config.looks.map((l) => (
              <option key={l.name} value={l.name}>
                {l.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            title="Read the config and its LUT files again"
            onClick={() => void reloadColour(c.host.api, c.actions, c.store)}
          >
            Reload
          </button>
          <button
            type="button"
            aria-label="Remove OCIO config"
            title="Back to the tone-map presets"
            onClick={() => removeColour(c.actions)}
          >
            ×
          </button>
        </>
      )}
    </span>
  );
}
