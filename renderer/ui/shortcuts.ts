// Keyboard shortcuts in the spirit of tev: E / Shift+E ±0.5 EV, F fit, 0 reset, N/P and arrows, ? help; on a sequence
// as in players (mrv2, RV): J back, K stop, L forwards, Space play/stop, ←/→ one frame, I/O in and out points.
import type { Controller } from '../app/controller.js';

export function installShortcuts(c: Controller): () => void {
  const onKey = (e: KeyboardEvent): void => {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    // a control that handled the key itself (the grid's listbox keys) has the last word
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const a = c.actions;
    if (c.player.open && playerKey(c, e.key)) {
      e.preventDefault();
      return;
    }
    switch (e.key) {
      case 'e': a.stepExposure(1); break;
      case 'E': a.stepExposure(-1); break;
      case 'f': case 'F': c.fit(); break;
      case '0': a.setDisplay({ exposureEv: 0, offset: 0, gamma: 1 }); c.fit(); break;
      case 'n': case 'N': case 'ArrowRight': case 'ArrowDown': c.stepItem(1); break;
      case 'p': case 'P': case 'ArrowLeft': case 'ArrowUp': c.stepItem(-1); break;
      case '?': a.toggleHelp(); break;
      case 'Escape': a.setUi({ helpOpen: false }); break;
      default: return;
    }
    e.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}

/** The player's keys while a sequence is on screen; false for keys that are not the player's. */
function playerKey(c: Controller, key: string): boolean {
  const p = c.player;
  switch (key) {
    case 'j': case 'J': p.play(-1); return true;
    case 'k': case 'K': p.stop(); return true;
    case 'l': case 'L': p.play(1); return true;
    case ' ': p.toggle(); return true;
    case 'ArrowLeft': p.step(-1); return true;
    case 'ArrowRight': p.step(1); return true;
    case 'i': case 'I': c.actions.setPlayback({ inFrame: p.frame }); return true;
    case 'o': case 'O': c.actions.setPlayback({ outFrame: p.frame }); return true;
    default: return false;
  }
}
