/* The query–key map: per head, the sentence's queries and keys as points in one plane. x is each
   vector's projection on the focus query's direction u = q_f/|q_f| (for a key, exactly its score
   from the focus query ÷ |q_f|, so the keys stand along x in the order of the focus row's
   scores); y is the first principal component of the keys once u is taken out of them (the
   direction they spread most in besides u). What the plane keeps exactly: the focus row's scores
   (x·|q_f|); what it does not: every other query's scores and the rest of the d_k − 2
   dimensions. qkPlane is pure (tests/browser/test_cell.py holds it to numpy); drawQkHead draws
   one head as SVG with keyboard-reachable points (the lesson's §6 draws one head with it);
   buildQk and renderQk put every head side by side in the view, with the training step 0 ↔
   final switch when Python sent step 0's Q and K. */

import { headColour } from "./colour.js";
import { fmt, glossed } from "./a11y.js";
import { el } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const STRONG = 3; // keys highlighted: the focus row's strongest

function dot(a, ao, b, bo, d) {
  let s = 0;
  for (let c = 0; c < d; c++) s += a[ao + c] * b[bo + c];
  return s;
}

/** Top eigenvector of the symmetric d × d matrix C (flat) by power iteration from `start`,
    orthogonal to u; sign: its largest component positive. Returns {vec, value}. */
function topAxis(C, d, start, u) {
  let x = Float64Array.from(start);
  const orth = (w) => {
    const a = dot(w, 0, u, 0, d);
    for (let c = 0; c < d; c++) w[c] -= a * u[c];
    const len = Math.hypot(...w);
    if (len < 1e-300) return false;
    for (let c = 0; c < d; c++) w[c] /= len;
    return true;
  };
  if (!orth(x)) {
    for (let e = 0; e < d && !orth(x); e++) x = Float64Array.from({ length: d }, (_, c) => (c === e ? 1 : 0));
  }
  let value = 0;
  for (let it = 0; it < 2000; it++) {
    const y = new Float64Array(d);
    for (let r = 0; r < d; r++) y[r] = dot(C, r * d, x, 0, d);
    value = dot(x, 0, y, 0, d);
    if (!orth(y)) break;
    let change = 0;
    for (let c = 0; c < d; c++) change = Math.max(change, Math.abs(y[c] - x[c]));
    x = y;
    if (change < 1e-13) break;
  }
  let big = 0;
  for (let c = 1; c < d; c++) if (Math.abs(x[c]) > Math.abs(x[big])) big = c;
  if (x[big] < 0) for (let c = 0; c < d; c++) x[c] = -x[c];
  return { vec: x, value };
}

/** Head `head`'s plane for focus query f. q, k: (h, n, d) flat. Returns {keys, queries (each
    [[x, y]] per token), qnorm (|q_f|), kept (the y axis's share of the keys' spread once u is
    taken out, 0…1)}; a key's x is exactly score(f, j) / |q_f|. */
export function qkPlane(q, k, n, d, head, f) {
  const off = head * n * d;
  const qf = q.subarray(off + f * d, off + (f + 1) * d);
  const qnorm = Math.hypot(...qf);
  const u = qnorm > 0 ? Float64Array.from(qf, (x) => x / qnorm) : Float64Array.from({ length: d }, (_, c) => (c ? 0 : 1));
  const rest = []; // the keys with u taken out
  const mean = new Float64Array(d);
  for (let j = 0; j < n; j++) {
    const a = dot(k, off + j * d, u, 0, d);
    const r = Float64Array.from({ length: d }, (_, c) => k[off + j * d + c] - a * u[c]);
    rest.push(r);
    for (let c = 0; c < d; c++) mean[c] += r[c] / n;
  }
  const C = new Float64Array(d * d);
  let total = 0;
  let start = rest[0];
  let far = -1;
  for (const r of rest) {
    for (let c = 0; c < d; c++) r[c] -= mean[c];
    const len = dot(r, 0, r, 0, d);
    total += len;
    if (len > far) [far, start] = [len, r];
    for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) C[a * d + b] += r[a] * r[b];
  }
  const axis = topAxis(C, d, start, u);
  const at = (m, row) => [dot(m, off + row * d, u, 0, d), dot(m, off + row * d, axis.vec, 0, d)];
  return {
    keys: Array.from({ length: n }, (_, j) => at(k, j)),
    queries: Array.from({ length: n }, (_, i) => at(q, i)),
    qnorm,
    kept: total > 0 ? axis.value / total : 0,
  };
}

/** The keys the focus query f attends to most: the largest x among the keys it may see. */
function strongest(plane, f, causal) {
  const live = plane.keys.map((_, j) => j).filter((j) => !causal || j <= f);
  return live.sort((a, b) => plane.keys[b][0] - plane.keys[a][0]).slice(0, STRONG);
}

