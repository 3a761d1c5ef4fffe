/* §7 the n² cost: the cells, then time and memory measured on this machine, then the KV cache's
   counted operations. */

import { hexRgb } from "../../explorer/colour.js";
import { cellLines } from "../../explorer/draw.js";
import { penCells, penDone, penFont, penText, penWrap } from "../pen.js";
import { tx } from "../text.js";
import { roomOf, scenePen } from "../room.js";
import { defineScene, sceneCanvas } from "../kit.js";
import { askBlock, fillSide, wReadout, wSlider } from "../widgets.js";
import { decadeTicks, drawChart, logAxis, powerOfTen } from "../chart.js";

/** The one fit §7 says everywhere (chart, readout, question, takeaway): its range, the slopes of
    time and memory, the time's spread (any one round left out: timing noise), what doubling n
    multiplies on average (2^slope) and at each doubling in turn (steps: "×3.7 → ×4.4 → ×5.5"),
    all from the measured block (ui/lesson/measure.py cost_block). */
function s7Fit(b) {
  const f = (s) => (2 ** s).toFixed(1);
  const [lo, hi] = b.slope_t_spread;
  return {
    steps: b.doublings_t.map((r) => `×${r.toFixed(1)}`).join(" → "),
    from: b.fit[0],
    to: b.fit[1],
    rounds: b.rounds,
    s: b.slope_t.toFixed(2),
    t: f(b.slope_t),
    lo: lo.toFixed(2),
    hi: hi.toFixed(2),
    tlo: f(lo),
    thi: f(hi),
    sm: b.slope_m.toFixed(2),
    m: f(b.slope_m),
  };
}

// §7's question: doubling n multiplies the time by about 2, 4 or 8; the right one is the nearest
// (on a log scale) to what the measured fit says, 2^slope.
const S7_CHOICES = [
  ["x2", 2, "lesson.s7.c_x2"],
  ["x4", 4, "lesson.s7.c_x4"],
  ["x8", 8, "lesson.s7.c_x8"],
];

function s7Choices(S) {
  const b = S.D.header.blocks.cost;
  if (!b) return S7_CHOICES.map(([id, , key]) => ({ id, label: tx(S.D, key), right: null,
    why: tx(S.D, "lesson.measuring") }));
  const off = (x) => Math.abs(Math.log2(x) - b.slope_t);
  const best = Math.min(...S7_CHOICES.map(([, x]) => off(x)));
  const why = tx(S.D, "lesson.s7.why", s7Fit(b));
  return S7_CHOICES.map(([id, x, key]) => ({ id, label: tx(S.D, key), right: off(x) === best, why }));
}

export default defineScene({
  id: "s07",
  side: 0.31, // the measured step's slider, readout and answer in English at 1024 × 768
  // a phone: the measured chart takes what the step's words leave (a real height, its ticks)
  phone: (step) => (step === 1 ? 0 : step === 0 ? 0.52 : 0.9),
  title: "lesson.s7.title",
  steps: [
    { id: "cells", label: "lesson.s7.step0", caption: "lesson.s7.cap.cells",
      quiz: { question: (S) => tx(S.D, "lesson.s7.question"), choices: s7Choices } },
    { id: "measured", label: "lesson.s7.step1", caption: "lesson.s7.cap.measured" },
    { id: "kv", label: "lesson.s7.step2", caption: "lesson.s7.cap.kv" },
  ],
  takeBefore: (S) => tx(S.D, "lesson.s7.take_wait"),
  take: (S) => {
    const b = S.D.header.blocks.cost;
    if (!b) return tx(S.D, "lesson.s7.take_wait");
    return tx(S.D, roomOf(S.D).phone ? "lesson.s7.take_phone" : "lesson.s7.take", s7Fit(b));
  },
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    let pick = 3;
    return {
      draw(step) {
        const D = S.D;
        const b = D.header.blocks.cost;
        if (!b) askBlock(D, "cost"); // asked on the question's step: measured by its reveal
        S.quizBox.classList.add("row-choices"); // "about 2×, 4×, 8×" side by side
        // a phone's measured step: the chart alone, tall enough to read (no slider, no readout;
        // the question's answer and the takeaway under it say the doublings)
        const phone = roomOf(D).phone;
        const nodes = phone && step === 1 ? [] : [readout];
        if (step === 1 && b && !phone) {
          pick = Math.min(pick, b.n.length - 1);
          const sl = wSlider(
            S,
            tx(D, "lesson.s7.n"),
            b.n.length - 1,
            pick,
            (k) => {
              pick = k;
              sl.input.setAttribute("aria-valuetext", `n = ${b.n[pick]}`);
              s7Paint(S, canvas, step, pick, readout);
            },
            "s7-n",
          );
          sl.input.setAttribute("aria-valuetext", `n = ${b.n[pick]}`);
          nodes.unshift(sl.box);
        }
        fillSide(S, nodes);
        s7Paint(S, canvas, step, pick, readout);
      },
    };
  },
});

