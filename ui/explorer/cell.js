/* Why this cell: one score taken apart into its query and its key. The raw scores Q·Kᵀ the view
   draws are formed here from the Q and K Python sends (qkScores; tests/browser/test_cell.py holds
   them to attention_core), and one cell (head k, query i, key j) is broken down: q_i and k_j on
   one signed scale, their products dimension by dimension with the largest marked, the sum (the
   raw score), ÷√d_k or ÷τ (the scaled score) and its softmax share beside its row's other keys;
   a masked cell says −∞ and share 0. cellBreakdown and cellSay are pure; buildCell and fillCell
   draw it as DOM (the lesson's §4 draws the same breakdown with them); renderCell fills the
   view's from its record. */

import { rampCss, rampIndex } from "./colour.js";
import { fmt, glossed, pct } from "./a11y.js";
import { el } from "./dom.js";

const TOP = 3; // products marked as the largest

/** Every head's raw scores from its queries and keys: out[k·n·n + i·n + j] = Σ_d q·k (float64
    sums of the float32 numbers Python sent). q, k: (h, n, d) flat. */
export function qkScores(q, k, h, n, d) {
  const out = new Float64Array(h * n * n);
  for (let a = 0; a < h; a++) {
    const base = a * n * d;
    for (let i = 0; i < n; i++) {
      const qi = base + i * d;
      for (let j = 0; j < n; j++) {
        const kj = base + j * d;
        let s = 0;
        for (let c = 0; c < d; c++) s += q[qi + c] * k[kj + c];
        out[a * n * n + i * n + j] = s;
      }
    }
  }
  return out;
}

/** One cell taken apart. q, k: (h, n, d) flat; head, i (query), j (key); divisor (√d_k, τ or
    1); masked (the causal mask hides key j from query i); row: the weights of row i (n). */
export function cellBreakdown(q, k, d, n, head, i, j, divisor, masked, row) {
  const qv = Array.from(q.subarray((head * n + i) * d, (head * n + i + 1) * d));
  const kv = Array.from(k.subarray((head * n + j) * d, (head * n + j + 1) * d));
  const prod = qv.map((x, c) => x * kv[c]);
  let sum = 0;
  for (const p of prod) sum += p;
  const order = prod.map((_, c) => c).sort((a, b) => Math.abs(prod[b]) - Math.abs(prod[a]));
  let limit = 1e-9;
  for (const x of [...qv, ...kv]) limit = Math.max(limit, Math.abs(x));
  let plimit = 1e-9;
  for (const p of prod) plimit = Math.max(plimit, Math.abs(p));
  return {
    head, i, j, d, q: qv, k: kv, prod, sum, divisor, scaled: masked ? -Infinity : sum / divisor,
    masked, share: masked ? 0 : row[j], row: Array.from(row), top: order.slice(0, Math.min(TOP, d)),
    limit, plimit,
  };
}

/** How a divisor is said: "÷ √d_k = 3.46", "÷ τ = 2.00", or none. */
function byText(T, b, tau) {
  if (b.divisor === 1 && tau === null) return T.cell_div_none;
  const key = tau === null ? T.cell_div_dk : T.cell_div_tau;
  return fmt(key, { d: b.divisor.toFixed(2) });
}

/** The text alternative a screen reader announces: "q·k = 5.31: the largest products are in
    dimensions 7 and 31 …" (dimensions counted from 1). */
function cellSay(T, b, q, key, tau) {
  if (b.masked) return fmt(T.cell_say_masked, { q, k: key });
  const dims = b.top.map((c) => c + 1).join(T.cell_and);
  return fmt(T.cell_say, { q, k: key, s: b.sum.toFixed(2), dims, by: byText(T, b, tau),
    v: b.scaled.toFixed(2), w: pct(b.share) });
}

/** A strip of d cells for a label: {row, label, cells}. */
function strip(doc, cls) {
  const row = el(doc, "div", `cell-row ${cls}`);
  const label = el(doc, "span", "cell-label");
  const cells = el(doc, "span", "cell-strip", { "aria-hidden": "true" });
  row.append(label, cells);
  return { row, label, cells };
}

