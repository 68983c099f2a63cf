// Part / view / layer / channel pickers for the image on screen.
import { maxSampleCount } from '../model/deep-samples.js';
import type { ChannelPick } from '../model/layer-choice.js';
import { channelViews, expressionOption } from './channel-views.js';
import { CRYPTOMATTE_OPTION, CryptomatteLayerOptions } from './CryptomatteLayerOptions.js';
import { useApp, useController } from './context.js';

export function Pickers() {
  const c = useController();
  const fileId = useApp((s) => s.image.currentFileId);
  const files = useApp((s) => s.library.files);
  const partIndex = useApp((s) => s.image.part);
  const layerName = useApp((s) => s.image.layer);
  const channel = useApp((s) => s.image.channel);
  const decoded = useApp((s) => s.image.decoded);
  const falseColour = useApp((s) => s.view.display.falseColour);
  const cryptomatteLayer = useApp((s) => s.cryptomatte.layer);
  const summary = files.find((f) => f.id === fileId)?.summary;
  if (!summary) return null;
  const part = summary.parts[partIndex];
  const layer = part?.layers.find((l) => l.name === layerName) ?? part?.layers[0];
  const deep = !!part?.type.startsWith('deep');
  const maxCount = deep && decoded?.fileId === fileId && decoded.part === partIndex ? maxSampleCount(decoded) : null;
  return (
    <div className="pickers">
      {summary.parts.length > 1 && (
        <select aria-label="Part" value={partIndex} onChange={(e) => c.actions.setPart(Number(e.target.value))}>
          {summary.parts.map((p) => (
            <option key={p.index} value={p.index}>
              {p.name || `part ${p.index}`}
              {p.view ? ` (${p.view})` : ''}
              {p.type.startsWith('deep') ? ' deep' : ''}
            </option>
          ))}
        </select>
      )}
      {summary.views.length > 1 && (
        <select
          aria-label="View"
          value={part?.view ?? ''}
          onChange={(e) => {
            const p = summary.parts.find((q) => q.view === e.target.value);
            if (p) c.actions.setPart(p.index);
          }}
        >
          {summary.views.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      )}
      <select
        aria-label="Layer"
        value={cryptomatteLayer !== null ? `${CRYPTOMATTE_OPTION}${cryptomatteLayer}` : (layer?.name ?? '')}
        onChange={(e) => {
          const v = e.target.value;
          if (v.startsWith(CRYPTOMATTE_OPTION)) return c.cryptomatte.choose(v.slice(CRYPTOMATTE_OPTION.length));
          if (cryptomatteLayer !== null) c.cryptomatte.choose(null);
          c.actions.setLayer(v);
        }}
      >
        {part?.layers.map((l) => (
          <option key={l.name} value={l.name}>
            {l.name || '(base)'}
          </option>
        ))}
        <CryptomatteLayerOptions current={cryptomatteLayer} />
      </select>
      <select
        aria-label="Channel"
        title="What to show: a display mode of the layer, or one of its channels"
        value={channel}
        onChange={(e) => c.actions.setChannel(e.target.value as ChannelPick)}
      >
        <optgroup label="Display">
          {channelViews(layer, channel).map(({ view, label }) => (
            <option key={view} value={view}>
              {label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Channels">
          {layer?.channels.map((ch) => (
            <option key={ch} value={`channel:${ch}`}>
              {ch}
            </option>
          ))}
          {deep && <option value="samples">samples (count per pixel)</option>}
        </optgroup>
        {expressionOption(channel) && (
          <optgroup label="Expression">
            <option value={channel}>{expressionOption(channel)!.label}</option>
          </optgroup>
        )}
      </select>
      {channel === 'samples' && maxCount !== null && (
        <span className="samples-legend" aria-label="Sample count scale">
          {falseColour ? `samples: false colour, top zone = ${maxCount}, each zone below half` : `samples: black 0 … white ${maxCount}`}
        </span>
      )}
    </div>
  );
}