function s7Paint(S, canvas, step, pick, readout) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const b = D.header.blocks.cost;
  let alt;
  if (step === 0) alt = s7Grids(S, pen, W, H, base);
  else if (!b) {
    penText(pen, tx(D, "lesson.measuring"), W / 2, H / 2, { px: base, align: "center" });
    alt = tx(D, "lesson.measuring");
  } else if (step === 1) alt = s7Measured(S, pen, b, W, H, base, pick);
  else alt = s7Kv(S, pen, b, W, H, base);
  penDone(pen);
  canvas.setAttribute("aria-label", alt);
  readout.textContent =
    step === 0 ? s7Yours(D) : !b ? "" : step === 1 ? s7Point(D, b, pick) : s7KvSay(D, b);
}

function s7Yours(D) {
  const c = D.header.cells;
  return tx(D, "lesson.s7.yours", {
    n: c.word_n,
    cells: c.word_cells.toLocaleString("en"),
    nc: c.char_n,
    cc: c.char_cells.toLocaleString("en"),
  });
}

/** n × n cells beside 2n × 2n, each with its count: the class counts the cells itself. */
function s7Grids(S, pen, W, H, base) {
  const D = S.D;
  const n = Math.max(2, Math.min(D.header.cells.word_n || 8, 32));
  const small = Math.min((W - base * 4) / 3, (H - base * 4.5) / 2);
  const room = small * 2;
  const shades = pen.ink.squares.map(hexRgb);
  const squares = [
    [n, small, 0],
    [2 * n, room, small + base * 4],
  ];
  for (const [m, side, x] of squares) {
    penCells(pen, x, base * 0.5, side, side, m, m, (i, j) => shades[(i + j) % 2]);
    cellLines(pen.ctx, x, base * 0.5, side / m, side / m, m, m, pen.ink.grid);
    penWrap(
      pen,
      tx(D, "lesson.s7.cells", { n: m, cells: (m * m).toLocaleString("en") }),
      x,
      side + base,
      Math.max(side, base * 8),
      { px: base, weight: 600 },
    );
  }
  // n → 2n between them: the question asks what that does to the time, so no "×4" is drawn
  // before its answer (issue 39)
  penText(pen, "→", small + base * 2, base * 0.5 + small / 2, {
    px: Math.round(base * 1.4),
    align: "center",
    colour: pen.ink.warm,
    weight: 700,
  });
  return `${tx(D, "lesson.s7.cells", { n, cells: n * n })}; ${tx(D, "lesson.s7.cells", { n: 2 * n, cells: 4 * n * n })}`;
}

function s7Measured(S, pen, b, W, H, base, pick) {
  const D = S.D;
  const phone = roomOf(D).phone;
  // a phone: no heading (the caption says "measured"); the axis's title carries d = 64
  const title = phone
    ? { h: -base * 0.4, text: `${tx(D, "lesson.s7.measured")}d = ${b.d}` }
    : s7Title(pen, tx(D, "lesson.s7.measured"), `d = ${b.d}`, W, base);
  const top = title.h + base * 0.4;
  const fit = s7Fit(b);
  const charts = [
    ["ms", "lesson.s7.ms", fit.s, b.fit_ms, pen.ink.accent],
    ["mib", "lesson.s7.mib", fit.sm, b.fit_mib, pen.ink.warm],
  ].slice(0, phone ? 1 : 2); // a phone: time alone (its memory is in the readout)
  const cw = (W - base * (charts.length - 1)) / charts.length;
  charts.forEach(([key, name, slope, line, colour], k) => {
    const box = { x: k * (cw + base), y: top, w: cw, h: H - top };
    const m = { ys: b[key], n: b.n, name, slope, line, fit: b.fit, colour, pick, d: phone ? b.d : null };
    s7Chart(S, pen, box, m, base);
  });
  const rows = b.n.map((n, k) => `n ${n}: ${b.ms[k].toFixed(2)} ms, ${b.mib[k].toFixed(2)} MiB`);
  return `${title.text}: ${rows.join(tx(D, "explorer.sep"))}. ${tx(D, "lesson.s7.fit", fit)}`;
}

