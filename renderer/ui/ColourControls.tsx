// The OpenColorIO controls in the Look group: pick a config (a built-in one from the list, or a file with its LUT
// files), then display, view, look and the image's input colour space; Reload reads the files again, × goes back to
// the tone-map presets.
import { useRef } from 'react';
import { activeDisplays, activeViews } from '../../shaders/colour/rules.js';
import { BUILTIN_CHOICES, DEFAULT_BUILTIN, loadBuiltinColour, loadColourFiles, reloadColour, removeColour } from '../app/colour.js';
import { inputSpaceChoice, type InputSpaceChoice } from '../state/colour.js';
import type { OcioConfig } from '../../shaders/colour/index.js';
import { useApp, useController } from './context.js';

/** A display and, when the view on screen is not one of its views, its first view. */
function pickDisplayIn(config: OcioConfig, name: string, view: string): { display: string; view: string } {
  const d = config.displays.find((x) => x.name === name);
  const views = d ? activeViews(config, d) : [];
  return { display: name, view: views.some((v) => v.name === view) ? view : (views[0]?.name ?? '') };
}

/** The config picker's entry that opens the file picker, and the one standing for a config file already loaded. */
const FILE = '\u0000file';
const FILE_SHOWN = '\u0000loaded';

const SOURCE_NAMES = { env: 'from $OCIO', file: 'a picked file', builtin: 'built in' } as const;

export function ColourControls() {
  const c = useController();
  const colour = useApp((s) => s.colour);
  const fileId = useApp((s) => s.image.currentFileId);
  const path = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId)?.relativePath ?? '');
  const input = useRef<HTMLInputElement>(null);
  const config = colour.config?.builder.config;
  const display = config?.displays.find((d) => d.name === colour.display);
  const pickDisplay = (name: string): { display: string; view: string } => pickDisplayIn(config!, name, colour.view);
  let choice: InputSpaceChoice = { name: '', chosenBy: '' };
  try {
    choice = inputSpaceChoice(colour, fileId, path);
  } catch {
    // a file rule that fails says so when the view is built
  }
  const inputSpace = choice.name;
  const configUri = colour.config?.files.configPath ?? '';
  const builtin = configUri.startsWith('ocio://');
  const pickConfig = (value: string): void => {
    if (value === FILE) input.current?.click();
    else if (value === '') removeColour(c.actions);
    else void loadBuiltinColour(c.actions, c.store, value);
  };
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
        value={!colour.config ? '' : builtin ? configUri : FILE_SHOWN}
        onChange={(e) => pickConfig(e.target.value)}
      >
        <option value="">No OCIO (tone-map)</option>
        {BUILTIN_CHOICES.map((b) => (
          <option key={b.uri} value={b.uri}>
            {b.label}
          </option>
        ))}
        {colour.config && !builtin && <option value={FILE_SHOWN}>{colour.config.name}</option>}
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
        title="Load an OpenColorIO config file: pick the .ocio file together with the LUT files it uses (Shift+Q)"
        onClick={() => input.current?.click()}
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
            title={`${colour.config!.name} (${SOURCE_NAMES[colour.config!.source]})`}
          >
            {config.name || colour.config!.name}
          </span>
          <select
            aria-label="Input colour space"
            title={`The image's colour space: ${choice.chosenBy === 'picked' ? 'picked for this image' : `from the file rule "${choice.chosenBy}"`}`}
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
            {choice.chosenBy === 'picked' ? 'picked' : `rule ${choice.chosenBy}`}
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
          <button type="button" title="Read the config and its LUT files again" onClick={() => void reloadColour(c.actions, c.store)}>
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
