/* The deck's life in Streamlit: decode the payload (header JSON + float32 arrays), keep the
   arrays by digest (a rerun that changes nothing sends none), adopt the server's state once it
   has seen the deck's latest change, and redraw only what changed. */

const { floatsOf, hexRgb, paintRamp, readPayload, STYLESHEET } = VIEW;
const { applySentence, bindKeys, deckSkeleton, frameTexts, goScene, layoutDeck, LESSON_CSS,
  lookOfDeck, renderScene, scene1, scene10, scene2, scene3, scene4, scene5, scene6, scene7, scene8,
  scene9, scheduleLayout, sendState, showNotices, stopAnimation, toggleEditor, toggleFull,
  toggleHelp, toggleNotes } = LESSON;

// The deck's scenes by number (§1 … §10, ui/lesson/data.py SCENES): a new scene's file gives it,
// and it is listed here.
const SCENES = { 1: scene1, 2: scene2, 3: scene3, 4: scene4, 5: scene5, 6: scene6, 7: scene7,
  8: scene8, 9: scene9, 10: scene10 };

const ARRAYS = new Map(); // digest → Map(name → Float32Array), a few sentences back
const KEEP_SETS = 6;

/** The payload Python's ui/lesson/deck.encode wrote: the header and its named float32 arrays. */
function decodeLesson(bytes) {
  const { header, body } = readPayload(bytes, "ALL1");
  const names = Object.keys(header.arrays || {});
  if (!names.length) return { header, arrays: null };
  const all = floatsOf(body, Math.floor(body.byteLength / 4));
  const arrays = new Map();
  for (const name of names) {
    const [offset, shape] = header.arrays[name];
    const a = all.subarray(offset, offset + shape.reduce((x, y) => x * y, 1));
    a.shape = shape;
    arrays.set(name, a);
  }
  return { header, arrays };
}

function keepArrays(digest, arrays) {
  ARRAYS.delete(digest);
  ARRAYS.set(digest, arrays);
  while (ARRAYS.size > KEEP_SETS) ARRAYS.delete(ARRAYS.keys().next().value);
}

/** The deck's record: every field it ever has is written here, and it is sealed (a field
    written anywhere else throws), as are its settings. A new part of the deck that keeps state
    (the class's follow, say) adds its fields here. */
function newDeck(host, style) {
  const D = Object.seal({
    host,
    style, // the deck's stylesheet in the page
    els: deckSkeleton(host),
    scenes: SCENES,
    header: null,
    arrays: null,
    theme: null, // what the lesson draws with (themeOf)
    luts: null, // the palette's ramps as lookup tables (themeOf)
    at: 1,
    step: 0,
    inst: null, // the scene on screen (its mount's draw and destroy)
    ctx: null, // its context S (stage.js renderScene)
    // shared settings (scale, causal, focus: in the link) and scene-local choices
    state: Object.seal({
      scale: true,
      causal: false,
      focus: "",
      tau: null,
      s2head: null,
      s6: "after",
      s8pos: false,
    }),
    example: {}, // scene → true while it runs on the example sentence
    quiz: {}, // scene → chosen choice index, or null
    asked: {}, // measurements asked of Python (widgets.js askBlock) → true
    seq: 0,
    pending: 0,
    resends: 0, // the scene sent again in a row (resendScene)
    api: null,
    anim: 0,
    frame: 0,
    cache: new Map(), // weights per (part, head, τ, mask)
    seen: null, // what the scene on screen depends on (lookOfDeck) when it was drawn
    size: "",
    notices: [],
    unbind: null, // undoes what outlives the deck's own nodes (destroyDeck)
  });
  bindFrame(D);
  const unbindKeys = bindKeys(D);
  const resized = new ResizeObserver(() => scheduleLayout(D)); // the room, or the scene's box
  resized.observe(D.els.root); // (a notice, the sentence box or a note taking room from it)
  resized.observe(D.els.scene);
  const win = host.ownerDocument.defaultView;
  const onResize = () => scheduleLayout(D);
  win.addEventListener("resize", onResize);
  D.unbind = () => {
    unbindKeys();
    resized.disconnect();
    win.removeEventListener("resize", onResize);
  };
  return D;
}

/** The deck left the page: stop its clock, destroy the scene (and the views it mounted) and
    remove every listener and observer outside its nodes. */
function destroyDeck(D) {
  stopAnimation(D);
  cancelAnimationFrame(D.frame);
  D.inst?.destroy?.();
  D.inst = null;
  D.unbind();
  D.els.root.remove();
  D.style.remove();
}

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

