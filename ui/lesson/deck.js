/* The deck: one state object, the frame (progress strip, tools, notices, sentence box, notes,
   key list), the scene on screen with its steps (fragments), predict-then-reveal, the text
   alternatives and the live line. Scenes (scenes_*.js) register in SCENES; keys.js binds the
   keyboard; run.js connects it to Streamlit. Nothing here computes attention. */

const SCENES = {}; // scene number → {steps, title, take, mount, part, quiz, layout}
const PHONE_W = 640; // narrower: one column, figure first, the page scrolls
const SIDE_FRACTION = 0.29;
const FULL_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" ' +
  'stroke-width="2.5"><path d="M3 9V3h6M15 3h6v6M21 15v6h-6M9 21H3v-6"/></svg>';

function tag(doc, name, cls, attrs, text) {
  const e = doc.createElement(name);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The frame, built once per mounted deck. */
function deckSkeleton(host) {
  const doc = host.ownerDocument;
  const root = tag(doc, "div", "deck", { "data-testid": "lesson" });
  const top = tag(doc, "div", "topbar");
  const strip = tag(doc, "nav", "strip", { "data-testid": "lesson-strip" });
  const tools = tag(doc, "div", "tools");
  const button = (cls, id) => tag(doc, "button", cls, { type: "button", "data-testid": id });
  const edit = button("tool", "lesson-edit");
  const notes = button("tool", "lesson-notes-toggle");
  const keys = button("tool icon", "lesson-keys");
  const full = button("tool icon", "lesson-full");
  tools.append(edit, notes, keys, full);
  top.append(strip, tools);
  const notices = tag(doc, "div", "notices", { role: "status", "data-testid": "lesson-notices" });
  const editor = tag(doc, "form", "editor", { "data-testid": "lesson-editor" });
  editor.hidden = true;
  const scene = tag(doc, "section", "scene", { "data-testid": "lesson-scene" });
  const notesBox = tag(doc, "aside", "notes-box", { "data-testid": "lesson-notes" });
  notesBox.hidden = true;
  const help = tag(doc, "div", "help", { role: "dialog", "data-testid": "lesson-help" });
  help.hidden = true;
  const black = tag(doc, "div", "black", { "data-testid": "lesson-black" });
  black.hidden = true;
  const live = tag(doc, "div", "sr-only", { "aria-live": "polite", "data-testid": "lesson-live" });
  root.append(top, notices, editor, scene, notesBox, help, black, live);
  host.append(root);
  return {
    root,
    top,
    strip,
    tools,
    edit,
    notes,
    keys,
    full,
    notices,
    editor,
    scene,
    notesBox,
    help,
    black,
    live,
    stripButtons: [],
  };
}

function newDeck(host) {
  const D = {
    host,
    els: deckSkeleton(host),
    header: null,
    arrays: null,
    at: 1,
    step: 0,
    inst: null,
    ctx: null,
    // shared settings (scale, causal, focus: in the link) and scene-local choices
    state: {
      scale: true,
      causal: false,
      focus: "",
      tau: null,
      s2head: null,
      s6: "after",
      s8pos: false,
    },
    example: {}, // scene → true while it runs on the example sentence
    quiz: {}, // scene → chosen choice index, or null
    seq: 0,
    pending: 0,
    api: null,
    anim: 0,
    frame: 0,
    cache: new Map(), // weights per (part, head, τ, mask)
    size: "",
    notices: [],
  };
  bindFrame(D);
  bindKeys(D);
  new ResizeObserver(() => scheduleLayout(D)).observe(D.els.root);
  host.ownerDocument.defaultView.addEventListener("resize", () => scheduleLayout(D));
  return D;
}

function tx(D, key, values) {
  const s = D.header.text[key];
  if (s === undefined) return key;
  return values ? fmt(s, values) : s;
}

// ---- the frame: strip, tools, notices, sentence box, notes, key list ---------------------------

function bindFrame(D) {
  const { els } = D;
  els.edit.addEventListener("click", () => toggleEditor(D));
  els.notes.addEventListener("click", () => toggleNotes(D));
  els.keys.addEventListener("click", () => toggleHelp(D));
  els.full.addEventListener("click", () => toggleFull(D));
  els.strip.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-at]");
    if (b) goScene(D, Number(b.dataset.at), 0);
  });
  els.editor.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = els.editor.querySelector("input");
    applySentence(D, input.value);
  });
}

