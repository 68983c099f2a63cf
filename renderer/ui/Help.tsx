// The help overlay (?): shortcuts and mouse.
import { useApp, useController } from './context.js';

const KEYS: [string, string][] = [
  ['E / Shift+E', 'exposure +0.5 / −0.5 EV'], ['F', 'fit'], ['0', 'reset exposure, offset, gamma and fit'],
  ['N / P, arrows', 'next / previous image'], ['wheel', 'zoom at the cursor'], ['drag', 'pan'], ['double-click', '1:1'], ['?', 'this help'],
];

export function Help() {
  const open = useApp((s) => s.ui.helpOpen);
  const c = useController();
  if (!open) return null;
  return (
    <div className="help" role="dialog" aria-label="Help" onClick={() => c.actions.setUi({ helpOpen: false })}>
      <table>
        <tbody>{KEYS.map(([k, v]) => <tr key={k}><th>{k}</th><td>{v}</td></tr>)}</tbody>
      </table>
    </div>
  );
}
