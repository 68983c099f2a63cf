// Buttons, check boxes, sliders and menus let go of the keyboard after the mouse used them, so that the window's
// shortcuts (E, F, ?, Tab…) work at once after a click or a drag; text fields keep it, and so does anything the keyboard
// itself reached (Tab, Enter, Space), as keyboard users expect.

/** Controls that hold no text: what they were clicked for is done once the click (or the choice) is. */
function releasable(el: Element | null): el is HTMLElement {
  if (!(el instanceof HTMLElement)) return false;
  if (el.tagName === 'BUTTON' || el.tagName === 'SELECT') return true;
  return el instanceof HTMLInputElement && ['checkbox', 'radio', 'range', 'color', 'submit', 'button'].includes(el.type);
}

export function installFocusRelease(doc: Document): () => void {
  let byPointer = false;
  const onPointer = (): void => {
    byPointer = true;
  };
  const onKey = (): void => {
    byPointer = false;
  };
  const release = (e: Event): void => {
    // a click on a button's icon targets the icon: the control is the button around it
    const t = e.target instanceof Element ? e.target.closest('button, select, input') : null;
    // a click on a closed menu opens it: it lets go once something is chosen (change)
    if (!byPointer || !releasable(t) || (e.type === 'click' && t.tagName === 'SELECT')) return;
    // after the control's own handlers have run
    setTimeout(() => {
      if (doc.activeElement === t) t.blur();
    }, 0);
  };
  doc.addEventListener('pointerdown', onPointer, true);
  doc.addEventListener('keydown', onKey, true);
  doc.addEventListener('click', release);
  doc.addEventListener('change', release);
  return () => {
    doc.removeEventListener('pointerdown', onPointer, true);
    doc.removeEventListener('keydown', onKey, true);
    doc.removeEventListener('click', release);
    doc.removeEventListener('change', release);
  };
}
