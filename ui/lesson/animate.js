/* The deck's animation clock: one animation at a time, eased, stopped when the scene changes;
   the root's data-anim says it runs (tests and benches wait for the pixels to rest). */

/** Run fn(p) on every animation frame for `ms`, p from 0 to 1 (eased); one at a time. */
export function animate(D, ms, fn) {
  cancelAnimationFrame(D.anim);
  const t0 = performance.now();
  const root = D.els.root;
  root.dataset.anim = "1"; // for tests and benches: wait until the pixels rest
  root.dataset.animStart = String(Date.now()); // the wall clock, as the bench's inputs
  performance.mark("lesson-anim-start"); // and in a trace (bench/lesson_latency.py)
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
    if (!D.anim) {
      Object.assign(root.dataset, {
        animEnd: String(Date.now()),
        frames: String(frames),
        drawMs: (busy / frames).toFixed(2),
      }); // frames drawn and the mean cost of one
      performance.mark("lesson-anim-end");
      delete root.dataset.anim;
    }
  };
  D.anim = requestAnimationFrame(tick);
}

export function stopAnimation(D) {
  cancelAnimationFrame(D.anim);
  D.anim = 0;
  delete D.els.root.dataset.anim;
}
