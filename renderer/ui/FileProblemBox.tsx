// Over the preview: for a file that cannot be shown, what happened (file, part, chunk, reason) and what to do; for a
// damaged file shown in part, a banner that says how much was read and which pixels are missing (drawn hatched).
import { describeMissing, describeProblem } from './file-problem.js';
import { useApp } from './context.js';
import { Icon } from './icons.js';

export function FileProblemBox() {
  const file = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId));
  const error = useApp((s) => s.image.error);
  // the image on screen, when it is this file's (a previous file's never speaks for this one)
  const shown = useApp((s) => (s.image.decoded?.fileId === s.image.currentFileId ? s.image.decoded : null));
  if (!file) return null;
  const p = describeProblem(file, error);
  if (!p) {
    // chunks not written yet are not damage: the preview says "rendering…" instead, while the host says it is being
    // written (a file cut short also reads as incomplete, and is damage once it stopped changing)
    if (!shown?.missing || (shown.missing.incomplete && file.rendering) || error) return null;
    const m = describeMissing(file, shown.missing, shown.dataWindow);
    return (
      <div className="file-problem partial" role="status" aria-label="Part of this file could not be read">
        <h3>
          <Icon name="warning" sizePx={16} /> {m.title}
        </h3>
        <p className="path">
          {file.relativePath}
          {m.where ? ` · ${m.where}` : ''}
        </p>
        <p className="missing-text">{m.missingText}</p>
        <p className="reason">{m.reason}</p>
        <p className="advice">{m.advice}</p>
      </div>
    );
  }
  return (
    <div className={`file-problem${p.retrying ? ' retrying' : ''}`} role="alert" aria-label="Cannot show this file">
      <h3>
        <Icon name={p.retrying ? 'hourglass' : 'warning'} sizePx={16} /> {p.title}
      </h3>
      <p className="path">
        {file.relativePath}
        {p.where ? ` · ${p.where}` : ''}
      </p>
      <p className="reason">{p.reason}</p>
      <p className="advice">{p.advice}</p>
    </div>
  );
}