function svgEl(doc, tag, attrs) {
  const e = doc.createElementNS(SVG, tag);
  for (const [a, v] of Object.entries(attrs || {})) e.setAttribute(a, String(v));
  return e;
}

/** Where a point's label goes: above it on the side with room, else that side's below, else the
    other side's above and below; the first whose box (text of `px`, CJK about 1 em a character)
    meets no label in `placed` (the first, if every one does). Adds the box to `placed`. */
function labelSpot(placed, px0, py0, side, text, px) {
  const w = [...text].reduce((sum, c) => sum + (c.charCodeAt(0) > 0x2e80 ? px : px * 0.6), 0);
  const right = px0 <= side * 0.6;
  const spots = [[right, -7], [right, px + 7], [!right, -7], [!right, px + 7]].map(([r, dy]) => ({
    x: px0 + (r ? 9 : -9), y: py0 + dy, anchor: r ? "start" : "end",
    box: [r ? px0 + 9 : px0 - 9 - w, py0 + dy - px, w, px * 1.2],
  }));
  const apart = (a, b) => a[0] + a[2] <= b[0] || b[0] + b[2] <= a[0] || a[1] + a[3] <= b[1] || b[1] + b[3] <= a[1];
  const free = (b) => placed.every((a) => apart(a, b));
  const spot = spots.find((sp) => free(sp.box)) || spots[0];
  placed.push(spot.box);
  return spot;
}

/** One head's plane as SVG, side × side px. o: plane, f, causal, names (glossed), short (the
    labels), colour (the head's), ink (palette ink), T, title, px (its words' size; default the
    stylesheet's). The points are keyboard-reachable
    (one Tab stop; arrows move along them, strongest key first); each says what it is. */
