/* What one commit of the view does, step by step, as functions of the view's record `v` (its
   header, scores, state and elements; view.js owns it): the weights, the layout, the words, the
   controls, the maps, the panels, the bars, the story, the tooltip and the text alternatives.
   They only write: the record and the page; nothing here reads the DOM back. */

import { attentionWeights, rowStats } from "./softmax.js";
import { headColour, scoreCells, weightCells } from "./colour.js";
import { FIGURE_PAD, fitGrid, mapGeometry, viewLayout } from "./layout.js";
import { argmaxRow, captionsOf, fmt, glossed, pct, storyOf, summaryText, tableRows, tauText,
  tipOf } from "./a11y.js";
import { drawBars, drawColourBar, drawMap, labelLayer } from "./draw.js";
import { sliderFromTau } from "./input.js";
import { el, fillLegend, fillTable, placeWords, writeWords } from "./dom.js";

/** What the scores are divided by: τ when set, else √d_k or 1 as the switch says. */
function viewDivisor(v) {
  if (v.state.tau !== null) return v.state.tau;
  return v.state.scale ? Math.sqrt(v.header.d_k) : 1;
}

export function computeWeights(v) {
  const { n, h } = v.header;
  if (v.weights.length !== h || (h && v.weights[0].length !== n * n)) {
    v.weights = Array.from({ length: h }, () => new Float64Array(n * n));
  }
  for (let k = 0; k < h; k++) {
    if (v.header.values === "weights") v.weights[k].set(v.scores.subarray(k * n * n, (k + 1) * n * n));
    else attentionWeights(v.scores, k * n * n, n, viewDivisor(v), v.state.causal, v.weights[k]);
  }
  v.zmax = v.weights.map((w) => {
    if (v.header.shared) return 1;
    let top = 0.01;
    for (const x of w) top = Math.max(top, x);
    return top;
  });
}

/** The inspected head's row stats at τ = √d_k and τ = 1 (the panels' comparison line). */
export function computeRef(v) {
  const n = v.header.n;
  const w = new Float64Array(n * n);
  const off = v.state.head * n * n;
  const at = (d) => rowStats(attentionWeights(v.scores, off, n, d, v.state.causal, w), n);
  v.ref = { model: at(Math.sqrt(v.header.d_k)), raw: at(1) };
}

function tokenName(v, i) {
  return glossed(v.names[i], v.header.tokens[i].gloss, v.header.lang);
}

export function viewHeadName(v, k) {
  return fmt(v.header.text.head, { i: k + 1 });
}

/** A map's caption as written: its head's name, its job, its colour range. */
function captionText(v, k) {
  const T = v.header.text;
  const job = v.header.jobs[k];
  const range = v.header.shared ? "" : fmt(T.map_range, { max: "100.0%" });
  return viewHeadName(v, k) + (job && job.label ? fmt(T.head_job, { job: job.label }) : "") + range;
}

/** Layout for the room (or the page's box, when it gave one), and the maps' geometry. */
export function relayoutView(v) {
  const { header: h, o, els } = v;
  const ctx = v.scratch.getContext("2d");
  v.layout = viewLayout(v.width, v.viewportH, h.n, v.heads.length, h.classroom, h.palette,
    o.fontScale, o.fonts, v.box ? null : v.fit.top);
  placeWords(els, v.layout.phone ? "phone" : h.classroom ? "classroom" : "normal");
  const fonts = v.layout.fonts;
  if (v.box) {
    ctx.font = `600 ${fonts.label}px ${fonts.stack}`;
    const captionW = Math.max(...v.heads.map((k) => ctx.measureText(captionText(v, k)).width));
    const fit = fitGrid(ctx, v.labels, v.box, v.heads.length, fonts, captionW);
    Object.assign(v.layout, { cols: fit.cols, box: fit.box, maxH: fit.maxH });
  } else v.layout.box -= FIGURE_PAD; // a map's figure has padding and a border
  v.look = { ...v.look, fonts, dpr: v.dpr };
  v.geom.grid = mapGeometry(ctx, v.labels, v.layout.box, v.layout.maxH, fonts);
  v.geom.panel = mapGeometry(ctx, v.labels, v.layout.panelBox, v.layout.maxH, fonts);
  els.grid.style.gridTemplateColumns = `repeat(${v.layout.cols}, minmax(0, 1fr))`;
  els.panels.style.gridTemplateColumns = `repeat(${v.layout.panelCols}, minmax(0, 1fr))`;
  if (o.fonts) els.root.style.fontSize = `${fonts.label}px`; // the page's room: its words too
  els.root.dataset.cols = String(v.layout.cols); // for tests: what the room decided
  els.root.dataset.labelPx = String(v.geom.grid.px);
}

