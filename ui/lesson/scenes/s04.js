/* §4 the formula, four steps morphing into one another on the sentence's real numbers
   (Q·Kᵀ → ÷√d_k → softmax → ·V), one head, the focus row's numbers beside; softmax opened up on
   the focus row (exp(x) / sum(exp(x)), the article's line, with that row's numbers) between ③ and
   ④; then all four played in a row (a step of its own, so a presenter's → reaches it). ③′ is
   expstep.js's, ④'s A · V beside the map mixstep.js's, the step "cell" cellstep.js's. */

import { mapGeometry } from "../../explorer/layout.js";
import { penDone, penInkOn, penMap, penMeasure, penText, penWrap, rampRgb } from "../pen.js";
import { rankRow } from "../arith.js";
import { tx } from "../text.js";
import { arr, divisorOf, focusIn } from "../numbers.js";
import { labelsOf } from "../labels.js";
import { fontsOf, roomOf, scenePen } from "../room.js";
import { animate, reducedMotion, stopAnimation } from "../animate.js";
import { defineScene, headWeights, pickHead, sceneCanvas, softmaxExample } from "../kit.js";
import { goStep, sceneText } from "../stage.js";
import { fillSide, headPicker, pctText, setLocal, wButton, wReadout } from "../widgets.js";
import { CELL_STEP, cellStep } from "../cellstep.js";
import { EXP_STEP, paintExp } from "../expstep.js";
import { paintMix, paintMixPhone, roomBesideV } from "../mixstep.js";

/** Step ②'s name: ÷√d_k with its value, or ÷1 with the scene's scaling off. */
function s4Second(S) {
  const root = Math.sqrt(S.part.d_k).toFixed(2);
  return S.local.scale ? tx(S.D, "lesson.s4.step1", { s: root }) : tx(S.D, "lesson.s4.step1_off");
}

const S4_STEPS = [
  { id: "scores", label: "lesson.s4.step0", caption: "lesson.s4.cap.scores" },
  { id: "scaled", label: s4Second, caption: "lesson.s4.cap.scaled" },
  { id: "softmax", label: "lesson.s4.step2", caption: "lesson.s4.cap.softmax" },
  { id: "mix", label: "lesson.s4.step3", caption: "lesson.s4.cap.mix" },
];

/** Steps with a figure of their own (not one of the four matrices), by step id: ③′, softmax
    opened up on the focus row between ③ and ④ (expstep.js). */
const S4_OWN = { exp: (S, canvas, readout) => paintExp(S, canvas, readout) };

/** On a phone, the figure's height × its width: ③'s map holds its numbers (cells ≥ 19 px);
    ③′'s table and the cell take the screen's rest. */
const S4_PHONE = { softmax: 1.2, exp: 0, cell: 0 };

const S4_SCENE_STEPS = [
  ...S4_STEPS.slice(0, 3),
  EXP_STEP, // ③′ softmax opened up on the focus row (expstep.js)
  S4_STEPS[3],
  { id: "play", label: "lesson.s4.step_play", caption: "lesson.s4.cap.play" },
  CELL_STEP, // one score taken apart (cellstep.js)
];

/** ②'s claim measured: the variance of this sentence's n × n raw scores in the head shown
    (data.py qk_spread) and after ÷√d_k, which divides it by d_k; with scaling off, unchanged. */
function s4Variance(S) {
  const part = S.part;
  const head = pickHead(S, part, focusIn(S, part));
  const raw = part.spread.s[head];
  const div = divisorOf(S, part);
  const fmt = { head: head + 1, a: raw.toFixed(2), b: (raw / div / div).toFixed(2), d: part.d_k };
  return tx(S.D, S.local.scale ? "lesson.s4.var" : "lesson.s4.var_off", fmt);
}

/** The matrix step (index into S4_STEPS) the scene's step k shows: the play step ends on ④; -1
    for a step with a figure of its own (S4_OWN). */
function s4Stage(S, k) {
  const id = S.steps[k].id;
  return id === "play" ? S4_STEPS.length - 1 : S4_STEPS.findIndex((s) => s.id === id);
}

/** The numpy line of each matrix step, as run with the scene's √d_k and mask (pages/lesson.py). */
function s4Lines(S) {
  return S.D.header.numpy[`${Number(S.local.scale)}|${Number(S.local.causal)}`];
}