export function drawQkHead(doc, o, side) {
  const { plane, f, T } = o;
  const n = plane.keys.length;
  const pts = [...plane.keys, ...plane.queries];
  let lim = 1e-9;
  for (const [x, y] of pts) lim = Math.max(lim, Math.abs(x), Math.abs(y));
  lim *= 1.12;
  const pad = Math.max(14, o.px || 0);
  const sc = (side / 2 - pad) / lim;
  const X = (x) => side / 2 + x * sc;
  const Y = (y) => side / 2 - y * sc;
  const svg = svgEl(doc, "svg", { viewBox: `0 0 ${side} ${side}`, width: side, height: side,
    role: "group", class: "qk-plane" });
  svg.setAttribute("aria-label", o.title);
  const ink = o.ink;
  svg.append(svgEl(doc, "line", { x1: pad, y1: side / 2, x2: side - pad, y2: side / 2, stroke: ink.grid }));
  svg.append(svgEl(doc, "line", { x1: side / 2, y1: pad, x2: side / 2, y2: side - pad, stroke: ink.grid }));
  const axisX = svgEl(doc, "text", { x: side - 2, y: side - 4, "text-anchor": "end", class: "qk-axis", fill: ink.text,
    ...(o.px ? { style: `font-size: ${o.px}px` } : {}) });
  axisX.textContent = T.qk_axis_x;
  const axisY = svgEl(doc, "text", { x: 2, y: (o.px || 12) + 2, class: "qk-axis", fill: ink.text,
    ...(o.px ? { style: `font-size: ${o.px}px` } : {}) });
  axisY.textContent = T.qk_axis_y;
  svg.append(axisX, axisY);
  const [fx, fy] = plane.queries[f];
  svg.append(svgEl(doc, "line", { x1: X(0), y1: Y(0), x2: X(fx), y2: Y(fy), stroke: ink.text,
    "stroke-width": 2, "stroke-dasharray": "4 3" }));
  const strong = strongest(plane, f, o.causal);
  const order = [...strong, ...plane.keys.map((_, j) => j).filter((j) => !strong.includes(j))
    .sort((a, b) => plane.keys[b][0] - plane.keys[a][0])];
  const items = [{ kind: "query", i: f }, ...order.map((j) => ({ kind: "key", i: j })),
    ...plane.queries.map((_, i) => ({ kind: "query", i })).filter((p) => p.i !== f)];
  const placed = []; // the labels' boxes so far: a new one takes a side none of them covers
  const nodes = items.map((p, idx) => {
    const [x, y] = p.kind === "key" ? plane.keys[p.i] : plane.queries[p.i];
    const big = (p.kind === "query" && p.i === f) || (p.kind === "key" && strong.includes(p.i));
    const masked = p.kind === "key" && o.causal && p.i > f;
    const g = svgEl(doc, "g", { tabindex: idx === 0 ? 0 : -1, role: "img", class: `pt ${p.kind}${big ? " strong" : ""}`,
      "data-kind": p.kind, "data-i": p.i, "data-x": x, "data-y": y });
    const shape = p.kind === "key"
      ? svgEl(doc, "circle", { cx: X(x), cy: Y(y), r: big ? 6 : 3.5, fill: masked ? "none" : o.colour,
        stroke: big ? ink.text : o.colour, "stroke-width": big ? 2 : 1 })
      : svgEl(doc, "rect", { x: X(x) - (big ? 6 : 3), y: Y(y) - (big ? 6 : 3), width: big ? 12 : 6,
        height: big ? 12 : 6, fill: big ? ink.text : "none", stroke: ink.text, "stroke-width": big ? 2 : 1,
        transform: `rotate(45 ${X(x)} ${Y(y)})` });
    g.append(shape);
    if (big) {
      const text = p.kind === "key" ? o.short[p.i] : `q ${o.short[p.i]}`;
      const spot = labelSpot(placed, X(x), Y(y), side, text, o.px || 12);
      const t = svgEl(doc, "text", { x: spot.x, y: spot.y, class: "qk-label", fill: ink.text,
        "text-anchor": spot.anchor, ...(o.px ? { style: `font-size: ${o.px}px` } : {}) });
      t.textContent = text;
      g.append(t);
    }
    const name = o.names[p.i];
    g.setAttribute("aria-label", p.kind === "key"
      ? fmt(masked ? T.qk_key_masked : T.qk_key, { k: name, x: x.toFixed(2), s: (x * plane.qnorm).toFixed(2),
        n: plane.qnorm.toFixed(2), y: y.toFixed(2) })
      : fmt(T.qk_query, { q: name, x: x.toFixed(2), y: y.toFixed(2) }));
    return g;
  });
  for (const g of nodes.slice().reverse()) svg.append(g); // the focus query on top
  svg.addEventListener("keydown", (ev) => {
    const at = nodes.indexOf(ev.target.closest?.("g.pt"));
    if (at < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
    const next = ev.key === "Home" ? 0 : ev.key === "End" ? nodes.length - 1 : step ? at + step : null;
    if (next === null || next < 0 || next >= nodes.length) return;
    ev.preventDefault();
    nodes[at].setAttribute("tabindex", "-1");
    nodes[next].setAttribute("tabindex", "0");
    nodes[next].focus();
  });
  svg.dataset.values = JSON.stringify({ keys: plane.keys, queries: plane.queries, qnorm: plane.qnorm,
    focus: f, strongest: strong, kept: plane.kept, n });
  return svg;
}

/** The view's map section: title, what the plane keeps, the step switch, a figure per head. */
export function buildQk(doc, testid) {
  const root = el(doc, "section", "qk-box", { "data-testid": testid });
  const title = el(doc, "h3", "qk-title");
  const about = el(doc, "p", "qk-about");
  const step = el(doc, "button", "qk-step", { type: "button", "aria-pressed": "false",
    "data-testid": `${testid}-step` });
  const heads = el(doc, "div", "qk-heads");
  root.append(title, about, step, heads);
  root.hidden = true; // until renderQk draws it
  return { root, title, about, step, heads };
}

/** Every head's plane, side by side, for the focus query; from step 0's Q and K when the switch
    says so (v.qkStart). */
export function renderQk(v) {
  const p = v.qkEls;
  if (!p) return;
  p.root.hidden = !v.vectors || !v.o.parts.includes("qk");
  if (p.root.hidden) return;
  const { n, d_k: d, lang, tokens, text: T, start } = v.header;
  const early = !!(start && v.qkStart && v.vectors.q0);
  const q = early ? v.vectors.q0 : v.vectors.q;
  const k = early ? v.vectors.k0 : v.vectors.k;
  const f = v.state.focus;
  const names = v.names.map((s, x) => glossed(s, tokens[x].gloss, lang));
  p.title.textContent = fmt(T.qk_title, { q: names[f] });
  p.about.textContent = T.qk_about;
  p.step.hidden = !start;
  if (start) {
    p.step.setAttribute("aria-pressed", String(early));
    p.step.textContent = fmt(early ? T.qk_step_start : T.qk_step_final, { s0: start.step, s: start.final });
  }
  const per = v.width < 640 ? 1 : v.heads.length; // a phone: one head to a row, as wide as fits
  const side = Math.max(180, Math.min(300, Math.floor((v.width - 16 * (per - 1)) / per)));
  p.heads.replaceChildren(...v.heads.map((head) => {
    const plane = qkPlane(q, k, n, d, head, f);
    const fig = el(v.doc, "figure", "qk-head", { "data-head": String(head) });
    const cap = el(v.doc, "figcaption");
    cap.textContent = fmt(T.qk_caption, { head: fmt(T.head, { i: head + 1 }), kept: Math.round(plane.kept * 100) });
    const title = `${cap.textContent}. ${fmt(T.qk_title, { q: names[f] })}`;
    fig.append(cap, drawQkHead(v.doc, { plane, f, T, causal: v.state.causal, names, short: v.labels,
      colour: headColour(v.header.palette.heads, head), ink: v.look.ink, title }, side));
    return fig;
  }));
}
