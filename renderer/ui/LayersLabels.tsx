// The Layers view's names and hit areas over the tiles the engine draws: one button per layer, which opens it.
import { useEffect, useRef, useState } from 'react';
import { sheetLayout, SHEET_LABEL_PX } from '../gpu/sheet-layout.js';
import { useApp, useController } from './context.js';

export function LayersLabels() {
  const c = useController();
  const on = useApp((s) => s.inspect.layersView);
  const fileId = useApp((s) => s.image.currentFileId);
  const partIndex = useApp((s) => s.image.part);
  const files = useApp((s) => s.library.files);
  const drawn = useApp((s) => s.inspect.layersDrawn);
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [on]);
  if (!on) return null;
  const part = files.find((f) => f.id === fileId)?.summary?.parts[partIndex];
  const layers = part?.layers ?? [];
  const w = part ? part.dataWindow[2] - part.dataWindow[0] + 1 : 1,
    h = part ? part.dataWindow[3] - part.dataWindow[1] + 1 : 1;
  const tiles = sheetLayout(layers.length, size.w, size.h, w / h);
  return (
    <div ref={box} className="layers-view" role="region" aria-label="Layers" aria-busy={drawn < layers.length} data-drawn={drawn}>
      {layers.map((l, i) => {
        const t = tiles[i];
        if (!t) return null;
        return (
          <button
            key={l.name}
            type="button"
            className="layer-tile"
            style={{ left: t.xPx, top: t.yPx, width: t.widthPx, height: t.heightPx + SHEET_LABEL_PX }}
            title={`${l.name || '(base)'}: ${l.channels.join(', ')}. Click to open this layer`}
            onClick={() => {
              c.actions.setLayer(l.name);
              c.actions.setInspect({ layersView: false });
            }}
          >
            <span className="layer-name">{l.name || '(base)'}</span>
          </button>
        );
      })}
    </div>
  );
}
