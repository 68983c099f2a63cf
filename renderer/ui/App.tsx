// The window: toolbar, thumbnail grid, preview, status line; global shortcuts; help and diagnostics.
import { useEffect, useRef } from 'react';
import type { Controller } from '../app/controller.js';
import { ControllerContext, useApp } from './context.js';
import { Toolbar } from './Toolbar.js';
import { Grid } from './Grid.js';
import { Preview } from './Preview.js';
import { Diagnostics } from './Diagnostics.js';
import { Help } from './Help.js';
import { installShortcuts } from './shortcuts.js';
import { ExportDialog } from './ExportDialog.js';
import { installShellCommands } from '../app/shell-commands.js';
import { installLutDrop } from '../app/lut-file.js';
import { ComparisonPanel } from './ComparisonPanel.js';
import { StatisticsPanel } from './StatisticsPanel.js';
import { installDrop } from '../app/drop.js';

function StatusLine() {
  const status = useApp((s) => s.ui.status);
  const done = useApp((s) => s.library.thumbsDone);
  const total = useApp((s) => s.library.thumbsTotal);
  const path = useApp((s) => s.ui.path);
  const reason = useApp((s) => s.ui.pathReason);
  return (
    <footer className="status" role="status">
      <span className="message" title={status}>{status}</span>
      <output id="pixel-readout" className="readout" aria-label="Pixel value" />
      <output id="zoom-readout" className="zoom" aria-label="Zoom" title="Zoom (screen px per image px)" />
      {total > 0 && done < total && <progress max={total} value={done} aria-label="Thumbnails" />}
      <span className={`path path-${path}`} title={reason}>{path === 'gpu' ? 'GPU' : path === 'cpu' ? `CPU (${reason})` : 'starting…'}</span>
    </footer>
  );
}

/**
 * The right column: Comparison and Statistics. There from the moment an image is selected, not from when its
 * figures arrive: a column appearing later would narrow the preview and refit the image under the artist's eyes.
 */
function Inspector() {
  const any = useApp((s) => s.image.currentFileId !== null || s.compare.reference !== null || s.inspect.stats !== null);
  if (!any) return null;
  return <aside className="inspector" aria-label="Inspector"><ComparisonPanel /><StatisticsPanel /></aside>;
}

export function App({ controller }: { controller: Controller }) {
  useEffect(() => installShortcuts(controller), [controller]);
  useEffect(() => installShellCommands(controller, window.exrviewShell), [controller]);
  useEffect(() => installLutDrop(window, controller.actions, () => controller.store.getState().view.display.lut?.shaper ?? 'display'), [controller]);
  const root = useRef<HTMLDivElement>(null);
  // browser mode: drops on the window open folders and files (Electron's shell handles its own drops)
  useEffect(() => (window.exrviewShell || !root.current ? undefined : installDrop(controller, root.current)), [controller]);
  return (
    <ControllerContext.Provider value={controller}>
      <div className="app" ref={root}>
        <Toolbar />
        <main className="main">
          <Grid />
          <Preview />
          <Inspector />
          <Diagnostics />
        </main>
        <StatusLine />
        <ExportDialog />
        <Help />
      </div>
    </ControllerContext.Provider>
  );
}