/** The breakdown's elements (built once; fillCell writes them): title, close button, the three
    strips and the dimension numbers, the sum line, the largest products, the row's shares, the
    live line. */
export function buildCell(doc, testid) {
  const root = el(doc, "section", "cell-box", { "data-testid": testid });
  const head = el(doc, "div", "cell-head");
  const title = el(doc, "h2", "cell-title");
  const close = el(doc, "button", "cell-close", { type: "button", "data-testid": `${testid}-close` });
  close.textContent = "×";
  head.append(title, close);
  const hint = el(doc, "p", "cell-hint");
  const body = el(doc, "div", "cell-body");
  const strips = el(doc, "div", "cell-strips", { role: "img" });
  const dims = strip(doc, "dims");
  const qs = strip(doc, "q");
  const ks = strip(doc, "k");
  const ps = strip(doc, "p");
  strips.append(dims.row, qs.row, ks.row, ps.row);
  const sum = el(doc, "p", "cell-sum", { "data-testid": `${testid}-sum` });
  const top = el(doc, "p", "cell-top");
  const shareName = el(doc, "p", "cell-share");
  const shares = el(doc, "div", "cell-shares", { "aria-hidden": "true" });
  const live = el(doc, "p", "sr-only", { "aria-live": "polite", "data-testid": `${testid}-live` });
  body.append(strips, sum, top, shareName, shares);
  root.append(head, hint, body, live);
  root.hidden = true; // until it is filled (renderCell, or a lesson step)
  return { root, head, title, close, hint, body, strips, dims, qs, ks, ps, sum, top, shareName,
    shares, live, drawn: "" };
}

/** Give a strip d cells (only when d changed). */
function sized(s, d, doc) {
  if (s.cells.childElementCount === d) return;
  s.cells.replaceChildren(...Array.from({ length: d }, () => el(doc, "span", "c")));
  s.cells.style.gridTemplateColumns = `repeat(${d}, minmax(0, 1fr))`;
}

