/* §1's step "rnn": an RNN's chain beside attention's one hop. One state per word, passed on one
   word at a time, the path from the answer to the pronoun lit hop by hop as p goes 0 → 1; under
   it (or at its left) attention's single arc, and the count of hops. chainAcross draws it under
   the sentence written across; chainDown beside the sentence as a column (a phone, a long
   sentence). scenes/s01.js calls them, and chainHops for its takeaway. */

import { penArrow, penText, penWrap } from "./pen.js";
import { tx } from "./text.js";

/** How many words lie between the pronoun and the word its head picks: an RNN's hops. */
export function chainHops(quiz) {
  return quiz.top === null ? 0 : Math.abs(quiz.query - quiz.top);
}

/** The RNN's chain under the words: one state per word, passed along one step at a time; the
    path from the answer to the pronoun lights up hop by hop; attention's one hop beside it. */
export function chainAcross(S, pen, x, colW, y0, p, base) {
  const quiz = S.tpart.quiz;
  const r = Math.max(4, Math.min(colW * 0.32, base * 0.7));
  penText(pen, tx(S.D, "lesson.s1.rnn"), 0, y0, { px: base, base: "top", colour: pen.ink.muted });
  const y = y0 + base * 1.4 + r;
  const [a, b] = chainStates(S, pen, (j) => [x(j), y], r, colW > 2 * r + 8, p);
  const arcY = y + r + base * 0.9;
  const from = [x(quiz.query), y + r + 2];
  chainHop(pen, from, [(x(a) + x(b)) / 2, arcY + base], [x(quiz.top ?? quiz.query), y + r + 2]);
  hopsLine(S, pen, arcY + base * 1.2, base);
}

/** The RNN's chain down the column: a state per word, passed down one row at a time, the path
    from the answer to the pronoun lit hop by hop; attention's one hop as an arc at its left. */
export function chainDown(S, pen, o) {
  const { cx, r, y, rowH, p, base } = o;
  const quiz = S.tpart.quiz;
  const [a, b] = chainStates(S, pen, (j) => [cx, y(j)], r, rowH > 2 * r + 8, p);
  const from = [cx - r - 2, y(quiz.query)];
  chainHop(pen, from, [cx - r - base * 2.2, (y(a) + y(b)) / 2], [cx - r - 2, y(quiz.top ?? quiz.query)]);
  hopsLine(S, pen, o.bottom + base * 0.4, base);
}

/** The states at at(j), each passing to the next (an arrow, when `room` leaves one), lit from the
    first of the pronoun and its answer up to where p has reached; returns that span [a, b]. */
function chainStates(S, pen, at, r, room, p) {
  const quiz = S.tpart.quiz;
  const n = S.tpart.n;
  const { ctx, ink } = pen;
  const a = Math.min(quiz.top ?? quiz.query, quiz.query);
  const b = Math.max(quiz.top ?? quiz.query, quiz.query);
  const lit = a + Math.floor(p * (b - a + 1) - 1e-9);
  for (let j = 0; j < n; j++) {
    const [x, y] = at(j);
    if (j + 1 < n && room) {
      const [x1, y1] = at(j + 1);
      const [ux, uy] = [Math.sign(x1 - x), Math.sign(y1 - y)]; // across or down: the gap's edges
      const on = j >= a && j < lit;
      penArrow(pen, x + ux * (r + 2), y + uy * (r + 2), x1 - ux * (r + 2), y1 - uy * (r + 2),
        on ? ink.accent : ink.line, 2);
    }
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = j >= a && j <= lit ? ink.accent : ink.paper;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = j === quiz.query ? ink.warm : ink.muted;
    ctx.stroke();
  }
  return [a, b];
}

/** Attention's one hop: an arc from the pronoun to the word its head picks, bent through `bend`. */
function chainHop(pen, from, bend, to) {
  const { ctx } = pen;
  ctx.save();
  ctx.strokeStyle = pen.ink.warm;
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.moveTo(...from);
  ctx.quadraticCurveTo(...bend, ...to);
  ctx.stroke();
  ctx.restore();
}

/** The hops in words: the RNN's count against attention's one. */
function hopsLine(S, pen, y, base) {
  const { quiz, tokens } = S.tpart;
  const k = tokens[quiz.top ?? quiz.query].t;
  const text = tx(S.D, "lesson.s1.hops", { k, q: tokens[quiz.query].t, hops: chainHops(quiz) });
  penWrap(pen, text, 0, y, pen.w, { px: base, weight: 600 });
}
