/* The deck's animation clock: one animation at a time, eased, stopped when the scene changes;
   the root's data-anim says it runs (tests and benches wait for the pixels to rest). A user who
   asked for less motion (prefers-reduced-motion: reduce, WCAG 2.3.3) gets the last frame at once:
   the same resting picture, data-anim never set, frames = 1. */

/** True when the deck's window asks for reduced motion (the user's system setting). */
export function reducedMotion(D) {
  const win = D.els.root.ownerDocument.defaultView;
  return !!win?.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/** Run fn(p) on every animation frame for `ms`, p from 0 to 1 (eased); one at a time. With
    reduced motion fn(1) only, at once. */
export function animate(D, ms, fn) {
  cancelAnimationFrame(D.anim);
  D.anim = 0;
  const root = D.els.root;
  const still = reducedMotion(D);
  if (still) delete root.dataset.anim; // one that ran before is over: nothing moves
  else root.dataset.anim = "1"; // for tests and benches: wait until the pixels rest
  root.dataset.animStart = String(Date.now()); // the wall clock, as the bench's inputs
  performance.mark("lesson-anim-start"); // and in a trace (bench/lesson_latency.py)
  if (still) {
    const a = performance.now();
    fn(1); // the resting frame, drawn as the last frame of the motion is
    animEnded(root, 1, performance.now() - a);
    return;
  }
  const t0 = performance.now();
  let frames = 0;
  let busy = 0;
  const tick = (now) => {
    const f = Math.min(1, (now - t0) / ms);
    if (f >= 1) delete root.dataset.anim; // the last frame draws as at rest (words, summaries)
    const a = performance.now();
    fn(f < 0.5 ? 2 * f * f : 1 - (-2 * f + 2) ** 2 / 2);
    busy += performance.now() - a;
    frames += 1;
    D.anim = f < 1 ? requestAnimationFrame(tick) : 0;
    if (!D.anim) animEnded(root, frames, busy);
  };
  D.anim = requestAnimationFrame(tick);
}

/** The root's record of the animation that ended: when, frames drawn and the mean cost of one. */
function animEnded(root, frames, busy) {
  Object.assign(root.dataset, {
    animEnd: String(Date.now()),
    frames: String(frames),
    drawMs: (busy / frames).toFixed(2),
  });
  performance.mark("lesson-anim-end");
  delete root.dataset.anim;
}

export function stopAnimation(D) {
  cancelAnimationFrame(D.anim);
  D.anim = 0;
  delete D.els.root.dataset.anim;
}
