// The Comparison region: per-channel metrics of A (the current image) against B (the reference), where they came from
// (GPU reduction or the CPU path, and how long), and what differs between the two images.
import { fmtCount, fmtDb, fmtValue } from './format.js';
import { useApp } from './context.js';
import { PlayingNote } from './PlayingNote.js';
import { comparisonSubject, isCurrent } from '../model/subject.js';

export function ComparisonPanel() {
  const ref = useApp((s) => s.compare.reference);
  // metrics of another pair or region are never shown as this one's
  const stored = useApp((s) => s.compare.metrics);
  const subject = useApp((s) => comparisonSubject(s));
  const m = isCurrent(stored, subject) ? stored : null;
  const note = useApp((s) => s.compare.metricsNote);
  const shownName = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId)?.name ?? null);
  // a file still being written is compared over the chunks that are there
  const unreadable = useApp((s) => {
    const file = s.library.files.find((f) => f.id === s.image.currentFileId);
    return s.image.error !== null || (file?.status !== 'ok' && !file?.rendering);
  });
  if (!ref) return null;
  const waiting =
    shownName === null
      ? 'no image on screen to compare with B'
      : unreadable
        ? `nothing to compare: ${shownName} cannot be shown`
        : note || `computing… (${shownName})`;
  const rows = m ? [...m.rows, { name: 'all', summary: m.all }] : [];
  return (
    <section className="panel comparison" role="region" aria-label="Comparison">
      <h2>Comparison</h2>
      {!m && <p className="note">{waiting}</p>}
      {m && (
        <>
          <PlayingNote />
          <p className="pair">
            <b>A</b> {m.a}
            <br />
            <b>B</b> {m.b}
          </p>
          {/* two tables of five columns: the panel stays narrow enough to leave the image its room */}
          <table aria-label="Errors per channel">
            <thead>
              <tr>
                <th>channel</th>
                <th title="mean of A − B">mean error</th>
                <th title="mean of |A − B| (oiiotool's Mean error)">mean abs</th>
                <th>RMSE</th>
                <th title="20·log10(peak / RMSE), peak the larger of 1 and the largest value (as oiiotool)">PSNR</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.name} data-channel={r.name}>
                  <th>{r.name}</th>
                  <td data-key="mean-error">{fmtValue(r.summary.meanError)}</td>
                  <td data-key="mean-abs-error">{fmtValue(r.summary.meanAbsError)}</td>
                  <td data-key="rmse">{fmtValue(r.summary.rmse)}</td>
                  <td data-key="psnr">{fmtDb(r.summary.psnr)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table aria-label="Largest error and differing pixels per channel">
            <thead>
              <tr>
                <th>channel</th>
                <th>max |A − B|</th>
                <th title="x, y of the largest |A − B| (the first in scan order)">at</th>
                <th>differing</th>
                <th title="NaN / Inf in A, then in B">NaN/Inf A · B</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.name} data-channel={r.name}>
                  <th>{r.name}</th>
                  <td data-key="max-error">{fmtValue(r.summary.maxAbsError)}</td>
                  <td data-key="max-at">{r.summary.maxAt ? `${r.summary.maxAt[0]}, ${r.summary.maxAt[1]}` : '—'}</td>
                  <td data-key="differing">{fmtCount(r.summary.differ)}</td>
                  <td data-key="nan-inf">
                    {r.summary.nanA}/{r.summary.infA} · {r.summary.nanB}/{r.summary.infB}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p data-key="pixels-differ">
            {fmtCount(m.pixelsDiffer)} of {fmtCount(m.pixels)} pixels differ ({((100 * m.pixelsDiffer) / Math.max(1, m.pixels)).toFixed(2)}{' '}
            %)
          </p>
          {(m.missingPxA > 0 || m.missingPxB > 0) && (
            <p className="note missing" data-key="metrics-missing">
              {missingText(m.missingPxA, m.missingPxB)} (chunks that could not be read): left out of these figures
            </p>
          )}
          {m.notes.map((n) => (
            <p key={n} className="note">
              {n}
            </p>
          ))}
          <p className="source" data-key="metrics-path">
            {m.path === 'gpu' ? `GPU reduction${Number.isFinite(m.gpuMs) ? `, ${m.gpuMs.toFixed(3)} ms GPU` : ''}` : 'CPU reduction'},{' '}
            {m.wallMs.toFixed(1)} ms
          </p>
        </>
      )}
    </section>
  );
}

/** "N pixels missing in B", or in A, or "N pixels missing in A, M in B". */
function missingText(inA: number, inB: number): string {
  if (inA > 0 && inB > 0) return `${fmtCount(inA)} pixels missing in A, ${fmtCount(inB)} in B`;
  return inA > 0 ? `${fmtCount(inA)} pixels missing in A` : `${fmtCount(inB)} pixels missing in B`;
}
