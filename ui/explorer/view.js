/* The view: one state object per mounted view, one render() scheduled with requestAnimationFrame,
   the component's lifecycle (Streamlit calls the default export again with new data: the view is
   updated in place, never torn down) and the messages back to Python. */

const SCORES = new Map(); // digest → Float32Array of every head's raw Q·Kᵀ (a few sentences back)
const KEEP_SENTENCES = 8;
const SEND_DELAY_MS = 250; // arrow keys on tokens/heads: tell Python once the hand rests

/** The payload Python's ui/explorer.encode wrote: header JSON and, maybe, the float32 scores. */
function decodePayload(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
  if (magic !== "ALV1") throw new Error("explorer: unknown payload");
  const size = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + size)));
  let scores = null;
  if (header.scores) {
    const start = 8 + size;
    const copy = bytes.slice(start, start + header.h * header.n * header.n * 4); // aligned copy
    scores = new Float32Array(copy.buffer, copy.byteOffset, header.h * header.n * header.n);
  }
  return { header, scores };
}

function remember(digest, scores) {
  SCORES.delete(digest);
  SCORES.set(digest, scores);
  while (SCORES.size > KEEP_SENTENCES) SCORES.delete(SCORES.keys().next().value);
}

function el(doc, tag, cls, attrs) {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

/** The skeleton, built once per mounted view (maps and tokens are added per sentence). */
function skeleton(host) {
  const doc = host.ownerDocument || document;
  const root = el(doc, "div", "alx", { "data-testid": "explorer" });
  const bar = el(doc, "div", "bar", { role: "toolbar" });
  const sw = (id) => {
    const label = el(doc, "label", "switch");
    const input = el(doc, "input", "", { type: "checkbox", role: "switch", "data-testid": id });
    const span = el(doc, "span");
    label.append(input, span);
    return { label, input, span };
  };
  const scale = sw("explorer-scale");
  const causal = sw("explorer-causal");
  const tauBox = el(doc, "label", "tau");
  const tauName = el(doc, "span");
  const tau = el(doc, "input", "", {
    type: "range", min: "0", max: "1000", step: "1", "data-testid": "explorer-tau",
  });
  const tauOut = el(doc, "output", "", { "data-testid": "explorer-tau-value" });
  const ticks = el(doc, "datalist", "", { id: "alx-tau-ticks" }); // the √d_k mark on the track
  tau.setAttribute("list", "alx-tau-ticks");
  tauBox.append(tauName, tau, ticks, tauOut);
  const picker = el(doc, "div", "picker", { role: "radiogroup", "data-testid": "explorer-heads" });
  const png = el(doc, "button", "png", { type: "button", "data-testid": "explorer-png" });
  bar.append(scale.label, causal.label, tauBox, png);
  const pickerRow = el(doc, "div", "picker-row");
  const pickerName = el(doc, "span", "picker-name", { id: "alx-picker-name" });
  picker.setAttribute("aria-labelledby", "alx-picker-name");
  pickerRow.append(pickerName, picker);
  const note = el(doc, "p", "note", { "data-testid": "explorer-note" });
  const tokensLabel = el(doc, "p", "tokens-label", { id: "alx-tokens-label" });
  const tokens = el(doc, "div", "tokens", {
    role: "radiogroup", "aria-labelledby": "alx-tokens-label", "data-testid": "explorer-tokens",
  });
  const tags = el(doc, "p", "tags", { "data-testid": "explorer-tags" });
  const story = el(doc, "ul", "story", { "data-testid": "explorer-story" });
  const headsTitle = el(doc, "h2");
  const headsCaption = el(doc, "p", "caption");
  const grid = el(doc, "div", "grid");
  const gridBar = el(doc, "canvas", "colourbar", { "aria-hidden": "true" });
  const panelsTitle = el(doc, "h2");
  const panels = el(doc, "div", "panels");
  const panelFigs = [0, 1, 2].map((k) => {
    const fig = el(doc, "figure", "panel");
    const cap = el(doc, "figcaption");
    const canvas = el(doc, "canvas", "", { role: "img", "data-panel": String(k) });
    fig.append(cap, canvas);
    panels.append(fig);
    return { fig, cap, canvas };
  });
  const panelBars = el(doc, "div", "panel-bars");
  const scoreBar = el(doc, "canvas", "colourbar", { "aria-hidden": "true" });
  const weightBar = el(doc, "canvas", "colourbar", { "aria-hidden": "true" });
  panelBars.append(scoreBar, weightBar);
  const stats = el(doc, "p", "stats", { "data-testid": "explorer-stats" });
  const tableBox = el(doc, "details", "table-box");
  const tableSummary = el(doc, "summary");
  const tableWrap = el(doc, "div", "table-wrap", { tabindex: "0" });
  const table = el(doc, "table", "", { "data-testid": "explorer-table" });
  tableWrap.append(table);
  tableBox.append(tableSummary, tableWrap);
  const focusTitle = el(doc, "h2");
  const focusCaption = el(doc, "p", "caption");
  const legend = el(doc, "ul", "legend");
  const bars = el(doc, "canvas", "bars", { role: "img", "data-testid": "explorer-bars" });
  const live = el(doc, "div", "sr-only", { "aria-live": "polite", "data-testid": "explorer-live" });
  const tip = el(doc, "div", "tip", { role: "tooltip", "data-testid": "explorer-tip" });
  tip.hidden = true;
  root.append(
    bar, note, tokensLabel, tokens, tags, story, headsTitle, headsCaption, pickerRow, grid, gridBar,
    panelsTitle, panels, panelBars, stats, tableBox, focusTitle, focusCaption, legend, bars,
    live, tip,
  );
  host.append(root);
  return {
    root, bar, scale, causal, tauName, tau, ticks, tauOut, picker, pickerName, png, note, tokensLabel,
    tokens, tags, story,
    headsTitle, headsCaption, grid, gridBar, panelsTitle, panels, panelFigs, scoreBar, weightBar,
    stats, tableBox, tableSummary, table, focusTitle, focusCaption, legend, bars, live, tip,
    maps: [],
  };
}

/** Which maps, panels and bars are on screen: the others wait until they scroll into view. */
function watchVisibility(ctl) {
  const targets = new Map();
  const io = new IntersectionObserver((entries) => {
    let stale = false;
    for (const e of entries) {
      const item = targets.get(e.target);
      if (!item) continue;
      item.visible = e.isIntersecting;
      if (e.isIntersecting && item.drawn !== ctl.version) stale = true;
    }
    if (stale) {
      ctl.look = ""; // the next render must draw, even if nothing else changed
      schedule(ctl);
    }
  }, { rootMargin: "200px 0px" });
  ctl.observe = (canvas, item) => {
    targets.set(canvas, item);
    io.observe(canvas);
  };
  ctl.observe(ctl.els.bars, ctl.barsFig);
  ctl.els.panelFigs.forEach((p) => ctl.observe(p.canvas, p));
}

/** The sidebar's √d_k and causal switches mean the same as the view's: answer them in the
    browser too, so the maps change at the click; the rerun that follows brings the same state
    and draws nothing. Streamlit's switches are react-aria buttons (no native change event) and
    are re-rendered: after a press anywhere on the page, read them on the next frame. */
function mirrorSidebar(ctl) {
  const doc = ctl.host.ownerDocument;
  const read = () => {
    if (!ctl.header || !ctl.els.root.isConnected) return;
    const box = (key) => doc.querySelector(`[data-testid="stSidebar"] .st-key-${key} input`);
    const scale = box("scale");
    const causal = box("causal");
    const patch = {};
    if (scale && scale.checked !== (ctl.state.scale && ctl.state.tau === null)) {
      Object.assign(patch, { scale: scale.checked, tau: null });
    }
    if (causal && causal.checked !== ctl.state.causal) patch.causal = causal.checked;
    if (Object.keys(patch).length) {
      Object.assign(ctl.state, patch);
      schedule(ctl);
    }
  };
  const later = (ev) => {
    if (ev.target.closest?.('[data-testid="stSidebar"] :is(.st-key-scale, .st-key-causal)')) {
      requestAnimationFrame(read);
    }
  };
  doc.addEventListener("click", later, true);
  doc.addEventListener("keyup", later, true);
}

function newController(host) {
  const els = skeleton(host);
  const ctl = {
    host,
    els,
    header: null,
    scores: null,
    digest: null,
    state: { scale: true, causal: false, tau: null, focus: 0, head: 0 },
    hover: null,
    cursor: {},
    weights: [],
    weightsKey: "",
    seq: 0,
    pending: 0,
    api: null,
    frame: 0,
    a11yTimer: 0,
    sendTimer: 0,
    shape: "",
    luts: null,
    scratch: (host.ownerDocument || document).createElement("canvas"),
    geom: null,
    panelGeom: null,
    barsGeom: null,
    dragging: false,
    look: "",
    version: 0,
    frames: {},
    barsFig: {},
  };
  watchVisibility(ctl);
  mirrorSidebar(ctl);
  bindInputs(ctl);
  // Only a new width (or window height) re-lays the view out; its own text changes do not.
  const ro = new ResizeObserver(() => {
    if (ctl.layout && Math.floor(els.root.clientWidth) === ctl.layout.width) return;
    schedule(ctl);
  });
  ro.observe(els.root);
  host.ownerDocument.defaultView.addEventListener("resize", () => schedule(ctl));
  return ctl;
}

// ---- state ------------------------------------------------------------------------------------

function sqrtDk(ctl) {
  return Math.sqrt(ctl.header.d_k);
}

/** What the scores are divided by: τ from the slider, else √d_k (scaling on) or 1 (off). */
function divisor(ctl) {
  const s = ctl.state;
  if (s.tau !== null) return s.tau;
  return s.scale ? sqrtDk(ctl) : 1;
}

/** Every head's weights for the current divisor and mask (recomputed only when those change). */
function ensureWeights(ctl) {
  const { n, h } = ctl.header;
  const key = `${ctl.digest}|${divisor(ctl)}|${ctl.state.causal}`;
  if (key === ctl.weightsKey) return;
  if (ctl.weights.length !== h || (h && ctl.weights[0].length !== n * n)) {
    ctl.weights = Array.from({ length: h }, () => new Float64Array(n * n));
  }
  for (let k = 0; k < h; k++) {
    attentionWeights(ctl.scores, k * n * n, n, divisor(ctl), ctl.state.causal, ctl.weights[k]);
  }
  ctl.weightsKey = key;
}

/** Tell Python the view's state (component state "view"); it reruns and follows. */
function sendState(ctl, delay = 0) {
  clearTimeout(ctl.sendTimer);
  const send = () => {
    ctl.seq += 1;
    ctl.pending = ctl.seq;
    const s = ctl.state;
    ctl.api.setStateValue("view", {
      scale: s.scale, causal: s.causal, focus: s.focus, head: s.head, tau: s.tau, seq: ctl.seq,
    });
  };
  if (delay) ctl.sendTimer = setTimeout(send, delay);
  else send();
}

/** A change made in the browser: redraw now, tell Python after `delay` ms. */
function change(ctl, patch, delay = 0) {
  Object.assign(ctl.state, patch);
  schedule(ctl);
  sendState(ctl, delay);
}

function schedule(ctl) {
  if (ctl.frame || !ctl.header || !ctl.scores) return;
  ctl.frame = requestAnimationFrame(() => {
    ctl.frame = 0;
    render(ctl);
  });
}

/** New data from Python: maybe new scores, texts and settings; adopt the server's settings only
    once it has seen the view's latest change (ack), so a late rerun never undoes a click. */
function applyHeader(ctl, header, scores) {
  if (scores) remember(header.digest, scores);
  const known = SCORES.get(header.digest);
  if (!known) {
    ctl.api.setTriggerValue("need", header.digest);
    return;
  }
  const texts = header.tokens.map((t) => t.t).join("\u0000");
  const shape = `${header.n}|${header.h}|${header.lang}|${texts}`; // glosses come with English
  ctl.header = header;
  ctl.scores = known;
  ctl.digest = header.digest;
  if (!ctl.luts) {
    const weight = makeRamp(header.colours.weight);
    const signed = makeRamp(header.colours.signed);
    ctl.luts = { weight, signed, weightInk: inkTable(weight), signedInk: inkTable(signed) };
  }
  if (header.ack >= ctl.pending) {
    const s = header.state;
    Object.assign(ctl.state, {
      scale: !!s.scale, causal: !!s.causal, tau: s.tau ?? null, focus: s.focus, head: s.head,
    });
  }
  ctl.state.focus = Math.min(Math.max(0, ctl.state.focus | 0), header.n - 1);
  ctl.state.head = Math.min(Math.max(0, ctl.state.head | 0), header.h - 1);
  if (shape !== ctl.shape) {
    rebuildMaps(ctl);
    rebuildTokens(ctl);
    ctl.cursor = {};
    ctl.shape = shape;
  }
  // A rerun that only confirms what the view already shows must not draw it again.
  if (lookOf(ctl) === ctl.look) return;
  applyTexts(ctl);
  skipLink(ctl);
  schedule(ctl);
}

/** "跳到注意力图" as the page's first Tab stop (before Streamlit's own skip link and the
    sidebar's twenty stops): Enter puts the keyboard on the view's √d_k switch. */
function skipLink(ctl) {
  const doc = ctl.els.root.ownerDocument;
  let link = doc.getElementById("alx-skip");
  if (!link) {
    link = doc.createElement("a");
    link.id = "alx-skip";
    link.href = "#";
    link.dataset.testid = "explorer-skip";
    const hide = "position:fixed;left:-10000px;top:8px;z-index:1000010;";
    const show = "position:fixed;left:8px;top:8px;z-index:1000010;background:#fff;color:#1f5fbf;"
      + "padding:10px 16px;border:3px solid #1f5fbf;border-radius:8px;font-size:18px;";
    link.style.cssText = hide;
    link.addEventListener("focus", () => { link.style.cssText = show; });
    link.addEventListener("blur", () => { link.style.cssText = hide; });
    doc.body.prepend(link);
  }
  link.textContent = ctl.header.text.skip;
  link.onclick = (ev) => {
    ev.preventDefault();
    ctl.els.scale.input.focus();
    ctl.els.scale.input.scrollIntoView({ block: "center" });
  };
  ctl.skip = link;
}

/** Everything a render depends on but the viewport: equal looks draw equal pixels. */
function lookOf(ctl) {
  const h = ctl.header;
  return JSON.stringify([
    h.digest, ctl.state, h.lang, h.classroom, h.numbers, h.shared, h.jobs, h.tokens,
  ]);
}

// ---- per-sentence DOM: maps, tokens, head picker ---------------------------------------------

function rebuildMaps(ctl) {
  const { els, header } = ctl;
  const doc = els.root.ownerDocument;
  els.grid.replaceChildren();
  els.picker.replaceChildren();
  els.maps = [];
  for (let k = 0; k < header.h; k++) {
    const fig = el(doc, "figure", "map", { "data-head": String(k) });
    const cap = el(doc, "figcaption");
    const name = el(doc, "span", "name");
    const job = el(doc, "span", "job");
    cap.append(name, job);
    const canvas = el(doc, "canvas", "", {
      tabindex: "0", role: "application", "data-head": String(k), "data-testid": "explorer-map",
      "aria-describedby": `alx-sum-${k}`,
    });
    const summary = el(doc, "p", "sr-only", { id: `alx-sum-${k}` });
    fig.append(cap, canvas, summary);
    els.grid.append(fig);
    const radio = el(doc, "button", "", { type: "button", role: "radio", "data-head": String(k) });
    els.picker.append(radio);
    const item = { fig, name, job, canvas, summary, radio };
    els.maps.push(item);
    ctl.observe(canvas, item);
  }
}

/** "词性标记：nr 人名 · p 介词 · …" for the tags of this sentence, in order of appearance. */
function tagLegend(header) {
  const seen = new Map();
  for (const tok of header.tokens) if (!seen.has(tok.tag)) seen.set(tok.tag, tok.tag_name);
  const items = [...seen].map(([tag, name]) => `${tag} ${name}`);
  return `${header.text.tags}${items.join(" · ")}`;
}

function rebuildTokens(ctl) {
  const { els, header } = ctl;
  const doc = els.root.ownerDocument;
  els.tokens.replaceChildren();
  header.tokens.forEach((tok, i) => {
    const b = el(doc, "button", "token", { type: "button", role: "radio", "data-i": String(i) });
    const word = el(doc, "span", "word");
    word.textContent = tok.t;
    const tag = el(doc, "span", "tag");
    tag.textContent = tok.tag;
    tag.title = tok.tag_name || tok.tag;
    const gloss = header.lang === "en" ? tok.gloss : null;
    b.setAttribute("aria-label", [tok.t, tok.tag_name, gloss].filter(Boolean).join(" · "));
    b.append(word, tag);
    if (header.lang === "en") {
      const gloss = el(doc, "span", tok.gloss ? "gloss" : "gloss none", {
        "data-testid": "explorer-gloss",
      });
      gloss.textContent = tok.gloss || header.text.no_gloss;
      b.append(gloss);
    }
    els.tokens.append(b);
  });
}

/** Texts that depend only on the header (language, head names, jobs). */
function applyTexts(ctl) {
  const { els, header } = ctl;
  const T = header.text;
  els.root.lang = header.lang === "en" ? "en" : "zh-CN";
  els.root.classList.toggle("classroom", !!header.classroom);
  els.scale.span.textContent = T.scale;
  els.scale.label.title = T.scale_help;
  els.causal.span.textContent = T.causal;
  els.causal.label.title = T.causal_help;
  els.tauName.textContent = T.tau;
  const mark = el(els.root.ownerDocument, "option", "", {
    value: String(sliderFromTau(ctl, sqrtDk(ctl))),
    label: "√d_k",
  });
  els.ticks.replaceChildren(mark);
  els.pickerName.textContent = T.picker;
  els.png.textContent = "PNG ⤓";
  els.png.title = T.png;
  els.png.setAttribute("aria-label", T.png);
  els.tokensLabel.textContent = fmt(T.tokens, { n: header.n });
  els.headsTitle.textContent = T.heads_title;
  els.headsCaption.textContent = T.heads_caption;
  els.bar.setAttribute?.("aria-label", T.scale);
  els.tableSummary.textContent = T.table;
  els.tags.textContent = tagLegend(header);
  els.maps.forEach((m, k) => {
    const title = fmt(T.head, { i: k + 1 });
    m.name.textContent = title;
    const job = header.jobs[k];
    m.job.textContent = job && job.label ? fmt(T.head_job, { job: job.label }) : "";
    m.radio.textContent = title;
    m.canvas.setAttribute("aria-label", fmt(T.map_label, { head: title, n: header.n }));
    m.canvas.setAttribute("aria-roledescription", T.legend);
  });
}

// ---- render ---------------------------------------------------------------------------------

function tauText(ctl) {
  const T = ctl.header.text;
  const s = ctl.state;
  const root = sqrtDk(ctl).toFixed(2);
  if (s.tau === null && s.scale) return fmt(T.tau_model, { s: root, dk: ctl.header.d_k });
  if (s.tau === null) return fmt(T.tau_off, { s: root });
  return fmt(T.tau_custom, { v: s.tau.toFixed(2), s: root });
}

/** Slider position 0…1000 ⇄ τ on a log scale from 1 to 4·√d_k (√d_k lands near the middle). */
function tauFromSlider(ctl, p) {
  return Math.exp((p / 1000) * Math.log(4 * sqrtDk(ctl)));
}

function sliderFromTau(ctl, tau) {
  return Math.round((1000 * Math.log(tau)) / Math.log(4 * sqrtDk(ctl)));
}

function renderControls(ctl) {
  const { els, state } = ctl;
  els.scale.input.checked = state.scale && state.tau === null;
  els.scale.input.indeterminate = state.tau !== null;
  els.causal.input.checked = state.causal;
  if (!ctl.dragging) els.tau.value = String(sliderFromTau(ctl, divisor(ctl)));
  const d = divisor(ctl).toFixed(2);
  els.tauOut.textContent = `τ = ${d}`;
  els.tau.setAttribute("aria-valuetext", `τ = ${d}`);
  if (ctl.dragging) return; // the rest of the texts (they re-lay the page out) once the hand rests
  setText(els.note, tauText(ctl) + (state.causal ? ` ${ctl.header.text.causal_note}` : ""));
  const choose = (node, on) => {
    if (node.getAttribute("aria-checked") === String(on)) return; // no style churn per frame
    node.setAttribute("aria-checked", String(on));
    node.tabIndex = on ? 0 : -1;
  };
  els.maps.forEach((m, k) => {
    m.fig.classList.toggle("chosen", k === state.head);
    choose(m.radio, k === state.head);
  });
  els.tokens.querySelectorAll(".token").forEach((b, i) => choose(b, i === state.focus));
}

/** textContent only when it changes: the same text again still costs the page a layout. */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function labelsOf(ctl) {
  return ctl.header.tokens.map((t) => clipLabel(t.t));
}

function weightSpec(ctl, k, w, zmax) {
  const { header, luts, state } = ctl;
  const n = header.n;
  return {
    index: (i, j) => (state.causal && j > i ? -1 : rampIndex(w[i * n + j], 0, zmax)),
    text: (i, j) => (state.causal && j > i ? null : String(Math.round(w[i * n + j] * 100))),
    numbers: header.numbers,
    lut: luts.weight,
    ink: luts.weightInk,
    causal: state.causal,
    labels: labelsOf(ctl),
    axes: { query: header.text.query_axis, key: header.text.key_axis },
    labelColour: header.classroom ? "#000" : "#111",
    fonts: ctl.layout.fonts,
    scratch: ctl.scratch,
    marks: {
      focusRow: state.focus,
      hover: ctl.hover && ctl.hover.kind === "map" && ctl.hover.k === k ? ctl.hover : null,
      cursor: ctl.cursor.k === k && ctl.cursor.on ? ctl.cursor : null,
    },
  };
}

/** Geometry and label layer for maps of one box size, recomputed only when they change. */
function mapFrame(ctl, name, box) {
  const { header, layout } = ctl;
  const labels = labelsOf(ctl);
  const T = header.text;
  const colour = header.classroom ? "#000" : "#111";
  const dpr = window.devicePixelRatio || 1;
  const key = JSON.stringify([box, layout.maxH, layout.fonts, labels, T.query_axis, T.key_axis, colour, dpr]);
  const cached = ctl.frames[name];
  if (cached && cached.key === key) return cached;
  const doc = ctl.els.root.ownerDocument;
  const g = mapGeometry(ctl.scratch.getContext("2d"), labels, box, layout.maxH, layout.fonts);
  const layer = labelLayer(doc, g, labels, { query: T.query_axis, key: T.key_axis }, colour);
  ctl.frames[name] = { key, g, layer };
  return ctl.frames[name];
}

/** Maps on screen are drawn now; the others when they scroll into view (drawn = render count). */
function needsDraw(ctl, m) {
  return m.visible !== false || m.drawn === undefined;
}

function renderGrid(ctl) {
  const { els, header, layout } = ctl;
  const frame = mapFrame(ctl, "grid", layout.box);
  ctl.geom = frame.g;
  els.grid.style.gridTemplateColumns = `repeat(${layout.cols}, minmax(0, 1fr))`;
  for (let k = 0; k < header.h; k++) {
    const m = els.maps[k];
    if (!needsDraw(ctl, m)) continue;
    const w = ctl.weights[k];
    let zmax = 1;
    if (!header.shared) {
      zmax = 0.01;
      for (const v of w) zmax = Math.max(zmax, v);
    }
    drawMap(m.canvas, ctl.geom, { ...weightSpec(ctl, k, w, zmax), labelLayer: frame.layer });
    m.drawn = ctl.version;
  }
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((v) => [v, `${Math.round(v * 100)}%`]);
  drawColourBar(
    els.gridBar, Math.min(layout.width, 460), ctl.luts.weight, 0, 1, ticks,
    layout.fonts.label - 2, header.text.colour_weight,
  );
}

/** Largest |raw score| of the chosen head: the two score panels share the scale ±limit. */
function scoreLimit(ctl) {
  const n = ctl.header.n;
  const off = ctl.state.head * n * n;
  let limit = 1e-9;
  for (let x = 0; x < n * n; x++) limit = Math.max(limit, Math.abs(ctl.scores[off + x]));
  return limit;
}

/** The chosen head's three panels: Q·Kᵀ, Q·Kᵀ/τ (one diverging scale, ±limit), the weights. */
function panelSpecs(ctl) {
  const { header, state, luts } = ctl;
  const n = header.n;
  const k = state.head;
  const off = k * n * n;
  const raw = ctl.scores;
  const d = divisor(ctl);
  const limit = scoreLimit(ctl);
  const base = weightSpec(ctl, k, ctl.weights[k], 1);
  const masked = (i, j) => state.causal && j > i;
  const hoverOf = (p) =>
    ctl.hover && ctl.hover.kind === "panel" && ctl.hover.p === p ? ctl.hover : null;
  const score = (p, divide, mask) => ({
    ...base,
    index: (i, j) =>
      mask && masked(i, j) ? -1 : rampIndex(raw[off + i * n + j] / divide, -limit, limit),
    text: (i, j) => (mask && masked(i, j) ? null : (raw[off + i * n + j] / divide).toFixed(1)),
    lut: luts.signed,
    ink: luts.signedInk,
    causal: mask && state.causal,
    marks: { ...base.marks, hover: hoverOf(p), cursor: null },
  });
  return [
    score(0, 1, false),
    score(1, d, true),
    { ...base, marks: { ...base.marks, hover: hoverOf(2), cursor: null } },
  ];
}

/** Panel titles: the middle one says what the scores were divided by, in every state. */
function panelCaptions(ctl) {
  const { header, state } = ctl;
  const T = header.text;
  let scaled = fmt(T.scaled_tau, { v: divisor(ctl).toFixed(2) });
  if (state.tau === null) {
    scaled = state.scale
      ? fmt(T.scaled_on, { dk: header.d_k, s: sqrtDk(ctl).toFixed(2) })
      : T.scaled_off;
  }
  return [T.raw, scaled, T.weights];
}

function renderPanels(ctl) {
  const { els, header, layout, luts } = ctl;
  const T = header.text;
  els.panelsTitle.textContent = fmt(T.panels_title, { i: ctl.state.head + 1 });
  const frame = mapFrame(ctl, "panel", layout.panelBox);
  ctl.panelGeom = frame.g;
  const captions = panelCaptions(ctl);
  panelSpecs(ctl).forEach((spec, p) => {
    setText(els.panelFigs[p].cap, captions[p]);
    const fig = els.panelFigs[p];
    if (!needsDraw(ctl, fig)) return;
    drawMap(fig.canvas, ctl.panelGeom, { ...spec, labelLayer: frame.layer });
    fig.drawn = ctl.version;
  });
  els.panels.style.gridTemplateColumns = `repeat(${layout.panelCols}, minmax(0, 1fr))`;
  const px = layout.fonts.label - 2;
  const limit = scoreLimit(ctl);
  const lim = limit >= 10 ? limit.toFixed(0) : limit.toFixed(1);
  const barW = Math.min(layout.width, 420);
  const signedTicks = [[-limit, `−${lim}`], [0, "0"], [limit, lim]];
  drawColourBar(els.scoreBar, barW, luts.signed, -limit, limit, signedTicks, px, T.colour_score);
  const weightTicks = [0, 0.25, 0.5, 0.75, 1].map((v) => [v, `${Math.round(v * 100)}%`]);
  drawColourBar(els.weightBar, barW, luts.weight, 0, 1, weightTicks, px, T.colour_weight);
  renderStats(ctl);
}

function renderStats(ctl) {
  const { header, state } = ctl;
  const n = header.n;
  const k = state.head;
  const off = k * n * n;
  const key = `${ctl.digest}|${k}|${state.causal}`;
  if (ctl.statsKey !== key) {  // the model's τ and τ = 1 do not move with the slider
    const w = new Float64Array(n * n);
    const at = (dv) => rowStats(attentionWeights(ctl.scores, off, n, dv, state.causal, w), n);
    ctl.statsRef = { model: at(sqrtDk(ctl)), raw: at(1) };
    ctl.statsKey = key;
  }
  const now = rowStats(ctl.weights[k], n);
  const { model, raw } = ctl.statsRef;
  setText(ctl.els.stats, fmt(header.text.stats, {
    tau: divisor(ctl).toFixed(2),
    h: now.entropy.toFixed(2),
    m: pct(now.max),
    hs: model.entropy.toFixed(2),
    ms: pct(model.max),
    hu: raw.entropy.toFixed(2),
    mu: pct(raw.max),
  }));
}

/** The first story in words: for each head with a measured job, where the focus token looks
    in it (or that it is torn between two); for random weights, that no head has a job. */
function storyLines(ctl) {
  const { header, state } = ctl;
  const T = header.text;
  const n = header.n;
  const i = state.focus;
  const name = (j) => header.tokens[j].t;
  const q = name(i);
  if (header.source !== "trained") return [fmt(T.story_random, { q })];
  const lines = [];
  const roles = header.tokens[i].roles || [];
  header.jobs.forEach((job, k) => {
    if (!job || !job.clear || !roles.includes(job.relation)) return;
    const w = ctl.weights[k].subarray(i * n, (i + 1) * n);
    let a = 0;
    for (let j = 1; j < n; j++) if (w[j] > w[a]) a = j;
    let b = a === 0 ? 1 : 0;
    for (let j = 0; j < n; j++) if (j !== a && w[j] > w[b]) b = j;
    const head = fmt(T.head, { i: k + 1 });
    const decided = w[a] >= header.decided.min && w[a] - (n > 1 ? w[b] : 0) >= header.decided.gap;
    if (!decided) {
      const v = { head, job: job.rel, q, a: name(a), wa: pct(w[a]), b: name(b), wb: pct(w[b]) };
      lines.push(fmt(T.story_undecided, v));
    } else lines.push(fmt(T.story_head, { head, job: job.rel, q, k: name(a), w: pct(w[a]) }));
  });
  if (lines.length) return lines;
  return [header.jobs.some((j) => j && j.clear) ? fmt(T.story_other, { q }) : T.story_none];
}

function renderStory(ctl) {
  const doc = ctl.els.root.ownerDocument;
  const items = storyLines(ctl).map((line) => {
    const li = el(doc, "li");
    li.textContent = line;
    return li;
  });
  ctl.els.story.replaceChildren(...items);
}

function renderBars(ctl) {
  const { els, header, layout, state } = ctl;
  const n = header.n;
  const i = state.focus;
  const tok = header.tokens[i].t;
  els.focusTitle.textContent = fmt(header.text.focus_title, { tok });
  els.focusCaption.textContent = fmt(header.text.focus_caption, { pos: i + 1 });
  const rows = ctl.weights.map((w) => w.subarray(i * n, (i + 1) * n));
  const hover = ctl.hover && ctl.hover.kind === "bars" ? ctl.hover : null;
  if (!needsDraw(ctl, ctl.barsFig)) return;
  ctl.barsGeom = drawBars(els.bars, layout.width, layout.barsH, rows, labelsOf(ctl), layout.fonts, hover);
  ctl.barsFig.drawn = ctl.version;
  if (els.legend.childElementCount !== header.h) {
    els.legend.replaceChildren(
      ...Array.from({ length: header.h }, (_, k) => {
        const li = el(els.root.ownerDocument, "li");
        const sw = el(els.root.ownerDocument, "span", "swatch");
        sw.style.background = headColour(k);
        li.append(sw, el(els.root.ownerDocument, "span"));
        return li;
      }),
    );
  }
  [...els.legend.children].forEach((li, k) => {
    li.lastChild.textContent = fmt(header.text.head, { i: k + 1 });
  });
}

function render(ctl) {
  const { els, header } = ctl;
  ctl.version += 1;
  els.root.dataset.renders = String(ctl.version);
  ctl.look = lookOf(ctl);
  ensureWeights(ctl);
  const width = Math.max(260, Math.floor(els.root.clientWidth));
  ctl.layout = viewLayout(width, window.innerHeight || 800, header.n, header.h, header.classroom);
  renderControls(ctl);
  if (!ctl.dragging) renderStory(ctl); // a τ drag repaints pixels; words follow on release
  renderGrid(ctl);
  els.root.dataset.cols = String(ctl.layout.cols); // for tests: what the room decided
  els.root.dataset.labelPx = String(ctl.geom.px);
  renderPanels(ctl);
  renderBars(ctl);
  clearTimeout(ctl.a11yTimer);
  ctl.a11yTimer = setTimeout(() => describe(ctl), ctl.dragging ? 400 : 60);
}

/** Text alternatives, after the pixels (a τ drag must not wait for 64 × 16 sentences). */
function describe(ctl) {
  const { els, header, state } = ctl;
  const T = header.text;
  const texts = header.tokens.map((t) => t.t);
  const n = header.n;
  els.maps.forEach((m, k) => {
    m.summary.textContent = summaryText(T, fmt(T.head, { i: k + 1 }), texts, ctl.weights[k], n);
  });
  const i = state.focus;
  const parts = ctl.weights.map((w, k) => {
    let best = 0;
    for (let j = 1; j < n; j++) if (w[i * n + j] > w[i * n + best]) best = j;
    return fmt(T.summary_row, { q: `${fmt(T.head, { i: k + 1 })} ${texts[i]}`, k: texts[best], w: pct(w[i * n + best]) });
  });
  els.bars.setAttribute("aria-label", `${els.focusTitle.textContent}: ${parts.join(T.sep)}`);
  els.panelFigs.forEach((p) => p.canvas.setAttribute("aria-label", p.cap.textContent));
  const k = state.head;
  els.panelFigs[2].canvas.setAttribute(
    "aria-label",
    summaryText(T, `${T.weights} · ${fmt(T.head, { i: k + 1 })}`, texts, ctl.weights[k], n),
  );
  if (els.tableBox.open) {
    fillTable(els.table, fmt(T.table_caption, { i: k + 1 }), texts, ctl.weights[k], n, T.masked, state.causal);
  }
}

// ---- lifecycle --------------------------------------------------------------------------------

/** One call of the view component (Streamlit calls it again with each new payload); returns
    what Streamlit calls when the view leaves the page (another page chosen). */
function run(component) {
  const { data, parentElement, setStateValue, setTriggerValue } = component;
  let ctl = parentElement.__alx;
  if (!ctl) {
    const style = (parentElement.ownerDocument || document).createElement("style");
    style.textContent = STYLESHEET;
    parentElement.append(style);
    ctl = newController(parentElement);
    parentElement.__alx = ctl;
  }
  ctl.api = { setStateValue, setTriggerValue };
  if (data) {
    const { header, scores } = decodePayload(data);
    applyHeader(ctl, header, scores);
  }
  // Streamlit calls this when the view leaves the page, and also when a newer payload overtook
  // this call: only a view that is really gone takes its skip link with it.
  return () =>
    setTimeout(() => {
      if (!ctl.els.root.isConnected) ctl.skip?.remove();
    }, 0);
}

// This module is the "code" component: mounted once per page with no data, so Streamlit sends
// the same message every run and the browser keeps it (one download per session). The small
// view component's loader hands its calls here, queued if they came before this module ran.
const waiting = globalThis.__attentionLabQueue || [];
globalThis.__attentionLab = { run };
globalThis.__attentionLabQueue = [];
for (const component of waiting.splice(0)) run(component);

export default function () {}