function frameTexts(D) {
  const { els, header } = D;
  const doc = els.root.ownerDocument;
  els.root.lang = header.lang === "en" ? "en" : "zh-CN";
  els.strip.setAttribute("aria-label", tx(D, "lesson.strip"));
  if (els.stripButtons.length !== header.scenes) {
    els.stripButtons = [];
    els.strip.replaceChildren();
    for (let k = 1; k <= header.scenes; k++) {
      const b = tag(doc, "button", "", { type: "button", "data-at": String(k) }, `§${k}`);
      els.stripButtons.push(b);
      els.strip.append(b);
    }
  }
  els.stripButtons.forEach((b, i) => {
    b.setAttribute("aria-label", tx(D, "lesson.scene", { k: i + 1, title: sceneTitle(D, i + 1) }));
    b.title = b.getAttribute("aria-label");
  });
  setLabel(els.edit, `✎ ${tx(D, "lesson.edit")}`, tx(D, "lesson.sentence"));
  setLabel(els.notes, tx(D, "lesson.notes"), `${tx(D, "lesson.notes")} (S)`);
  setLabel(els.keys, "?", tx(D, "lesson.keys"));
  setLabel(els.full, "", `${tx(D, "lesson.full")} (F)`);
  els.full.innerHTML = FULL_ICON; // static markup, no text from anyone
  buildEditor(D);
  buildHelp(D);
  els.black.setAttribute("aria-label", tx(D, "lesson.blackout"));
}

function setLabel(button, text, name) {
  button.textContent = text;
  button.setAttribute("aria-label", name);
  button.title = name;
}

/** The sentence box, built once: a rerun renames its buttons (a new language) but never takes
    what is being typed out from under the hand. */
function buildEditor(D) {
  const { els } = D;
  const doc = els.root.ownerDocument;
  if (!els.editor.childElementCount) {
    const label = tag(doc, "label", "", { for: "lesson-sentence" });
    const input = tag(doc, "input", "", {
      id: "lesson-sentence",
      type: "text",
      maxlength: "2000",
      "data-testid": "lesson-sentence",
    });
    const apply = tag(doc, "button", "primary", { type: "submit" });
    const example = tag(doc, "button", "", { type: "button" });
    example.addEventListener("click", () => {
      input.value = D.header.example;
      input.focus();
    });
    const close = tag(doc, "button", "", { type: "button" });
    close.addEventListener("click", () => toggleEditor(D, false));
    els.editor.append(label, input, apply, example, close);
    Object.assign(els, {
      sentenceLabel: label,
      sentence: input,
      apply,
      exampleButton: example,
      closeEditor: close,
    });
  }
  els.sentenceLabel.textContent = tx(D, "lesson.sentence");
  els.apply.textContent = tx(D, "lesson.apply");
  els.exampleButton.textContent = tx(D, "lesson.example");
  els.closeEditor.textContent = tx(D, "lesson.close");
  const shown = D.header.settings.sentence;
  if (els.sentence.dataset.shown !== shown && deepActive(doc) !== els.sentence) {
    els.sentence.value = shown; // the session's sentence, unless someone is typing
    els.sentence.dataset.shown = shown;
  }
}

function toggleEditor(D, show = D.els.editor.hidden) {
  D.els.editor.hidden = !show;
  D.els.edit.setAttribute("aria-expanded", String(show));
  if (show) D.els.editor.querySelector("input").focus();
  scheduleLayout(D);
}

function applySentence(D, text) {
  toggleEditor(D, false);
  if (text === D.header.settings.sentence) return;
  D.example = {};
  sendState(D, { sentence: text });
}

function buildHelp(D) {
  const { els } = D;
  const doc = els.root.ownerDocument;
  const keys = [
    "lesson.k.next",
    "lesson.k.prev",
    "lesson.k.ends",
    "lesson.k.jump",
    "lesson.k.notes",
    "lesson.k.full",
    "lesson.k.black",
    "lesson.k.help",
    "lesson.k.remote",
  ];
  const list = tag(doc, "ul");
  for (const k of keys) list.append(tag(doc, "li", "", {}, tx(D, k)));
  const title = tag(doc, "h3", "", { id: "lesson-help-title" }, tx(D, "lesson.keys"));
  const close = tag(doc, "button", "", { type: "button" }, tx(D, "lesson.close"));
  close.addEventListener("click", () => toggleHelp(D, false));
  els.help.setAttribute("aria-labelledby", "lesson-help-title");
  els.help.replaceChildren(title, list, close);
}

function toggleHelp(D, show = D.els.help.hidden) {
  D.els.help.hidden = !show;
  if (show) D.els.help.querySelector("button").focus();
}

function toggleNotes(D, show = D.els.notesBox.hidden) {
  D.els.notesBox.hidden = !show;
  D.els.notes.setAttribute("aria-pressed", String(show));
  fillNotes(D);
}

function fillNotes(D) {
  const { els } = D;
  if (els.notesBox.hidden) return;
  const doc = els.root.ownerDocument;
  const title = tag(doc, "h3", "", {}, tx(D, "lesson.notes_title"));
  const body = [title];
  let list = null;
  for (const [kind, text] of D.header.notes[String(D.at)] || []) {
    if (kind === "li") {
      list ||= tag(doc, "ul");
      list.append(tag(doc, "li", "", {}, text));
      if (!body.includes(list)) body.push(list);
    } else {
      list = null;
      body.push(tag(doc, "p", "", {}, text));
    }
  }
  els.notesBox.setAttribute("aria-label", tx(D, "lesson.notes_title"));
  els.notesBox.replaceChildren(...body);
}