/** What the lesson draws with, from the palette Python sent (header.colours): its ink (and the
    view's marks), the font stack for the UI language, the ramps; and the same colours as CSS
    variables for the frame (lesson.css reads each ink as var(--name), _ written -). */
function themeOf(D, header) {
  const p = header.colours;
  const L = p.lesson;
  const root = D.els.root;
  for (const [name, colour] of Object.entries(L.ink)) {
    if (typeof colour === "string") root.style.setProperty(`--${name.replace(/_/g, "-")}`, colour);
  }
  const stack = header.lang === "en" ? L.latin : p.font_stack; // English: Latin glyphs first
  root.style.setProperty("--font", stack);
  root.style.setProperty("--mono", L.mono);
  const rule = p.on_colour;
  const weight = paintRamp(p.weight, rule);
  const signed = paintRamp(p.signed, rule);
  D.luts = { weight: weight.lut, signed: signed.lut, weightInk: weight.ink, signedInk: signed.ink };
  D.theme = {
    ink: { ...p.ink, ...L.ink }, // the view's marks (mark_outer, hatch, grid …), the lesson's words
    stack, mono: L.mono, type: L.type,
    masked: hexRgb(p.ink.masked), dpr: root.ownerDocument.defaultView.devicePixelRatio || 1,
    scratch: root.ownerDocument.createElement("canvas"), rule,
  };
}

/** A new payload: adopt the server's settings once it has seen the deck's latest change; the
    scene is the deck's own (a presenter's keys are never undone by a late rerun), taken from
    the header only when the deck starts. Redraw only when what the scene shows changed. */
function applyHeaderDeck(D, header, arrays) {
  if (arrays) keepArrays(header.digest, arrays);
  const known = ARRAYS.get(header.digest);
  if (!known) {
    D.api.setTriggerValue("need", header.digest);
    return;
  }
  const first = !D.header;
  const langChanged = D.header && D.header.lang !== header.lang;
  D.header = header;
  D.arrays = known;
  if (first || langChanged) themeOf(D, header);
  const caughtUp = header.ack >= D.pending;
  if (first || caughtUp) {
    const s = header.settings;
    Object.assign(D.state, { scale: !!s.scale, causal: !!s.causal, focus: s.focus || "" });
  }
  if (first) {
    D.at = header.at;
    D.notices = [...header.notices];
  } else if (caughtUp) resendScene(D, header.at);
  // For tests and benches: the server has applied every change the deck sent, on this scene.
  if (caughtUp && header.at === D.at) D.els.root.dataset.synced = "1";
  frameTexts(D);
  if (first || langChanged) showNotices(D);
  const seen = lookOfDeck(D);
  if (!first && seen === D.seen) return;
  D.seen = seen;
  layoutDeck(D);
  renderScene(D, first ? 0 : D.step);
  if (first) D.els.root.dataset.ready = "1";
}

/** The server has applied every change the deck sent and still names another scene (a rerun
    that read an older link): tell it again which scene is on screen, three times at most in a
    row (each time waits for the server to catch up). */
function resendScene(D, at) {
  D.resends = at === D.at ? 0 : D.resends + 1;
  if (D.resends > 0 && D.resends <= 3) sendState(D);
}

/** One call of the deck component (Streamlit calls it again with each new payload). */
function runLesson(component) {
  const { data, parentElement, setStateValue, setTriggerValue } = component;
  let D = parentElement.__lesson;
  if (!D) {
    const style = (parentElement.ownerDocument || document).createElement("style");
    style.textContent = STYLESHEET + LESSON_CSS; // the view's rules, then the deck's
    parentElement.append(style);
    D = newDeck(parentElement, style);
    parentElement.__lesson = D;
  }
  D.api = { setStateValue, setTriggerValue };
  if (data) {
    const { header, arrays } = decodeLesson(data);
    applyHeaderDeck(D, header, arrays);
  }
  return () =>
    setTimeout(() => {
      if (D.els.root.isConnected || parentElement.__lesson !== D) return;
      destroyDeck(D);
      delete parentElement.__lesson;
    }, 0);
}

// This module is the "code" component: mounted once per page with no data, so Streamlit sends
// the same message every run. The deck component's loader hands its calls here.
const lessonWaiting = globalThis.__attentionLessonQueue || [];
globalThis.__attentionLesson = { run: runLesson };
globalThis.__attentionLessonQueue = [];
for (const component of lessonWaiting.splice(0)) runLesson(component);

return {};
