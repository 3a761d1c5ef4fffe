/* Input: pointer, touch and keyboard. Handlers only change state and schedule a render (and tell
   Python through sendState); they never draw. */

/** Which cell of a map-like canvas a pointer is over, or null. */
function cellAt(g, canvas, ev) {
  if (!g) return null;
  const r = canvas.getBoundingClientRect();
  const x = ev.clientX - r.left - g.left;
  const y = ev.clientY - r.top - g.top;
  if (x < 0 || y < 0 || x >= g.side || y >= g.side) return null;
  return { i: Math.floor(y / g.cell), j: Math.floor(x / g.cell) };
}

/** A click on a row's label (left of the cells) picks that row, like a click on the row. */
function rowLabelAt(g, canvas, ev) {
  if (!g) return null;
  const r = canvas.getBoundingClientRect();
  const x = ev.clientX - r.left;
  const y = ev.clientY - r.top - g.top;
  if (x < 0 || x >= g.left || y < 0 || y >= g.side) return null;
  return { i: Math.floor(y / g.cell), j: null };
}

/** "他 → 小明 · q·k 12.31 · ÷√d_k 3.08 · 99.6%" for head k, query i, key j. */
function tipText(ctl, k, i, j) {
  const { header, state } = ctl;
  const T = header.text;
  const n = header.n;
  const q = header.tokens[i].t;
  const key = header.tokens[j].t;
  if (state.causal && j > i) return fmt(T.tip_masked, { q, k: key });
  const s = ctl.scores[k * n * n + i * n + j];
  const d = divisor(ctl);
  const w = pct(ctl.weights[k][i * n + j]);
  if (d === 1) return fmt(T.tip, { q, k: key, s: s.toFixed(2), w });
  const by = state.tau === null ? "√d_k" : `τ ${d.toFixed(2)}`;
  return fmt(T.tip_scaled, { q, k: key, s: s.toFixed(2), by, v: (s / d).toFixed(2), w });
}

function showTip(ctl, text, ev) {
  const tip = ctl.els.tip;
  const box = ctl.els.root.getBoundingClientRect();
  tip.textContent = text;
  tip.hidden = false;
  const x = Math.min(ev.clientX - box.left + 14, box.width - tip.offsetWidth - 4);
  tip.style.left = `${Math.max(0, x)}px`;
  tip.style.top = `${ev.clientY - box.top + 16}px`;
}

function hideTip(ctl) {
  ctl.els.tip.hidden = true;
  if (ctl.hover) {
    ctl.hover = null;
    schedule(ctl);
  }
}

function onMapPointer(ctl, ev) {
  const canvas = ev.target.closest("canvas");
  if (!canvas || !ctl.header) return;
  const isPanel = canvas.dataset.panel !== undefined;
  const k = isPanel ? ctl.state.head : Number(canvas.dataset.head);
  const cell = cellAt(isPanel ? ctl.panelGeom : ctl.geom, canvas, ev);
  if (!cell) return hideTip(ctl);
  const hover = isPanel
    ? { kind: "panel", p: Number(canvas.dataset.panel), ...cell }
    : { kind: "map", k, ...cell };
  if (JSON.stringify(hover) !== JSON.stringify(ctl.hover)) {
    ctl.hover = hover;
    schedule(ctl);
  }
  showTip(ctl, tipText(ctl, k, cell.i, cell.j), ev);
}

/** A click (or tap) on a map chooses its head and the clicked row as the focus token. */
function onMapClick(ctl, ev) {
  const canvas = ev.target.closest("canvas[data-head]");
  if (!canvas || !ctl.header) return;
  const cell = cellAt(ctl.geom, canvas, ev) || rowLabelAt(ctl.geom, canvas, ev);
  const k = Number(canvas.dataset.head);
  const patch = { head: k };
  if (cell) patch.focus = cell.i;
  if (ev.pointerType === "touch" && cell && cell.j !== null) {
    showTip(ctl, tipText(ctl, k, cell.i, cell.j), ev);
  }
  change(ctl, patch);
}

function onBarsPointer(ctl, ev) {
  const g = ctl.barsGeom;
  if (!g || !ctl.header) return;
  const r = ctl.els.bars.getBoundingClientRect();
  const j = Math.floor((ev.clientX - r.left - g.left) / g.group);
  if (j < 0 || j >= ctl.header.n) return hideTip(ctl);
  const n = ctl.header.n;
  const i = ctl.state.focus;
  const T = ctl.header.text;
  const lines = ctl.weights.map((w, k) =>
    fmt(T.summary_row, {
      q: `${fmt(T.head, { i: k + 1 })} ${ctl.header.tokens[i].t}`,
      k: ctl.header.tokens[j].t,
      w: pct(w[i * n + j]),
    }),
  );
  if (!ctl.hover || ctl.hover.kind !== "bars" || ctl.hover.j !== j) {
    ctl.hover = { kind: "bars", j };
    schedule(ctl);
  }
  showTip(ctl, lines.join("\n"), ev);
}

