/* §5 why √d_k: var(q·k) measured against d_k and why it is d_k (a sum of d_k independent
   products of variance 1, measured), predict-then-reveal on the focus row (one map: without
   ÷√d_k, a tap switches to with), why a saturated row stops learning (the softmax's gradient on
   that row, measured both ways), then the τ sweep on the map (played when → reaches it). The
   steps "why" and "grad" are whystep.js's. */

import { rowSpread } from "../../explorer/softmax.js";
import { penDone, penLine, penTry } from "../pen.js";
import { make } from "../elements.js";
import { tx } from "../text.js";
import { arr, divisorOf, focusIn, weightsOf } from "../numbers.js";
import { roomOf, scenePen } from "../room.js";
import { animate } from "../animate.js";
import { defineScene, sceneCanvas } from "../kit.js";
import { fillSide, pctText, setLocal, wButton, wReadout, wSlider, wSwitch } from "../widgets.js";
import { NO_JOB, sceneView, viewHeader } from "../views.js";
import { decadeTicks, drawChart, logAxis } from "../chart.js";
import { paintGrad, paintWhy, varianceOr } from "../whystep.js";

function s5Tau(S, part) {
  return S.local.tau ?? divisorOf(S, part);
}

/** The focus row with √d_k and without in one head, and what happened to it (sharper, flatter,
    the same). The head: the scene's chosen one, else where scaling changes this row most. */
function s5Judge(S) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const i = focusIn(S, part);
  const spread = (k, tau) => rowSpread(weightsOf(D, part, k, tau, S.local.causal), n, i);
  const change = (k) => Math.abs(spread(k, Math.sqrt(part.d_k)).entropy - spread(k, 1).entropy);
  let head = S.local.head;
  if (head === null || head === undefined || head >= part.h) {
    head = 0;
    for (let k = 1; k < part.h; k++) if (change(k) > change(head) + 1e-9) head = k;
  }
  const on = spread(head, Math.sqrt(part.d_k));
  const off = spread(head, 1);
  let verdict = "same";
  if (off.entropy < on.entropy - 0.15) verdict = "sharp";
  else if (off.entropy > on.entropy + 0.15) verdict = "flat";
  return { i, head, on, off, verdict };
}

const S5_CHOICES = [
  ["sharp", "lesson.s5.c_sharp"],
  ["flat", "lesson.s5.c_flat"],
  ["same", "lesson.s5.c_same"],
];


const S5_STEPS = [
  { id: "variance", label: "lesson.s5.step0", caption: "lesson.s5.cap.variance" },
  { id: "why", label: "lesson.s5.step_why", caption: "lesson.s5.cap.why" },
  {
    id: "ask",
    label: "lesson.s5.step1",
    caption: "lesson.s5.cap.ask",
    quiz: {
      question: (S) => tx(S.D, "lesson.s5.question", { q: S.part.tokens[focusIn(S, S.part)].t }),
      choices: (S) => {
        const j = s5Judge(S);
        const why = tx(S.D, "lesson.s5.why", {
          q: S.part.tokens[j.i].t,
          m1: pctText(j.on.top),
          m0: pctText(j.off.top),
          h1: j.on.entropy.toFixed(2),
          h0: j.off.entropy.toFixed(2),
        });
        const right = (v) => v === j.verdict;
        return S5_CHOICES.map(([v, key]) => ({ id: v, label: tx(S.D, key), right: right(v), why }));
      },
    },
  },
  { id: "reveal", label: "lesson.s5.step2", caption: "lesson.s5.cap.reveal", set: { scale: false } },
  { id: "grad", label: "lesson.s5.step_grad", caption: "lesson.s5.cap.grad" },
  { id: "tau", label: "lesson.s5.step3", caption: "lesson.s5.cap.tau", set: { scale: true } },
];

