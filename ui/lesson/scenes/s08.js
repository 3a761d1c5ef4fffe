/* §8 我打你 and 你打我: without positions the second map is the first one permuted (predict,
   then reveal), with positions it is not. Their maps are the attention view (views.js): side by
   side on a projector; on a phone one map, and a tap switches it between the two sentences. */

import { penDone, penStart, penText } from "../pen.js";
import { make } from "../elements.js";
import { tx } from "../text.js";
import { arr } from "../numbers.js";
import { fontsOf, roomOf } from "../room.js";
import { defineScene } from "../kit.js";
import { fillSide, pctText, setLocal, wReadout, wSwitch, wWhich } from "../widgets.js";
import { sceneView, viewHeader } from "../views.js";

export default defineScene({
  id: "s08",
  // phone: none: on a phone the one map fills what its question or its switches leave
  title: "lesson.s8.title",
  local: { pos: false, which: 1 }, // positions added (the switch, the last step); the phone's map
  steps: [
    {
      id: "ask",
      label: "lesson.s8.step0",
      caption: "lesson.s8.cap.ask",
      quiz: {
        question: (S) => tx(S.D, "lesson.s8.question"),
        choices: (S) => {
          const o = S.D.header.order;
          const same = o.diff0 < 1e-9;
          const why = tx(S.D, "lesson.s8.why", { v: o.diff0.toExponential(1), head: o.head + 1 });
          return [
            { id: "diff", label: tx(S.D, "lesson.s8.c_diff"), right: !same, why },
            { id: "perm", label: tx(S.D, "lesson.s8.c_perm"), right: same, why },
            { id: "same", label: tx(S.D, "lesson.s8.c_same"), right: false, why },
          ];
        },
      },
    },
    { id: "reveal", label: "lesson.s8.step1", caption: "lesson.s8.cap.reveal", set: { pos: false } },
    { id: "pos", label: "lesson.s8.step2", caption: "lesson.s8.cap.pos", set: { pos: true } },
  ],
  take: (S) => tx(S.D, "lesson.s8.take"),
  mount: (S) => s8Mount(S),
});

/** The two sentences as the view reads them: three tokens each, head 1's weights (data.py
    ORDER_HEAD, o.head: the view titles its one map "head 1"). */
function s8Part(o, texts) {
  return { n: texts.length, h: 1, d_k: o.d_model / o.h, source: "random",
    tokens: texts.map((t) => ({ t, tag: "", tag_name: "", gloss: null, under: o.under?.[t] || null })) };
}

function s8Mount(S) {
  const D = S.D;
  const o = D.header.order;
  const readout = wReadout(S, "lesson-readout");
  const note = make(S.doc, "p", "figure-note", {}, tx(D, "lesson.s8.weights", { d: o.d_model, h: o.h, seed: o.seed }));
  const pair = make(S.doc, "div", "pair");
  const slots = [make(S.doc, "div"), make(S.doc, "div")];
  pair.append(...slots);
  S.figure.append(note, pair);
  const parts = [s8Part(o, o.a), s8Part(o, o.b)];
  const views = parts.map((part, k) => sceneView(S, slots[k], part, [0]));
  const hidden = make(S.doc, "canvas", "", { role: "img", "data-testid": "lesson-hidden-map" });
  return {
    draw(step) {
      note.hidden = roomOf(D).phone; // the caption names the random weights there
      const pos = step >= 1 ? S.local.pos : false;
      const flip = (on) => setLocal(S, { pos: on });
      const which = step >= 1 && roomOf(D).phone // a phone's one map: which sentence it shows
        ? wWhich(S, "s8-which", tx(D, "lesson.s8.which"), [o.a.join(""), o.b.join("")])
        : null;
      const switchAt = roomOf(D).phone ? 2 : 1; // a phone's reveal has the tap between sentences
      const sw = step >= switchAt ? wSwitch(S, tx(D, "lesson.s8.pos"), pos, flip, "s8-pos") : null;
      fillSide(S, [sw, which, readout]);
      s8Maps(S, { views, parts, slots, pair, hidden }, step, pos);
      const line = step === 0 ? "" : pos ? tx(D, "lesson.s8.why_pos", { v: pctText(o.diff1), head: o.head + 1 })
        : tx(D, "lesson.s8.why", { v: o.diff0.toExponential(1), head: o.head + 1 });
      readout.textContent = step === 1 && !pos ? "" : line; // at the reveal the verdict says it
      readout.hidden = !readout.textContent;
    },
    destroy: () => views.forEach((v) => v.destroy()),
  };
}

