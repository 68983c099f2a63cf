// The Statistics region: min, max, mean, standard deviation, NaN and Inf per channel of what is shown, over the whole
// image or the Shift-dragged rectangle, less a damaged image's missing pixels (how many is said); for an image shown
// reduced, which level the figures are of (level 0, measured on the host chunk by chunk, where it can be).
import { fmtCount, fmtValue } from './format.js';
import { useApp, useController } from './context.js';
import { PlayingNote } from './PlayingNote.js';
import { isCurrent, statisticsSubject } from '../model/subject.js';

export function StatisticsPanel() {
  const c = useController();
  // figures computed for another image, layer, channel, mode or region are never shown as this one's
  const stored = useApp((s) => s.inspect.stats);
  const subject = useApp((s) => statisticsSubject(s));
  const st = isCurrent(stored, subject) ? stored : null;
  const shownName = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId)?.name ?? null);
  const region = useApp((s) => s.inspect.region);
  // a damaged file whose header reads is measured over the chunks that could be read; one still being written, over
  // the chunks that are there
  const rendering = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId)?.rendering);
  const unreadable = useApp((s) => {
    const file = s.library.files.find((f) => f.id === s.image.currentFileId);
    return s.image.error !== null || (file?.status !== 'ok' && !(file?.status === 'error' && file.summary) && !file?.rendering);
  });
  if (!st)
    return (
      <section className="panel statistics" role="region" aria-label="Statistics">
        <h2>Statistics</h2>
        <p className="note">
          {shownName === null
            ? 'no image on screen'
            : unreadable && rendering
              ? `nothing to measure yet: ${shownName} is being written (${rendering.chunksPresent} of ${rendering.chunksTotal} chunks)`
              : unreadable
                ? `nothing to measure: ${shownName} cannot be shown`
                : `computing… (${shownName})`}
        </p>
      </section>
    );
  const r = st.region;
  return (
    <section className="panel statistics" role="region" aria-label="Statistics">
      <h2>Statistics</h2>
      <PlayingNote />
      <p className="pair">
        {st.source}
        <br />
        <span data-key="stats-region">
          {st.whole
            ? `whole image, ${r.widthPx}×${r.heightPx}`
            : `rectangle ${r.x0},${r.y0} – ${r.x0 + r.widthPx - 1},${r.y0 + r.heightPx - 1} (${r.widthPx}×${r.heightPx})`}
        </span>
        {region && (
          <button
            type="button"
            className="link"
            onClick={() => c.actions.setInspect({ region: null })}
            title="Back to the whole image (Esc)"
          >
            whole image
          </button>
        )}
      </p>
      {st.rendering && (
        <p className="note rendering" data-key="stats-rendering">
          rendering… {st.rendering.chunksPresent} of {st.rendering.chunksTotal} chunks: these figures are of the chunks there
          {st.missingPx > 0 && `, ${fmtCount(st.missingPx)} pixels not written yet left out`}
        </p>
      )}
      {st.missingPx > 0 && !st.rendering && (
        <p className="note missing" data-key="stats-missing">
          {fmtCount(st.missingPx)} pixels missing (chunks that could not be read): left out of these figures
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th>channel</th>
            <th>min</th>
            <th>max</th>
            <th>mean</th>
            <th title="population standard deviation">std dev</th>
            <th>NaN</th>
            <th>Inf</th>
          </tr>
        </thead>
        <tbody>
          {st.rows.map((row) => (
            <tr key={row.name} data-channel={row.name}>
              <th>{row.name}</th>
              <td data-key="min">{fmtValue(row.min)}</td>
              <td data-key="max">{fmtValue(row.max)}</td>
              <td data-key="mean">{fmtValue(row.mean)}</td>
              <td data-key="sd">{fmtValue(row.sd)}</td>
              <td data-key="nan">{fmtCount(row.nan)}</td>
              <td data-key="inf">{fmtCount(row.inf)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {st.measuredOn && (
        <p className="note measured-on" data-key="stats-measured-on">
          of {st.measuredOn}
        </p>
      )}
      <p className="source">
        {st.path === 'gpu'
          ? `GPU reduction${Number.isFinite(st.gpuMs) ? `, ${st.gpuMs.toFixed(3)} ms GPU` : ''}`
          : st.path === 'host'
            ? 'measured on the host'
            : 'CPU reduction'}
        {'; Shift-drag on the image for a rectangle'}
      </p>
    </section>
  );
}
