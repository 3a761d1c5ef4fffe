/* §10 why attention won: every row at once beside an RNN's chain, and the pronoun head learning
   by gradient descent. */

import { mapGeometry } from "../../explorer/layout.js";
import { penArrow, penDone, penLine, penMap, penTry, penWrap, rampRgb } from "../pen.js";
import { tx } from "../text.js";
import { focusIn } from "../numbers.js";
import { labelsOf } from "../labels.js";
import { fontsOf, roomOf, scenePen } from "../room.js";
import { animate } from "../animate.js";
import { defineScene, headWeights, pickHead, sceneCanvas } from "../kit.js";
import { fillSide, pctText, wButton, wReadout, wWhich } from "../widgets.js";
import { drawChart } from "../chart.js";

export default defineScene({
  id: "s10",
  // phone: none: on a phone the chain, the map or the curve fills the screen's rest
  side: 0.22,
  local: { which: 0 }, // a phone's figure at the first step: 0 the RNN's chain, 1 the map
  title: "lesson.s10.title",
  steps: [
    { id: "parallel", label: "lesson.s10.step0", caption: "lesson.s10.cap.parallel" },
    { id: "learned", label: "lesson.s10.step1", caption: "lesson.s10.cap.learned" },
  ],
  take: (S) => tx(S.D, "lesson.s10.take"),
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    let t = 1;
    const race = () => {
      const n = S.part.n;
      animate(S.D, Math.max(1500, 140 * n), (p) => {
        t = p;
        s10Paint(S, canvas, 0, t, readout);
      });
    };
    return {
      draw(step, from) {
        const phone = roomOf(S.D).phone;
        const play = step === 0 ? wButton(S, tx(S.D, "lesson.s10.play"), race, "s10-play", "primary") : null;
        readout.hidden = step === 0 && phone; // the figure's own headings say it there
        const which = step === 0 && phone // the phone's one figure: the chain or the map
          ? wWhich(S, "s10-which", tx(S.D, "lesson.s10.which"),
            [tx(S.D, "lesson.s10.which_rnn"), tx(S.D, "lesson.s10.which_att")])
          : null;
        fillSide(S, [which, play, readout]);
        if (step === 0 && from !== 0) race();
        else s10Paint(S, canvas, step, step === 0 ? t : 1, readout);
      },
    };
  },
});

function s10Paint(S, canvas, step, t, readout) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const alt =
    step === 0 ? s10Race(S, pen, W, H, base, t, readout) : s10Curve(S, pen, W, H, base, readout);
  penDone(pen);
  canvas.setAttribute("aria-label", alt);
}

/** Left: the RNN lights one state per tick, each waiting for the one before; right: attention
    fills every row of its map in the first tick. */
function s10Race(S, pen, W, H, base, t, readout) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const phone = roomOf(D).phone;
  const half = phone ? W : (W - base * 2) * 0.4; // the chain's width; the map takes the rest
  const done = t >= 1 ? n : Math.min(n, Math.floor(t * n) + (t > 0 ? 1 : 0));
  const rnn = tx(D, "lesson.s10.rnn", { t: done, n });
  const att = tx(D, "lesson.s10.att", { n });
  // A phone shows one of the two, the chain or the map, and a tap switches (S.local.which).
  const only = phone ? S.local.which : null;
  readout.textContent = `${rnn}\n${att}`;
  if (only !== 1) {
    const top = penWrap(pen, rnn, 0, 0, half, { px: base, weight: 700 }) + base * 0.6;
    s10Chain(S, pen, { x: 0, y: top, w: half, h: H - top }, done, base);
    if (only === 0) return `${rnn}. ${att}.`;
  }
  const x0 = phone ? 0 : half + base * 2;
  const y0 = 0;
  const mw = phone ? W : W - x0; // the map's width
  const mapTop = y0 + penWrap(pen, att, x0, y0, mw, { px: base, weight: 700 }) + base * 0.4;
  const head = pickHead(S, part, focusIn(S, part));
  const w = headWeights(S, part, head);
  const labels = labelsOf(D, part, { w: mw, h: H - mapTop });
  const fonts = fontsOf(D);
  const g0 = mapGeometry(S.doc.createElement("canvas").getContext("2d"), labels, mw, H - mapTop, fonts);
  const g = { ...g0, left: g0.left + x0, top: g0.top + mapTop, height: g0.height + mapTop, x0 };
  const rgb = (i, j) => (t > 0 ? rampRgb(D.luts.weight, w[i * n + j], 0, 1) : null);
  const axes = { query: tx(D, "main.query_axis"), key: tx(D, "main.key_axis") };
  penMap(pen, g, { rgb, labels, axes, keep: focusIn(S, part), fonts, causal: false, numbers: null });
  return `${rnn}. ${att}.`;
}

/** The chain as a snake: one node per word, an arrow to the next, the word under its node (at
    a row's end, tucked in on the side away from the bend); "+ k" for the words that do not fit. */