export function drawLabelLayers(v) {
  const axes = { query: v.header.text.query_axis, key: v.header.text.key_axis };
  const keep = v.state.focus;
  v.words.grid = labelLayer(v.layers.grid, v.geom.grid, v.labels, axes, keep, v.look);
  v.words.panel = labelLayer(v.layers.panel, v.geom.panel, v.labels, axes, keep, v.look);
}

export function applyWords(v) {
  const headNameOf = (k) => viewHeadName(v, k);
  writeWords(v.els, v.header, { controls: v.o.controls, touch: v.touch, skip: v.skip, headName: headNameOf });
}

function noteText(v) {
  const T = v.header.text;
  return tauText(T, v.header.d_k, v.state) + (v.state.causal ? ` ${T.causal_note}` : "");
}

function panelCaptions(v) {
  return captionsOf(v.header.text, v.header.d_k, v.state, viewDivisor(v));
}

export function tipText(v, k, i, j) {
  const n = v.header.n;
  const cell = { q: v.names[i], k: v.names[j], s: v.scores[k * n * n + i * n + j], w: v.weights[k][i * n + j] };
  if (v.header.values === "weights") return fmt(v.header.text.summary_row, { q: cell.q, k: cell.k, w: pct(cell.w) });
  return tipOf(v.header.text, cell, v.state.causal && j > i, viewDivisor(v), v.state.tau);
}

/** textContent only when it changes: the same text again still costs the page a layout. */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function renderControls(v) {
  const { els, state } = v;
  els.scale.input.checked = state.scale && state.tau === null;
  els.scale.input.indeterminate = state.tau !== null;
  els.causal.input.checked = state.causal;
  const d = viewDivisor(v);
  if (!v.dragging) els.tau.value = String(sliderFromTau(d, Math.sqrt(v.header.d_k)));
  els.tauOut.textContent = `τ = ${d.toFixed(2)}`;
  els.tau.setAttribute("aria-valuetext", `τ = ${d.toFixed(2)}`);
  if (v.dragging) return; // the rest of the texts (they re-lay the page out) once the hand rests
  setText(els.note, noteText(v));
  const choose = (node, on) => {
    if (node.getAttribute("aria-checked") === String(on)) return; // no style churn per frame
    node.setAttribute("aria-checked", String(on));
    node.tabIndex = on ? 0 : -1;
  };
  els.maps.forEach((m) => {
    m.fig.classList.toggle("chosen", v.o.parts.includes("panels") && m.k === state.head);
    choose(m.radio, m.k === state.head);
  });
  [...els.tokens.children].forEach((b, i) => choose(b, i === state.focus));
}

/** A drawing target: drawn now when on screen (or never drawn), else when it scrolls in; one
    put off still takes its new size `g` ({width, height}, when given) at once, so the page's
    layout never waits for a scroll (a map below the fold kept its old size after a refit). */
function drawTarget(v, canvas, draw, g = null) {
  const t = v.targets.get(canvas);
  if (t && !t.visible && t.drawn) {
    t.stale = true;
    canvas.dataset.stale = "1"; // for tests: its pixels are not this commit's until it scrolls in
    if (g) Object.assign(canvas.style, { width: `${g.width}px`, height: `${g.height}px` });
    return;
  }
  draw();
  delete canvas.dataset.stale;
  if (t) Object.assign(t, { drawn: true, stale: false });
}

function marksFor(v, kind, id) {
  const on = (x) => x && x.kind === kind && (kind === "map" ? x.k === id : x.p === id);
  const { cursor } = v;
  return {
    focusRow: v.state.focus,
    hover: on(v.hover) ? v.hover : null,
    cursor: kind === "map" && cursor && cursor.k === id && cursor.on ? cursor : null,
    ring: kind === "map" ? v.ring : null,
  };
}

function mapSpec(v, k) {
  return {
    cells: weightCells(v.weights[k], v.header.n, v.state.causal, v.zmax[k]),
    paint: v.paints.weight,
    causal: v.state.causal,
    numbers: v.header.numbers,
    labelLayer: v.words.grid,
    marks: marksFor(v, "map", k),
  };
}

