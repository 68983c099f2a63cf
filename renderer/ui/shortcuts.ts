// Keyboard shortcuts in the spirit of tev: E / Shift+E ±0.5 EV, F fit, 0 reset, N/P and arrows, ? help.
import type { Controller } from '../app/controller.js';

export function installShortcuts(c: Controller): () => void {
  const onKey = (e: KeyboardEvent): void => {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    // a control that handled the key itself (the grid's listbox keys) has the last word
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const a = c.actions;
    switch (e.key) {
      case 'e': a.stepExposure(1); break;
      case 'E': a.stepExposure(-1); break;
      case 'f': case 'F': c.fit(); break;
      case '0': a.setDisplay({ exposureEv: 0, offset: 0, gamma: 1 }); c.fit(); break;
      case 'n': case 'N': case 'ArrowRight': case 'ArrowDown': a.stepImage(1); break;
      case 'p': case 'P': case 'ArrowLeft': case 'ArrowUp': a.stepImage(-1); break;
      case '?': a.toggleHelp(); break;
      case 'Escape': a.setUi({ helpOpen: false }); break;
      default: return;
    }
    e.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
