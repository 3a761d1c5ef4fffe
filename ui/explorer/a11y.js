/* Text alternatives, as data: token names that tell repeats apart (了₁, 了₂), each map's
   strongest link per row in words, the rows of a weights table, the live line for the cursor.
   Pure: strings in, strings out; the view puts them into the page. */

const SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉";

function pct(w) {
  return `${(w * 100).toFixed(1)}%`;
}

/** Fill {name} fields of a template from ui/text.py. */
function fmt(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

/** Token texts with a subscript on every one that occurs more than once: 了₁ … 了₂. */
function distinctNames(texts) {
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
function clipLabel(text, name, chars) {
  const tail = name.slice(text.length); // the subscript, if any
  const cut = [...text].length > chars ? `${[...text].slice(0, chars - 1).join("")}…` : text;
  return cut + tail;
}

/** In English, a Chinese token with its gloss: “他 (he)”; otherwise the name alone. */
function glossed(name, gloss, lang) {
  return lang === "en" && gloss ? `${name} (${gloss})` : name;
}

/** Index of the largest weight of row i (the first one on ties). */
function argmaxRow(w, n, i) {
  let best = 0;
  for (let j = 1; j < n; j++) if (w[i * n + j] > w[i * n + best]) best = j;
  return best;
}

/** "头 1，每行最强的连接：小明 → 小明 40.2%；把 → 书 33.0%；…" */
function summaryText(text, title, names, w, n) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const j = argmaxRow(w, n, i);
    rows.push(fmt(text.summary_row, { q: names[i], k: names[j], w: pct(w[i * n + j]) }));
  }
  return fmt(text.summary, { head: title, links: rows.join(text.sep) });
}

/** The weights table's body: per query row its name and each key's cell text and exact weight. */
function tableRows(names, w, n, causal, maskedLabel) {
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
function cursorLine(text, head, names, w, n, i, j, causal) {
  const v = causal && j > i ? text.masked : pct(w[i * n + j]);
  return fmt(text.live, { head, q: names[i], k: names[j], w: v });
}