export function renderGrid(v, all) {
  const { header, els } = v;
  const T = header.text;
  let hidden = false;
  for (const m of els.maps) {
    if (!all && !v.dirtyMaps.has(m.k)) continue;
    setText(m.range, header.shared ? "" : fmt(T.map_range, { max: pct(v.zmax[m.k]) }));
    drawTarget(v, m.canvas, () => {
      const written = drawMap(m.canvas, v.geom.grid, mapSpec(v, m.k), v.look);
      hidden = hidden || (header.numbers && !written);
    }, v.geom.grid);
  }
  if (!all) return;
  els.numbersNote.hidden = !hidden || !v.o.parts.includes("note");
  setText(els.numbersNote, hidden ? fmt(T.no_numbers, { n: header.n }) : "");
  if (!v.dirty.has("scales") || !v.o.parts.includes("colourbar")) return;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((x) => [x, `${Math.round(x * 100)}%`]);
  const title = header.shared ? T.colour_weight : T.colour_own;
  drawColourBar(els.gridBar, Math.min(v.layout.width, 460), v.paints.weight.lut, 0, 1, ticks,
    v.layout.fonts.label - 2, title, v.look);
}

/** Largest |raw score| of the inspected head: the two score panels share the scale ±limit. */
function scoreLimit(v) {
  const n = v.header.n;
  const off = v.state.head * n * n;
  let limit = 1e-9;
  for (let x = 0; x < n * n; x++) limit = Math.max(limit, Math.abs(v.scores[off + x]));
  return limit;
}

/** The inspected head's three panels' cells: Q·Kᵀ, Q·Kᵀ/τ (one scale ±limit), the weights. */
function panelCells(v) {
  const n = v.header.n;
  const off = v.state.head * n * n;
  const limit = scoreLimit(v);
  return [
    scoreCells(v.scores, off, n, 1, limit, false),
    scoreCells(v.scores, off, n, viewDivisor(v), limit, v.state.causal),
    weightCells(v.weights[v.state.head], n, v.state.causal, 1),
  ];
}

export function renderPanels(v) {
  if (!v.o.parts.includes("panels")) return;
  const { els, state, paints } = v;
  const T = v.header.text;
  setText(els.panelsTitle, fmt(T.panels_title, { i: state.head + 1 }));
  const captions = panelCaptions(v);
  panelCells(v).forEach((cells, p) => {
    const fig = els.panelFigs[p];
    setText(fig.cap, captions[p]);
    const spec = { cells, paint: p < 2 ? paints.signed : paints.weight, causal: p > 0 && state.causal,
      numbers: v.header.numbers, labelLayer: v.words.panel, marks: marksFor(v, "panel", p) };
    drawTarget(v, fig.canvas, () => drawMap(fig.canvas, v.geom.panel, spec, v.look), v.geom.panel);
  });
  const now = rowStats(v.weights[state.head], v.header.n);
  const { model, raw } = v.ref;
  setText(els.stats, fmt(T.stats, {
    tau: viewDivisor(v).toFixed(2), h: now.entropy.toFixed(2), m: pct(now.max),
    hs: model.entropy.toFixed(2), ms: pct(model.max), hu: raw.entropy.toFixed(2), mu: pct(raw.max),
  }));
  if (v.dirty.has("scales")) drawPanelBars(v);
}

/** The panels' two colour bars: the scores' ±limit and the weights' 0–100 %. */
function drawPanelBars(v) {
  const T = v.header.text;
  const px = v.layout.fonts.label - 2;
  const limit = scoreLimit(v);
  const lim = limit >= 10 ? limit.toFixed(0) : limit.toFixed(1);
  const barW = Math.min(v.layout.width, 420);
  const signed = [[-limit, `−${lim}`], [0, "0"], [limit, lim]];
  drawColourBar(v.els.scoreBar, barW, v.paints.signed.lut, -limit, limit, signed, px, T.colour_score, v.look);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((x) => [x, `${Math.round(x * 100)}%`]);
  drawColourBar(v.els.weightBar, barW, v.paints.weight.lut, 0, 1, ticks, px, T.colour_weight, v.look);
}

function focusRows(v) {
  const n = v.header.n;
  const i = v.state.focus;
  return v.heads.map((k) => v.weights[k].subarray(i * n, (i + 1) * n));
}

