/* What every part of the deck reads from its record D (made in run.js's newDeck): the scenes
   (D.scenes: each scenes/sNN.js's own, kit.js defineScene), the words (tx), which numbers
   a scene uses, the scene-local settings (S.local: focus, √d_k), the weights (softmax.js,
   cached), the room (type from the palette) and the figure's box, the live line, what the deck
   sends to Python (a new sentence only: a scene or a step never reruns), and the animation
   clock. frame.js builds the frame, stage.js the scene on screen, keys.js binds the keyboard,
   run.js connects it to Streamlit. Nothing here computes attention but the softmax the view is
   tested with. */

import { attentionWeights } from "../explorer/softmax.js";
import { fontSizes, mapGeometry } from "../explorer/layout.js";
import { clipLabel, distinctNames, fmt } from "../explorer/a11y.js";
import { penStart } from "./pen.js";

const PHONE_W = 640; // narrower: one column, figure first, the page scrolls

export const SIDE_FRACTION = 0.29;

export function make(doc, name, cls, attrs, text) {
  const e = doc.createElement(name);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A <button> of class `cls` whose click calls `onClick`; `attrs` beside its type and test id. */
export function button(doc, cls, testid, label, onClick, attrs) {
  const b = make(doc, "button", cls, { type: "button", "data-testid": testid, ...attrs }, label);
  b.addEventListener("click", onClick);
  return b;
}

export function tx(D, key, values) {
  const s = D.header.text[key];
  if (s === undefined) return key;
  return values ? fmt(s, values) : s;
}

// ---- which numbers a scene uses -----------------------------------------------------------------

/** The user's sentence, or the example while a scene it cannot show runs on it. */
export function setFor(D, k) {
  const sets = D.header.sets;
  return D.example[k] && sets.example ? sets.example : sets.user;
}

export function needOf(D, k) {
  return D.header.sets.user.needs[String(k)] || "";
}

/** Scene k's title: a key of its text table, or a function of a context that has (at least)
    D, k, scene and set (titles are read for every scene, the strip's and the overview's). */
export function sceneTitle(D, k) {
  const scene = D.scenes[k];
  if (!scene) return "";
  if (typeof scene.title !== "function") return tx(D, scene.title);
  return scene.title({ D, k, scene, set: setFor(D, k) });
}

export function arr(D, name) {
  return D.arrays.get(name);
}

/** Index of the focus token in a part: the scene's focus (S.local.focus, a token's text), else
    the part's default. */
export function focusIn(S, part) {
  const i = part.tokens.findIndex((t) => t.t === S.local.focus);
  return i >= 0 ? i : part.focus;
}

/** What the scores are divided by in every scene but §5's τ: √d_k, or 1 with the scene's
    scaling off (S.local.scale). */
export function divisorOf(S, part) {
  return S.local.scale ? Math.sqrt(part.d_k) : 1;
}

/** One head's weights, softmax(scores/τ) with the mask (softmax.js), cached per setting. */
export function weightsOf(D, part, head, tau, causal, name = "scores") {
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

/** Characters of a token a map's label keeps: whole words for a short sentence; for a long one
    (every few rows labelled, upright labels as deep as they are long) fewer, the text
    alternative whole. */
export function labelChars(n) {
  return n > 32 ? 2 : n > 16 ? 4 : 6;
}

const GLOSS_ROOM = 0.9; // a gloss may cost a map this share of its cells' size, or keep them ≥ base

/** A token's gloss beside its row label: short ("Xiaoming", "walk"), or a function word's role
    whole ("(object marker)", cut it says nothing); null when none is known. */
function mapGloss(tok) {
  const g = tok.gloss || tok.under; // §8's pair sends only the short one
  if (!g) return null;
  return g.startsWith("(") ? g : tok.under || g.split(/ \/ | \(/)[0];
}

/** Token labels of the lesson's maps (its own and its views'), cut as labelChars says. In
    English, where there is room, each row label carries its token's gloss ("小明 Xiaoming",
    "把 (object marker)") while the column labels under the map stay the tokens alone
    (labels.columns, layout.js keyLabels): the rows have the room a gloss takes, the columns stand
    upright. Room: in `box` ({w, h}, the map's, if known) the glossed labels keep every token
    labelled and cells at least GLOSS_ROOM of the plain ones' size, or at least the room's base
    type (20 px on a projector: read from the back row). */
export function labelsOf(D, part, box = null) {
  const names = distinctNames(part.tokens.map((t) => t.t));
  const plain = part.tokens.map((t, i) => clipLabel(t.t, names[i], labelChars(part.n)));
  if (D.header.lang !== "en" || !box) return plain;
  const withGloss = plain.map((label, i) => {
    const g = mapGloss(part.tokens[i]);
    return g ? `${label} ${g}` : label;
  });
  withGloss.columns = plain;
  const fonts = fontsOf(D);
  const ctx = D.theme.scratch.getContext("2d");
  const [a, b] = [plain, withGloss].map((labels) => mapGeometry(ctx, labels, box.w, box.h, fonts));
  const enough = Math.min(GLOSS_ROOM * a.cell, D.header.colours.lesson.type.base);
  return b.step === 1 && b.cell >= enough ? withGloss : plain;
}

/** What the scene on screen depends on from Python besides the viewport (its own settings are
    the scene's): equal looks draw equal pixels. */
export function lookOfDeck(D) {
  const h = D.header;
  return JSON.stringify([h.digest, h.lang, h.sets, h.order, h.blocks]);
}

// ---- the room -----------------------------------------------------------------------------------

/** The room decides the type: the palette's base (20 px at a projector's 1024 × 768), its big
    size on a big screen. */
export function roomOf(D) {
  const win = D.els.root.ownerDocument.defaultView;
  const w = Math.floor(D.els.root.clientWidth) || win.innerWidth;
  const h = win.innerHeight;
  const phone = w < PHONE_W;
  const type = D.header.colours.lesson.type;
  const big = !phone && w >= type.big_screen[0] && h >= type.big_screen[1];
  return { w, h, phone, base: big ? type.big : type.base };
}

/** The figure's box in css px. On a phone: the height the scene asks for (its `phone`, × the
    width), or else the rest of the screen once everything else of the step is laid out (the
    title, the caption, the controls, the quiz, the takeaway and the step bar): a step fits
    one screen with its figure and its control. */
export function figureBox(D) {
  const fig = D.els.scene.querySelector(".figure");
  const room = roomOf(D);
  const w = Math.floor(fig.clientWidth);
  if (!room.phone) return { w, h: Math.floor(fig.clientHeight) };
  const phone = D.scenes[D.at]?.phone; // a scene's height on a phone, × its width
  const tall = typeof phone === "function" ? phone(D.step) : phone;
  if (tall) return { w, h: Math.round(Math.max(PHONE_MIN_H, w * tall)) };
  return { w, h: Math.max(PHONE_MIN_H, Math.floor(room.h - phoneRest(D, fig))) };
}

const PHONE_MIN_H = 220; // css px: a figure on a phone is never shorter (the page scrolls)

/** On a phone, the height everything but the figure takes on the screen: above it (from the
    page's top, however far it is scrolled) and below it in the scene (whose bottom padding
    leaves the room of the fixed step bar). */
function phoneRest(D, fig) {
  const f = fig.getBoundingClientRect();
  const scene = D.els.scene.getBoundingClientRect();
  let scrolled = 0; // how far the page's scrolling boxes are scrolled, across the shadow root
  for (let node = D.els.root; node; node = node.parentElement || node.getRootNode().host) {
    scrolled += node.scrollTop || 0;
  }
  return f.top + scrolled + (scene.bottom - f.bottom) + 4;
}

/** The maps' type in this room: the palette's "room" row (the attention view's, in the lesson)
    at the room's base size. */
export function fontsOf(D) {
  const room = roomOf(D);
  const colours = D.header.colours;
  return fontSizes(colours, true, room.w, room.base / colours.lesson.type.base, "room");
}

/** What every scene's paint starts with: the deck, the figure's box (W × H), the label size and
    a pen on `canvas` cleared to it. */
export function scenePen(S, canvas) {
  const D = S.D;
  const { w: W, h: H } = S.box;
  return { D, W, H, base: fontsOf(D).label, pen: penStart(canvas, W, H, D.theme) };
}

/** Say `message` in a live region (emptied first, so the same words are said again). */
export function speak(live, message) {
  if (live.textContent === message) live.textContent = "";
  live.textContent = message;
}

/** The element with the focus, inside shadow roots too. */
export function deepActive(doc) {
  let a = doc.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

// ---- what the deck sends, and its clock --------------------------------------------------------

/** Tell Python what only Python can answer (a new sentence): it reruns and sends the numbers.
    Scenes and steps never come here: they are the browser's, written into the link by
    stage.js (history.replaceState), so a class of 200 phones costs no rerun per step. */
export function sendState(D, extra) {
  D.seq += 1;
  D.pending = D.seq;
  delete D.els.root.dataset.synced; // until a rerun's header acknowledges this change
  D.api?.setStateValue("deck", { seq: D.seq, ...extra });
}

/** Run fn(p) on every animation frame for `ms`, p from 0 to 1 (eased); one at a time. */
export function animate(D, ms, fn) {
  cancelAnimationFrame(D.anim);
  const t0 = performance.now();
  const root = D.els.root;
  root.dataset.anim = "1"; // for tests and benches: wait until the pixels rest
  root.dataset.animStart = String(Date.now()); // the wall clock, as the bench's inputs
  performance.mark("lesson-anim-start"); // and in a trace (bench/lesson_latency.py)
  let frames = 0;
  let busy = 0;
  const tick = (now) => {
    const f = Math.min(1, (now - t0) / ms);
    if (f >= 1) delete root.dataset.anim; // the last frame draws as at rest (words, summaries)
    const a = performance.now();
    fn(f < 0.5 ? 2 * f * f : 1 - (-2 * f + 2) ** 2 / 2);
    busy += performance.now() - a;
    frames += 1;
    D.anim = f < 1 ? requestAnimationFrame(tick) : 0;
    if (!D.anim) {
      Object.assign(root.dataset, {
        animEnd: String(Date.now()),
        frames: String(frames),
        drawMs: (busy / frames).toFixed(2),
      }); // frames drawn and the mean cost of one
      performance.mark("lesson-anim-end");
      delete root.dataset.anim;
    }
  };
  D.anim = requestAnimationFrame(tick);
}

export function stopAnimation(D) {
  cancelAnimationFrame(D.anim);
  D.anim = 0;
  delete D.els.root.dataset.anim;
}
