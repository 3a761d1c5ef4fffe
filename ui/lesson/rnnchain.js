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
  const n = S.tpart.n;
  const r = Math.max(4, Math.min(colW * 0.32, base * 0.7));
  const ink = pen.ink;
  penText(pen, tx(S.D, "lesson.s1.rnn"), 0, y0, { px: base, base: "top", colour: ink.muted });
  const y = y0 + base * 1.4 + r;
  const { ctx } = pen;
  const a = Math.min(quiz.top ?? quiz.query, quiz.query);
  const b = Math.max(quiz.top ?? quiz.query, quiz.query);
  const lit = a + Math.floor(p * (b - a + 1) - 1e-9);
  for (let j = 0; j < n; j++) {
    if (j + 1 < n && colW > 2 * r + 8)
      penArrow(
        pen,
        x(j) + r + 2,
        y,
        x(j + 1) - r - 2,
        y,
        j >= a && j < lit ? ink.accent : ink.line,
        2,
      );
    ctx.beginPath();
    ctx.arc(x(j), y, r, 0, 2 * Math.PI);
    ctx.fillStyle = j >= a && j <= lit ? ink.accent : ink.paper;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = j === quiz.query ? ink.warm : ink.muted;
    ctx.stroke();
  }
  const arcY = y + r + base * 0.9;
  ctx.save();
  ctx.strokeStyle = ink.warm;
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.moveTo(x(quiz.query), y + r + 2);
  ctx.quadraticCurveTo((x(a) + x(b)) / 2, arcY + base, x(quiz.top ?? quiz.query), y + r + 2);
  ctx.stroke();
  ctx.restore();
  const part = S.tpart;
  const k = quiz.top === null ? part.tokens[quiz.query].t : part.tokens[quiz.top].t;
  const text = tx(S.D, "lesson.s1.hops", { k, q: part.tokens[quiz.query].t, hops: chainHops(quiz) });
  penWrap(pen, text, 0, arcY + base * 1.2, pen.w, { px: base, weight: 600 });
}

/** The RNN's chain down the column: a state per word, passed down one row at a time, the path
    from the answer to the pronoun lit hop by hop; attention's one hop as an arc at its left. */
export function chainDown(S, pen, o) {
  const { cx, r, y, rowH, p, base } = o;
  const quiz = S.tpart.quiz;
  const n = S.tpart.n;
  const ink = pen.ink;
  const { ctx } = pen;
  const a = Math.min(quiz.top ?? quiz.query, quiz.query);
  const b = Math.max(quiz.top ?? quiz.query, quiz.query);
  const lit = a + Math.floor(p * (b - a + 1) - 1e-9);
  for (let j = 0; j < n; j++) {
    if (j + 1 < n && rowH > 2 * r + 8) {
      const on = j >= a && j < lit;
      penArrow(pen, cx, y(j) + r + 2, cx, y(j + 1) - r - 2, on ? ink.accent : ink.line, 2);
    }
    ctx.beginPath();
    ctx.arc(cx, y(j), r, 0, 2 * Math.PI);
    ctx.fillStyle = j >= a && j <= lit ? ink.accent : ink.paper;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = j === quiz.query ? ink.warm : ink.muted;
    ctx.stroke();
  }
  ctx.save();
  ctx.strokeStyle = ink.warm;
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.moveTo(cx - r - 2, y(quiz.query));
  ctx.quadraticCurveTo(cx - r - base * 2.2, (y(a) + y(b)) / 2, cx - r - 2, y(quiz.top ?? quiz.query));
  ctx.stroke();
  ctx.restore();
  const part = S.tpart;
  const k = quiz.top === null ? part.tokens[quiz.query].t : part.tokens[quiz.top].t;
  const text = tx(S.D, "lesson.s1.hops", { k, q: part.tokens[quiz.query].t, hops: chainHops(quiz) });
  penWrap(pen, text, 0, o.bottom + base * 0.4, pen.w, { px: base, weight: 600 });
}
