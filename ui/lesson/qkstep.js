/* §6's steps "qk0" and "qk": one head's queries and keys in one plane (the attention view's
   ui/explorer/qk.js: qkPlane, drawQkHead), at training step 0 and after training, so a class sees
   the focus word's query come to point at the key it attends to as the head learns (他 towards
   小明 on the example). x: each key's score from the focus query ÷ |q| (exact); y: the keys'
   first principal component once that direction is out (approximate). A scene adds QK_STEPS to
   its steps and asks qkStep(S, part).draw(step) first in its draw: true when it drew one of
   them (the scene's other figures put aside: cellstep.js asideFigure), false otherwise. */

import { headColour } from "../explorer/colour.js";
import { drawQkHead, qkPlane } from "../explorer/qk.js";
import { rankRow } from "./arith.js";
import { make } from "./elements.js";
import { tx } from "./text.js";
import { arr, focusIn } from "./numbers.js";
import { roomOf } from "./room.js";
import { pickHead } from "./kit.js";
import { fillSide, headPicker, quoteTok, setLocal, wReadout } from "./widgets.js";
import { asideFigure } from "./cellstep.js";

export const QK_STEPS = [
  { id: "qk0", label: "lesson.s6.step_qk0", caption: "lesson.s6.cap.qk0", set: { when: "before" } },
  { id: "qk", label: "lesson.s6.step_qk", caption: "lesson.s6.cap.qk", set: { when: "after" } },
];

/** The steps' figure in scene S for the trained part `part` (its q, k and step 0's q0, k0). */
export function qkStep(S, part) {
  let box = null;
  return {
    draw(step) {
      const id = S.steps[step]?.id;
      const on = QK_STEPS.some((s) => s.id === id);
      if (box) box.hidden = !on;
      asideFigure(S.figure, box, on);
      if (!on) return false;
      if (!box) {
        box = make(S.doc, "div", "qk-box lesson-qk", { "data-testid": "lesson-qk" });
        S.figure.append(box);
      }
      drawQkStep(S, part, box, id === "qk0" && !!arr(S.D, `${part.prefix}q0`));
      return true;
    },
  };
}

function drawQkStep(S, part, box, early) {
  const D = S.D;
  const n = part.n;
  const f = focusIn(S, part);
  const head = pickHead(S, part, f);
  const readout = wReadout(S, "lesson-readout");
  const phone = roomOf(D).phone; // a phone: the heads as numbers, on one line
  fillSide(S, [part.h > 1 ? headPicker(S, part, head, (k) => setLocal(S, { head: k }), phone) : null, readout]);
  const q = arr(D, `${part.prefix}${early ? "q0" : "q"}`);
  const k = arr(D, `${part.prefix}${early ? "k0" : "k"}`);
  const plane = qkPlane(q, k, n, part.d_k, head, f);
  const T = D.header.view_text;
  const room = roomOf(D);
  const px = room.base;
  const names = part.tokens.map((t) => quoteTok(D, t));
  const cap = make(S.doc, "p", "qk-cap", {}, tx(D, early ? "lesson.s6.qk_at0" : "lesson.s6.qk_at", {
    head: head + 1, step: early ? part.step0 : part.step, kept: Math.round(plane.kept * 100) }));
  cap.style.fontSize = `${px}px`;
  // a phone: the readout's two lines under the heads stay above the step bar too
  const side = Math.max(room.phone ? 150 : 200, Math.min(S.box.w, S.box.h - px * (room.phone ? 6.4 : 3.2)));
  const svg = drawQkHead(S.doc, { plane, f, T, causal: S.local.causal, names,
    short: part.tokens.map((t) => t.t), colour: headColour(D.header.colours.heads, head),
    ink: D.header.colours.ink, title: cap.textContent, px }, side);
  box.replaceChildren(cap, svg);
  const x = plane.keys.map((p) => p[0]);
  const order = rankRow(Float64Array.from(x), n, 0).filter((j) => !S.local.causal || j <= f).slice(0, 3);
  const said = room.phone ? part.tokens.map((t) => t.t) : names; // a phone: the plane glosses them
  readout.textContent = `${tx(D, "lesson.s6.qk_near", { q: said[f] })} ${order
    .map((j) => `${said[j]} ${(x[j] * plane.qnorm).toFixed(1)}`).join(" · ")}`;
}
