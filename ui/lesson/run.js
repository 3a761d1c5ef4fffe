/* The deck's entry (`make js` bundles it with everything it imports into ui/lesson/dist/deck.js,
   which ui/lesson/deck.py sends) and its life in Streamlit: decode the payload (header JSON +
   float32 arrays), keep the arrays by digest (a rerun that changes nothing sends none), start on
   the link's scene and step, and redraw only what changed.
   What Python decides reaches the deck in its data, never in the bundle: the key map
   (header.key_map, from ui/lesson/deck.py KEY_MAP, its one owner, which README's key table is
   tested against), the page's <html lang> (header.html_lang, from ui.text.LANGUAGES), the
   words, the palette. So the bundle is the same for every language and setting, built once and
   committed, and a Python change never leaves it stale; only the stylesheets are in it (text,
   imported below), as they are the code's own.
   Frame (not a scene's): the overview (O, Esc), the glossary (G; "?" on touch), the handout
   (print), progress and the review (progress.js), the link (link.js).
   The teacher's windows (not a scene's): S opens the presenter window (presenter.js,
   /lesson?presenter=1: the notes, which no other window receives; the next step; the clock; the
   class's tally); every window but a joined phone's opens channel.js's BroadcastChannel, and
   each place change posts a goto (channel.js sharePlace, events.js), which the other
   window follows (run.js pairWindows → stage.js goPlace). D's fields for them: winId, channel,
   heard, shared, followed, pres, clock, classState (newDeck). */

import STYLESHEET from "../explorer/explorer.css";
import LESSON_FRAME_CSS from "./lesson.css";
import LESSON_PARTS_CSS from "./lesson_parts.css";
import LESSON_PHONE_CSS from "./lesson_phone.css";
import PRESENTER_CSS from "./presenter.css";
import CLASS_CSS from "./class.css";
import { hexRgb, paintRamp } from "../explorer/colour.js";
import { floatsOf, readPayload } from "../explorer/payload.js";
import { stopAnimation } from "./animate.js";
import { sceneList } from "./order.js";
import { toggleGlossary } from "./terms.js";
import { closeChannel, onMessage, placeOf, post } from "./channel.js";
import { applySentence, deckSkeleton, frameTexts, showNotices, toggleEditor, toggleFull,
  toggleHelp } from "./frame.js";
import { lastPlace } from "./progress.js";
import { buildPresenter, fillPresenter, greet, openPresenter, stopPresenter } from "./presenter.js";
import { goPlace, goScene, layoutDeck, renderScene, scheduleLayout } from "./stage.js";
import { linkStep, writeLink } from "./link.js";
import { handoutNow, toggleOverview } from "./overview.js";
import { classHeader, startClassroom, stopClassroom } from "./class.js";
import { bindKeys } from "./keys.js";
import SCENE_FILES from "glob:./scenes/*.js"; // { "s01.js": its module, … } in name order

// The deck's stylesheet, in the cascade's order: the frame, the parts (controls, quiz, maps,
// overlays), the phone and paper, the presenter window, the live class's bar and tally.
const LESSON_CSS = [LESSON_FRAME_CSS, LESSON_PARTS_CSS, LESSON_PHONE_CSS, PRESENTER_CSS,
  CLASS_CSS].join("");

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
    scenes: {}, // number → scene (order.js sceneList): the numbers come with the first header
    header: null,
    arrays: null,
    theme: null, // what the lesson draws with (themeOf)
    luts: null, // the palette's ramps as lookup tables (themeOf)
    at: 1,
    step: 0,
    inst: null, // the scene on screen (its mount's draw and destroy)
    ctx: null, // its context S (stage.js renderScene)
    local: null, // the scene's own settings (S.local: kit.js freshLocal), fresh on entering it
    localOf: 0, // the scene they belong to
    touch: isTouch(host), // a touch screen: swipes step, "?" opens the glossary, no key hints
    example: {}, // scene → true while it runs on the example sentence
    answers: {}, // question id ("s05.ask") → the choice id picked
    termFrom: null, // the lesson-term button whose popover is open (terms.js)
    asked: {}, // measurements asked of Python (widgets.js askBlock) → true
    seq: 0,
    pending: 0,
    api: null,
    anim: 0,
    frame: 0,
    gen: 0, // the layout generation: data-generation / data-settled on the root (stage.js)
    cache: new Map(), // weights per (part, head, τ, mask)
    seen: null, // what the scene on screen depends on (lookOfDeck) when it was drawn
    size: "",
    notices: [],
    klass: null, // the live class (class.js): its code, role, state, stream; null without one
    unbind: null, // undoes what outlives the deck's own nodes (destroyDeck)
    // The teacher's windows as one (channel.js) and the presenter window (presenter.js):
    winId: windowId(host), // this window's id on the channel (its messages' `from`)
    channel: null, // the BroadcastChannel, once the header says which window this is
    heard: new Map(), // message kind → what listens to it (onMessage)
    shared: "", // "scene|step" (ids) this window last told the others it is at
    followed: "", // "scene|step" a goto from another window is bringing it to
    pres: null, // the presenter's panel (its nodes), in the presenter window only
    clock: Object.seal({ start: 0, paused: 0, timer: 0, touched: false }), // since the start
    classState: null, // the class's state as the projector last sent it ("class" message)
  });
  bindFrame(D);
  const unbindKeys = bindKeys(D);
  const resized = new ResizeObserver(() => scheduleLayout(D)); // the room, or the scene's box
  resized.observe(D.els.root); // (a notice, the sentence box or a note taking room from it)
  resized.observe(D.els.scene);
  const win = host.ownerDocument.defaultView;
  const onResize = () => scheduleLayout(D);
  const onPrint = () => D.header && handoutNow(D);
  win.addEventListener("resize", onResize);
  win.addEventListener("beforeprint", onPrint);
  D.unbind = () => {
    unbindKeys();
    resized.disconnect();
    win.removeEventListener("resize", onResize);
    win.removeEventListener("beforeprint", onPrint);
  };
  return D;
}