/** The name of the matrix step k (0 … 3) shows. */
function s4Name(S, k) {
  return sceneText(S, S4_STEPS[k].label);
}

export default defineScene({
  id: "s04",
  phone: (k) => S4_PHONE[S4_SCENE_STEPS[k]?.id] ?? 1, // ③′'s table, the cell: the screen's rest
  title: "lesson.s4.title",
  steps: S4_SCENE_STEPS,
  words: (S) => ({ q: S.part.tokens[focusIn(S, S.part)].t, v: s4Variance(S) }),
  take: (S) => { // a phone: the short words (one screen, nothing under the step bar)
    const keys = roomOf(S.D).phone ? ["lesson.s4.take_phone", "lesson.s4.take_off_phone"] : ["lesson.s4.take", "lesson.s4.take_off"];
    return tx(S.D, keys[S.local.scale ? 0 : 1]);
  },
  terms: (S) => ({ softmax: softmaxExample(S, S.part) }), // the glossary's example, this row
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const cell = cellStep(S); // the step "cell" draws itself
    const readout = wReadout(S, "lesson-readout");
    let shown = { from: 0, to: 0, p: 1 };
    const kept = { key: "", gFull: null, gSmall: null, full: null, small: null }; // s4Geometry
    const paint = () => s4Paint(S, canvas, shown, readout, kept);
    const morph = (from, to, ms = 650) => {
      shown = { from, to, p: 0 };
      animate(S.D, ms, (p) => {
        shown.p = p;
        paint();
      });
    };
    const play = () => {
      let k = reducedMotion(S.D) ? 2 : 0; // reduced motion: straight to the last stage, at rest
      shown = { from: 0, to: 0, p: 1 };
      const stepOn = () => {
        if (k >= 3 || S.D.ctx !== S || S.steps[S.D.step].id !== "play") return; // left meanwhile
        k += 1;
        shown = { from: k - 1, to: k, p: 0 };
        animate(S.D, 900, (p) => {
          shown.p = p;
          paint();
          if (p >= 1) setTimeout(stepOn, 350);
        });
      };
      stepOn();
    };
    const replay = () => (S.steps[S.D.step].id === "play" ? play() : goStep(S, "play"));
    return {
      draw(step, from) {
        if (cell.draw(step)) return;
        const part = S.part;
        const i = focusIn(S, part);
        const head = pickHead(S, part, i);
        fillSide(S, [
          wButton(S, tx(S.D, "lesson.s4.play"), replay, "s4-play", "primary"),
          part.h > 1 ? headPicker(S, part, head, (k) => setLocal(S, { head: k }), roomOf(S.D).phone) : null,
          roomOf(S.D).phone && !S4_OWN[S.steps[step].id] ? null : readout, // a phone: the map's own
        ]);
        const own = S4_OWN[S.steps[step].id];
        if (own) {
          stopAnimation(S.D);
          own(S, canvas, readout);
          return;
        }
        const to = s4Stage(S, step);
        const was = from === null || Math.abs(step - from) !== 1 ? -1 : s4Stage(S, from);
        if (S.steps[step].id === "play" && from !== null && from !== step) play();
        else if (was >= 0 && Math.abs(to - was) === 1) morph(was, to);
        else {
          shown = { from: to, to, p: 1 };
          paint();
        }
      },
    };
  },
});

/** The matrices of each step for the head: colour of cell (i, j), its number, and the ramp. */
function s4Layers(S, part, head) {
  const D = S.D;
  const n = part.n;
  const raw = arr(D, `${part.prefix}scores`).subarray(head * n * n, (head + 1) * n * n);
  let limit = 1e-9;
  for (const v of raw) limit = Math.max(limit, Math.abs(v));
  const div = divisorOf(S, part);
  const w = headWeights(S, part, head);
  const masked = (i, j) => S.local.causal && j > i;
  const signed = (f) => (i, j) => rampRgb(D.luts.signed, f(i, j), -limit, limit);
  return [
    {
      colour: signed((i, j) => raw[i * n + j]),
      value: (i, j) => raw[i * n + j].toFixed(1),
      widest: `-${limit.toFixed(1)}`,
      raw,
      limit,
    },
    {
      colour: signed((i, j) => raw[i * n + j] / div),
      value: (i, j) => (raw[i * n + j] / div).toFixed(1),
      widest: `-${(limit / div).toFixed(1)}`,
    },
    {
      colour: (i, j) => (masked(i, j) ? null : rampRgb(D.luts.weight, w[i * n + j], 0, 1)),
      value: (i, j) => (masked(i, j) ? null : String(Math.round(w[i * n + j] * 100))),
      widest: "100",
    },
    { colour: (i, j) => (masked(i, j) ? null : rampRgb(D.luts.weight, w[i * n + j], 0, 1)) },
  ].map((layer) => ({ ...layer, w }));
}