export default defineScene({
  id: "s05",
  title: "lesson.s5.title",
  // a phone: every step's figure takes what its words leave of the screen (room.js figureBox),
  // so nothing reaches under the step bar; the map's cells stay ≥ 10 px (tests)
  words: (S) => ({ d: S.part.d_k }),
  steps: S5_STEPS,
  // a phone's question step: the map, the question and its choices fill the screen; the line
  // comes back on the steps around it
  takeBefore: (S) =>
    roomOf(S.D).phone && S.steps[S.D.step]?.id === "ask" ? "" : tx(S.D, "lesson.s5.take_before"),
  take: (S) => tx(S.D, roomOf(S.D).phone ? "lesson.s5.take_phone" : "lesson.s5.take"), // a phone: short
  mount: (S) => s5Mount(S),
});

function s5Mount(S) {
  const D = S.D;
  const readout = wReadout(S, "lesson-readout");
  const fig = { views: [], kind: "", said: 0 }; // said: when the readout last changed
  const paint = (step) => {
    const { i, head } = s5Judge(S);
    const id = S.steps[step].id;
    s5Figure(S, fig, id, head);
    const canvas = S.figure.querySelector("canvas");
    if (id === "variance") return s5Chart(S, canvas, readout);
    if (id === "why") return paintWhy(S, canvas, readout);
    if (id === "grad") return paintGrad(S, canvas, readout, i, head); // the question's row, head
    const still = D.els.root.dataset.anim === undefined; // at rest (or the animation's last frame)
    s5Maps(S, fig, id, head);
    if (still || performance.now() - fig.said > 120) {
      fig.said = performance.now(); // mid-sweep the words follow at 8 Hz
      s5Stats(S, readout, id, i, head);
    }
  };
  return {
    draw(step, from) {
      const id = S.steps[step].id;
      if (id === "reveal") {
        const other = tx(D, S.local.scale ? "lesson.s5.flip_off" : "lesson.s5.flip_on");
        const flip = () => setLocal(S, { scale: !S.local.scale, tau: null });
        const phone = roomOf(D).phone;
        fillSide(S, [wButton(S, other, flip, "s5-flip", "primary"), ...(phone ? [] : [readout])]);
        paint(step);
        return;
      }
      if (id !== "tau") {
        const phone = roomOf(D).phone; // there the quiz says the same: no room for it twice
        fillSide(S, phone && (id === "ask" || id === "reveal") ? [] : [readout]);
        paint(step);
        return;
      }
      const repaint = () => paint(step);
      const c = s5Controls(S, repaint, readout, () => s5Sweep(S, c.map, c.slider, repaint));
      fillSide(S, c.nodes);
      paint(step);
      if (from === step - 1) s5Sweep(S, c.map, c.slider, repaint); // → into the step plays the sweep
    },
    destroy: () => fig.views.forEach((v) => v.destroy()),
  };
}

const S5_CANVAS = ["variance", "why", "grad"]; // steps drawn on a canvas; the others: one map

/** The figure of a step: a canvas (the variance chart, the why, the gradient) or one map (the
    attention view showing the head the question is about). */
function s5Figure(S, fig, id, head) {
  const drawn = S5_CANVAS.includes(id);
  const want = drawn ? `canvas-${id}` : `map-${head}`;
  if (want === fig.kind) return;
  fig.kind = want;
  fig.views.forEach((v) => v.destroy());
  fig.views = [];
  S.figure.replaceChildren();
  if (drawn) {
    sceneCanvas(S);
    return;
  }
  const row = make(S.doc, "div", "one");
  S.figure.append(row);
  const cell = make(S.doc, "div");
  row.append(cell);
  fig.views.push(sceneView(S, cell, S.part, [head]));
}

/** The map: with √d_k (the question), with or without (the answer: a tap switches), at τ (the
    sweep): the view divides the scores itself (softmax.js, tested against the core). */
