// The header of every part of the image on screen: every attribute as text.
import { useApp, useController } from './context.js';

export function HeaderPanel() {
  const c = useController();
  const header = useApp((s) => s.image.header);
  const open = useApp((s) => s.ui.headerOpen);
  const hasImage = useApp((s) => s.image.currentFileId !== null);
  // a file whose header does not read (not an EXR, cut inside its header) never gets one: say so rather than "reading…"
  const headerless = useApp((s) => {
    const file = s.library.files.find((f) => f.id === s.image.currentFileId);
    return file && file.status !== 'ok' && !file.summary ? file.status : null;
  });
  // there while an image is selected, header read or not: the preview keeps its size instead of refitting twice
  if (!hasImage) return null;
  // open follows the store so View ▸ Header (Electron's menu) and the summary click agree
  return (
    <details
      className="header-panel"
      open={open}
      onToggle={(e) => {
        if (e.currentTarget.open !== open) c.actions.toggleHeader();
      }}
    >
      <summary>
        {header
          ? `Header (version ${header.version}${header.multipart ? ', multipart' : ''})`
          : headerless === 'incomplete'
            ? 'Header (read once the file is written)'
            : headerless
              ? 'Header (cannot be read)'
              : 'Header (reading…)'}
      </summary>
      {header?.parts.map((p) => (
        <table key={p.index} aria-label={`Part ${p.index} header`}>
          <tbody>
            {p.attributes.map((a) => (
              <tr key={a.name}>
                <th>{a.name}</th>
                <td>{a.type}</td>
                <td>{a.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </details>
  );
}
