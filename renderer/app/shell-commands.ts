// Electron only: menu commands, drops and OS open-file events from the shell (window.exrviewShell), turned into controller actions.
import type { ShellApi, ShellCommand, ViewAction } from '../../contract/shell-api.js';
import type { Controller } from './controller.js';

declare global {
  interface Window {
    exrviewShell?: ShellApi;
  }
}

const ZOOM_STEP = 2;

/** What the commands drive: the controller's actions and view methods. */
export type ShellTarget = Pick<Controller, 'store' | 'actions' | 'fit' | 'zoomBy' | 'actualSize' | 'showFolder'>;

/** What the page does that no controller holds: full screen through the Fullscreen API (ui/fullscreen.ts). */
export interface PageCommands {
  toggleFullscreen(): void;
}

function viewAction(c: ShellTarget, page: PageCommands, action: ViewAction): void {
  const a = c.actions;
  switch (action) {
    case 'zoom-in':
      c.zoomBy(ZOOM_STEP);
      break;
    case 'zoom-out':
      c.zoomBy(1 / ZOOM_STEP);
      break;
    case 'zoom-fit':
      c.fit();
      break;
    case 'zoom-actual':
      c.actualSize();
      break;
    case 'exposure-up':
      a.stepExposure(1);
      break;
    case 'exposure-down':
      a.stepExposure(-1);
      break;
    case 'exposure-reset':
      a.setExposure(0);
      break;
    case 'toggle-diagnostics':
      a.toggleDiagnostics();
      break;
    case 'toggle-header':
      a.toggleHeader();
      break;
    case 'toggle-fullscreen':
      page.toggleFullscreen();
      break;
    case 'toggle-panels':
      a.setLayout({ panelsHidden: !c.store.getState().layout.panelsHidden });
      break;
  }
}

/** Acts on one shell command. */
export function handleShellCommand(c: ShellTarget, page: PageCommands, command: ShellCommand): void {
  switch (command.type) {
    case 'folder-opened':
      void c.showFolder(command.folder, command.selectFileName);
      break;
    // File ▸ Export… opens the export panel on the selection; its Export button asks the shell for a folder
    case 'export':
      c.actions.setExport({ open: true, outcome: null });
      break;
    case 'view':
      viewAction(c, page, command.action);
      break;
    case 'help':
      c.actions.setUi({ helpOpen: true, helpTopic: command.topic });
      break;
  }
}

/** Listens while the shell exists (Electron); returns the unsubscribe. Browser mode has no shell: nothing happens. */
export function installShellCommands(c: ShellTarget, page: PageCommands, shell: ShellApi | undefined): () => void {
  if (!shell) return () => {};
  return shell.onCommand((command) => handleShellCommand(c, page, command));
}