/** The chart's heading on one line, or wrapped with its "d = 64" on a line of its own (never cut
    in two). */
function s7Title(pen, words, tail, W, base) {
  const o = { px: base, weight: 600, base: "top" };
  const text = `${words}${tail}`;
  pen.ctx.font = penFont(pen, base, 600);
  if (pen.ctx.measureText(text).width <= W) {
    penText(pen, text, 0, 0, o);
    return { h: base * 1.25, text };
  }
  const h = penWrap(pen, words, 0, 0, W, o);
  penText(pen, tail, 0, h, o);
  return { h: h + base * 1.25, text };
}

/** One log-log chart of a measurement against n: the measured points, the fitted line over the
    fit's range (dashed, named by its slope), n = pick ringed. */
function s7Chart(S, pen, box, m, base) {
  const lo = Math.min(...m.ys) / 2;
  const hi = Math.max(...m.ys) * 2;
  const spec = {
    x: logAxis(m.n, "n", 1.4),
    y: { ...logAxis([lo, hi], tx(S.D, m.name) + (m.d ? ` · d = ${m.d}` : ""), 1), ticks: decadeTicks(lo, hi) },
    series: [
      { xs: m.n, ys: m.ys, colour: m.colour, marks: true, width: 1.5 },
      { xs: m.fit, ys: m.line, colour: pen.ink.text, width: 2, dash: [7, 5],
        label: tx(S.D, "lesson.s7.slope", { s: m.slope, from: m.fit[0], to: m.fit[1] }) },
    ],
  };
  const sc = drawChart(pen, box, spec, base);
  pen.ctx.beginPath();
  pen.ctx.arc(sc.sx(m.n[m.pick]), sc.sy(m.ys[m.pick]), 11, 0, 2 * Math.PI);
  pen.ctx.lineWidth = 3;
  pen.ctx.strokeStyle = pen.ink.text;
  pen.ctx.stroke();
}

/** The point on the slider, then the fit every number of the scene comes from. */
function s7Point(D, b, k) {
  const here = `n = ${b.n[k]}: ${b.ms[k].toFixed(2)} ms · ${b.mib[k].toFixed(2)} MiB`;
  if (roomOf(D).phone) return here; // a phone: the fit is the chart's legend and the takeaway's
  return `${here}\n${tx(D, "lesson.s7.fit", s7Fit(b))}`;
}

function s7Kv(S, pen, b, W, H, base) {
  const D = S.D;
  const lo = Math.min(...b.kv_with) / 2;
  const hi = Math.max(...b.kv_without) * 2;
  const title = tx(D, "lesson.s7.kv", { d: b.d });
  const ink = pen.ink;
  const ticks = decadeTicks(lo, hi).filter((_, k) => k % 2 === 0);
  const spec = {
    x: logAxis(b.kv_t, "t", 1.4),
    y: { ...logAxis([lo, hi], title, 1), ticks },
    series: [
      { xs: b.kv_t, ys: b.kv_without, colour: ink.warm, marks: true, label: tx(D, "lesson.s7.kv_without") },
      { xs: b.kv_t, ys: b.kv_with, colour: ink.accent, marks: true, label: tx(D, "lesson.s7.kv_with") },
    ],
  };
  spec.y.ticks = spec.y.ticks.map(([v]) => [v, powerOfTen(Math.round(Math.log10(v)))]);
  drawChart(pen, { x: 0, y: 0, w: W, h: H }, spec, base);
  return `${title}. ${s7KvSay(D, b)}`;
}

function s7KvSay(D, b) {
  const r = b.kv_without.at(-1) / b.kv_with.at(-1);
  return tx(D, "lesson.s7.kv_ratio", { t: b.kv_t.at(-1), r: Math.round(r).toLocaleString("en") });
}
