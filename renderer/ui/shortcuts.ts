// Keyboard shortcuts in the spirit of tev: E / Shift+E ±0.5 EV, F fit, 0 reset, N/P and arrows, ? help; compare and
// inspect: R reference, B A/B flip, C / Shift+C compare mode, W wipe direction, M colormap, L layers, H histogram, V values.
import type { Controller } from '../app/controller.js';
import { COMPARE_MODES } from '../../shaders/compare-params.js';
import { COLORMAPS } from '../../shaders/colormaps.js';

const cycle = <T,>(list: readonly T[], v: T, d: number): T => list[(list.indexOf(v) + d + list.length) % list.length]!;

export function installShortcuts(c: Controller): () => void {
  const onKey = (e: KeyboardEvent): void => {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    // a control that handled the key itself (the grid's listbox keys) has the last word
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const a = c.actions;
    const s = c.store.getState();
    switch (e.key) {
      case 'e': a.stepExposure(1); break;
      case 'E': a.stepExposure(-1); break;
      case 'f': case 'F': c.fit(); break;
      case '0': a.setDisplay({ exposureEv: 0, offset: 0, gamma: 1 }); c.fit(); break;
      case 'n': case 'N': case 'ArrowRight': case 'ArrowDown': a.stepImage(1); break;
      case 'p': case 'P': case 'ArrowLeft': case 'ArrowUp': a.stepImage(-1); break;
      case 'r': case 'R': a.toggleReference(); break;
      case 'b': case 'B': if (s.compare.reference) a.flip(); break;
      case 'c': a.setCompareMode(cycle(COMPARE_MODES, s.compare.mode, 1)); break;
      case 'C': a.setCompareMode(cycle(COMPARE_MODES, s.compare.mode, -1)); break;
      case 'w': case 'W': if (s.compare.mode === 'wipe') a.setCompare({ wipeAxis: s.compare.wipeAxis === 'x' ? 'y' : 'x' }); else a.setCompareMode('wipe'); break;
      case 'm': a.setInspect({ colormap: cycle(COLORMAPS, s.inspect.colormap, 1) }); break;
      case 'M': a.setInspect({ colormap: cycle(COLORMAPS, s.inspect.colormap, -1) }); break;
      case 'L': a.setInspect({ layersView: !s.inspect.layersView }); break;
      case 'H': a.setInspect({ histogramOpen: !s.inspect.histogramOpen }); break;
      case 'v': case 'V': a.setInspect({ pixelValues: !s.inspect.pixelValues }); break;
      case '?': a.toggleHelp(); break;
      case 'Escape': a.setUi({ helpOpen: false }); if (s.inspect.region) a.setInspect({ region: null }); break;
      default: return;
    }
    e.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
