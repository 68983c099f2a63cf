// Keyboard shortcuts in the spirit of tev: E / Shift+E ±⅓ EV, F fit, 0 reset, Tab panels, Shift+F full screen, N/P and arrows, ? help; compare and
// inspect: R reference, B A/B flip, C / Shift+C compare mode, W wipe direction, M colormap, Shift+L layers, Shift+H
// histogram, V values; on a sequence as in players (mrv2, RV): J back, K stop, L forwards, Space play/stop, ←/→ one
// frame, I/O in and out points; and one for every other control of the toolbar (Help.tsx lists them all).
import type { Controller } from '../app/controller.js';
import { COMPARE_MODES } from '../../shaders/compare-params.js';
import { COLORMAPS } from '../../shaders/colormaps.js';
import { DISPLAY_TRANSFORMS } from '../../shaders/display-params.js';
import type { SortKey } from '../state/store.js';
import { toggleFullscreen } from './fullscreen.js';
import { stepColourConfig } from '../app/colour.js';

const SORTS: readonly SortKey[] = ['name', 'mtime', 'size'];
const GAMMA_STEP = 0.1;

/** Puts the keyboard in a field (the toolbar's folder path, the grid's filter). */
function focusField(label: string): void {
  const el = document.querySelector<HTMLInputElement>(`.app input[aria-label="${label}"]`);
  el?.focus();
  el?.select();
}

const cycle = <T>(list: readonly T[], v: T, d: number): T => list[(list.indexOf(v) + d + list.length) % list.length]!;

