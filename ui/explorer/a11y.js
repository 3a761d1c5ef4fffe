/* Text alternatives: each map's strongest link per row in words, a weights table a screen reader
   can walk (its cells carry the exact weight in data-w), and the live line for the cursor. */

function pct(w) {
  return `${(w * 100).toFixed(1)}%`;
}

/** Fill {name} fields of a template from ui/text.py. */
function fmt(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

/** Per query row: [i, j, weight] of its largest weight. */
function strongest(w, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let j = 1; j < n; j++) if (w[i * n + j] > w[i * n + best]) best = j;
    out.push([i, best, w[i * n + best]]);
  }
  return out;
}

/** "头 1：每行最强的连接——小明 → 小明 40.2%；把 → 书 33.0%；…" */
function summaryText(text, title, texts, w, n) {
  const rows = strongest(w, n).map(([i, j, v]) =>
    fmt(text.summary_row, { q: texts[i], k: texts[j], w: pct(v) }),
  );
  return fmt(text.summary, { head: title, links: rows.join(text.sep) });
}

/** A real table: a caption, key tokens as column headers, query tokens as row headers. */
function fillTable(table, caption, texts, w, n, maskedLabel, causal) {
  const doc = table.ownerDocument;
  const cell = (tag, s, scope) => {
    const el = doc.createElement(tag);
    el.textContent = s;
    if (scope) el.scope = scope;
    return el;
  };
  const cap = cell("caption", caption);
  const head = doc.createElement("tr");
  head.append(cell("td", ""));
  for (const k of texts) head.append(cell("th", k, "col"));
  const thead = doc.createElement("thead");
  thead.append(head);
  const tbody = doc.createElement("tbody");
  for (let i = 0; i < n; i++) {
    const tr = doc.createElement("tr");
    tr.append(cell("th", texts[i], "row"));
    for (let j = 0; j < n; j++) {
      const masked = causal && j > i;
      const td = cell("td", masked ? maskedLabel : pct(w[i * n + j]));
      td.dataset.w = w[i * n + j].toFixed(7);
      tr.append(td);
    }
    tbody.append(tr);
  }
  table.replaceChildren(cap, thead, tbody);
}

/** Say something once in the live region (re-set so a repeat is announced too). */
function announce(live, message) {
  if (live.textContent === message) live.textContent = "";
  live.textContent = message;
}
