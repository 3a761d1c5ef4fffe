/* The only arithmetic the view redoes on the core's numbers: ÷τ, the causal mask and a row
   softmax, exactly as attention_core/attention.py does it (subtract the row's largest unmasked
   score, exp, divide by the sum; masked keys get weight 0). tests/browser/test_explorer.py runs
   this file in Chromium against scaled_dot_product_attention for every switch combination. */

// leaf: pure (no page, clock or state); imports only leaves (tools/js/check.mjs)

/** Weights of one head: scores[offset + i·n + j] / divisor, keys j > i masked when causal. */
export function attentionWeights(scores, offset, n, divisor, causal, out) {
  const inv = 1 / divisor;
  for (let i = 0; i < n; i++) {
    const row = offset + i * n;
    const live = causal ? i + 1 : n; // keys 0 … live-1 may be attended
    let peak = -Infinity;
    for (let j = 0; j < live; j++) {
      const s = scores[row + j] * inv;
      if (s > peak) peak = s;
    }
    let total = 0;
    for (let j = 0; j < n; j++) {
      const e = j < live ? Math.exp(scores[row + j] * inv - peak) : 0;
      out[i * n + j] = e;
      total += e;
    }
    for (let j = 0; j < n; j++) out[i * n + j] /= total;
  }
  return out;
}

/** Entropy in bits and the largest weight of row i of an n × n weight matrix. */
export function rowSpread(weights, n, i) {
  let entropy = 0;
  let top = 0;
  for (let j = 0; j < n; j++) {
    const w = weights[i * n + j];
    if (w > 0) entropy -= w * Math.log2(w);
    if (w > top) top = w;
  }
  return { entropy, top };
}

/** Mean over rows of the entropy in bits and of the largest weight (rows of n weights). */
export function rowStats(weights, n) {
  let entropy = 0;
  let peak = 0;
  for (let i = 0; i < n; i++) {
    const row = rowSpread(weights, n, i);
    entropy += row.entropy;
    peak += row.top;
  }
  return { entropy: entropy / n, max: peak / n };
}
