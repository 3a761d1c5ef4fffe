/* The view, uPlot's way: createView(host, opts) keeps its state in one record in its closure;
   setters change it and raise dirty flags; one commit() per animation frame applies them in a
   fixed order (data → weights → layout → words → controls → maps → panels → bars → story → tip
   → text alternatives; the steps are paint.js's). Handlers (handlers.js) only call setters;
   drawing never reads the DOM back (one read after a commit that moved things: where the first
   row of maps starts, so it fits on the first screen); destroy() removes every listener, observer, timer and node
   it added. streamlit.js mounts it in Streamlit; another page (the lesson) mounts it with its
   own options.
   Imports run one way, never in a circle: softmax, colour, layout, a11y, payload (pure leaves)
   ← draw, input, export, dom ← paint ← handlers ← view ← streamlit. A file that imports reaches
   back only through the record `v`, whose fields are all written here, where it is made (it
   is sealed). */

import { hexRgb, paintRamp } from "./colour.js";
import { clipLabel, distinctNames } from "./a11y.js";
import { unlistenAll } from "./input.js";
import { el, mapItem, skeleton, skipLinkEl, tokenButton } from "./dom.js";
import { buildCell, renderCell } from "./cell.js";
import { buildQk, renderQk } from "./qk.js";
import { applyWords, computeRef, computeWeights, describeView, drawLabelLayers, relayoutView,
  renderBars, renderControls, renderGrid, renderPanels, renderStory, renderTip } from "./paint.js";
import { bindView } from "./handlers.js";

const TIP_TOUCH_MS = 2500; // a tapped cell's tooltip goes away by itself
// Sections a page may show (opts.parts): the token buttons, the story line, the note under the
// toolbar (and the one saying numbers were left out), the heads' title and picker, the colour
// bar, the before/after panels, the weights table, the focus bars, a cell taken apart (cell.js)
// and the query–key map (qk.js), both only where the header brought Q and K.
const PARTS = ["tokens", "story", "note", "heads", "colourbar", "panels", "table", "bars", "cell", "qk"];
const CONTROLS = ["scale", "causal", "tau", "png"];
let viewCount = 0;

/** The element that scrolls the page around `node` (across shadow roots), or null: the window. */
function scrollerOf(node) {
  const up = (n) => n.parentElement || n.getRootNode().host || null;
  for (let n = up(node); n; n = up(n)) {
    const y = n.ownerDocument.defaultView.getComputedStyle(n).overflowY;
    if (y === "auto" || y === "scroll") return n;
  }
  return null;
}

/** Mount a view in `host`. opts: heads (indices to show, default all), controls (subset of
    CONTROLS), parts (subset of PARTS), fonts (a palette.fonts row for the room, default by the
    room's width), fontScale, css (a stylesheet for the host), skipLink, onChange(state) (the
    settings after a user's change). Returns { update, setState, setBox, mark, destroy, root }:
    setBox(w, h) fits every map into that box (else the view takes its width and the window's
    height); mark(cell) rings one cell {i, j} of every map (null: none). */