function s4Paint(S, canvas, shown, readout, kept) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const part = S.part;
  const fonts = fontsOf(D);
  const i = focusIn(S, part);
  const head = pickHead(S, part, i);
  const layers = s4Layers(S, part, head);
  const to = shown.to;
  const lines = s4Lines(S);
  const top = s4Heading(S, pen, to, lines, W, base);
  const { gFull, gSmall, full, small } = s4Geometry(S, kept, W, H - top, fonts);
  const into3 = to === 3 ? (shown.from === 3 ? 1 : shown.p) : shown.from === 3 ? 1 - shown.p : 0;
  const labels = into3 > 0 ? small : full;
  if (into3 > 0 && roomOf(D).phone) {
    paintMixPhone(S, pen, { top, W, H, base, labels }, head, layers[2].w, into3);
    penDone(pen);
    s4Words(S, canvas, readout, to, head, layers, i);
    return;
  }
  const g0 = into3 > 0 ? gSmall : gFull;
  const dy = top + (into3 > 0 ? base * 1.4 : 0);
  const g = { ...g0, top: g0.top + dy, height: g0.height + dy }; // the map's place in the figure
  const a = layers[Math.min(shown.from, 2)];
  const b = layers[Math.min(to, 2)];
  const p = shown.p;
  const rgb = (r, c) => s4Blend(a.colour(r, c), b.colour(r, c), p);
  const numbers = p >= 1 && to <= 2 ? s4Numbers(pen, layers[to]) : null;
  const causal = S.local.causal && Math.min(shown.from, to) >= 2;
  const axes = { query: tx(D, "main.query_axis"), key: tx(D, "main.key_axis") };
  const cellMin = roomOf(D).phone ? S4_PHONE_CELL_MIN : Math.max(fonts.cellMin, S4_ROOM_CELL_MIN);
  penMap(pen, g, { rgb, labels, axes, keep: i, fonts: { ...fonts, cellMin }, causal, numbers });
  if (into3 > 0) paintMix(S, pen, g, head, layers[2].w, into3, base);
  penDone(pen);
  s4Words(S, canvas, readout, to, head, layers, i);
}

/** Numbers in cells: on a projector ≥ 20 px or none (read from the back row; the focus row's
    are at ③′ in full size); on a phone ≥ 14 px or none (no text on a phone is smaller, issue 39:
    the focus row's shares are at ③′, the next step, in full size). */
const S4_ROOM_CELL_MIN = 20;
const S4_PHONE_CELL_MIN = 14;

/** The step's name and its numpy line: on one line when every matrix step's pair fits the width
    (so the map keeps its place from step to step and gains a line of room), else one under the
    other. Returns where the map may start. */
function s4Heading(S, pen, to, lines, W, base) {
  const phone = roomOf(S.D).phone; // narrow: smaller, and every word still on screen
  const name = { px: Math.round(base * (phone ? 1 : 1.15)), weight: 700 };
  const code = { px: phone ? Math.round(base * 0.8) : base, base: "top", mono: true, colour: pen.ink.muted };
  const gap = base * 1.5;
  const width = (k) => penMeasure(pen, s4Name(S, k), 0, 0, name)[2] + gap + penMeasure(pen, lines[k], 0, 0, code)[2];
  if (S4_STEPS.every((_, k) => width(k) <= W)) {
    penText(pen, s4Name(S, to), 0, 0, { ...name, base: "top" });
    const x = penMeasure(pen, s4Name(S, to), 0, 0, name)[2] + gap;
    penText(pen, lines[to], x, (name.px - code.px) * 0.6, code);
    return name.px * 1.25 + 8;
  }
  const titleH = penWrap(pen, s4Name(S, to), 0, 0, W, name);
  penText(pen, lines[to], 0, titleH + 4, code);
  return titleH + code.px * 1.6 + 8;
}