/** textContent only when it changes (a τ drag rewrites the numbers every frame). */
function say(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Paint a strip's cells: values on the signed ramp ±limit, marked ones outlined. */
function paintStrip(s, values, limit, lut, marked) {
  [...s.cells.children].forEach((c, x) => {
    c.style.background = rampCss(lut, rampIndex(values[x], -limit, limit));
    c.classList.toggle("top", marked.includes(x));
    c.title = values[x].toFixed(3);
  });
}

/** Write a breakdown `b` (or the hint when b is null) into the elements of buildCell. w: T
    (the view's texts), lut (the signed ramp), names (the tokens' names, glossed in English),
    headName, tau (the slider's τ or null), touch (say "tap"), namesUpTo (the row's keys are
    named under their bars up to this many; default 16), quiet (a drag: the live line waits). The
    strips, which τ does not change, are painted again only for another cell or vector. */
export function fillCell(p, b, w) {
  const { T } = w;
  const doc = p.root.ownerDocument;
  p.body.hidden = !b;
  p.close.hidden = !b;
  p.hint.hidden = !!b;
  p.close.setAttribute("aria-label", T.cell_close);
  p.close.title = T.cell_close;
  if (!b) {
    p.drawn = "";
    p.title.textContent = T.cell_heading;
    p.hint.textContent = w.touch ? T.cell_hint_touch : T.cell_hint;
    p.root.removeAttribute("data-values");
    return;
  }
  const q = w.names[b.i];
  const key = w.names[b.j];
  say(p.title, fmt(T.cell_title, { head: w.headName, q, k: key }));
  const drawn = JSON.stringify([b.head, b.i, b.j, b.q, b.k, q, key]);
  if (p.drawn !== drawn) {
    p.drawn = drawn;
    paintStrips(p, b, w, doc, q, key);
  }
  const s = b.sum.toFixed(2);
  say(p.sum, b.masked
    ? fmt(T.cell_masked, { s })
    : fmt(T.cell_sum, { s, by: byText(T, b, w.tau), v: b.scaled.toFixed(2) }));
  say(p.shareName, fmt(T.cell_share, { q, k: key, w: pct(b.share) }));
  fillShares(p, b, w, doc);
  const said = cellSay(T, b, q, key, w.tau);
  if (!w.quiet) say(p.live, said);
  p.root.dataset.values = JSON.stringify({ head: b.head, i: b.i, j: b.j, q: b.q, k: b.k,
    products: b.prod, sum: b.sum, divisor: b.divisor, scaled: b.masked ? null : b.scaled,
    share: b.share, row: b.row, masked: b.masked, top: b.top.map((c) => c + 1) });
}

/** The strips of a breakdown, their labels and the largest products in words. */
function paintStrips(p, b, w, doc, q, key) {
  const { T } = w;
  for (const s of [p.dims, p.qs, p.ks, p.ps]) sized(s, b.d, doc);
  p.dims.label.textContent = T.cell_dim;
  [...p.dims.cells.children].forEach((c, x) => { // an inline number may pass its narrow cell
    const span = el(doc, "span");
    span.textContent = b.top.includes(x) ? String(x + 1) : "";
    c.replaceChildren(span);
  });
  p.qs.label.textContent = fmt(T.cell_q, { q });
  p.ks.label.textContent = fmt(T.cell_k, { k: key });
  p.ps.label.textContent = T.cell_p;
  paintStrip(p.qs, b.q, b.limit, w.lut, []);
  paintStrip(p.ks, b.k, b.limit, w.lut, []);
  paintStrip(p.ps, b.prod, b.plimit, w.lut, b.top);
  p.strips.setAttribute("aria-label", fmt(T.cell_strips, { d: b.d, q, k: key }));
  p.top.textContent = T.cell_largest + b.top.map((c) => fmt(T.cell_term, { d: c + 1,
    a: b.q[c].toFixed(2), b: b.k[c].toFixed(2), p: b.prod[c].toFixed(2) })).join(T.sep);
}

/** The row's shares: one bar per key, the chosen key's marked, its label under it. */
function fillShares(p, b, w, doc) {
  const n = b.row.length;
  if (p.shares.childElementCount !== n) {
    p.shares.replaceChildren(...Array.from({ length: n }, () => {
      const bar = el(doc, "span", "share");
      bar.append(el(doc, "span", "fill"), el(doc, "span", "name"));
      return bar;
    }));
  }
  let top = 1e-9;
  for (const x of b.row) top = Math.max(top, x);
  [...p.shares.children].forEach((bar, j) => {
    bar.firstChild.style.height = `${((100 * b.row[j]) / top).toFixed(2)}%`;
    bar.classList.toggle("chosen", j === b.j);
    say(bar.lastChild, n <= (w.namesUpTo ?? 16) || j === b.j ? w.short[j] : "");
    if (!w.quiet) bar.title = `${w.names[j]} ${pct(b.row[j])}`;
  });
}

/** What the view divides by (√d_k, τ or 1), as paint.js decides it. */
function divisorNow(v) {
  if (v.state.tau !== null) return v.state.tau;
  return v.state.scale ? Math.sqrt(v.header.d_k) : 1;
}

/** The view's breakdown of its chosen cell (v.cell), or its hint; hidden without Q and K. */
export function renderCell(v) {
  const p = v.cellEls;
  if (!p) return;
  p.root.hidden = !v.vectors || !v.o.parts.includes("cell");
  if (p.root.hidden) return;
  const c = v.cell;
  const { n, d_k: d, lang, tokens, text: T } = v.header;
  const b = c && c.i < n && c.j < n && v.heads.includes(c.k)
    ? cellBreakdown(v.vectors.q, v.vectors.k, d, n, c.k, c.i, c.j, divisorNow(v),
      v.state.causal && c.j > c.i, v.weights[c.k].subarray(c.i * n, (c.i + 1) * n))
    : null;
  const names = v.names.map((s, x) => glossed(s, tokens[x].gloss, lang));
  fillCell(p, b, { T, lut: v.paints.signed.lut, names, short: v.labels, touch: v.touch,
    headName: b ? fmt(T.head, { i: b.head + 1 }) : "", tau: v.state.tau, quiet: v.dragging });
}
