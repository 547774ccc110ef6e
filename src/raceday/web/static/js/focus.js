// Keyboard focus kept across a room screen's redraws (the kit's, for every game's screen):
// where it was, as a key the redrawn screen can find again, and where it goes after.

// Where focus was, as a selector for its data-action, data-square or id (a lasting
// control); "" when nowhere or on a control without one, null when elsewhere on the page
// (the header), which a redraw of `root` leaves alone.
export function focusKey(root) {
  const a = document.activeElement;
  if (!a || a === document.body) return "";
  if (!root.contains(a)) return null;
  for (const attr of ["data-action", "data-square", "id"]) {
    const v = a.getAttribute(attr);
    if (v) return `[${attr}="${CSS.escape(v)}"]`;
  }
  return "";
}

// After a redraw: focus back where `key` (from focusKey) was, else on the first of the
// `useful` selectors the screen has. When the turn has just come to this screen
// (`turnCame`), the useful control it brings comes first.
export function refocus(root, key, turnCame, useful) {
  if (key === null) return;
  const again = key && !turnCame ? root.querySelector(key) : null;
  const next = again ?? useful.map((sel) => root.querySelector(sel)).find(Boolean);
  next?.focus({ preventScroll: true });
}

// The start of a room screen's redraw: the page takes the view's phase (its styles follow
// it), and where focus was comes back as focusKey gives it, for refocus after.
export function beginRedraw(root, phase) {
  document.body.dataset.phase = phase;
  return focusKey(root);
}