export function installShortcuts(c: Controller): () => void {
  // how the focused element got the focus: Tab hides the panels unless the keyboard brought it there (then Tab moves on)
  let lastInputKey = false,
    focusByKey = false;
  const onAnyKey = (): void => {
    lastInputKey = true;
  };
  const onPointer = (): void => {
    lastInputKey = false;
  };
  const onFocus = (): void => {
    focusByKey = lastInputKey;
  };
  const onKey = (e: KeyboardEvent): void => {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    // a control that handled the key itself (the grid's listbox keys) has the last word
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const a = c.actions;
    if (e.key === 'Tab') {
      // as in paint and grading tools; a control the keyboard reached keeps Tab for moving on
      if (e.shiftKey || (t && t !== document.body && focusByKey)) return;
      a.setLayout({ panelsHidden: !c.store.getState().layout.panelsHidden });
      e.preventDefault();
      return;
    }
    if (c.player.open && playerKey(c, e.key)) {
      e.preventDefault();
      return;
    }
    const s = c.store.getState();
    switch (e.key) {
      case 'e':
        a.stepExposure(1);
        break;
      case 'E':
        a.stepExposure(-1);
        break;
      case 'f':
        c.fit();
        break;
      case 'F':
        toggleFullscreen();
        break;
      case '0':
        a.setDisplay({ exposureEv: 0, offset: 0, gamma: 1 });
        c.fit();
        break;
      case 'n':
      case 'N':
      case 'ArrowRight':
      case 'ArrowDown':
        c.stepItem(1);
        break;
      case 'p':
      case 'P':
      case 'ArrowLeft':
      case 'ArrowUp':
        c.stepItem(-1);
        break;
      case 'r':
      case 'R':
        a.toggleReference();
        break;
      case 'b':
      case 'B':
        if (s.compare.reference) a.flip();
        break;
      case 'c':
        a.setCompareMode(cycle(COMPARE_MODES, s.compare.mode, 1));
        break;
      case 'C':
        a.setCompareMode(cycle(COMPARE_MODES, s.compare.mode, -1));
        break;
      case 'w':
      case 'W':
        if (s.compare.mode === 'wipe') a.setCompare({ wipeAxis: s.compare.wipeAxis === 'x' ? 'y' : 'x' });
        else a.setCompareMode('wipe');
        break;
      case 'm':
        a.setInspect({ colormap: cycle(COLORMAPS, s.inspect.colormap, 1) });
        break;
      case 'M':
        a.setInspect({ colormap: cycle(COLORMAPS, s.inspect.colormap, -1) });
        break;
      case 'L':
        a.setInspect({ layersView: !s.inspect.layersView });
        break;
      case 'H':
        a.setInspect({ histogramOpen: !s.inspect.histogramOpen });
        break;
      case 'y':
      case 'Y':
        a.setInspect({ histogramLog: !s.inspect.histogramLog });
        break;
      case 'a':
      case 'A':
        a.setInspect({ autoRange: !s.inspect.autoRange });
        if (!s.inspect.autoRange) c.compare.autoRange();
        break;
      case 't':
        a.setDisplay({ transform: cycle(DISPLAY_TRANSFORMS, s.view.display.transform, 1) });
        break;
      case 'T':
        a.setDisplay({ transform: cycle(DISPLAY_TRANSFORMS, s.view.display.transform, -1) });
        break;
      case 'g':
        a.setDisplay({ gamma: +(s.view.display.gamma + GAMMA_STEP).toFixed(2) });
        break;
      case 'G':
        a.setDisplay({ gamma: Math.max(GAMMA_STEP, +(s.view.display.gamma - GAMMA_STEP).toFixed(2)) });
        break;
      case 'z':
      case 'Z':
        a.setDisplay({ falseColour: !s.view.display.falseColour });
        break;
      case 'x':
      case 'X':
        a.setDisplay({ clipping: !s.view.display.clipping });
        break;
      case 'i':
      case 'I':
        a.setDisplay({ nanInf: !s.view.display.nanInf });
        break;
      case 'd':
      case 'D':
        a.toggleDiagnostics();
        break;
      case 's':
        a.setExport({ open: true, outcome: null });
        break;
      case 'S':
        a.setSort(cycle(SORTS, s.library.sort, 1));
        break;
      case 'o':
      case 'O':
        focusField('Folder');
        break;
      case '/':
        a.setLayout({ gridOpen: true, panelsHidden: false });
        setTimeout(() => focusField('Filter'), 0);
        break;
      case 'v':
      case 'V':
        a.setInspect({ pixelValues: !s.inspect.pixelValues });
        break;
      case 'u':
        document.querySelector<HTMLButtonElement>('.toolbar .lut button[title^="Load"]')?.click();
        break;
      case 'U':
        a.setDisplay({ lut: null });
        break;
      case 'q':
        if (s.view.hdr.support?.available) a.setHdrOutput(!s.view.display.hdr);
        break;
      case ']':
      case '[':
        void stepColourConfig(a, c.store, e.key === ']' ? 1 : -1);
        break;
      case 'Q':
        document.querySelector<HTMLButtonElement>('.toolbar .ocio button[title^="Load an OpenColorIO"]')?.click();
        break;
      // the 2D / Environment switch is the preview's own state: the key presses its button
      case 'h':
        document.querySelector<HTMLButtonElement>('.view-switch button[aria-pressed="false"]:not([disabled])')?.click();
        break;
      case '?':
        a.toggleHelp();
        break;
      case 'Escape':
        a.setUi({ helpOpen: false });
        if (s.inspect.region) a.setInspect({ region: null });
        break;
      default:
        return;
    }
    e.preventDefault();
  };
  window.addEventListener('keydown', onAnyKey, true);
  window.addEventListener('pointerdown', onPointer, true);
  window.addEventListener('focusin', onFocus);
  window.addEventListener('keydown', onKey);
  return () => {
    window.removeEventListener('keydown', onAnyKey, true);
    window.removeEventListener('pointerdown', onPointer, true);
    window.removeEventListener('focusin', onFocus);
    window.removeEventListener('keydown', onKey);
  };
}

/** The player's keys while a sequence is on screen; false for keys that are not the player's. */
function playerKey(c: Controller, key: string): boolean {
  const p = c.player;
  switch (key) {
    case 'j':
    case 'J':
      p.play(-1);
      return true;
    case 'k':
    case 'K':
      p.stop();
      return true;
    case 'l':
      p.play(1);
      return true; // Shift+L stays the Layers view
    case ' ':
      p.toggle();
      return true;
    case 'ArrowLeft':
      p.step(-1);
      return true;
    case 'ArrowRight':
      p.step(1);
      return true;
    case 'i':
    case 'I':
      c.actions.setPlayback({ inFrame: p.frame });
      return true;
    case 'o':
    case 'O':
      c.actions.setPlayback({ outFrame: p.frame });
      return true;
    default:
      return false;
  }
}