function s5Maps(S, fig, id, head) {
  const D = S.D;
  const part = S.part;
  const root = Math.sqrt(part.d_k);
  const formula = tx(D, "lesson.s5.map");
  const causal = S.local.causal;
  const on = S.local.scale;
  // τ is taught at the last step: before it the maps speak of √d_k alone (issue 39)
  const rootIs = `√d_k = ${root.toFixed(2)}`;
  const [state, label] =
    id === "reveal"
      ? [{ tau: on ? root : 1 }, on ? `${tx(D, "lesson.scale_on")} · ${rootIs}` : tx(D, "lesson.scale_off")]
      : id === "ask"
        ? [{ tau: root }, roomOf(D).phone ? rootIs : `${tx(D, "lesson.s5.map_root")} · ${rootIs}`]
        : [{ tau: s5Tau(S, part) }, s5TauLabel(S, formula)]; // τ moves: the readout says its value
  const jobs = Array.from({ length: part.h }, (_, x) => (x === head ? { label } : NO_JOB));
  const o = { digest: `${part.prefix}scores|${label}`, jobs, state: { ...state, causal }, numbers: true };
  fig.views[0].fit(S.box.w, S.box.h);
  fig.views[0].show(s5Readable(D, viewHeader(S, part, o)), arr(D, `${part.prefix}scores`));
}

/** The τ step's map title: the formula; on a phone, which has no room for the readout, τ's value. */
function s5TauLabel(S, formula) {
  if (!roomOf(S.D).phone) return formula;
  const root = Math.sqrt(S.part.d_k);
  return tx(S.D, "lesson.s5.tau_value", { v: s5Tau(S, S.part).toFixed(2), s: root.toFixed(2) });
}

/** Numbers in cells: on a projector ≥ 20 px or none (read from the back row); on a phone
    ≥ 14 px or none (no text on a phone is smaller). */
function s5Readable(D, header) {
  const fonts = header.palette.fonts;
  const cellMin = roomOf(D).phone ? 14 : Math.max(20, fonts.room.cell_min || 0);
  return { ...header, palette: { ...header.palette, fonts: { ...fonts, room: { ...fonts.room, cell_min: cellMin } } } };
}

function s5Stats(S, readout, id, i, head) {
  const D = S.D;
  const part = S.part;
  const q = part.tokens[i].t;
  const root = Math.sqrt(part.d_k);
  const spread = (tau) => rowSpread(weightsOf(D, part, head, tau, S.local.causal), part.n, i);
  if (id === "reveal") {
    const line = (key, tau) => {
      const r = spread(tau);
      return `${tx(D, key)}: ${tx(D, "lesson.s5.stats", { q, m: pctText(r.top), h: r.entropy.toFixed(2) })}`;
    };
    readout.textContent = `${line("lesson.scale_on", root)}\n${line("lesson.scale_off", 1)}`;
    return;
  }
  if (id === "ask") { // before the reveal: the row's top share (熵 and τ come with the answer)
    readout.textContent = tx(D, "lesson.s5.top", { q, m: pctText(spread(root).top) });
    return;
  }
  const tau = s5Tau(S, part);
  const r = spread(tau);
  const stats = tx(D, "lesson.s5.stats", { q, m: pctText(r.top), h: r.entropy.toFixed(2) });
  const value = tx(D, "lesson.s5.tau_value", { v: tau.toFixed(2), s: root.toFixed(2) });
  readout.textContent = `${value}\n${stats}`;
}

/** τ on a log scale from 1 to 4·√d_k (√d_k lands in the middle), as the main page's slider. */
function s5Slider(part) {
  const top = Math.log(4 * Math.sqrt(part.d_k));
  return {
    toTau: (p) => Math.exp((p / 1000) * top),
    toPos: (tau) => Math.round((1000 * Math.log(tau)) / top),
  };
}