export function renderBars(v) {
  if (!v.o.parts.includes("bars")) return;
  const { els, header, state, hover } = v;
  const T = header.text;
  setText(els.focusTitle, fmt(T.focus_title, { tok: tokenName(v, state.focus) }));
  setText(els.focusCaption, fmt(T.focus_caption, { pos: state.focus + 1 }));
  fillLegend(els.legend, v.heads.map((k) => viewHeadName(v, k)), v.heads.map((k) => headColour(header.palette.heads, k)));
  const h = hover && hover.kind === "bars" ? hover : null;
  drawTarget(v, els.bars, () => {
    v.geom.bars = drawBars(els.bars, v.layout.width, v.layout.barsH, focusRows(v), v.heads, v.labels, h,
      state.focus, v.look);
  });
}

export function renderStory(v) {
  if (!v.o.parts.includes("story") || v.dragging) return; // a τ drag: words follow on release
  const lines = storyOf(v.header, v.heads, v.weights, v.state.focus, (i) => tokenName(v, i), v.touch);
  const story = v.els.story;
  const now = [...story.children].map((li) => li.textContent);
  if (now.length === lines.length && now.every((s, k) => s === lines[k])) return;
  story.replaceChildren(...lines.map((line) => {
    const li = el(v.doc, "li");
    li.textContent = line;
    return li;
  }));
}

export function renderTip(v) {
  const { tip, els } = v;
  els.tip.hidden = !tip;
  if (!tip) return;
  els.tip.textContent = tip.text;
  const right = tip.x > v.width * 0.6; // anchored on the side with room: no measuring
  els.tip.style.left = right ? "auto" : `${Math.max(0, tip.x + 14)}px`;
  els.tip.style.right = right ? `${Math.max(0, v.width - tip.x + 8)}px` : "auto";
  els.tip.style.top = `${tip.y + 16}px`;
}

function announce(v, message) {
  const live = v.els.live;
  if (live.textContent === message) live.textContent = "";
  live.textContent = message;
}

/** Text alternatives, after the pixels (a τ drag must not wait for 64 × 16 sentences). */
export function describeView(v) {
  const { header, els, names, weights, state } = v;
  const T = header.text;
  const n = header.n;
  els.maps.forEach((m) => setText(m.summary, summaryText(T, captionText(v, m.k), names, weights[m.k], n)));
  const i = state.focus;
  const parts = v.heads.map((k) => {
    const best = argmaxRow(weights[k], n, i);
    const q = `${viewHeadName(v, k)} ${names[i]}`;
    return fmt(T.summary_row, { q, k: names[best], w: pct(weights[k][i * n + best]) });
  });
  els.bars.setAttribute("aria-label", `${els.focusTitle.textContent}: ${parts.join(T.sep)}`);
  els.panelFigs.forEach((p) => p.canvas.setAttribute("aria-label", p.cap.textContent));
  const k = state.head;
  const title = `${T.weights} · ${viewHeadName(v, k)}`;
  els.panelFigs[2].canvas.setAttribute("aria-label", summaryText(T, title, names, weights[k], n));
  if (els.tableBox.open) {
    const rows = tableRows(names, weights[k], n, state.causal, T.masked);
    fillTable(els.table, fmt(T.table_caption, { i: k + 1 }), names, rows);
  }
  if (v.say === "setting") announce(v, `${noteText(v)} ${els.stats.textContent}`);
  else if (v.say) announce(v, v.say);
  v.say = null;
}

/** What the view shows, as data, for the PNG export (export.js). */
export function snapshotOf(v) {
  const { header, els, look } = v;
  const T = header.text;
  const words = {
    sentence: v.names.join(" "),
    note: noteText(v),
    axes: { query: T.query_axis, key: T.key_axis },
    mapTitles: els.maps.map((m) => [m.name, m.job, m.range].map((e) => e.textContent).join("")),
    panelsTitle: els.panelsTitle.textContent,
    captions: panelCaptions(v),
    focusTitle: els.focusTitle.textContent,
    headNames: v.heads.map((k) => viewHeadName(v, k)),
  };
  return {
    n: header.n, heads: [...v.heads], labels: [...v.labels], words, state: { ...v.state },
    numbers: header.numbers, palette: header.palette, paints: v.paints,
    look: { ink: look.ink, heads: look.heads, masked: look.masked },
    weights: v.heads.map((k) => Float64Array.from(v.weights[k])), zmax: v.heads.map((k) => v.zmax[k]),
    panels: panelCells(v), rows: focusRows(v).map((r) => Float64Array.from(r)),
  };
}