function s10Chain(S, pen, box, done, base) {
  const part = S.part;
  const n = part.n;
  const step = base * 3;
  const perRow = Math.max(2, Math.floor(box.w / step));
  const r = Math.min(base * 0.75, step * 0.3);
  const rowH = r * 2 + base * 2;
  const rowOf = (j) => Math.floor(j / perRow);
  const at = (j) => {
    const col = rowOf(j) % 2 ? perRow - 1 - (j % perRow) : j % perRow;
    return [box.x + col * step + step / 2, box.y + rowOf(j) * rowH + r];
  };
  const fits = (j) => at(j)[1] + r + base * 1.3 <= box.y + box.h;
  let shown = 0;
  while (shown < n && fits(shown)) shown += 1;
  const ink = pen.ink;
  const colour = (j) => (j + 1 < done ? ink.accent : ink.line);
  for (let j = 0; j + 1 < shown; j++) s10Link(pen, at(j), at(j + 1), r, colour(j));
  const { ctx } = pen;
  for (let j = 0; j < shown; j++) {
    const [x, y] = at(j);
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = j < done - 1 ? ink.accent : j === done - 1 ? ink.warm : ink.paper;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = ink.muted;
    ctx.stroke();
    const bend = j + 1 < shown && rowOf(j + 1) !== rowOf(j) ? (rowOf(j) % 2 ? -1 : 1) : 0;
    const align = bend > 0 ? "right" : bend < 0 ? "left" : "center";
    const lx = x + bend * r;
    penTry(pen, part.tokens[j].t, lx, y + r + 3, { px: base, align, base: "top" });
  }
  if (shown < n) {
    const [x, y] = at(shown - 1);
    const side = rowOf(shown - 1) % 2 ? -1 : 1;
    penTry(pen, `+ ${n - shown}`, x + side * (r + 8), y, {
      px: base,
      align: side > 0 ? "left" : "right",
    });
  }
}

/** The arrow from one node to the next: across a row, or a bracket down at the row's end. */
function s10Link(pen, [x, y], [x1, y1], r, colour) {
  if (y1 === y) {
    const dx = Math.sign(x1 - x);
    penArrow(pen, x + dx * (r + 2), y, x1 - dx * (r + 2), y1, colour, 2);
    return;
  }
  const out = x > pen.w / 3 ? 1 : -1; // the bend is on the row's outer side
  const bx = x + out * (r + 12);
  penLine(pen, x + out * r, y, bx, y, colour, 2);
  penLine(pen, bx, y, bx, y1, colour, 2);
  penArrow(pen, bx, y1, x1 + out * (r + 1), y1, colour, 2);
}

function s10Curve(S, pen, W, H, base, readout) {
  const D = S.D;
  const part = S.tpart;
  const c = part && part.curve;
  if (!c) {
    penWrap(pen, tx(D, "lesson.s10.no_curve"), 0, 0, W, { px: base });
    readout.textContent = "";
    return tx(D, "lesson.s10.no_curve");
  }
  const head = part.quiz.head;
  const last = c.steps.at(-1);
  const spec = {
    x: {
      min: 0,
      max: last,
      title: tx(D, "lesson.s10.steps"),
      ticks: [0, 0.25, 0.5, 0.75, 1].map((f) => [
        Math.round(f * last),
        String(Math.round(f * last)),
      ]),
    },
    y: {
      min: 0,
      max: 1.05,
      title: tx(D, "lesson.s10.curve", { head: head + 1 }),
      ticks: [0, 0.25, 0.5, 0.75, 1].map((v) => [v, pctText(v)]),
    },
    series: [{ xs: c.steps, ys: c.hits, colour: pen.ink.accent, marks: c.steps.length <= 60 }],
  };
  const sc = drawChart(pen, { x: 0, y: 0, w: W, h: H }, spec, base);
  let say = "";
  if (c.onset !== null) {
    penLine(pen, sc.sx(c.onset), sc.top, sc.sx(c.onset), sc.bottom, pen.ink.warm, 3, [8, 6]);
    say = tx(D, "lesson.s10.onset", { step: c.onset });
    penTry(pen, say, sc.sx(c.onset) + 10, sc.sy(0.4), { px: base, colour: pen.ink.warm, weight: 700 });
  }
  const job = part.jobs?.[head];
  const human = job && job.relation === "pronoun_antecedent" && job.total
    ? `\n${tx(D, "lesson.s10.human", { hits: job.hits, total: job.total, p: pctText(job.hits / job.total, 1) })}`
    : ""; // the other set, as §1 and §6 count it
  readout.textContent = `${tx(D, "lesson.s10.curve", { head: head + 1 })}: ${pctText(c.hits[0])} → ${pctText(c.hits.at(-1))}${say ? ` · ${say}` : ""}${human}`;
  return readout.textContent;
}
