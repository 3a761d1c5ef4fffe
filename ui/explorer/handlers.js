/* The view's event handlers, as functions of its record `v`: each reads its event and calls one
   of the setters view.js put on the record (v.setState, v.setHover, v.setCursor, v.setTip,
   v.raise); none draws. bindView wires them all and remembers every listener for destroy(). */

import { argmaxRow, cursorLine, fmt, pct } from "./a11y.js";
import { barAt, cellAt, cursorAfter, listen, radioAfter, releasedTau, rowLabelAt,
  tauFromSlider } from "./input.js";
import { exportCanvas } from "./export.js";
import { el } from "./dom.js";
import { snapshotOf, tipText, viewHeadName } from "./paint.js";

const SEND_DELAY_MS = 250; // arrow keys on tokens/heads/τ: tell the page once the hand rests

function pointIn(canvas, ev) {
  const r = canvas.getBoundingClientRect();
  return [ev.clientX - r.left, ev.clientY - r.top];
}

function tipAt(v, ev, text) {
  const r = v.els.root.getBoundingClientRect();
  v.setTip({ text, x: ev.clientX - r.left, y: ev.clientY - r.top, touch: ev.pointerType === "touch" });
}

function onMapPointer(v, ev) {
  const canvas = ev.target.closest?.("canvas");
  if (!canvas || !v.header || ev.pointerType === "touch") return;
  const panel = canvas.dataset.panel;
  const k = panel === undefined ? Number(canvas.dataset.head) : v.state.head;
  const cell = cellAt(panel === undefined ? v.geom.grid : v.geom.panel, ...pointIn(canvas, ev));
  if (!cell) return leave(v);
  v.setHover(panel === undefined ? { kind: "map", k, ...cell } : { kind: "panel", p: Number(panel), ...cell });
  tipAt(v, ev, tipText(v, k, cell.i, cell.j));
}

function leave(v) {
  v.setHover(null);
  if (v.tip && !v.tip.touch) v.setTip(null);
}

/** A click (or tap) on a map chooses its head and the clicked row as the focus token; on a cell
    it also takes that cell apart (cell.js). */
function onMapClick(v, ev) {
  const canvas = ev.target.closest?.("canvas[data-head]");
  if (!canvas || !v.header) return;
  const [x, y] = pointIn(canvas, ev);
  const cell = cellAt(v.geom.grid, x, y) || rowLabelAt(v.geom.grid, x, y);
  const k = Number(canvas.dataset.head);
  if (ev.pointerType === "touch" && cell && cell.j !== null) tipAt(v, ev, tipText(v, k, cell.i, cell.j));
  v.setState(cell ? { head: k, focus: cell.i } : { head: k }, { user: true });
  if (cell && cell.j !== null) v.setCell({ k, i: cell.i, j: cell.j });
}

function onBarsPointer(v, ev) {
  if (!v.header || ev.pointerType === "touch") return;
  const j = barAt(v.geom.bars, pointIn(v.els.bars, ev)[0], v.header.n);
  if (j < 0) return leave(v);
  const T = v.header.text;
  const i = v.state.focus;
  const lines = v.heads.map((k) => fmt(T.summary_row, {
    q: `${viewHeadName(v, k)} ${v.names[i]}`, k: v.names[j], w: pct(v.weights[k][i * v.header.n + j]),
  }));
  v.setHover({ kind: "bars", j });
  tipAt(v, ev, lines.join("\n"));
}

/** What the live region says for the cell cursor on (head k, query i, key j). */
function cursorSay(v, k, i, j) {
  return cursorLine(v.header.text, viewHeadName(v, k), v.names, v.weights[k], v.header.n, i, j, v.state.causal);
}

function onMapKey(v, ev) {
  if (!ev.target.matches("canvas[data-head]")) return;
  const k = Number(ev.target.dataset.head);
  const c = v.cursor && v.cursor.k === k ? v.cursor : { k, i: v.state.focus, j: 0, on: true };
  if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    v.setState({ head: k, focus: c.i }, { user: true });
    v.setCell({ k, i: c.i, j: c.j }); // Enter takes the cursor's cell apart
    return;
  }
  if (ev.key === "Escape" && v.cell) {
    ev.preventDefault(); // Esc closes the breakdown (a deck's Esc waits for the next one)
    v.setCell(null);
    return;
  }
  const next = cursorAfter(ev.key, c.i, c.j, v.header.n);
  if (!next) return;
  ev.preventDefault(); // the page's own keys (a deck's ← →) leave a prevented key alone
  v.setCursor({ k, ...next, on: true });
  v.say = cursorSay(v, k, next.i, next.j);
  v.raise("a11y");
}

