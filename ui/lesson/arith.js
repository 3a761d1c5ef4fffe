/* The only arithmetic the lesson redoes besides softmax.js (÷τ, mask, softmax; a row's entropy
   and top share, rowSpread, §5's judgement): one row of weights times V (the weighted mix of §2
   and ·V of §4). tests/browser/test_lesson.py runs it in Chromium against the core's numbers. */

// leaf: pure (no page, clock or state); imports only leaves (tools/js/check.mjs)

/** out[i, :] = Σ_j w[i, j] · v[off + j·d + :] for the rows i of an n × n weight matrix. */
export function mixRows(w, v, off, n, d, out) {
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += w[i * n + j] * v[off + j * d + c];
      out[i * d + c] = s;
    }
  }
  return out;
}

/** Keys of row i, heaviest first. */
export function rankRow(w, n, i) {
  return Array.from({ length: n }, (_, j) => j).sort((a, b) => w[i * n + b] - w[i * n + a]);
}
