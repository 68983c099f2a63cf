// The Layer menu's Cryptomatte entries: each Cryptomatte layer of the part on screen (from its header), and the ones that
// cannot be used (chosen, the panel says why).
import { useApp, useController } from './context.js';

/** The prefix of a Cryptomatte entry's value in the Layer menu. */
export const CRYPTOMATTE_OPTION = 'cryptomatte:';

export function CryptomatteLayerOptions({ current }: { current: string | null }) {
  const c = useController();
  useApp((s) => s.image.header); // the layers come with the header
  const header = c.cryptomatte.header();
  const names = header?.layers.map((l) => l.name) ?? [];
  // a layer picked on another image stays named, so that the menu shows what is chosen
  if (current !== null && !names.includes(current)) names.push(current);
  if (!names.length && !header?.problems.length) return null;
  return (
    <optgroup label="Cryptomatte">
      {names.map((name) => (
        <option key={name} value={`${CRYPTOMATTE_OPTION}${name}`} title="Coloured IDs; hover names them, click picks (see the panel)">
          {name} (Cryptomatte)
        </option>
      ))}
      {header?.problems.map((p, i) =>
        // a named layer can be chosen: the panel then says what is wrong with it
        p.layer !== null && !names.includes(p.layer) ? (
          <option key={`problem-${i}`} value={`${CRYPTOMATTE_OPTION}${p.layer}`} title={p.message}>
            {p.layer} (Cryptomatte, unusable)
          </option>
        ) : p.layer === null ? (
          <option key={`problem-${i}`} disabled title={p.message}>
            a Cryptomatte layer: unusable ({p.message.slice(0, 60)}…)
          </option>
        ) : null,
      )}
    </optgroup>
  );
}
