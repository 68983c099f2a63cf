// The window: toolbar, thumbnail grid, preview, status line; global shortcuts; help and diagnostics. The grid and the
// inspector are resizable and fold away (sizes remembered); Tab hides both, Shift+F is full screen.
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Controller } from '../app/controller.js';
import type { AppState } from '../state/store.js';
import { ControllerContext, useApp, useController } from './context.js';
import { Toolbar } from './Toolbar.js';
import { Grid } from './Grid.js';
import { GridFilter } from './GridFilter.js';
import { Preview } from './Preview.js';
import { PixelReadout, ZoomReadout } from './readouts.js';
import { Diagnostics } from './Diagnostics.js';
import { Help } from './Help.js';
import { installShortcuts } from './shortcuts.js';
import { ExportDialog } from './ExportDialog.js';
import { installShellCommands } from '../app/shell-commands.js';
import { installLutDrop } from '../app/lut-file.js';
import { ComparisonPanel } from './ComparisonPanel.js';
import { StatisticsPanel } from './StatisticsPanel.js';
import { installDrop } from '../app/drop.js';
import { GRID_WIDTH_RANGE_PX, INSPECTOR_WIDTH_RANGE_PX, draggedWidth, loadLayout, saveLayout } from '../state/layout.js';
import { FoldedPanel, PanelEdge } from './PanelEdge.js';
import { installFocusRelease } from './focus-release.js';
import { toggleFullscreen } from './fullscreen.js';

function StatusLine() {
  const status = useApp((s) => s.ui.status);
  const done = useApp((s) => s.library.thumbsDone);
  const total = useApp((s) => s.library.thumbsTotal);
  const path = useApp((s) => s.ui.path);
  const reason = useApp((s) => s.ui.pathReason);
  // a failure (a folder that cannot be opened) stands out from the running commentary
  const failed = /^could not /.test(status);
  return (
    <footer className="status" role="status">
      <span className={failed ? 'message failed' : 'message'} title={status}>
        {status}
      </span>
      <PixelReadout />
      <ZoomReadout />
      {total > 0 && done < total && <progress max={total} value={done} aria-label="Thumbnails" />}
      <span className={`path path-${path}`} title={reason}>
        {path === 'gpu' ? 'GPU' : path === 'cpu' ? `CPU (${reason})` : 'starting…'}
      </span>
    </footer>
  );
}

/**
 * The right column: Comparison and Statistics. There from the moment an image is selected, not from when its
 * figures arrive: a column appearing later would narrow the preview and refit the image under the artist's eyes.
 */
function Inspector() {
  const c = useController();
  const any = useApp((s) => s.image.currentFileId !== null || s.compare.reference !== null || s.inspect.stats !== null);
  const layout = useApp((s) => s.layout);
  if (!any || layout.panelsHidden) return null;
  const set = c.actions.setLayout;
  if (!layout.inspectorOpen) return <FoldedPanel name="inspector" side="right" onOpen={() => set({ inspectorOpen: true })} />;
  const others = layout.gridOpen ? layout.gridWidthPx : 0;
  return (
    <>
      <PanelEdge
        name="inspector"
        side="right"
        widthPx={layout.inspectorWidthPx}
        range={INSPECTOR_WIDTH_RANGE_PX}
        resize={(start, delta) => draggedWidth(start, delta, others, window.innerWidth, INSPECTOR_WIDTH_RANGE_PX)}
        onWidth={(inspectorWidthPx) => set({ inspectorWidthPx })}
        onFold={() => set({ inspectorOpen: false })}
      />
      <aside className="inspector" aria-label="Inspector" style={{ width: layout.inspectorWidthPx }}>
        <ComparisonPanel />
        <StatisticsPanel />
      </aside>
    </>
  );
}

/** The grid stays mounted while folded or hidden: its canvas stays the engine's and its scroll position stays. */
function GridPanel() {
  const c = useController();
  const layout = useApp((s) => s.layout);
  const set = c.actions.setLayout;
  const inspectorPx = layout.inspectorOpen ? layout.inspectorWidthPx : 0;
  const shown = layout.gridOpen && !layout.panelsHidden;
  return (
    <>
      <div className="grid-panel" hidden={!shown} style={{ width: layout.gridWidthPx }}>
        <GridFilter />
        <Grid />
      </div>
      {shown && (
        <PanelEdge
          name="grid"
          side="left"
          widthPx={layout.gridWidthPx}
          range={GRID_WIDTH_RANGE_PX}
          resize={(start, delta) => draggedWidth(start, delta, inspectorPx, window.innerWidth, GRID_WIDTH_RANGE_PX)}
          onWidth={(gridWidthPx) => set({ gridWidthPx })}
          onFold={() => set({ gridOpen: false })}
        />
      )}
      {!layout.gridOpen && !layout.panelsHidden && <FoldedPanel name="grid" side="left" onOpen={() => set({ gridOpen: true })} />}
    </>
  );
}

/** A and B going side by side (or back) refit a fitted view, so that each image shows whole in its half. */
function useSideBySideRefit(controller: Controller): void {
  useEffect(() => {
    const sideBySide = (s: AppState): boolean => !!s.compare.reference && s.compare.mode === 'side-by-side';
    return controller.store.subscribe((s, p) => {
      if (sideBySide(s) !== sideBySide(p)) controller.view.refitAfterSplit(sideBySide(p));
    });
  }, [controller]);
}

/** Restores the layout the artist left (before the first paint) and remembers each change. */
function useRememberedLayout(controller: Controller): void {
  useLayoutEffect(() => {
    const storage = (() => {
      try {
        return window.localStorage;
      } catch {
        return null;
      }
    })();
    controller.actions.setLayout(loadLayout(storage, window.innerWidth));
    return controller.store.subscribe((s, p) => {
      if (s.layout !== p.layout) saveLayout(storage, s.layout);
    });
  }, [controller]);
}

export function App({ controller }: { controller: Controller }) {
  useRememberedLayout(controller);
  useSideBySideRefit(controller);
  useEffect(() => installShortcuts(controller), [controller]);
  useEffect(() => installFocusRelease(document), []);
  useEffect(() => installShellCommands(controller, { toggleFullscreen }, window.exrviewShell), [controller]);
  useEffect(
    () => installLutDrop(window, controller.actions, () => controller.store.getState().view.display.lut?.shaper ?? 'display'),
    [controller],
  );
  const root = useRef<HTMLDivElement>(null);
  // browser mode: drops on the window open folders and files (Electron's shell handles its own drops)
  useEffect(() => (window.exrviewShell || !root.current ? undefined : installDrop(controller, root.current)), [controller]);
  return (
    <ControllerContext.Provider value={controller}>
      <div className="app" ref={root}>
        <Toolbar />
        <main className="main">
          <GridPanel />
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
