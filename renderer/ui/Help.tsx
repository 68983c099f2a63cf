// The help overlay (?): shortcuts and mouse; About from Electron's Help menu.
import { useApp, useController } from './context.js';

/** Every shortcut (shortcuts.ts and the preview's own keys); the toolbar's tooltips name the same keys. */
export const KEYS: [string, string][] = [
  ['E / Shift+E', 'exposure +⅓ / −⅓ EV (on the exposure control: wheel, arrows, or type a value; Shift: a stop)'],
  ['0', 'reset exposure, offset, gamma and fit'],
  ['G / Shift+G', 'gamma +0.1 / −0.1'],
  ['T / Shift+T', 'next / previous display transform (tone-map)'],
  ['Z', 'false colour (EV zones) on / off'],
  ['X', 'clipping marks on / off'],
  ['I', 'NaN / Inf marks on / off'],
  ['F', 'fit (side by side: each image whole in its half)'],
  ['Shift+F', 'full screen on / off'],
  ['Tab', 'hide / show the grid and the inspector: the image alone (drag their edges to resize, ‹ › to fold)'],
  ['+ / − / 1, h j k l (preview focused)', 'zoom in / out / 1:1, pan'],
  ['wheel', 'zoom at the cursor'],
  ['drag', 'pan'],
  ['double-click', '1:1'],
  ['N / P, arrows', 'next / previous image'],
  ['click, Ctrl/Cmd-click, Shift-click', 'select one, add or remove one, add a range (grid)'],
  ['arrows, Home, End in the grid', 'move; with Shift extend, with Ctrl/Cmd move without selecting'],
  ['Space / Ctrl+A in the grid', 'toggle the focused image / select all'],
  ['J / K / L (a sequence)', 'play backwards / stop / play forwards'],
  ['Space, ← / → (a sequence)', 'play or stop; one frame back / on'],
  ['I / O (a sequence)', 'in / out point at the frame on screen'],
  ['O', 'type a folder to open (the Folder field)'],
  ['drop a folder or an EXR on the window', 'open it (the file selected)'],
  ['/', 'filter the grid by name'],
  ['Shift+S', 'next sort order (name, newest, largest)'],
  ['R', 'set the image on screen as the reference B (again: clear it)'],
  ['B', 'A/B flip: show the other image'],
  ['C / Shift+C', 'next / previous compare mode (off, flip, wipe, side by side, the error images)'],
  ['W', 'wipe; again: divider vertical or horizontal (drag the divider to move it)'],
  ['M / Shift+M', 'next / previous colormap'],
  ['A', 'colormap auto range on / off'],
  ['Shift-drag on the image', 'statistics of a rectangle (Esc: whole image again)'],
  ['F2', 'channel expression: type one over the channels (diffuse + specular, select(depth > 10, 0, beauty)); Enter shows it as the layer'],
  ['Shift+L', 'Layers view: every layer side by side (click one to open it)'],
  ['Layer menu ▸ … (Cryptomatte)', 'coloured ID view of a Cryptomatte layer; the pointer names the object, material or asset under it'],
  ['click / Shift-click (Cryptomatte)', 'pick the name under the pointer alone / add or remove it (or tick names in the panel)'],
  ['K (Cryptomatte)', 'picked matte: tinted overlay, alpha, isolated (beauty × matte)'],
  ['Delete (Cryptomatte)', 'clear the picked names'],
  ['click (a deep image)', 'list the pixel’s samples: Z, ZBack and every channel, in file order, depth order marked'],
  ['F3 (a deep image)', 'depth range on / off: near and far handles over the Z extent; only the samples between them are composited'],
  ['Shift+H', 'histogram on / off'],
  ['Y', 'histogram count axis: linear / log'],
  ['V', 'pixel values drawn inside pixels when zoomed in'],
  ['S', 'export the selection…'],
  ['D', 'diagnostics panel'],
  ['U / Shift+U', 'load a .cube LUT… / remove it'],
  ['Q', 'HDR output on / off (where the display allows it)'],
  ['] / [', 'next / previous OpenColorIO config (none, then the built-in ones)'],
  ['Shift+Q', 'load an OpenColorIO config file…'],
  ['H', '2D view / Environment view'],
  ['?', 'this help'],
  ['Esc', 'close this help; clear the statistics rectangle'],
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
        <p className="about">
          exrview {info?.version ?? ''}: a viewer for folders of OpenEXR images{info ? ` (${info.mode}, ${info.platform})` : ''}. Click
          anywhere to close.
        </p>
      ) : (
        <table>
          <tbody>
            {KEYS.map(([k, v]) => (
              <tr key={k}>
                <th>{k}</th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