export function createView(host, opts = {}) {
  const o = { heads: null, controls: CONTROLS, parts: PARTS, fonts: null, fontScale: 1, css: "",
    skipLink: false, onChange: () => {}, ...opts };
  const doc = host.ownerDocument;
  const win = doc.defaultView;
  const uid = `alx${(viewCount += 1)}`;
  const style = o.css ? el(doc, "style") : null;
  if (style) style.textContent = o.css;
  const v = Object.seal({
    o, doc, win, uid, els: skeleton(doc, uid, o.parts), skip: o.skipLink ? skipLinkEl(doc) : null,
    // What Python sent, and what follows from it per sentence.
    header: null, scores: null, names: [], labels: [], heads: [], paints: null, look: null,
    // Every head's Q and K (and step 0's, q0 and k0, for the map's switch) when Python sent them.
    vectors: null,
    // The cell taken apart ({k, i, j} or null), the map's step (true: training step 0), and
    // their elements (cell.js buildCell, qk.js buildQk).
    cell: null, qkStart: false, cellEls: buildCell(doc, "explorer-cell"), qkEls: buildQk(doc, "explorer-qk"),
    // The settings the view answers (and sends back), and what is transient.
    state: { scale: true, causal: false, tau: null, focus: 0, head: 0 },
    hover: null, cursor: null, tip: null, ring: null, dragging: false, byPointer: false,
    width: 0, viewportH: win.innerHeight || 800, dpr: win.devicePixelRatio || 1, box: null,
    // The first screen: where the first row of maps starts (px down the window at the page's top;
    // null: not measured), frozen once the user works in the view (their clicks never resize it).
    fit: { top: null, frozen: false }, scroller: null,
    touch: !!win.matchMedia?.("(pointer: coarse)").matches,
    // Derived in commit().
    weights: [], zmax: [], layout: null, geom: { grid: null, panel: null, bars: null },
    layers: { grid: el(doc, "canvas"), panel: el(doc, "canvas") }, words: { grid: null, panel: null },
    scratch: el(doc, "canvas"), ref: null, say: null, renders: 0, committing: false,
    // The layout generation: a new room or new data starts the next one (unsettle), and once a
    // commit has laid it out and drawn it with the fonts in, and no draw is pending, the root's
    // data-settled names it.
    gen: 0,
    // Dirty flags, raised by setters; maps to redraw (head indices) when not all of them.
    dirty: new Set(), dirtyMaps: new Set(), timers: { frame: 0, a11y: 0, send: 0, tip: 0 },
    targets: new Map(), // canvas → { kind, visible, stale }
    listeners: [], observers: [],
    // The setters (below): handlers.js and paint.js change the view only through these.
    raise: null, setState: null, setHover: null, setCursor: null, setTip: null, setRoom: null,
    setCell: null, setQkStart: null,
  });
  const { els } = v;

  // ---- setters: change state, raise flags, schedule one commit --------------------------------

  v.raise = (...flags) => {
    for (const f of flags) v.dirty.add(f);
    if (v.timers.frame || !v.header || v.committing) return;
    v.timers.frame = win.requestAnimationFrame(commit);
    delete els.root.dataset.settled; // a draw is pending (settle: once it is done)
  };

  function clampState() {
    if (!v.header) return;
    const s = v.state;
    s.focus = Math.min(Math.max(0, s.focus | 0), v.header.n - 1);
    s.head = v.heads.includes(s.head | 0) ? s.head | 0 : v.heads[0];
  }

  /** New settings (from Python, or from the user when `user`); flags follow what changed. */
  v.setState = (patch, { user = false, delay = 0 } = {}) => {
    const s = v.state;
    const was = { ...s };
    for (const k of Object.keys(s)) if (k in patch) s[k] = patch[k];
    s.scale = !!s.scale;
    s.causal = !!s.causal;
    s.tau = s.tau === null || s.tau === undefined ? null : Number(s.tau);
    clampState();
    const scaling = s.scale !== was.scale || s.tau !== was.tau;
    const masking = s.causal !== was.causal;
    if (scaling || masking) v.raise("weights", "maps", "panels", "bars", "story", "controls", "a11y", "cell");
    if (masking) v.raise("ref", "qk");
    if (s.focus !== was.focus) v.raise("labels", "maps", "panels", "bars", "story", "controls", "a11y", "qk");
    if (s.head !== was.head) v.raise("ref", "panels", "scales", "controls", "a11y");
    const changed = scaling || masking || s.focus !== was.focus || s.head !== was.head;
    if (!user || !changed) return;
    v.fit.frozen = true;
    if ((scaling && !v.dragging) || masking) v.say = "setting";
    send(delay);
  };

  function send(delay) {
    win.clearTimeout(v.timers.send);
    const go = () => o.onChange({ ...v.state });
    if (delay) v.timers.send = win.setTimeout(go, delay);
    else go();
  }

  v.setHover = (next) => {
    const same = (a, b) => a === b || (a && b && a.kind === b.kind && a.k === b.k && a.p === b.p
      && a.i === b.i && a.j === b.j);
    if (same(v.hover, next)) return;
    for (const h of [v.hover, next]) {
      if (h?.kind === "map") v.dirtyMaps.add(h.k);
      if (h?.kind === "panel") v.dirty.add("panels");
      if (h?.kind === "bars") v.dirty.add("bars");
    }
    v.hover = next;
    v.raise("hover");
  };

  v.setCursor = (next) => {
    for (const c of [v.cursor, next]) if (c) v.dirtyMaps.add(c.k);
    v.cursor = next;
    v.raise("hover");
  };

  v.setTip = (next) => {
    v.tip = next;
    win.clearTimeout(v.timers.tip);
    if (next?.touch) v.timers.tip = win.setTimeout(() => v.setTip(null), TIP_TOUCH_MS);
    v.raise("tip");
  };

  /** Take one cell apart ({k, i, j}: head, query, key), or close the breakdown (null). */
  v.setCell = (next) => {
    v.cell = next ? { k: next.k, i: next.i, j: next.j } : null;
    v.raise("cell");
  };

  /** The query–key map from training step 0's Q and K (true) or the final ones. */
  v.setQkStart = (on) => {
    v.qkStart = !!on;
    v.raise("qk");
  };

  v.setRoom = (w, h, ratio) => {
    const wide = Math.max(260, Math.floor(v.box ? v.box.w : w));
    if (wide === v.width && h === v.viewportH && ratio === v.dpr) return;
    [v.width, v.viewportH, v.dpr] = [wide, h, ratio];
    if (v.header) unsettle(); // a view with no data yet has nothing to settle (update does it)
    v.fit.frozen = false; // a new room: its first screen again
    v.raise("layout", "labels", "maps", "panels", "bars", "scales", "qk");
  };

  /** Fit every map into a box of w × h css px (a page's figure), or back to the room (null). */
  function setBox(w, h) {
    const next = w ? { w: Math.floor(w), h: Math.floor(h) } : null;
    if (next && v.box && next.w === v.box.w && next.h === v.box.h) return;
    v.box = next;
    if (next) v.width = 0; // taken again from the box
    v.setRoom(next ? next.w : els.root.clientWidth, win.innerHeight || v.viewportH, win.devicePixelRatio || 1);
  }

  function mark(cell) {
    v.ring = cell ? { i: cell.i, j: cell.j } : null;
    v.raise("maps");
  }

  /** New data from Python: the header (tokens, words, palette, settings) and the scores (or the
      weights themselves when header.values is "weights"); vectors: {q, k, q0, k0} (each
      (h, n, d_k) flat) that made the scores, or null. */
  function update(next, nextScores, vectors = null) {
    const was = v.header;
    const fresh = !was || was.digest !== next.digest || was.wording !== next.wording
      || was.n !== next.n || was.h !== next.h;
    v.header = next;
    v.scores = nextScores;
    v.vectors = vectors;
    if (fresh) {
      v.cell = null;
      v.qkStart = false;
      const all = Array.from({ length: next.h }, (_, k) => k);
      v.heads = o.heads ? all.filter((k) => o.heads.includes(k)) : all;
      if (!v.heads.length) v.heads = all;
      v.names = distinctNames(next.tokens.map((t) => t.t));
      v.labels = next.labels // a page's own labels (the lesson's, glossed in English), or the tokens
        || next.tokens.map((t, i) => clipLabel(t.t, v.names[i], next.palette.label_chars));
      v.raise("data", "weights", "ref", "words", "layout", "labels", "maps", "panels", "bars",
        "scales", "story", "controls", "a11y", "cell", "qk");
    }
    if (fresh || was.classroom !== next.classroom || was.numbers !== next.numbers
      || was.shared !== next.shared) unsettle();
    if (fresh || was.classroom !== next.classroom) {
      v.fit.frozen = false; // a new sentence or room: its first screen again
      v.raise("layout", "labels", "words", "maps", "panels", "bars", "scales");
    }
    if (fresh || was.numbers !== next.numbers || was.shared !== next.shared) {
      v.raise("weights", "maps", "panels", "scales");
    }
    clampState();
  }

  // ---- commit: apply the flags in a fixed order ------------------------------------------------

  function commit() {
    v.timers.frame = 0;
    if (!v.header || !v.width) return;
    const d = v.dirty;
    v.committing = true;
    v.renders += 1;
    els.root.dataset.renders = String(v.renders);
    if (d.has("data")) rebuild();
    if (d.has("weights")) computeWeights(v);
    if (d.has("ref") && o.parts.includes("panels")) computeRef(v);
    if (d.has("layout")) relayoutView(v);
    if (d.has("labels")) drawLabelLayers(v);
    if (d.has("words")) applyWords(v);
    if (d.has("controls")) renderControls(v);
    renderGrid(v, d.has("maps"));
    if (d.has("panels")) renderPanels(v);
    if (d.has("bars")) renderBars(v);
    if (d.has("story")) renderStory(v);
    if (d.has("cell") || d.has("words")) renderCell(v);
    if (d.has("qk") || d.has("words")) renderQk(v);
    if (d.has("tip")) renderTip(v);
    if (d.has("a11y")) {
      win.clearTimeout(v.timers.a11y);
      v.timers.a11y = win.setTimeout(() => {
        v.timers.a11y = 0;
        if (!v.header) return;
        describeView(v);
        settle(); // what it wrote (captions, the table) may move the page: settled after it
      }, v.dragging ? 400 : 60);
    }
    const refit = moved(d) && fitFirstRow();
    d.clear();
    v.dirtyMaps.clear();
    v.committing = false;
    if (refit) v.raise("layout", "labels", "maps", "panels", "bars", "scales");
    else settle();
  }

  // ---- settled: what tests wait for (data-generation, data-settled on the root) ----------------

  /** A new room or new data: the next generation, not settled until a commit has drawn it. */
  function unsettle() {
    v.gen += 1;
    els.root.dataset.generation = String(v.gen);
    delete els.root.dataset.settled;
  }

  /** After a commit that left nothing to do: settled, when the fonts it measured with were in;
      else, once they are, laid out again with them as the next generation. */
  function settle() {
    if (v.timers.frame || v.timers.a11y || firstLook || els.root.dataset.settled === String(v.gen)) return;
    if (doc.fonts.status === "loaded") {
      els.root.dataset.settled = String(v.gen);
      return;
    }
    const gen = v.gen;
    doc.fonts.ready.then(() => {
      if (gen !== v.gen || !v.header) return;
      unsettle();
      v.raise("layout", "labels", "words", "maps", "panels", "bars", "scales");
    });
  }

  // ---- the first screen: the one read of the page's layout -------------------------------------

  /** A commit that may have moved the first row of maps (not a drag, not in a page's box). */
  function moved(d) {
    if (v.box || v.fit.frozen || v.dragging || !els.maps.length) return false;
    return ["layout", "words", "story", "data"].some((f) => d.has(f));
  }

  /** Where the first row's canvases start, in px down the window with the page at its top; true
      when that moved, so the maps are laid out again to fit under it (layout.js mapMaxH). */
  let watching = false; // the page around the view is observed (`moves`)
  let firstLook = false; // `moves` has not yet had its first look: not settled before it
  function fitFirstRow() {
    if (!watching) {
      watching = true;
      firstLook = true;
      v.scroller = scrollerOf(els.root);
      // What is above the view may change height after it drew (a page still building): what
      // scrolls is watched, and a first row that moved is fitted again (`moves`).
      for (const part of v.scroller ? v.scroller.children : [doc.body]) moves.observe(part);
    }
    const tops = els.maps.slice(0, v.layout.cols).map((m) => m.canvas.getBoundingClientRect().top);
    const top = Math.round(Math.max(...tops) + (v.scroller?.scrollTop || 0) + (win.scrollY || 0));
    if (v.fit.top !== null && Math.abs(top - v.fit.top) <= 2) return false;
    v.fit.top = top;
    return true;
  }

  function observe(canvas, kind) {
    v.targets.set(canvas, { kind, visible: true, drawn: false, stale: false });
    io.observe(canvas);
  }

  /** A new sentence: a figure per head shown, the token buttons, the palette's ramps. */
  function rebuild() {
    for (const m of els.maps) {
      v.targets.delete(m.canvas);
      io.unobserve(m.canvas);
    }
    els.maps = v.heads.map((k) => mapItem(doc, uid, k));
    els.grid.replaceChildren(...els.maps.map((m) => m.fig));
    els.picker.replaceChildren(...els.maps.map((m) => m.radio));
    els.maps.forEach((m) => observe(m.canvas, "map"));
    const { palette: p, tokens, lang, text } = v.header;
    const rule = p.on_colour;
    v.paints = { weight: paintRamp(p.weight, rule), signed: paintRamp(p.signed, rule) };
    v.look = { ink: p.ink, heads: p.heads, masked: hexRgb(p.ink.masked), scratch: v.scratch };
    els.tokens.replaceChildren(...tokens.map((tok, i) => tokenButton(doc, tok, v.names[i], i, lang, text.no_gloss)));
    v.cursor = null;
    v.hover = null;
  }

  // ---- wiring: every listener and observer is remembered, for destroy() -------------------------

  const io = new win.IntersectionObserver((entries) => {
    for (const e of entries) {
      const t = v.targets.get(e.target);
      if (!t) continue;
      t.visible = e.isIntersecting;
      if (t.visible && t.stale) v.raise(t.kind === "map" ? "maps" : t.kind === "panel" ? "panels" : "bars");
    }
  }, { rootMargin: "200px 0px" });
  const ro = new win.ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    v.setRoom(box.width, win.innerHeight || v.viewportH, win.devicePixelRatio || 1);
  });
  /** The page around the view changed size: if that moved the first row, fit it again. */
  const moves = new win.ResizeObserver(() => {
    const first = firstLook;
    firstLook = false;
    if (v.header && v.layout && !v.timers.frame && moved(new Set(["layout"])) && fitFirstRow()) {
      unsettle();
      v.raise("layout", "labels", "maps", "panels", "bars", "scales");
    } else if (first) settle(); // its first look (a frame after the first commit) moved nothing
  });
  v.observers.push(io, ro, moves);
  observe(els.bars, "bars");
  els.panelFigs.forEach((p) => observe(p.canvas, "panel"));

  function destroy() {
    unlistenAll(v.listeners);
    for (const ob of v.observers.splice(0)) ob.disconnect();
    for (const id of Object.values(v.timers)) {
      win.clearTimeout(id);
      win.cancelAnimationFrame(id);
    }
    v.targets.clear();
    els.root.remove();
    style?.remove();
    v.skip?.remove();
    v.header = null;
  }

  const anchor = ["grid", "numbersNote", "gridBar"].map((name) => els[name]).filter((e) => els.root.contains(e)).pop();
  anchor.after(v.cellEls.root);
  els.live.before(v.qkEls.root);
  bindView(v);
  if (style) host.append(style);
  host.append(els.root);
  if (v.skip) doc.body.prepend(v.skip);
  ro.observe(els.root);
  return { update, setState: (patch) => v.setState(patch), setBox, mark, destroy, root: els.root };
}
