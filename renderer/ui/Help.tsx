// The help overlay (?): shortcuts and mouse; About from Electron's Help menu.
import { useApp, useController } from './context.js';

const KEYS: [string, string][] = [
  ['E / Shift+E', 'exposure +0.5 / −0.5 EV'], ['F', 'fit'], ['0', 'reset exposure, offset, gamma and fit'],
  ['N / P, arrows', 'next / previous image'], ['wheel', 'zoom at the cursor'], ['drag', 'pan'], ['double-click', '1:1'], ['?', 'this help'],
  ['click, Ctrl/Cmd-click, Shift-click', 'select one, add or remove one, add a range (grid)'],
  ['arrows, Home, End in the grid', 'move; with Shift extend, with Ctrl/Cmd move without selecting'],
  ['Space / Ctrl+A in the grid', 'toggle the focused image / select all'],
  ['J / K / L (a sequence)', 'play backwards / stop / play forwards'],
  ['Space, ← / → (a sequence)', 'play or stop; one frame back / on'],
  ['I / O (a sequence)', 'in / out point at the frame on screen'],
];

export function Help() {
  const open = useApp((s) => s.ui.helpOpen);
  const topic = useApp((s) => s.ui.helpTopic);
  const c = useController();
  if (!open) return null;
  const info = c.info;
  return (
    <div className="help" role="dialog" aria-label="Help" onClick={() => c.actions.setUi({ helpOpen: false })}>
      {topic === 'about' ? (
        <p className="about">exrview {info?.version ?? ''}: a viewer for folders of OpenEXR images{info ? ` (${info.mode}, ${info.platform})` : ''}. Click anywhere to close.</p>
      ) : <table>
        <tbody>{KEYS.map(([k, v]) => <tr key={k}><th>{k}</th><td>{v}</td></tr>)}</tbody>
      </table>}
    </div>
  );
}