/** 我打你 beside 你打我 (hidden behind a "?" until the reveal), each its own view with numbers;
    the pair 我 → 你 ringed in both, wherever the reordering moved it. */
function s8Maps(S, fig, step, pos) {
  const D = S.D;
  const o = D.header.order;
  const phone = roomOf(D).phone;
  const w = phone ? S.box.w : (fig.pair.clientWidth - 16) / 2;
  // On a phone one map, under the note: 我打你 at the question, then the one the tap chose.
  const above = fig.pair.getBoundingClientRect().top - S.figure.getBoundingClientRect().top;
  const h = phone ? S.box.h - above : fig.pair.clientHeight;
  const me = [o.a.indexOf(o.a[0]), o.a.length - 1]; // 我 → 你 in 我打你: row 0, column 2
  const cells = [me, [o.b.indexOf(o.a[me[0]]), o.b.indexOf(o.a[me[1]])]];
  const show = !phone ? (step === 0 ? [0] : [0, 1]) : [step === 0 ? 0 : S.local.which];
  fig.slots.forEach((slot, k) => {
    slot.hidden = phone && !show.includes(k);
  });
  fig.slots[1].replaceChildren(...(step === 0 ? [fig.hidden] : [fig.views[1].view.root]));
  show.forEach((k) => {
    const texts = k === 0 ? o.a : o.b;
    const label = tx(D, "lesson.s8.map", { s: texts.join("") });
    const values = arr(D, `o.${k === 0 ? "a" : "b"}${pos ? 1 : 0}`);
    const part = fig.parts[k];
    const head = { digest: `o.${k}${pos ? 1 : 0}`, values: "weights", jobs: [{ label }], numbers: true,
      state: { focus: cells[k][0] }, box: { w, h } };
    fig.views[k].fit(w, h);
    const header = viewHeader(S, part, head);
    fig.views[k].show(phone ? header : s8Glossed(header), values);
    fig.views[k].view.mark(step >= 1 ? { i: cells[k][0], j: cells[k][1] } : null);
  });
  if (step === 0 && !phone) s8Hidden(S, fig.hidden, w, h, tx(D, "lesson.s8.map", { s: o.b.join("") }));
}

/** Three words, three wide columns (a projector's): in English the columns carry their glosses
    as the rows do ("我 I", "打 hit", "你 you"), not the bare characters (labels.js keeps columns
    plain, where a long sentence's stand upright; on a phone's one map they would stand upright
    too and squeeze its cells). */
function s8Glossed(header) {
  const labels = header.labels;
  if (!labels.columns) return header;
  const glossed = [...labels]; // the rows' labels, without the plain columns
  return { ...header, labels: glossed, wording: `${header.wording}|columns glossed` };
}

/** The map not shown yet: its name, a dashed square and a "?". */
function s8Hidden(S, canvas, w, h, name) {
  const D = S.D;
  const base = fontsOf(D).label;
  const pen = penStart(canvas, w, h, D.theme);
  const side = Math.max(base * 4, Math.min(w, h) - base * 3);
  penText(pen, name, 0, 0, { px: base, base: "top", weight: 600 });
  const { ctx } = pen;
  ctx.save();
  ctx.setLineDash([10, 8]);
  ctx.strokeStyle = pen.ink.line;
  ctx.lineWidth = 3;
  ctx.strokeRect(base, base * 1.8, side - base, side - base);
  ctx.restore();
  penText(pen, "?", base + (side - base) / 2, base * 1.8 + (side - base) / 2, {
    px: base * 3, align: "center", colour: pen.ink.warm, weight: 700,
  });
  penDone(pen);
  canvas.setAttribute("aria-label", `${name}: ?`);
}