/** A cell's colour between two steps' (null: masked in both). */
function s4Blend(ca, cb, p) {
  if (!ca && !cb) return null;
  const x = ca || cb;
  const y = cb || ca;
  return [0, 1, 2].map((k) => x[k] + (y[k] - x[k]) * p);
}

/** The numbers of a step's cells, each in the ink its colour needs (the palette's rule). */
function s4Numbers(pen, layer) {
  if (!layer.value) return null;
  return {
    text: layer.value,
    widest: layer.widest,
    ink: (i, j) => {
      const c = layer.colour(i, j);
      return c ? penInkOn(pen, c) : pen.ink.mark_outer;
    },
  };
}

/** The map's geometry alone (steps ①–③) and beside V (step ④: the focus row of O under V), kept
    while the room and the labels stay (in `kept`, the scene's own): a morph repaints cells, not
    the layout. */
function s4Geometry(S, kept, w, h, fonts) {
  const part = S.part;
  const words = part.tokens.map((t) => t.t).join("\u0000");
  const key = JSON.stringify([words, S.D.header.lang, w, h, fonts]);
  if (kept.key === key) return kept;
  const ctx = S.doc.createElement("canvas").getContext("2d");
  const full = labelsOf(S.D, part, { w, h }); // ①–③'s labels; ④'s for its narrower room
  const gFull = mapGeometry(ctx, full, w, h, fonts);
  const small = labelsOf(S.D, part, { w: roomBesideV(part, w, gFull.left), h: h - fonts.label * 1.4 });
  const left = mapGeometry(ctx, small, w, h, fonts).left;
  const room = h - fonts.label * 1.4; // ④'s "A" and "V" above the map
  let maxH = room;
  let gSmall = mapGeometry(ctx, small, roomBesideV(part, w, left), maxH, fonts);
  for (let k = 0; k < 4; k++) {
    // O's focus row and its words under V (mixstep.js paintMix) stay inside the figure too
    const over = s4MixBelow(gSmall, fonts.label) - room;
    if (over <= 0) break;
    maxH -= Math.ceil(over);
    gSmall = mapGeometry(ctx, small, roomBesideV(part, w, left), maxH, fonts);
  }
  return Object.assign(kept, { key, gFull, gSmall, full, small });
}

/** How far below a map's origin (geometry g) step ④'s last line ends: mixstep.js paintMix puts
    O's focus row under V, a cell and max(8, cell / 2) below the map, then its words (a line of
    `base` px). */
function s4MixBelow(g, base) {
  const c = g.cell;
  return g.top + g.n * c + Math.max(8, c / 2) + c + 4 + base * 1.25;
}

function s4Words(S, canvas, readout, step, head, layers, i) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const w = layers[0].w;
  const order = rankRow(w, n, i)
    .slice(0, 4)
    .filter((j, r) => r === 0 || step < 2 || w[i * n + j] >= 0.01);
  const row = i * n;
  const raw = layers[0].raw;
  const div = divisorOf(S, part);
  const fmtOf = [
    (j) => raw[row + j].toFixed(2),
    (j) => (raw[row + j] / div).toFixed(2),
    (j) => pctText(w[row + j]),
  ];
  const head1 = tx(D, "lesson.s4.row", { q: part.tokens[i].t });
  const listed = (sep) => `${head1}: ${order.map((j) => `${part.tokens[j].t} ${fmtOf[step](j)}`).join(sep)}`;
  let text = step <= 2 ? listed(" · ") : tx(D, "lesson.s4.out", { n, d: part.d_k });
  if (step === 2) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += w[row + j];
    text += ` (${tx(D, "lesson.s4.sum", { v: sum.toFixed(3) })})`;
  }
  readout.textContent = text;
  const rows = step <= 2 ? listed(tx(D, "explorer.sep")) : "";
  const lines = s4Lines(S);
  const name = `${s4Name(S, step)} (${lines[step]})`; // the numpy line too: what a reader would run
  canvas.setAttribute(
    "aria-label",
    tx(D, "lesson.s4.alt", { head: head + 1, name, n, m: step === 3 ? part.d_k : n, rows }),
  );
}
