/* Input, as pure helpers: where a pointer is on a map, where a key moves the cell cursor or a
   radio group's choice, and a listener registry that destroy() empties. The view's handlers use
   them to change state; nothing here draws or knows the view. */

/** Which cell of a map geometry g a point (x, y), relative to the canvas, is over, or null. */
export function cellAt(g, x, y) {
  if (!g) return null;
  const cx = x - g.left;
  const cy = y - g.top;
  if (cx < 0 || cy < 0 || cx >= g.side || cy >= g.side) return null;
  return { i: Math.floor(cy / g.cell), j: Math.floor(cx / g.cell) };
}

/** A point on a row's label (left of the cells) picks that row: { i, j: null }, or null. */
export function rowLabelAt(g, x, y) {
  if (!g) return null;
  const cy = y - g.top;
  if (x < 0 || x >= g.left || cy < 0 || cy >= g.side) return null;
  return { i: Math.floor(cy / g.cell), j: null };
}

/** The key group of the focus bars under x (relative to the canvas), or -1. */
export function barAt(geom, x, n) {
  if (!geom) return -1;
  const j = Math.floor((x - geom.left) / geom.group);
  return j >= 0 && j < n ? j : -1;
}

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The cell cursor after a key: arrows, Home/End (first/last key), PageUp/PageDown (first/last
    query); null for a key that does not move it. */
export function cursorAfter(key, i, j, n) {
  if (key in MOVES) {
    i += MOVES[key][0];
    j += MOVES[key][1];
  } else if (key === "Home") j = 0;
  else if (key === "End") j = n - 1;
  else if (key === "PageUp") i = 0;
  else if (key === "PageDown") i = n - 1;
  else return null;
  const clamp = (v) => Math.min(n - 1, Math.max(0, v));
  return { i: clamp(i), j: clamp(j) };
}

/** Roving choice in a radio group of `count` buttons: the index a key chooses, or null. */
export function radioAfter(key, current, count) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[key];
  if (step) return (current + step + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

/** Slider position 0…1000 ⇄ τ on a log scale from 1 to 4·√d_k (√d_k lands near the middle). */
export function tauFromSlider(p, root) {
  return Math.exp((p / 1000) * Math.log(4 * root));
}

export function sliderFromTau(tau, root) {
  return Math.round((1000 * Math.log(tau)) / Math.log(4 * root));
}

/** τ where a hand let the slider go: near the √d_k mark or the left end it means the model's
    setting or no scaling (a pointer snaps, arrow keys step freely). */
export function releasedTau(tau, root, byPointer) {
  const near = byPointer ? 0.03 : 0.001;
  if (Math.abs(tau - root) < near * root) return { tau: null, scale: true };
  if (tau < 1 + near) return { tau: null, scale: false };
  return { tau: Math.round(tau * 1000) / 1000 };
}

/** listen(list, target, type, fn): add a listener and remember it, for unlistenAll(list). */
export function listen(list, target, type, fn, options) {
  target.addEventListener(type, fn, options);
  list.push([target, type, fn, options]);
}

export function unlistenAll(list) {
  for (const [target, type, fn, options] of list.splice(0)) {
    target.removeEventListener(type, fn, options);
  }
}