function onMapFocus(v, ev) {
  if (!ev.target.matches("canvas[data-head]") || !v.header) return;
  const k = Number(ev.target.dataset.head);
  const n = v.header.n;
  const c = v.cursor && v.cursor.k === k
    ? v.cursor : { k, i: v.state.focus, j: argmaxRow(v.weights[k], n, v.state.focus) };
  v.setCursor({ ...c, on: true });
  v.say = cursorSay(v, k, c.i, c.j);
  v.raise("a11y");
}

function onTau(v) {
  v.dragging = true;
  v.setState({ tau: tauFromSlider(Number(v.els.tau.value), Math.sqrt(v.header.d_k)) });
}

function onTauRelease(v) {
  v.dragging = false;
  const root = Math.sqrt(v.header.d_k);
  const patch = releasedTau(tauFromSlider(Number(v.els.tau.value), root), root, v.byPointer);
  v.byPointer = false;
  v.say = "setting";
  v.setState(patch, { user: true, delay: SEND_DELAY_MS }); // arrow keys fire one change per step
  v.raise("controls", "story", "a11y", "cell"); // the breakdown's live line too
}

function onRadioKey(v, ev, group, current, patch) {
  const buttons = [...group.children];
  const next = radioAfter(ev.key, current, buttons.length);
  if (next === null) return;
  ev.preventDefault();
  v.setState(patch(next), { user: true, delay: SEND_DELAY_MS });
  buttons[next].focus();
}

/** The PNG button: a snapshot of what the view shows, drawn at projector width, downloaded. */
function exportPng(v) {
  exportCanvas(v.doc, snapshotOf(v)).toBlob((blob) => {
    const a = el(v.doc, "a");
    a.href = URL.createObjectURL(blob);
    a.download = "attention_lab.png";
    a.click();
    v.win.setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }, "image/png");
}

/** Every listener of the view, remembered in v.listeners for destroy(). */
export function bindView(v) {
  const { els, win, doc, skip } = v;
  const on = (target, type, fn, options) => listen(v.listeners, target, type, fn, options);
  const state = (patch) => v.setState(patch, { user: true });
  on(els.scale.input, "change", () => state({ scale: els.scale.input.checked, tau: null }));
  on(els.causal.input, "change", () => state({ causal: els.causal.input.checked }));
  on(els.tau, "input", () => onTau(v));
  on(els.tau, "pointerdown", () => { v.byPointer = true; });
  on(els.tau, "change", () => onTauRelease(v));
  for (const box of [els.grid, els.panels]) {
    on(box, "pointermove", (ev) => onMapPointer(v, ev));
    on(box, "pointerleave", () => leave(v));
  }
  on(els.grid, "click", (ev) => onMapClick(v, ev));
  on(els.grid, "keydown", (ev) => onMapKey(v, ev));
  on(els.grid, "focusin", (ev) => onMapFocus(v, ev));
  on(els.grid, "focusout", () => v.cursor && v.setCursor({ ...v.cursor, on: false }));
  on(els.bars, "pointermove", (ev) => onBarsPointer(v, ev));
  on(els.bars, "pointerleave", () => leave(v));
  on(els.tokens, "click", (ev) => {
    const b = ev.target.closest(".token");
    if (b) state({ focus: Number(b.dataset.i) });
  });
  on(els.tokens, "keydown", (ev) => onRadioKey(v, ev, els.tokens, v.state.focus, (i) => ({ focus: i })));
  on(els.picker, "click", (ev) => {
    const b = ev.target.closest("[data-head]");
    if (b) state({ head: Number(b.dataset.head) });
  });
  on(els.picker, "keydown", (ev) =>
    onRadioKey(v, ev, els.picker, v.heads.indexOf(v.state.head), (s) => ({ head: v.heads[s] })));
  on(els.tableBox, "toggle", () => v.raise("a11y"));
  on(els.png, "click", () => exportPng(v));
  on(v.cellEls.close, "click", () => {
    const k = v.cell ? v.cell.k : v.state.head;
    v.setCell(null);
    els.maps.find((m) => m.k === k)?.canvas.focus();
  });
  on(v.cellEls.root, "keydown", (ev) => {
    if (ev.key !== "Escape" || !v.cell) return;
    ev.preventDefault();
    const k = v.cell.k;
    v.setCell(null);
    els.maps.find((m) => m.k === k)?.canvas.focus();
  });
  on(v.qkEls.step, "click", () => v.setQkStart(!v.qkStart));
  on(win, "resize", () => v.setRoom(v.width, win.innerHeight, win.devicePixelRatio || 1));
  on(doc, "pointerdown", (ev) => v.tip?.touch && !els.grid.contains(ev.target) && v.setTip(null), true);
  if (skip) {
    on(skip, "click", (ev) => {
      ev.preventDefault();
      els.scale.input.focus();
      els.scale.input.scrollIntoView({ block: "center" });
    });
  }
}
