// What the Comparison panel says about a pair: how the two were aligned and what differs between them.
import type { PartSummary } from '../host-client/api-types.js';

const boxText = (b: readonly number[]): string => `${b[0]},${b[1]} – ${b[2]},${b[3]}`;

/** What is said about the pair: alignment, data windows, resolutions, channel sets. Nothing is refused. */
export function pairNotes(a: PartSummary, b: PartSummary, aNames: (string | null)[], bNames: (string | null)[], region: boolean): string[] {
  const out: string[] = [];
  const dispSize = (p: PartSummary) => `${p.displayWindow[2] - p.displayWindow[0] + 1}×${p.displayWindow[3] - p.displayWindow[1] + 1}`;
  if (dispSize(a) !== dispSize(b))
    out.push(
      `Resolutions differ (A ${dispSize(a)}, B ${dispSize(b)}): aligned at their display windows' top-left corners, not resampled; outside an image's data window it counts as 0.`,
    );
  else if (a.displayWindow.join() !== b.displayWindow.join())
    out.push(`Display windows differ (A ${boxText(a.displayWindow)}, B ${boxText(b.displayWindow)}): aligned at their top-left corners.`);
  if (a.dataWindow.join() !== b.dataWindow.join())
    out.push(
      `Data windows differ (A ${boxText(a.dataWindow)}, B ${boxText(b.dataWindow)}): compared over both; outside its data window an image counts as 0, as oiiotool does.`,
    );
  for (let c = 0; c < 4; c++) {
    if (aNames[c] && !bNames[c]) out.push(`B has no ${aNames[c]}: compared with ${c === 3 ? 1 : 0}.`);
    else if (!aNames[c] && bNames[c]) out.push(`A has no ${bNames[c]}: compared with ${c === 3 ? 1 : 0}.`);
  }
  if (region) out.push('Over the Shift-dragged rectangle only (Esc clears it).');
  return out;
}
