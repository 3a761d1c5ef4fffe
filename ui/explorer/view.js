/* The view, uPlot's way: createView(host, opts) keeps its state in closure locals; setters
   change it and raise dirty flags; one commit() per animation frame applies them in a fixed
   order (data → weights → layout → words → controls → maps → panels → bars → story → tip →
   text alternatives). Handlers only call setters; drawing never reads the DOM back; destroy()
   removes every listener, observer, timer and node it added. streamlit.js mounts it in
   Streamlit; another page (the lesson) can mount it with its own options. */

const SEND_DELAY_MS = 250; // arrow keys on tokens/heads/τ: tell the page once the hand rests
const TIP_TOUCH_MS = 2500; // a tapped cell's tooltip goes away by itself
const PARTS = ["tokens", "story", "panels", "table", "bars"];
const CONTROLS = ["scale", "causal", "tau", "png"];
let viewCount = 0;

/** Mount a view in `host`. opts: heads (indices to show, default all), controls (subset of
    CONTROLS), parts (subset of PARTS), fontScale, css (a stylesheet for the host), skipLink,
    onChange(state) (the settings after a user's change). Returns { update, setState, destroy }. */
function createView(host, opts = {}) {
  const o = { heads: null, controls: CONTROLS, parts: PARTS, fontScale: 1, css: "", skipLink: false,
    onChange: () => {}, ...opts };
  const doc = host.ownerDocument;
  const win = doc.defaultView;
  const uid = `alx${(viewCount += 1)}`;
  const els = skeleton(doc, uid, o.parts);
  const style = o.css ? el(doc, "style") : null;
  if (style) style.textContent = o.css;
  const skip = o.skipLink ? skipLinkEl(doc) : null;
  const listeners = [];
  const observers = [];
  // What Python sent, and what follows from it per sentence.
  let header = null;
  let scores = null;
  let names = [];
  let labels = [];
  let heads = [];
  let paints = null;
  let look = null;
  // The settings the view answers (and sends back), and what is transient.
  const state = { scale: true, causal: false, tau: null, focus: 0, head: 0 };
  let hover = null;
  let cursor = null;
  let tip = null;
  let dragging = false;
  let byPointer = false;
  let width = 0;
  let viewportH = win.innerHeight || 800;
  let dpr = win.devicePixelRatio || 1;
  const touch = !!win.matchMedia?.("(pointer: coarse)").matches;
  // Derived in commit().
  let weights = [];
  let zmax = [];
  let layout = null;
  let geom = { grid: null, panel: null, bars: null };
  const layers = { grid: el(doc, "canvas"), panel: el(doc, "canvas") };
  const scratch = el(doc, "canvas");
  let ref = null; // the inspected head's row stats at τ = √d_k and τ = 1
  let say = null; // what the live region says after this commit
  let renders = 0;
  let committing = false;
  // Dirty flags, raised by setters; maps to redraw (head indices) when not all of them.
  const dirty = new Set();
  const dirtyMaps = new Set();
  const timers = { frame: 0, a11y: 0, send: 0, tip: 0 };
  const targets = new Map(); // canvas → { kind, visible, stale }

  // ---- setters: change state, raise flags, schedule one commit --------------------------------

  function raise(...flags) {
    for (const f of flags) dirty.add(f);
    if (!timers.frame && header && !committing) timers.frame = win.requestAnimationFrame(commit);
  }

  function clampState() {
    if (!header) return;
    state.focus = Math.min(Math.max(0, state.focus | 0), header.n - 1);
    state.head = heads.includes(state.head | 0) ? state.head | 0 : heads[0];
  }

  /** New settings (from Python, or from the user when `user`); flags follow what changed. */
  function setState(patch, { user = false, delay = 0 } = {}) {
    const was = { ...state };
    for (const k of Object.keys(state)) if (k in patch) state[k] = patch[k];
    state.scale = !!state.scale;
    state.causal = !!state.causal;
    state.tau = state.tau === null || state.tau === undefined ? null : Number(state.tau);
    clampState();
    const scaling = state.scale !== was.scale || state.tau !== was.tau;
    const masking = state.causal !== was.causal;
    if (scaling || masking) raise("weights", "maps", "panels", "bars", "story", "controls", "a11y");
    if (masking) raise("ref");
    if (state.focus !== was.focus) raise("labels", "maps", "panels", "bars", "story", "controls", "a11y");
    if (state.head !== was.head) raise("ref", "panels", "scales", "controls", "a11y");
    const changed = scaling || masking || state.focus !== was.focus || state.head !== was.head;
    if (!user || !changed) return;
    if ((scaling && !dragging) || masking) say = "setting";
    send(delay);
  }

  function send(delay) {
    win.clearTimeout(timers.send);
    const go = () => o.onChange({ ...state });
    if (delay) timers.send = win.setTimeout(go, delay);
    else go();
  }

  function setHover(next) {
    const same = (a, b) => a === b || (a && b && a.kind === b.kind && a.k === b.k && a.p === b.p
      && a.i === b.i && a.j === b.j);
    if (same(hover, next)) return;
    for (const h of [hover, next]) {
      if (h?.kind === "map") dirtyMaps.add(h.k);
      if (h?.kind === "panel") dirty.add("panels");
      if (h?.kind === "bars") dirty.add("bars");
    }
    hover = next;
    raise("hover");
  }

  function setCursor(next) {
    for (const c of [cursor, next]) if (c) dirtyMaps.add(c.k);
    cursor = next;
    raise("hover");
  }

  function setTip(next) {
    tip = next;
    win.clearTimeout(timers.tip);
    if (next?.touch) timers.tip = win.setTimeout(() => setTip(null), TIP_TOUCH_MS);
    raise("tip");
  }

  function setRoom(w, h, ratio) {
    const wide = Math.max(260, Math.floor(w));
    if (wide === width && h === viewportH && ratio === dpr) return;
    [width, viewportH, dpr] = [wide, h, ratio];
    raise("layout", "labels", "maps", "panels", "bars", "scales");
  }

  /** New data from Python: the header (tokens, words, palette, settings) and the scores. */
  function update(next, nextScores) {
    const was = header;
    const fresh = !was || was.digest !== next.digest || was.wording !== next.wording
      || was.n !== next.n || was.h !== next.h;
    header = next;
    scores = nextScores;
    if (fresh) {
      const all = Array.from({ length: next.h }, (_, k) => k);
      heads = o.heads ? all.filter((k) => o.heads.includes(k)) : all;
      if (!heads.length) heads = all;
      names = distinctNames(next.tokens.map((t) => t.t));
      labels = next.tokens.map((t, i) => clipLabel(t.t, names[i], next.palette.label_chars));
      raise("data", "weights", "ref", "words", "layout", "labels", "maps", "panels", "bars",
        "scales", "story", "controls", "a11y");
    }
    if (fresh || was.classroom !== next.classroom) {
      raise("layout", "labels", "words", "maps", "panels", "bars", "scales");
    }
    if (fresh || was.numbers !== next.numbers || was.shared !== next.shared) {
      raise("weights", "maps", "panels", "scales");
    }
    clampState();
  }

  // ---- commit: apply the flags in a fixed order ------------------------------------------------

  function commit() {
    timers.frame = 0;
    if (!header || !width) return;
    committing = true;
    renders += 1;
    els.root.dataset.renders = String(renders);
    if (dirty.has("data")) rebuild();
    if (dirty.has("weights")) computeWeights();
    if (dirty.has("ref")) computeRef();
    if (dirty.has("layout")) relayout();
    if (dirty.has("labels")) drawLayers();
    if (dirty.has("words")) applyWords();
    if (dirty.has("controls")) renderControls();
    renderGrid(dirty.has("maps"));
    if (dirty.has("panels")) renderPanels();
    if (dirty.has("bars")) renderBars();
    if (dirty.has("story")) renderStory();
    if (dirty.has("tip")) renderTip();
    if (dirty.has("a11y")) {
      win.clearTimeout(timers.a11y);
      timers.a11y = win.setTimeout(describe, dragging ? 400 : 60);
    }
    dirty.clear();
    dirtyMaps.clear();
    committing = false;
  }

  /** A drawing target: drawn now when on screen (or never drawn), else when it scrolls in. */
  function drawTarget(canvas, kind, draw) {
    const t = targets.get(canvas);
    if (t && !t.visible && t.drawn) {
      t.stale = true;
      return;
    }
    draw();
    if (t) Object.assign(t, { drawn: true, stale: false });
  }

  function observe(canvas, kind) {
    targets.set(canvas, { kind, visible: true, drawn: false, stale: false });
    io.observe(canvas);
  }

  function rebuild() {
    for (const m of els.maps) {
      targets.delete(m.canvas);
      io.unobserve(m.canvas);
    }
    els.maps = heads.map((k) => mapItem(doc, uid, k));
    els.grid.replaceChildren(...els.maps.map((m) => m.fig));
    els.picker.replaceChildren(...els.maps.map((m) => m.radio));
    els.maps.forEach((m) => observe(m.canvas, "map"));
    const p = header.palette;
    const rule = p.on_colour;
    paints = { weight: paintRamp(p.weight, rule), signed: paintRamp(p.signed, rule) };
    look = { ink: p.ink, heads: p.heads, masked: hexRgb(p.ink.masked), scratch };
    els.tokens.replaceChildren(...header.tokens.map((tok, i) =>
      tokenButton(doc, tok, names[i], i, header.lang, header.text.no_gloss)));
    cursor = null;
    hover = null;
  }

  function divisor() {
    if (state.tau !== null) return state.tau;
    return state.scale ? Math.sqrt(header.d_k) : 1;
  }

  function computeWeights() {
    const { n, h } = header;
    if (weights.length !== h || (h && weights[0].length !== n * n)) {
      weights = Array.from({ length: h }, () => new Float64Array(n * n));
    }
    for (let k = 0; k < h; k++) attentionWeights(scores, k * n * n, n, divisor(), state.causal, weights[k]);
    zmax = weights.map((w) => {
      if (header.shared) return 1;
      let top = 0.01;
      for (const v of w) top = Math.max(top, v);
      return top;
    });
  }

  function computeRef() {
    const n = header.n;
    const w = new Float64Array(n * n);
    const at = (d) => rowStats(attentionWeights(scores, state.head * n * n, n, d, state.causal, w), n);
    ref = { model: at(Math.sqrt(header.d_k)), raw: at(1) };
  }

  function relayout() {
    layout = viewLayout(width, viewportH, header.n, heads.length, header.classroom, header.palette,
      o.fontScale);
    look = { ...look, fonts: layout.fonts, dpr };
    const ctx = scratch.getContext("2d");
    geom.grid = mapGeometry(ctx, labels, layout.box, layout.maxH, layout.fonts);
    geom.panel = mapGeometry(ctx, labels, layout.panelBox, layout.maxH, layout.fonts);
    els.grid.style.gridTemplateColumns = `repeat(${layout.cols}, minmax(0, 1fr))`;
    els.panels.style.gridTemplateColumns = `repeat(${layout.panelCols}, minmax(0, 1fr))`;
    els.root.dataset.cols = String(layout.cols); // for tests: what the room decided
    els.root.dataset.labelPx = String(geom.grid.px);
  }

  function drawLayers() {
    const axes = { query: header.text.query_axis, key: header.text.key_axis };
    labelLayer(layers.grid, geom.grid, labels, axes, state.focus, look);
    labelLayer(layers.panel, geom.panel, labels, axes, state.focus, look);
  }

  // ---- words and controls ----------------------------------------------------------------------

  function tokenName(i) {
    return glossed(names[i], header.tokens[i].gloss, header.lang);
  }

  function headName(k) {
    return fmt(header.text.head, { i: k + 1 });
  }

  function applyWords() {
    writeWords(els, header, { controls: o.controls, touch, skip, headName });
  }

  function noteText() {
    return tauText(header.text, header.d_k, state) + (state.causal ? ` ${header.text.causal_note}` : "");
  }

  function panelCaptions() {
    return captionsOf(header.text, header.d_k, state, divisor());
  }

  function storyLines() {
    return storyOf(header, heads, weights, state.focus, tokenName, touch);
  }

  function tipText(k, i, j) {
    const n = header.n;
    const cell = { q: names[i], k: names[j], s: scores[k * n * n + i * n + j], w: weights[k][i * n + j] };
    return tipOf(header.text, cell, state.causal && j > i, divisor(), state.tau);
  }

  function renderControls() {
    els.scale.input.checked = state.scale && state.tau === null;
    els.scale.input.indeterminate = state.tau !== null;
    els.causal.input.checked = state.causal;
    const d = divisor();
    if (!dragging) els.tau.value = String(sliderFromTau(d, Math.sqrt(header.d_k)));
    els.tauOut.textContent = `τ = ${d.toFixed(2)}`;
    els.tau.setAttribute("aria-valuetext", `τ = ${d.toFixed(2)}`);
    if (dragging) return; // the rest of the texts (they re-lay the page out) once the hand rests
    setText(els.note, noteText());
    const choose = (node, on) => {
      if (node.getAttribute("aria-checked") === String(on)) return; // no style churn per frame
      node.setAttribute("aria-checked", String(on));
      node.tabIndex = on ? 0 : -1;
    };
    els.maps.forEach((m) => {
      m.fig.classList.toggle("chosen", m.k === state.head);
      choose(m.radio, m.k === state.head);
    });
    [...els.tokens.children].forEach((b, i) => choose(b, i === state.focus));
  }

  /** textContent only when it changes: the same text again still costs the page a layout. */
  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  // ---- maps, panels, bars ------------------------------------------------------------------------

  function marksFor(kind, id) {
    const on = (x) => x && x.kind === kind && (kind === "map" ? x.k === id : x.p === id);
    return {
      focusRow: state.focus,
      hover: on(hover) ? hover : null,
      cursor: kind === "map" && cursor && cursor.k === id && cursor.on ? cursor : null,
    };
  }

  function mapSpec(k) {
    return {
      cells: weightCells(weights[k], header.n, state.causal, zmax[k]),
      paint: paints.weight,
      causal: state.causal,
      numbers: header.numbers,
      labelLayer: layers.grid,
      marks: marksFor("map", k),
    };
  }

  function renderGrid(all) {
    const T = header.text;
    let hidden = false;
    for (const m of els.maps) {
      if (!all && !dirtyMaps.has(m.k)) continue;
      setText(m.range, header.shared ? "" : fmt(T.map_range, { max: pct(zmax[m.k]) }));
      drawTarget(m.canvas, "map", () => {
        const written = drawMap(m.canvas, geom.grid, mapSpec(m.k), look);
        hidden = hidden || (header.numbers && !written);
      });
    }
    if (!all) return;
    els.numbersNote.hidden = !hidden;
    setText(els.numbersNote, hidden ? fmt(T.no_numbers, { n: header.n }) : "");
    if (!dirty.has("scales")) return; // the colour bars change with the room, sentence, head
    const ticks = [0, 0.25, 0.5, 0.75, 1].map((v) => [v, `${Math.round(v * 100)}%`]);
    const title = header.shared ? T.colour_weight : T.colour_own;
    drawColourBar(els.gridBar, Math.min(layout.width, 460), paints.weight.lut, 0, 1, ticks,
      layout.fonts.label - 2, title, look);
  }

  /** Largest |raw score| of the inspected head: the two score panels share the scale ±limit. */
  function scoreLimit() {
    const n = header.n;
    const off = state.head * n * n;
    let limit = 1e-9;
    for (let x = 0; x < n * n; x++) limit = Math.max(limit, Math.abs(scores[off + x]));
    return limit;
  }

  /** The inspected head's three panels' cells: Q·Kᵀ, Q·Kᵀ/τ (one scale ±limit), the weights. */
  function panelCells() {
    const n = header.n;
    const off = state.head * n * n;
    const limit = scoreLimit();
    return [
      scoreCells(scores, off, n, 1, limit, false),
      scoreCells(scores, off, n, divisor(), limit, state.causal),
      weightCells(weights[state.head], n, state.causal, 1),
    ];
  }

  function renderPanels() {
    if (!o.parts.includes("panels")) return;
    const T = header.text;
    setText(els.panelsTitle, fmt(T.panels_title, { i: state.head + 1 }));
    const captions = panelCaptions();
    panelCells().forEach((cells, p) => {
      const fig = els.panelFigs[p];
      setText(fig.cap, captions[p]);
      const spec = { cells, paint: p < 2 ? paints.signed : paints.weight, causal: p > 0 && state.causal,
        numbers: header.numbers, labelLayer: layers.panel, marks: marksFor("panel", p) };
      drawTarget(fig.canvas, "panel", () => drawMap(fig.canvas, geom.panel, spec, look));
    });
    const now = rowStats(weights[state.head], header.n);
    setText(els.stats, fmt(T.stats, {
      tau: divisor().toFixed(2), h: now.entropy.toFixed(2), m: pct(now.max),
      hs: ref.model.entropy.toFixed(2), ms: pct(ref.model.max),
      hu: ref.raw.entropy.toFixed(2), mu: pct(ref.raw.max),
    }));
    if (!dirty.has("scales")) return;
    const px = layout.fonts.label - 2;
    const limit = scoreLimit();
    const lim = limit >= 10 ? limit.toFixed(0) : limit.toFixed(1);
    const barW = Math.min(layout.width, 420);
    const signed = [[-limit, `−${lim}`], [0, "0"], [limit, lim]];
    drawColourBar(els.scoreBar, barW, paints.signed.lut, -limit, limit, signed, px, T.colour_score, look);
    const ticks = [0, 0.25, 0.5, 0.75, 1].map((v) => [v, `${Math.round(v * 100)}%`]);
    drawColourBar(els.weightBar, barW, paints.weight.lut, 0, 1, ticks, px, T.colour_weight, look);
  }

  function focusRows() {
    const n = header.n;
    const i = state.focus;
    return heads.map((k) => weights[k].subarray(i * n, (i + 1) * n));
  }

  function renderBars() {
    if (!o.parts.includes("bars")) return;
    const T = header.text;
    setText(els.focusTitle, fmt(T.focus_title, { tok: tokenName(state.focus) }));
    setText(els.focusCaption, fmt(T.focus_caption, { pos: state.focus + 1 }));
    fillLegend(els.legend, heads.map(headName), heads.map((k) => headColour(header.palette.heads, k)));
    const h = hover && hover.kind === "bars" ? hover : null;
    drawTarget(els.bars, "bars", () => {
      geom.bars = drawBars(els.bars, layout.width, layout.barsH, focusRows(), heads, labels, h,
        state.focus, look);
    });
  }

  // ---- the story, the tooltip, the text alternatives -------------------------------------------

  function renderStory() {
    if (!o.parts.includes("story") || dragging) return; // a τ drag: words follow on release
    const lines = storyLines();
    const now = [...els.story.children].map((li) => li.textContent);
    if (now.length === lines.length && now.every((s, k) => s === lines[k])) return;
    els.story.replaceChildren(...lines.map((line) => {
      const li = el(doc, "li");
      li.textContent = line;
      return li;
    }));
  }

  function renderTip() {
    els.tip.hidden = !tip;
    if (!tip) return;
    els.tip.textContent = tip.text;
    const right = tip.x > width * 0.6; // anchored on the side with room: no measuring
    els.tip.style.left = right ? "auto" : `${Math.max(0, tip.x + 14)}px`;
    els.tip.style.right = right ? `${Math.max(0, width - tip.x + 8)}px` : "auto";
    els.tip.style.top = `${tip.y + 16}px`;
  }

  function announce(message) {
    if (els.live.textContent === message) els.live.textContent = "";
    els.live.textContent = message;
  }

  /** Text alternatives, after the pixels (a τ drag must not wait for 64 × 16 sentences). */
  function describe() {
    const T = header.text;
    const n = header.n;
    els.maps.forEach((m) => setText(m.summary, summaryText(T, headName(m.k), names, weights[m.k], n)));
    const i = state.focus;
    const parts = heads.map((k) => {
      const best = argmaxRow(weights[k], n, i);
      const q = `${headName(k)} ${names[i]}`;
      return fmt(T.summary_row, { q, k: names[best], w: pct(weights[k][i * n + best]) });
    });
    els.bars.setAttribute("aria-label", `${els.focusTitle.textContent}: ${parts.join(T.sep)}`);
    els.panelFigs.forEach((p) => p.canvas.setAttribute("aria-label", p.cap.textContent));
    const k = state.head;
    const title = `${T.weights} · ${headName(k)}`;
    els.panelFigs[2].canvas.setAttribute("aria-label", summaryText(T, title, names, weights[k], n));
    if (els.tableBox.open) {
      const rows = tableRows(names, weights[k], n, state.causal, T.masked);
      fillTable(els.table, fmt(T.table_caption, { i: k + 1 }), names, rows);
    }
    if (say === "setting") announce(`${noteText()} ${els.stats.textContent}`);
    else if (say) announce(say);
    say = null;
  }

  // ---- handlers: read the event, call a setter --------------------------------------------------

  function pointIn(canvas, ev) {
    const r = canvas.getBoundingClientRect();
    return [ev.clientX - r.left, ev.clientY - r.top];
  }

  function tipAt(ev, text) {
    const r = els.root.getBoundingClientRect();
    setTip({ text, x: ev.clientX - r.left, y: ev.clientY - r.top, touch: ev.pointerType === "touch" });
  }

  function onMapPointer(ev) {
    const canvas = ev.target.closest?.("canvas");
    if (!canvas || !header || ev.pointerType === "touch") return;
    const panel = canvas.dataset.panel;
    const k = panel === undefined ? Number(canvas.dataset.head) : state.head;
    const cell = cellAt(panel === undefined ? geom.grid : geom.panel, ...pointIn(canvas, ev));
    if (!cell) return leave();
    setHover(panel === undefined ? { kind: "map", k, ...cell } : { kind: "panel", p: Number(panel), ...cell });
    tipAt(ev, tipText(k, cell.i, cell.j));
  }

  function leave() {
    setHover(null);
    if (tip && !tip.touch) setTip(null);
  }

  /** A click (or tap) on a map chooses its head and the clicked row as the focus token. */
  function onMapClick(ev) {
    const canvas = ev.target.closest?.("canvas[data-head]");
    if (!canvas || !header) return;
    const [x, y] = pointIn(canvas, ev);
    const cell = cellAt(geom.grid, x, y) || rowLabelAt(geom.grid, x, y);
    const k = Number(canvas.dataset.head);
    if (ev.pointerType === "touch" && cell && cell.j !== null) tipAt(ev, tipText(k, cell.i, cell.j));
    setState(cell ? { head: k, focus: cell.i } : { head: k }, { user: true });
  }

  function onBarsPointer(ev) {
    if (!header || ev.pointerType === "touch") return;
    const j = barAt(geom.bars, pointIn(els.bars, ev)[0], header.n);
    if (j < 0) return leave();
    const T = header.text;
    const i = state.focus;
    const lines = heads.map((k) => fmt(T.summary_row, {
      q: `${headName(k)} ${names[i]}`, k: names[j], w: pct(weights[k][i * header.n + j]),
    }));
    setHover({ kind: "bars", j });
    tipAt(ev, lines.join("\n"));
  }

  function onMapKey(ev) {
    if (!ev.target.matches("canvas[data-head]")) return;
    const k = Number(ev.target.dataset.head);
    const c = cursor && cursor.k === k ? cursor : { k, i: state.focus, j: 0, on: true };
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      setState({ head: k, focus: c.i }, { user: true });
      return;
    }
    const next = cursorAfter(ev.key, c.i, c.j, header.n);
    if (!next) return;
    ev.preventDefault();
    setCursor({ k, ...next, on: true });
    say = cursorLine(header.text, headName(k), names, weights[k], header.n, next.i, next.j, state.causal);
    raise("a11y");
  }

  function onMapFocus(ev) {
    if (!ev.target.matches("canvas[data-head]") || !header) return;
    const k = Number(ev.target.dataset.head);
    const c = cursor && cursor.k === k
      ? cursor : { k, i: state.focus, j: argmaxRow(weights[k], header.n, state.focus) };
    setCursor({ ...c, on: true });
    say = cursorLine(header.text, headName(k), names, weights[k], header.n, c.i, c.j, state.causal);
    raise("a11y");
  }

  function onTau() {
    dragging = true;
    setState({ tau: tauFromSlider(Number(els.tau.value), Math.sqrt(header.d_k)) });
  }

  function onTauRelease() {
    dragging = false;
    const root = Math.sqrt(header.d_k);
    const patch = releasedTau(tauFromSlider(Number(els.tau.value), root), root, byPointer);
    byPointer = false;
    say = "setting";
    setState(patch, { user: true, delay: SEND_DELAY_MS }); // arrow keys fire one change per step
    raise("controls", "story", "a11y");
  }

  function onRadioKey(ev, group, current, patch) {
    const buttons = [...group.children];
    const next = radioAfter(ev.key, current, buttons.length);
    if (next === null) return;
    ev.preventDefault();
    setState(patch(next), { user: true, delay: SEND_DELAY_MS });
    buttons[next].focus();
  }

  // ---- export: a snapshot of what the view shows -----------------------------------------------

  function snapshot() {
    const T = header.text;
    const words = {
      sentence: names.join(" "),
      note: noteText(),
      axes: { query: T.query_axis, key: T.key_axis },
      mapTitles: els.maps.map((m) => [m.name, m.job, m.range].map((e) => e.textContent).join("")),
      panelsTitle: els.panelsTitle.textContent,
      captions: panelCaptions(),
      focusTitle: els.focusTitle.textContent,
      headNames: heads.map(headName),
    };
    return {
      n: header.n, heads: [...heads], labels: [...labels], words, state: { ...state },
      numbers: header.numbers, palette: header.palette, paints, look: { ink: look.ink, heads: look.heads, masked: look.masked },
      weights: heads.map((k) => Float64Array.from(weights[k])), zmax: heads.map((k) => zmax[k]),
      panels: panelCells(), rows: focusRows().map((r) => Float64Array.from(r)),
    };
  }

  function exportPng() {
    exportCanvas(doc, snapshot()).toBlob((blob) => {
      const a = el(doc, "a");
      a.href = URL.createObjectURL(blob);
      a.download = "attention_lab.png";
      a.click();
      win.setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    }, "image/png");
  }

  // ---- wiring: every listener and observer is remembered, for destroy() -------------------------

  const on = (target, type, fn, options) => listen(listeners, target, type, fn, options);
  const io = new win.IntersectionObserver((entries) => {
    for (const e of entries) {
      const t = targets.get(e.target);
      if (!t) continue;
      t.visible = e.isIntersecting;
      if (t.visible && t.stale) raise(t.kind === "map" ? "maps" : t.kind === "panel" ? "panels" : "bars");
    }
  }, { rootMargin: "200px 0px" });
  const ro = new win.ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    setRoom(box.width, win.innerHeight || viewportH, win.devicePixelRatio || 1);
  });
  observers.push(io, ro);
  observe(els.bars, "bars");
  els.panelFigs.forEach((p) => observe(p.canvas, "panel"));

  function bind() {
    on(els.scale.input, "change", () => setState({ scale: els.scale.input.checked, tau: null }, { user: true }));
    on(els.causal.input, "change", () => setState({ causal: els.causal.input.checked }, { user: true }));
    on(els.tau, "input", onTau);
    on(els.tau, "pointerdown", () => { byPointer = true; });
    on(els.tau, "change", onTauRelease);
    on(els.grid, "pointermove", onMapPointer);
    on(els.grid, "pointerleave", leave);
    on(els.grid, "click", onMapClick);
    on(els.grid, "keydown", onMapKey);
    on(els.grid, "focusin", onMapFocus);
    on(els.grid, "focusout", () => cursor && setCursor({ ...cursor, on: false }));
    on(els.panels, "pointermove", onMapPointer);
    on(els.panels, "pointerleave", leave);
    on(els.bars, "pointermove", onBarsPointer);
    on(els.bars, "pointerleave", leave);
    on(els.tokens, "click", (ev) => {
      const b = ev.target.closest(".token");
      if (b) setState({ focus: Number(b.dataset.i) }, { user: true });
    });
    on(els.tokens, "keydown", (ev) => onRadioKey(ev, els.tokens, state.focus, (i) => ({ focus: i })));
    on(els.picker, "click", (ev) => {
      const b = ev.target.closest("[data-head]");
      if (b) setState({ head: Number(b.dataset.head) }, { user: true });
    });
    on(els.picker, "keydown", (ev) =>
      onRadioKey(ev, els.picker, heads.indexOf(state.head), (s) => ({ head: heads[s] })));
    on(els.tableBox, "toggle", () => raise("a11y"));
    on(els.png, "click", exportPng);
    on(win, "resize", () => setRoom(width, win.innerHeight, win.devicePixelRatio || 1));
    on(doc, "pointerdown", (ev) => tip?.touch && !els.grid.contains(ev.target) && setTip(null), true);
    if (skip) {
      on(skip, "click", (ev) => {
        ev.preventDefault();
        els.scale.input.focus();
        els.scale.input.scrollIntoView({ block: "center" });
      });
    }
  }

  function destroy() {
    unlistenAll(listeners);
    for (const ob of observers.splice(0)) ob.disconnect();
    for (const id of Object.values(timers)) {
      win.clearTimeout(id);
      win.cancelAnimationFrame(id);
    }
    targets.clear();
    els.root.remove();
    style?.remove();
    skip?.remove();
    header = null;
  }

  bind();
  if (style) host.append(style);
  host.append(els.root);
  if (skip) doc.body.prepend(skip);
  ro.observe(els.root);
  return { update, setState: (patch) => setState(patch), destroy, root: els.root };
}
