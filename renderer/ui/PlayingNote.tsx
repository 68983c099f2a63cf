// The line the Comparison and Statistics panels show while a sequence plays: their figures stay those of the frame at rest.
import { useApp } from './context.js';

export function PlayingNote() {
  const playing = useApp((s) => s.playback.playing);
  if (!playing) return null;
  return (
    <p className="note" data-key="playing-note">
      playing: these figures are of the frame playback last stopped on; they follow when it stops
    </p>
  );
}