const MOVES = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** The keyboard cursor of a focused map: arrows, Home/End (row), PageUp/PageDown (column). */
function onMapKey(ctl, ev) {
  const canvas = ev.target;
  const k = Number(canvas.dataset.head);
  const n = ctl.header.n;
  const c = ctl.cursor.k === k ? ctl.cursor : { k, i: ctl.state.focus, j: 0, on: true };
  let { i, j } = c;
  if (ev.key in MOVES) {
    i += MOVES[ev.key][0];
    j += MOVES[ev.key][1];
  } else if (ev.key === "Home") j = 0;
  else if (ev.key === "End") j = n - 1;
  else if (ev.key === "PageUp") i = 0;
  else if (ev.key === "PageDown") i = n - 1;
  else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    change(ctl, { head: k, focus: c.i });
    return;
  } else return;
  ev.preventDefault();
  ctl.cursor = { k, i: Math.min(n - 1, Math.max(0, i)), j: Math.min(n - 1, Math.max(0, j)), on: true };
  sayCursor(ctl);
  schedule(ctl);
}

function sayCursor(ctl) {
  const { k, i, j } = ctl.cursor;
  const T = ctl.header.text;
  const n = ctl.header.n;
  const masked = ctl.state.causal && j > i;
  announce(
    ctl.els.live,
    fmt(T.live, {
      head: fmt(T.head, { i: k + 1 }),
      q: ctl.header.tokens[i].t,
      k: ctl.header.tokens[j].t,
      w: masked ? T.masked : pct(ctl.weights[k][i * n + j]),
    }),
  );
}

function onMapFocus(ctl, ev) {
  const k = Number(ev.target.dataset.head);
  if (ctl.cursor.k !== k) {
    const n = ctl.header.n;
    const i = ctl.state.focus;
    const w = ctl.weights[k];
    let best = 0;
    for (let j = 1; j < n; j++) if (w[i * n + j] > w[i * n + best]) best = j;
    ctl.cursor = { k, i, j: best, on: true };
  }
  ctl.cursor.on = true;
  sayCursor(ctl);
  schedule(ctl);
}

/** Roving focus in a radio group of buttons: arrows move and select, like native radios. */
function onRadioKey(ev, buttons, current, choose) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
  let next = null;
  if (step) next = (current + step + buttons.length) % buttons.length;
  else if (ev.key === "Home") next = 0;
  else if (ev.key === "End") next = buttons.length - 1;
  if (next === null) return;
  ev.preventDefault();
  choose(next);
  buttons[next].focus();
}

function bindInputs(ctl) {
  const els = ctl.els;
  els.scale.input.addEventListener("change", () => {
    change(ctl, { scale: els.scale.input.checked, tau: null });
  });
  els.causal.input.addEventListener("change", () => change(ctl, { causal: els.causal.input.checked }));
  els.tau.addEventListener("input", () => {
    ctl.dragging = true;
    ctl.state.tau = tauFromSlider(ctl, Number(els.tau.value));
    schedule(ctl);
  });
  els.tau.addEventListener("pointerdown", () => {
    ctl.pointerTau = true;
  });
  els.tau.addEventListener("change", () => {
    ctl.dragging = false;
    const tau = tauFromSlider(ctl, Number(els.tau.value));
    const root = sqrtDk(ctl);
    // A hand released near the √d_k mark or the left end means the model's setting or no
    // scaling; arrow keys step freely (a snap zone would swallow their small steps).
    const near = ctl.pointerTau ? 0.03 : 0.001;
    ctl.pointerTau = false;
    const patch = { tau: Math.round(tau * 1000) / 1000 };
    if (Math.abs(tau - root) < near * root) Object.assign(patch, { tau: null, scale: true });
    else if (tau < 1 + near) Object.assign(patch, { tau: null, scale: false });
    change(ctl, patch, SEND_DELAY_MS); // arrow keys fire one change per step
  });
  els.grid.addEventListener("pointermove", (ev) => onMapPointer(ctl, ev));
  els.grid.addEventListener("pointerleave", () => hideTip(ctl));
  els.grid.addEventListener("click", (ev) => onMapClick(ctl, ev));
  els.grid.addEventListener("keydown", (ev) => {
    if (ev.target.matches("canvas[data-head]")) onMapKey(ctl, ev);
  });
  els.grid.addEventListener("focusin", (ev) => {
    if (ev.target.matches("canvas[data-head]")) onMapFocus(ctl, ev);
  });
  els.grid.addEventListener("focusout", () => {
    ctl.cursor.on = false;
    schedule(ctl);
  });
  for (const p of els.panelFigs) {
    p.canvas.addEventListener("pointermove", (ev) => onMapPointer(ctl, ev));
    p.canvas.addEventListener("pointerleave", () => hideTip(ctl));
  }
  els.bars.addEventListener("pointermove", (ev) => onBarsPointer(ctl, ev));
  els.bars.addEventListener("pointerleave", () => hideTip(ctl));
  els.tokens.addEventListener("click", (ev) => {
    const b = ev.target.closest(".token");
    if (b) change(ctl, { focus: Number(b.dataset.i) });
  });
  els.tokens.addEventListener("keydown", (ev) => {
    const buttons = [...els.tokens.querySelectorAll(".token")];
    onRadioKey(ev, buttons, ctl.state.focus, (i) => change(ctl, { focus: i }, SEND_DELAY_MS));
  });
  els.picker.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-head]");
    if (b) change(ctl, { head: Number(b.dataset.head) });
  });
  els.picker.addEventListener("keydown", (ev) => {
    const buttons = [...els.picker.querySelectorAll("[data-head]")];
    onRadioKey(ev, buttons, ctl.state.head, (k) => change(ctl, { head: k }, SEND_DELAY_MS));
  });
  els.tableBox.addEventListener("toggle", () => describe(ctl));
  els.png.addEventListener("click", () => exportPng(ctl));
}