function showNotices(D) {
  const { els } = D;
  const doc = els.root.ownerDocument;
  els.notices.replaceChildren(
    ...D.notices.map((text) => {
      const p = tag(doc, "p", "notice");
      p.append(tag(doc, "span", "", {}, text));
      const x = tag(
        doc,
        "button",
        "",
        { type: "button", "aria-label": tx(D, "lesson.close") },
        "✕",
      );
      x.addEventListener("click", () => {
        D.notices = D.notices.filter((n) => n !== text);
        showNotices(D);
        scheduleLayout(D);
      });
      p.append(x);
      return p;
    }),
  );
}

// ---- which numbers a scene uses -----------------------------------------------------------------

/** The user's sentence, or the example while a scene it cannot show runs on it. */
function setFor(D, k) {
  const sets = D.header.sets;
  return D.example[k] && sets.example ? sets.example : sets.user;
}

function needOf(D, k) {
  return D.header.sets.user.needs[String(k)] || "";
}

function sceneTitle(D, k) {
  const scene = SCENES[k];
  if (!scene) return "";
  const set = setFor(D, k);
  return scene.title(D, set);
}

function arr(D, name) {
  return D.arrays.get(name);
}

/** Index of the focus token in a part: the shared focus text, else the part's default. */
function focusIn(D, part) {
  const i = part.tokens.findIndex((t) => t.t === D.state.focus);
  return i >= 0 ? i : part.focus;
}

/** What the scores are divided by in every scene but §5's τ: √d_k, or 1 with scaling off. */
function divisorOf(D, part) {
  return D.state.scale ? Math.sqrt(part.d_k) : 1;
}

/** One head's weights, softmax(scores/τ) with the mask (softmax.js), cached per setting. */
function weightsOf(D, part, head, tau, causal, name = "scores") {
  const key = `${D.header.digest}|${part.prefix}${name}|${head}|${tau}|${causal}`;
  let w = D.cache.get(key);
  if (!w) {
    const n = part.n;
    w = attentionWeights(
      arr(D, part.prefix + name),
      head * n * n,
      n,
      tau,
      causal,
      new Float64Array(n * n),
    );
    if (D.cache.size > 64) D.cache.clear();
    D.cache.set(key, w);
  }
  return w;
}

/** Token labels for maps: whole words for a short sentence; for a long one (every few rows
    labelled, upright labels as deep as they are long) cut short, the text alternative whole. */
function labelsOf(part) {
  const most = part.n > 32 ? 2 : part.n > 16 ? 4 : 6;
  return part.tokens.map((t) =>
    [...t.t].length > most ? `${[...t.t].slice(0, most - 1).join("")}…` : t.t,
  );
}

// ---- layout -----------------------------------------------------------------------------------

function scheduleLayout(D) {
  if (D.frame || !D.header) return;
  D.frame = requestAnimationFrame(() => {
    D.frame = 0;
    layout(D);
  });
}

/** The room decides the type: 20 px at a projector's 1024 × 768, more on a big screen. */
function roomOf(D) {
  const win = D.els.root.ownerDocument.defaultView;
  const w = Math.floor(D.els.root.clientWidth) || win.innerWidth;
  const h = win.innerHeight;
  const phone = w < PHONE_W;
  const base = !phone && w >= 1500 && h >= 950 ? 24 : 20;
  return { w, h, phone, base };
}

function layout(D) {
  const { els } = D;
  const room = roomOf(D);
  const root = els.root;
  root.classList.toggle("phone", room.phone);
  root.style.setProperty("--base", `${room.base}px`);
  const side = (SCENES[D.at] && SCENES[D.at].side) || SIDE_FRACTION;
  root.style.setProperty("--side", `${Math.round(Math.max(250, room.w * side))}px`);
  if (room.phone) root.style.height = "";
  else {
    const top = Math.max(0, root.getBoundingClientRect().top);
    root.style.height = `${Math.max(420, room.h - top - 6)}px`;
  }
  const size = `${room.w}|${room.h}|${room.base}|${els.scene.clientWidth}|${els.scene.clientHeight}`;
  if (size === D.size && D.inst) return;
  D.size = size;
  if (D.inst) drawScene(D, D.step, D.step);
}

/** The figure's box in css px; on a phone a height that suits the scene. */
function figureBox(D) {
  const fig = D.els.scene.querySelector(".figure");
  const room = roomOf(D);
  const w = Math.floor(fig.clientWidth);
  const tall = (SCENES[D.at] && SCENES[D.at].phone) || 1.05; // a scene's height on a phone, × width
  if (room.phone) return { w, h: Math.round(Math.max(300, w * tall)) };
  return { w, h: Math.floor(fig.clientHeight) };
}

function fontsOf(D) {
  const base = roomOf(D).base;
  return { label: base, min: base, title: Math.round(base * 1.2), cell: base, stack: PEN_STACK };
}

/** Say `message` in a live region (emptied first, so the same words are said again). */
function announce(live, message) {
  if (live.textContent === message) live.textContent = "";
  live.textContent = message;
}
