// The header of every part of the image on screen: every attribute as text.
import { useApp } from './context.js';

export function HeaderPanel() {
  const header = useApp((s) => s.image.header);
  if (!header) return null;
  return (
    <details className="header-panel">
      <summary>Header (version {header.version}{header.multipart ? ', multipart' : ''})</summary>
      {header.parts.map((p) => (
        <table key={p.index} aria-label={`Part ${p.index} header`}>
          <tbody>{p.attributes.map((a) => <tr key={a.name}><th>{a.name}</th><td>{a.type}</td><td>{a.text}</td></tr>)}</tbody>
        </table>
      ))}
    </details>
  );
}
