/* Text alternatives, as data: token names that tell repeats apart (了₁, 了₂), each map's
   strongest link per row in words, the rows of a weights table, the live line for the cursor.
   Pure: strings in, strings out; the view puts them into the page. */

// leaf: pure (no page, clock or state); imports only leaves (tools/js/check.mjs)

const SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉";

export function pct(w) {
  return `${(w * 100).toFixed(1)}%`;
}

/** Fill {name} fields of a template from ui/text.py. */
export function fmt(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

/** Token texts with a subscript on every one that occurs more than once: 了₁ … 了₂. */
export function distinctNames(texts) {
  const count = new Map();
  for (const s of texts) count.set(s, (count.get(s) || 0) + 1);
  const seen = new Map();
  return texts.map((s) => {
    if (count.get(s) < 2) return s;
    const k = (seen.get(s) || 0) + 1;
    seen.set(s, k);
    return s + [...String(k)].map((d) => SUBSCRIPTS[Number(d)]).join("");
  });
}

/** A token text cut to `chars` characters ("…" last), its subscript kept: for axis labels. */
export function clipLabel(text, name, chars) {
  const tail = name.slice(text.length); // the subscript, if any
  const cut = [...text].length > chars ? `${[...text].slice(0, chars - 1).join("")}…` : text;
  return cut + tail;
}

/** In English, a Chinese token with its gloss: “他 (he)”; otherwise the name alone. */
export function glossed(name, gloss, lang) {
  if (lang !== "en" || !gloss) return name;
  return gloss.startsWith("(") ? `${name} ${gloss}` : `${name} (${gloss})`; // “把 (object marker)”
}

/** Index of the largest weight of row i (the first one on ties). */
export function argmaxRow(w, n, i) {
  let best = 0;
  for (let j = 1; j < n; j++) if (w[i * n + j] > w[i * n + best]) best = j;
  return best;
}

/** "头 1，每行最强的连接：小明 → 小明 40.2%；把 → 书 33.0%；…" */
export function summaryText(text, title, names, w, n) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const j = argmaxRow(w, n, i);
    rows.push(fmt(text.summary_row, { q: names[i], k: names[j], w: pct(w[i * n + j]) }));
  }
  return fmt(text.summary, { head: title, links: rows.join(text.sep) });
}

/** The weights table's body: per query row its name and each key's cell text and exact weight. */
export function tableRows(names, w, n, causal, maskedLabel) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const cells = [];
    for (let j = 0; j < n; j++) {
      const masked = causal && j > i;
      cells.push({ text: masked ? maskedLabel : pct(w[i * n + j]), w: w[i * n + j].toFixed(7) });
    }
    rows.push({ name: names[i], cells });
  }
  return rows;
}

/** "头 1：小明 → 把：3.2%" for the keyboard cursor on (head, query i, key j). */
export function cursorLine(text, head, names, w, n, i, j, causal) {
  const v = causal && j > i ? text.masked : pct(w[i * n + j]);
  return fmt(text.live, { head, q: names[i], k: names[j], w: v });
}

/** What the scores are divided by, in words: the model's √d_k, none, or a τ to try. */
export function tauText(T, dk, state) {
  const root = Math.sqrt(dk).toFixed(2);
  if (state.tau === null && state.scale) return fmt(T.tau_model, { s: root, dk });
  if (state.tau === null) return fmt(T.tau_off, { s: root });
  return fmt(T.tau_custom, { v: state.tau.toFixed(2), s: root });
}

/** Panel titles: the middle one says what the scores were divided by, in every state. */
export function captionsOf(T, dk, state, divisor) {
  let scaled = fmt(T.scaled_tau, { v: divisor.toFixed(2) });
  if (state.tau === null) {
    scaled = state.scale ? fmt(T.scaled_on, { dk, s: Math.sqrt(dk).toFixed(2) }) : T.scaled_off;
  }
  return [T.raw, scaled, T.weights];
}

/** "他 → 小明 · q·k 12.31 · ÷√d_k 3.08 · 99.6%"; cell: q, k (names), s (raw score), w. */
export function tipOf(T, cell, masked, divisor, tau) {
  const { q, k, s } = cell;
  if (masked) return fmt(T.tip_masked, { q, k });
  const w = pct(cell.w);
  if (divisor === 1) return fmt(T.tip, { q, k, s: s.toFixed(2), w });
  const by = tau === null ? "√d_k" : `τ ${divisor.toFixed(2)}`;
  return fmt(T.tip_scaled, { q, k, s: s.toFixed(2), by, v: (s / divisor).toFixed(2), w });
}

/** Whether a row of n weights is decided, by the rule Python sends (header.decided: the
    reading's DECIDED_MIN and DECIDED_GAP): its top weight at least `min` and at least `gap`
    above the runner-up. With the top key a and the runner-up b (tests/browser/test_view_js.py
    holds it to attention_core's top_two on the same rows). */
export function decidedRow(w, n, rule) {
  const a = argmaxRow(w, n, 0);
  let b = a === 0 ? 1 : 0;
  for (let j = 0; j < n; j++) if (j !== a && w[j] > w[b]) b = j;
  const gap = w[a] - (n > 1 ? w[b] : 0);
  return { a, b, decided: w[a] >= rule.min && gap >= rule.gap };
}

/** One story line for head k: where the focus row w looks, or that it is torn between two. */
function storyLine(header, k, w, n, q, name) {
  const T = header.text;
  const job = header.jobs[k];
  const { a, b, decided } = decidedRow(w, n, header.decided);
  const head = fmt(T.head, { i: k + 1 });
  if (decided) {
    return fmt(T.story_head, { head, job: job.rel, q, k: name(a), w: pct(w[a]) });
  }
  return fmt(T.story_undecided, { head, job: job.rel, q, a: name(a), wa: pct(w[a]), b: name(b),
    wb: pct(w[b]) });
}

/** The first story in words: for each head with a measured job that applies to the focus token,
    where it looks; for random weights, that no head has a job. name(j): a token's name. */
export function storyOf(header, heads, weights, i, name, touch) {
  const T = header.text;
  const n = header.n;
  const q = name(i);
  if (header.source !== "trained") return [fmt(T.story_random, { q })];
  const said = header.tokens[i].reading; // the core's reading where the rule below would be wrong
  if (said && said.length) return said;
  const roles = header.tokens[i].roles || [];
  const lines = heads
    .filter((k) => header.jobs[k] && header.jobs[k].clear && roles.includes(header.jobs[k].relation))
    .map((k) => storyLine(header, k, weights[k].subarray(i * n, (i + 1) * n), n, q, name));
  if (lines.length) return lines;
  if (!header.jobs.some((j) => j && j.clear)) return [touch ? T.story_none_touch : T.story_none];
  return [fmt(touch ? T.story_other_touch : T.story_other, { q })];
}
