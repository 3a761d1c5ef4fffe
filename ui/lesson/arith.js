/* The only arithmetic the lesson redoes besides softmax.js: one row of weights times V (the
   weighted mix of §2 and ·V of §4) and a row's entropy and top share (§5's judgement).
   tests/test_browser_lesson.py runs these in Chromium against the core's numbers. */

/** out[i, :] = Σ_j w[i, j] · v[off + j·d + :] for the rows i of an n × n weight matrix. */
function mixRows(w, v, off, n, d, out) {
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += w[i * n + j] * v[off + j * d + c];
      out[i * d + c] = s;
    }
  }
  return out;
}

/** Entropy in bits and the largest weight of row i of an n × n weight matrix. */
function rowSpread(w, n, i) {
  let h = 0;
  let top = 0;
  for (let j = 0; j < n; j++) {
    const p = w[i * n + j];
    if (p > 0) h -= p * Math.log2(p);
    if (p > top) top = p;
  }
  return { entropy: h, top };
}

/** Keys of row i, heaviest first. */
function rankRow(w, n, i) {
  return Array.from({ length: n }, (_, j) => j).sort((a, b) => w[i * n + b] - w[i * n + a]);
}
