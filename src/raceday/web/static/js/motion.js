// Moves the eye can follow, for any game's drawing: a piece slides from where it was to
// where it is now (the page has already drawn it at its new place), a new thing fades in.
// Every helper does nothing for a reader who asked for reduced motion, and returns the
// Animation (or null), so a caller may wait for `.finished`.

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

// Slide `element`, already drawn at `toXY` ({x, y} in pixels, e.g. a rectangle's left and
// top), from `fromXY` to there over `ms` milliseconds.
export function animateMove(element, fromXY, toXY, ms = 450) {
  if (!element || reducedMotion() || !element.animate) return null;
  const dx = fromXY.x - toXY.x;
  const dy = fromXY.y - toXY.y;
  if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5) return null;
  return element.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: ms, easing: "cubic-bezier(.2, .7, .3, 1)" });
}

// Where `element` is on screen now ({x, y}): take it before a redraw, then call
// animateMove(newElement, before, where(newElement)).
export function where(element) {
  const box = element.getBoundingClientRect();
  return { x: box.left, y: box.top };
}

// Fade `element` in (a result, a new line) over `ms` milliseconds.
export function fadeIn(element, ms = 300) {
  if (!element || reducedMotion() || !element.animate) return null;
  return element.animate([{ opacity: 0 }, { opacity: 1 }], { duration: ms, easing: "ease-out" });
}
