/* §4's step "cell": the focus row's strongest cell (他 → 小明 on the example) taken apart with the
   attention view's own breakdown (ui/explorer/cell.js: cellBreakdown, buildCell, fillCell; one
   module for the view and the deck): q and k on one scale, their products with the largest
   marked, the sum (the raw score of step ①), ÷√d_k (step ②) and the softmax share (step ③),
   live on the scene's √d_k switch and head picker. A scene adds CELL_STEP to its steps and
   asks cellStep(S).draw(step) first in its draw: true when it drew the step (the scene's own
   figures put aside, asideFigure), false otherwise (the breakdown hidden, its figures back). */

import { argmaxRow } from "../explorer/a11y.js";
import { buildCell, cellBreakdown, fillCell } from "../explorer/cell.js";
import { tx } from "./text.js";
import { arr, divisorOf, focusIn } from "./numbers.js";
import { roomOf } from "./room.js";
import { headWeights, pickHead } from "./kit.js";
import { fillSide, headPicker, pctText, quoteTok, setLocal, wSwitch } from "./widgets.js";

export const CELL_STEP = { id: "cell", label: "lesson.s4.step_cell", caption: "lesson.s4.cap.cell" };

/** The breakdown of (head, focus row i, its strongest key) of the scene's part, filled in `p`. */
function fillCellStep(S, p) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const i = focusIn(S, part);
  const head = pickHead(S, part, i);
  const w = headWeights(S, part, head);
  const j = argmaxRow(w, n, i);
  const q = arr(D, `${part.prefix}q`);
  const k = arr(D, `${part.prefix}k`);
  const b = cellBreakdown(q, k, part.d_k, n, head, i, j, divisorOf(S, part),
    S.local.causal && j > i, w.subarray(i * n, (i + 1) * n));
  const T = D.header.view_text;
  const room = roomOf(D);
  // a phone: the words alone (a gloss in the strips' labels left them no width)
  const names = part.tokens.map((t) => (room.phone ? t.t : quoteTok(D, t)));
  fillCell(p, b, { T, lut: D.luts.signed, names,
    short: part.tokens.map((t) => t.t), touch: D.touch, tau: null, namesUpTo: room.phone ? 8 : 16,
    headName: tx(D, "lesson.head", { i: head + 1 }) });
  if (room.phone) { // one screen: the dimension row's name and the share in fewer words
    p.dims.label.textContent = tx(D, "lesson.s4.cell_dim_phone");
    p.shareName.textContent = tx(D, "lesson.s4.cell_share_phone",
      { q: part.tokens[i].t, k: part.tokens[j].t, w: pctText(w[i * n + j]) });
  }
  p.root.style.fontSize = `${room.base}px`;
  p.root.classList.toggle("narrow", room.phone);
  p.top.hidden = room.phone; // one screen on a phone: the marked strips and the live line say it
  p.shares.style.height = room.phone ? "2.6em" : "";
  p.root.style.margin = room.phone ? "0.25em 0" : ""; // the box's 12 px above and below: the bar's
  return head;
}

/** Put a figure's other children aside (away) or back: only the ones put aside here come back. */
export function asideFigure(figure, mine, away) {
  for (const c of figure.children) {
    if (c === mine) continue;
    if (away && c.style.display !== "none") {
      c.style.display = "none";
      c.dataset.aside = "1";
    } else if (!away && c.dataset.aside) {
      c.style.display = "";
      delete c.dataset.aside;
    }
  }
}

/** The step's figure in scene S, beside the scene's own. */
export function cellStep(S) {
  let p = null;
  return {
    draw(step) {
      const on = S.steps[step]?.id === CELL_STEP.id;
      if (p) p.root.hidden = !on;
      asideFigure(S.figure, p?.root, on);
      if (!on) return false;
      if (!p) {
        p = buildCell(S.doc, "lesson-cell");
        p.root.classList.add("lesson-cell");
        p.head.hidden = true; // the step's name says what it shows
        S.figure.append(p.root);
        p.root.hidden = false;
      }
      const part = S.part;
      const head = pickHead(S, part, focusIn(S, part));
      fillSide(S, [
        wSwitch(S, S.D.header.view_text.scale, S.local.scale, (on) => setLocal(S, { scale: on }), "lesson-cell-scale"),
        part.h > 1 ? headPicker(S, part, head, (kk) => setLocal(S, { head: kk }), roomOf(S.D).phone) : null,
      ]);
      fillCellStep(S, p);
      return true;
    },
  };
}
