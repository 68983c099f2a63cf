// The subject of a set of figures: the image (a sequence's frame is its own file), part, layer, channel, what is measured
// (A, B or a difference mode), the reference and the region. A figure set carries the key it was computed for; a panel
// shows it as current only while that key is the subject on screen, and says "computing…" otherwise.
import { isDifference, type CompareMode, type StatsSource } from '../../shaders/compare-params.js';

/** The parts of the app state a subject is read from (structural: the model does not depend on the store). */
export interface SubjectSource {
  image: { currentFileId: string | null; part: number; layer: string; channel: string };
  compare: { mode: CompareMode; showB: boolean; reference: { file: { id: string }; part: number; layer: string; channel: string } | null };
  inspect: { region: { x0: number; y0: number; widthPx: number; heightPx: number } | null };
}

/** A subject as one comparable string; branded so that no other string passes for one. */
export type SubjectKey = string & { readonly subjectKey: unique symbol };

/** A's identity: the image, part, layer and channel on screen (what its figures and histogram are of, before a mode). */
export function shownImageKey(s: Pick<SubjectSource, 'image'>): string {
  return `${s.image.currentFileId}\0${s.image.part}\0${s.image.layer}\0${s.image.channel}`;
}

/** What Statistics measure in this state once the reference is loaded: A, B (A/B flip showing it) or the difference image. */
export function measuredSource(s: SubjectSource): StatsSource {
  const { reference, mode, showB } = s.compare;
  if (reference && isDifference(mode)) return { kind: 'difference', mode };
  return reference && mode === 'flip' && showB ? { kind: 'b' } : { kind: 'a' };
}

const sourceText = (m: StatsSource): string => (m.kind === 'difference' ? `difference:${m.mode}` : m.kind);

function pairText(s: SubjectSource): string {
  const {
    image: a,
    compare: { reference: b },
    inspect: { region: r },
  } = s;
  return [
    a.currentFileId ?? '',
    a.part,
    a.layer,
    a.channel,
    b ? `${b.file.id}#${b.part}#${b.layer}#${b.channel}` : '',
    r ? `${r.x0},${r.y0},${r.widthPx}x${r.heightPx}` : 'whole',
  ].join('\0');
}

/** The subject of Statistics: the pair and region, and what is measured (`measured`: what a run actually measured). */
export function statisticsSubject(s: SubjectSource, measured: StatsSource = measuredSource(s)): SubjectKey {
  return `${pairText(s)}\0${sourceText(measured)}` as SubjectKey;
}

/** The subject of the Comparison metrics: A against B over the region (the compare mode does not change them). */
export function comparisonSubject(s: SubjectSource): SubjectKey {
  return pairText(s) as SubjectKey;
}

/** Whether figures are those of `current`: none, or another subject's, are not (the panel says computing…). */
export function isCurrent(figures: { subject: SubjectKey } | null | undefined, current: SubjectKey): boolean {
  return !!figures && figures.subject === current;
}