/** The τ step's controls: the √d_k switch, the τ slider, ▶ Sweep τ (sweep()), the readout. */
function s5Controls(S, repaint, readout, sweep) {
  const D = S.D;
  const part = S.part;
  const map = s5Slider(part);
  const onScale = (checked) => setLocal(S, { scale: checked, tau: null });
  const onTau = (pos) => {
    S.local.tau = map.toTau(pos);
    slider.input.setAttribute("aria-valuetext", `τ = ${S.local.tau.toFixed(2)}`);
    repaint();
  };
  const on = S.local.scale && S.local.tau === null;
  const scale = wSwitch(S, tx(D, "lesson.s5.switch"), on, onScale, "s5-scale");
  const at = map.toPos(s5Tau(S, part));
  const slider = wSlider(S, tx(D, "lesson.s5.tau"), 1000, at, onTau, "s5-tau");
  const go = wButton(S, tx(D, "lesson.s5.sweep"), sweep, "s5-sweep", "primary");
  const phone = roomOf(D).phone; // its map's title says τ: the readout's room goes to the map
  return { nodes: [scale, slider.box, go, ...(phone ? [] : [readout])], slider, map };
}

/** ▶ Sweep τ: down to 1 (sharp), up to 4·√d_k (flat), back to √d_k, in 3.2 s; then τ follows
    the √d_k switch again. */
function s5Sweep(S, map, slider, repaint) {
  const D = S.D;
  const home = map.toPos(Math.sqrt(S.part.d_k));
  const legs = [
    [map.toPos(s5Tau(S, S.part)), 0, 0.25],
    [0, 1000, 0.5],
    [1000, home, 0.25],
  ];
  animate(D, 3200, (p) => {
    let t = p;
    let pos = home;
    for (const [a, b, share] of legs) {
      if (t <= share) {
        pos = a + (b - a) * (t / share);
        break;
      }
      t -= share;
    }
    S.local.tau = p >= 1 ? null : map.toTau(pos);
    slider.input.value = String(Math.round(pos));
    repaint();
  });
}

function s5Chart(S, canvas, readout) {
  const drawn = scenePen(S, canvas);
  const { D, W, H, base, pen } = drawn;
  const block = varianceOr(drawn, canvas, readout);
  if (!block) return;
  const lo = Math.min(...block.scaled) * 0.5;
  const hi = Math.max(...block.raw) * 1.6;
  const ink = pen.ink;
  const spec = {
    x: logAxis(block.d_k, "d_k", 1.3),
    y: { ...logAxis([lo, hi], tx(D, "lesson.s5.var", { m: block.samples }), 1), ticks: decadeTicks(lo, hi) },
    series: [
      { xs: block.d_k, ys: block.d_k, colour: ink.line, dash: [8, 6], label: tx(D, "lesson.s5.line") },
      { xs: block.d_k, ys: block.raw, colour: ink.accent, marks: true, label: tx(D, "lesson.s5.raw") },
      { xs: block.d_k, ys: block.scaled, colour: ink.warm, marks: true, label: tx(D, "lesson.s5.scaled") },
    ],
  };
  const at = drawChart(pen, { x: 0, y: 0, w: W, h: H }, spec, base);
  const d = S.part.d_k; // the sentence's d_k, the one its maps use: marked, and read out
  const k = block.d_k.indexOf(d);
  if (d >= block.d_k[0] && d <= block.d_k[block.d_k.length - 1]) {
    penLine(pen, at.sx(d), at.top, at.sx(d), at.bottom, ink.text, 2, [4, 4]);
    const mark = { px: base, align: "left", base: "top", weight: 700 };
    const says = tx(D, "lesson.s5.here", { d });
    if (!penTry(pen, says, at.sx(d) + 6, at.top, mark)) penTry(pen, says, at.sx(d) + 6, at.top + base * 2.4, mark);
  }
  penDone(pen);
  readout.textContent = k < 0 ? "" : tx(D, "lesson.s5.at_d", {
    d, raw: block.raw[k].toFixed(1), scaled: block.scaled[k].toFixed(2),
  });
  canvas.setAttribute(
    "aria-label",
    `${spec.y.title}. ${block.d_k.map((d, j) => `d_k ${d}: ${block.raw[j].toFixed(1)} / ${block.scaled[j].toFixed(2)}`).join(tx(D, "explorer.sep"))}`,
  );
}
