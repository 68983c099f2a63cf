// Over the preview, for a file that cannot be shown: what happened (file, part, chunk, reason) and what to do.
import { describeProblem } from './file-problem.js';
import { useApp } from './context.js';
import { Icon } from './icons.js';

export function FileProblemBox() {
  const file = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId));
  const error = useApp((s) => s.image.error);
  if (!file) return null;
  const p = describeProblem(file, error);
  if (!p) return null;
  return (
    <div className={`file-problem${p.retrying ? ' retrying' : ''}`} role="alert" aria-label="Cannot show this file">
      <h3><Icon name={p.retrying ? 'hourglass' : 'warning'} sizePx={16} /> {p.title}</h3>
      <p className="path">{file.relativePath}{p.where ? ` · ${p.where}` : ''}</p>
      <p className="reason">{p.reason}</p>
      <p className="advice">{p.advice}</p>
    </div>
  );
}
