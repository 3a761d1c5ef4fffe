/* The view's DOM, built from the document it is mounted in: the skeleton (once per view), the
   maps, head buttons and token buttons (once per sentence), the weights table. Builders only:
   no state, no listeners. */

import { fmt } from "./a11y.js";
import { sliderFromTau } from "./input.js";

export function el(doc, tag, cls, attrs) {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function switchEl(doc, id) {
  const label = el(doc, "label", "switch");
  const input = el(doc, "input", "", { type: "checkbox", role: "switch", "data-testid": id });
  const span = el(doc, "span");
  label.append(input, span);
  return { label, input, span };
}

/** The toolbar: √d_k and causal switches, the τ slider with its √d_k mark, the PNG button. */
function toolbar(doc, uid) {
  const bar = el(doc, "div", "bar", { role: "toolbar" });
  const scale = switchEl(doc, "explorer-scale");
  const causal = switchEl(doc, "explorer-causal");
  const tauBox = el(doc, "label", "tau");
  const tauName = el(doc, "span");
  const tau = el(doc, "input", "", {
    type: "range", min: "0", max: "1000", step: "1", "data-testid": "explorer-tau",
    list: `${uid}-tau-ticks`,
  });
  const tauOut = el(doc, "output", "", { "data-testid": "explorer-tau-value" });
  const ticks = el(doc, "datalist", "", { id: `${uid}-tau-ticks` }); // the √d_k mark on the track
  tauBox.append(tauName, tau, ticks, tauOut);
  const png = el(doc, "button", "png", { type: "button", "data-testid": "explorer-png" });
  bar.append(scale.label, causal.label, tauBox, png);
  return { bar, scale, causal, tauBox, tauName, tau, ticks, tauOut, png };
}

/** The three before/after panels of the inspected head and their two colour bars. */
function panelsEl(doc) {
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
  return { panels, panelFigs, panelBars, scoreBar, weightBar };
}

/** The data table of the inspected head, folded. */
function tableEl(doc) {
  const tableBox = el(doc, "details", "table-box");
  const tableSummary = el(doc, "summary");
  const tableWrap = el(doc, "div", "table-wrap", { tabindex: "0" });
  const table = el(doc, "table", "", { "data-testid": "explorer-table" });
  tableWrap.append(table);
  tableBox.append(tableSummary, tableWrap);
  return { tableBox, tableSummary, table };
}

/** The skeleton, built once per mounted view; `parts` names the sections a page shows: the
    toolbar, the maps with their caption and the τ note under them, the head picker with the
    before/after panels it chooses for, the focus bars. The token buttons and the story go where
    the room has space for them (placeWords). */
export function skeleton(doc, uid, parts) {
  const root = el(doc, "div", "alx", { "data-testid": "explorer" });
  const t = toolbar(doc, uid);
  const x = {
    note: el(doc, "p", "note", { "data-testid": "explorer-note" }),
    words: el(doc, "div", "words"),
    tokensLabel: el(doc, "p", "tokens-label", { id: `${uid}-tokens-label` }),
    tokens: el(doc, "div", "tokens", {
      role: "radiogroup", "aria-labelledby": `${uid}-tokens-label`, "data-testid": "explorer-tokens",
    }),
    tags: el(doc, "p", "tags", { "data-testid": "explorer-tags" }),
    story: el(doc, "ul", "story", { "data-testid": "explorer-story", "aria-live": "polite" }),
    headsCaption: el(doc, "p", "caption"),
    pickerRow: el(doc, "div", "picker-row"),
    pickerName: el(doc, "span", "picker-name", { id: `${uid}-picker-name` }),
    picker: el(doc, "div", "picker", {
      role: "radiogroup", "data-testid": "explorer-heads", "aria-labelledby": `${uid}-picker-name`,
    }),
    grid: el(doc, "div", "grid", parts.includes("heads") ? { role: "group" } : {}),
    numbersNote: el(doc, "p", "note", { "data-testid": "explorer-no-numbers" }),
    gridBar: el(doc, "canvas", "colourbar", { "aria-hidden": "true" }),
    panelsTitle: el(doc, "h2"),
    stats: el(doc, "p", "stats", { "data-testid": "explorer-stats" }),
    focusTitle: el(doc, "h2"),
    focusCaption: el(doc, "p", "caption"),
    legend: el(doc, "ul", "legend"),
    bars: el(doc, "canvas", "bars", { role: "img", "data-testid": "explorer-bars" }),
    live: el(doc, "div", "sr-only", { "aria-live": "polite", "data-testid": "explorer-live" }),
    tip: el(doc, "div", "tip", { role: "tooltip", "data-testid": "explorer-tip" }),
  };
  const p = panelsEl(doc);
  const tb = tableEl(doc);
  x.tip.hidden = true;
  x.numbersNote.hidden = true;
  x.pickerRow.append(x.pickerName, x.picker);
  const show = (name, ...nodes) => (parts.includes(name) ? nodes : []);
  x.words.append(x.tokensLabel, x.tokens, x.tags);
  root.append(
    t.bar, ...show("tokens", x.words), ...show("story", x.story), x.grid,
    ...show("note", x.numbersNote), ...show("colourbar", x.gridBar), ...show("heads", x.headsCaption),
    ...show("note", x.note), ...show("panels", x.panelsTitle), ...show("heads", x.pickerRow),
    ...show("panels", p.panels, p.panelBars, x.stats),
    ...show("table", tb.tableBox), ...show("bars", x.focusTitle, x.focusCaption, x.legend, x.bars),
    x.live, x.tip,
  );
  return { root, ...t, ...x, ...p, ...tb, maps: [] };
}

// Where the token buttons (words) and the story go, by room: [before the maps, after them]. The
// first screen of a laptop has room for the story above the first row of maps, a classroom's
// for the maps alone (its larger type); a phone shows the words first and scrolls to the maps.
const WORD_PLACES = {
  phone: [["words", "story"], []],
  normal: [["story"], ["words"]],
  classroom: [[], ["story", "words"]],
};

/** Move the words and the story where the room puts them (WORD_PLACES); nothing when the room is
    the one they were placed for. */
export function placeWords(els, room) {
  if (els.wordsRoom === room) return;
  els.wordsRoom = room;
  const shown = (names) => names.map((name) => els[name]).filter((e) => els.root.contains(e));
  const [before, after] = WORD_PLACES[room].map(shown);
  els.grid.before(...before);
  shown(["grid", "numbersNote", "gridBar"]).pop().after(...after);
}

/** One figure per head shown: caption (name, job, colour range), canvas, summary; and its
    button in the head picker. */
export function mapItem(doc, uid, k) {
  const fig = el(doc, "figure", "map", { "data-head": String(k) });
  const cap = el(doc, "figcaption");
  const name = el(doc, "span", "name");
  const job = el(doc, "span", "job");
  const range = el(doc, "span", "range", { "data-testid": "explorer-range" });
  cap.append(name, job, range);
  const canvas = el(doc, "canvas", "", {
    tabindex: "0", role: "application", "data-head": String(k), "data-testid": "explorer-map",
    "aria-describedby": `${uid}-sum-${k}`,
  });
  const summary = el(doc, "p", "sr-only", { id: `${uid}-sum-${k}` });
  fig.append(cap, canvas, summary);
  const radio = el(doc, "button", "", { type: "button", role: "radio", "data-head": String(k) });
  return { k, fig, name, job, range, canvas, summary, radio };
}

/** A token's radio button: its name (了₂), POS tag and, in English, its gloss. */
export function tokenButton(doc, tok, name, i, lang, noGloss) {
  const b = el(doc, "button", "token", { type: "button", role: "radio", "data-i": String(i) });
  const word = el(doc, "span", "word");
  word.textContent = name;
  const tag = el(doc, "span", "tag");
  tag.textContent = tok.tag;
  tag.title = tok.tag_name || tok.tag;
  const gloss = lang === "en" ? tok.gloss : null;
  b.setAttribute("aria-label", [name, tok.tag_name, gloss].filter(Boolean).join(" · "));
  b.append(word, tag);
  if (lang === "en") {
    const g = el(doc, "span", tok.gloss ? "gloss" : "gloss none", { "data-testid": "explorer-gloss" });
    g.textContent = tok.gloss || noGloss;
    b.append(g);
  }
  return b;
}

/** "词性标记：nr 人名 · p 介词 · …" for the tags of this sentence, in order of appearance. */
function tagLegend(prefix, tokens) {
  const seen = new Map();
  for (const tok of tokens) if (!seen.has(tok.tag)) seen.set(tok.tag, tok.tag_name);
  return prefix + [...seen].map(([tag, name]) => `${tag} ${name}`).join(" · ");
}

/** A real table: a caption, key names as column headers, query names as row headers; each
    cell carries its exact weight in data-w. */
export function fillTable(table, caption, names, rows) {
  const doc = table.ownerDocument;
  const cell = (tag, s, scope) => {
    const e = doc.createElement(tag);
    e.textContent = s;
    if (scope) e.scope = scope;
    return e;
  };
  const head = doc.createElement("tr");
  head.append(cell("td", ""), ...names.map((k) => cell("th", k, "col")));
  const thead = doc.createElement("thead");
  thead.append(head);
  const tbody = doc.createElement("tbody");
  for (const row of rows) {
    const tr = doc.createElement("tr");
    tr.append(cell("th", row.name, "row"));
    for (const c of row.cells) {
      const td = cell("td", c.text);
      td.dataset.w = c.w;
      tr.append(td);
    }
    tbody.append(tr);
  }
  table.replaceChildren(cell("caption", caption), thead, tbody);
}

/** The "skip to the attention view" link, first in the page's Tab order (outside the view). */
export function skipLinkEl(doc) {
  const link = doc.createElement("a");
  link.href = "#";
  link.className = "alx-skip";
  link.dataset.testid = "explorer-skip";
  return link;
}

/** Texts that depend only on the header (language, head names, jobs, sentence). with:
    controls (shown), touch (say "tap"), skip (the skip link or null), headName(k). */
export function writeWords(els, header, { controls, touch, skip, headName }) {
  const T = header.text;
  const doc = els.root.ownerDocument;
  els.root.lang = header.html_lang; // ui.text.LANGUAGES's html, in the header
  els.root.classList.toggle("classroom", !!header.classroom);
  els.bar.setAttribute("aria-label", T.toolbar);
  const nodes = { scale: els.scale.label, causal: els.causal.label, tau: els.tauBox, png: els.png };
  for (const [name, node] of Object.entries(nodes)) node.hidden = !controls.includes(name);
  els.bar.hidden = !controls.length;
  els.scale.span.textContent = T.scale;
  els.scale.label.title = T.scale_help;
  els.causal.span.textContent = T.causal;
  els.causal.label.title = T.causal_help;
  els.tauName.textContent = T.tau;
  const root = Math.sqrt(header.d_k);
  els.ticks.replaceChildren(el(doc, "option", "", { value: String(sliderFromTau(root, root)), label: "√d_k" }));
  els.pickerName.textContent = T.picker;
  els.png.textContent = "PNG ⤓";
  els.png.title = T.png;
  els.png.setAttribute("aria-label", T.png);
  els.tokensLabel.textContent = fmt(T.tokens, { n: header.n });
  if (els.grid.hasAttribute("role")) els.grid.setAttribute("aria-label", T.heads_title); // the maps' name
  els.headsCaption.textContent = touch ? T.heads_caption_touch : T.heads_caption;
  els.tableSummary.textContent = T.table;
  els.tags.textContent = tagLegend(T.tags, header.tokens);
  if (skip) skip.textContent = T.skip;
  for (const m of els.maps) {
    const job = header.jobs[m.k];
    m.name.textContent = headName(m.k);
    m.job.textContent = job && job.label ? fmt(T.head_job, { job: job.label }) : "";
    m.radio.textContent = headName(m.k);
    m.canvas.setAttribute("aria-label", fmt(T.map_label, { head: headName(m.k), n: header.n }));
    m.canvas.setAttribute("aria-roledescription", T.legend);
  }
}

/** The focus bars' legend: a swatch and a name per head shown. */
export function fillLegend(legend, headNames, colours) {
  const doc = legend.ownerDocument;
  if (legend.childElementCount !== headNames.length) {
    legend.replaceChildren(...colours.map((colour) => {
      const li = el(doc, "li");
      const sw = el(doc, "span", "swatch");
      sw.style.background = colour;
      li.append(sw, el(doc, "span"));
      return li;
    }));
  }
  [...legend.children].forEach((li, s) => {
    if (li.lastChild.textContent !== headNames[s]) li.lastChild.textContent = headNames[s];
  });
}