/** A random id for this window's messages on the channel. */
function windowId(host) {
  const bytes = host.ownerDocument.defaultView.crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The teacher's windows move together (channel.js): a goto moves this deck; the projector
    answers a window that says hello with where it is; a new presenter says hello. */
function pairWindows(D) {
  buildPresenter(D); // the presenter window only: its panel, before the first draw fills it
  onMessage(D, "goto", (msg) => goPlace(D, String(msg.scene), String(msg.step ?? "")));
  if (D.header.window === "deck") {
    onMessage(D, "hello", () => D.ctx && post(D, { kind: "goto", ...placeOf(D) }));
  }
  greet(D); // opens the channel (none for a joined phone)
}

/** A touch screen (a phone, a tablet): no key to press, a finger to swipe. */
function isTouch(host) {
  const win = host.ownerDocument.defaultView;
  return (win.navigator.maxTouchPoints || 0) > 0 || "ontouchstart" in win;
}

/** The deck left the page: stop its clock, destroy the scene (and the views it mounted) and
    remove every listener and observer outside its nodes. */
function destroyDeck(D) {
  stopAnimation(D);
  cancelAnimationFrame(D.frame);
  D.inst?.destroy?.();
  D.inst = null;
  stopClassroom(D);
  D.unbind();
  closeChannel(D);
  stopPresenter(D);
  D.els.root.remove();
  D.style.remove();
}

function bindFrame(D) {
  const { els } = D;
  els.edit.addEventListener("click", () => toggleEditor(D));
  els.notes.addEventListener("click", () => openPresenter(D));
  els.keys.addEventListener("click", () => (D.touch ? toggleGlossary(D) : toggleHelp(D)));
  els.where.addEventListener("click", () => toggleOverview(D));
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

/** A new payload: the numbers and words. The scene and the step are the deck's own (a
    presenter's keys are never undone by a late rerun), taken from the link (header.at,
    header.step) only when the deck starts; the link is written again after every payload
    (Streamlit may have rewritten the address). Redraw only when what the scene shows changed
    (a redraw is a place change: its listeners run, events.js). */
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
  if (first) D.scenes = sceneList(SCENE_FILES, header.numbers); // each scene's own number
  if (first || langChanged) themeOf(D, header);
  const place = first && !header.linked ? lastPlace(D) : null; // a link without a scene: back
  if (first) {
    D.at = place ? place[0] : header.at; // to where this device left off (progress.js)
    D.notices = [...header.notices];
  }
  // For tests and benches: the server has applied every change the deck sent.
  if (header.ack >= D.pending) D.els.root.dataset.synced = "1";
  frameTexts(D);
  if (first) pairWindows(D);
  if (!first) classHeader(D); // a phone's class numbers (setup) before the scene looks at them
  if (first || langChanged) showNotices(D);
  if (langChanged) fillPresenter(D);
  const seen = lookOfDeck(D);
  if (!first && seen === D.seen) return writeLink(D);
  D.seen = seen;
  layoutDeck(D);
  renderScene(D, first ? (place ? place[1] : linkStep(header.step)) : D.step, !first);
  if (first) D.els.root.dataset.ready = "1";
  if (first) startClassroom(D); // make, lead or join a class as the link says (class.js)
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

/** What the scene on screen depends on from Python besides the viewport (its own settings are
    the scene's): equal looks draw equal pixels. */
function lookOfDeck(D) {
  const h = D.header;
  return JSON.stringify([h.digest, h.lang, h.sets, h.order, h.blocks]);
}

/** The code component's own call: nothing (this module's work is done when it runs, above). */
export default function () {}
