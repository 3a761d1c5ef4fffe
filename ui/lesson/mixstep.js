/* §4's step ④, A · V: the weights beside V, rows aligned (A's keys are V's rows), and under V
   the focus row of O = A · V; on a phone, where A beside V would leave cells of 11 px, the focus
   row of A as a column times V. Both compute the whole of O (arith.js mixRows) and publish it on
   the canvas for tests. scenes/s04.js draws its map, then asks paintMix (or paintMixPhone) to
   add the rest, and gives A the room roomBesideV leaves it. */

import { penCells, penInkOn, penMeasure, penOutline, penText, penTry, penWrap,
  rampRgb } from "./pen.js";
import { mixRows } from "./arith.js";
import { tx } from "./text.js";
import { arr, focusIn } from "./numbers.js";

const V_COL = 0.7; // V's columns (and O's) are narrower than A's: its rows, A's keys, align

/** ④'s room for A in a figure w px wide whose labels take `left` px: A's n columns and V's d
    narrower ones share the rest (a 24 px gap for the "·"). */
export function roomBesideV(part, w, left) {
  return (w - left - 24 - 6) * (part.n / (part.n + V_COL * part.d_k)) + left + 6;
}

/** The head's V and the whole of O = A · V (published on the canvas for tests), and the largest
    |value| of each: their colour scales. */
function mixOf(S, head, w) {
  const part = S.part;
  const { n, d_k: d } = part;
  const v = arr(S.D, `${part.prefix}v`);
  const out = mixRows(w, v, head * n * d, n, d, new Float64Array(n * d));
  let lv = 1e-9;
  let lo = 1e-9;
  for (let k = 0; k < n * d; k++) {
    lv = Math.max(lv, Math.abs(v[head * n * d + k]));
    lo = Math.max(lo, Math.abs(out[k]));
  }
  S.figure.querySelector("canvas").dataset.values = JSON.stringify(Array.from(out));
  return { v, out, lv, lo };
}

/** Step ④: A · V beside the weights, rows aligned, and under V the focus row of O = A · V (the
    whole of O is computed, and published for tests); fading in as it arrives. */
export function paintMix(S, pen, g, head, w, alpha, base) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const d = part.d_k;
  const { v, out, lv, lo } = mixOf(S, head, w);
  const c = g.cell;
  const cv = c * V_COL;
  const xV = g.left + g.side + 24;
  const top = g.top;
  pen.ctx.globalAlpha = alpha;
  const letter = { px: base, align: "center", base: "bottom", weight: 700 };
  penText(pen, "A", g.left + g.side / 2, top - 4, letter);
  penText(pen, "V", xV + (d * cv) / 2, top - 4, letter);
  penCells(pen, xV, top, d * cv, n * c, n, d, (r, k) =>
    rampRgb(D.luts.signed, v[(head * n + r) * d + k], -lv, lv),
  );
  const mid = top + (n * c) / 2;
  penText(pen, "·", xV - 12, mid, { px: Math.round(base * 1.4), align: "center", weight: 700 });
  const i = focusIn(S, part);
  // O's focus row, under V: its columns are V's (s04.js s4MixBelow fits the map to leave room)
  const yO = top + n * c + Math.max(8, c / 2);
  // "=" in the gap before O, clear of the last key label below A when cells are smaller than it
  const eq = Math.round(base * 1.2);
  const keyEnd = g.left + g.side - c / 2 + g.px / 2; // the last key label's right edge
  const xEq = Math.min(xV - eq * 0.35, Math.max(xV - 12, keyEnd + eq * 0.35 + 3));
  penText(pen, "=", xEq, yO + c / 2, { px: eq, align: "center", weight: 700 });
  penCells(pen, xV, yO, d * cv, c, 1, d, (r, k) => rampRgb(D.luts.signed, out[i * d + k], -lo, lo));
  penOutline(pen, xV, yO, d * cv, c);
  const oTitle = { px: base, align: "left", base: "top", weight: 700 };
  const says = tx(D, "lesson.s4.out_row", { q: part.tokens[i].t });
  if (!penTry(pen, says, xV, yO + c + 4, { ...oTitle, max: pen.w - xV })) {
    penText(pen, "O", xV, yO + c + 4, oTitle); // a narrow V (many tokens, small d_k): its letter
  }
  pen.ctx.globalAlpha = 1;
}

/** Step ④ on a phone, where A beside V would leave cells of 11 px: the focus row of A as a
    column (its shares, in %, beside the keys they weigh), times V (rows: those keys), equals the
    focus row of O; the whole of O is computed and published, as on a projector. */
export function paintMixPhone(S, pen, box, head, w, alpha) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const d = part.d_k;
  const i = focusIn(S, part);
  const { v, out, lv, lo } = mixOf(S, head, w);
  const { top, W, H, base, labels } = box;
  // no text on a phone under 14 px (issue 39): rows ≥ 17 px hold a 14 px word and "100"
  const rowH = Math.max(17, Math.min(base * 1.4, (H - top - base * 4.2) / (n + 1)));
  const px = Math.max(14, Math.min(base, Math.floor(rowH * 0.85)));
  const numPx = Math.max(14, Math.min(base * 0.75, Math.floor(rowH * 0.6)));
  const labelW = Math.max(...labels.map((t) => penMeasure(pen, t, 0, 0, { px })[2]));
  const xA = labelW + 8;
  const colA = penMeasure(pen, "100", 0, 0, { px: numPx })[2] + 10;
  const xV = xA + colA + 22;
  const cv = Math.max(2, Math.min(rowH, (W - xV - 2) / d));
  const y0 = top + base * 1.4;
  pen.ctx.globalAlpha = alpha;
  const bold = { px: base, align: "center", base: "bottom", weight: 700 };
  penText(pen, tx(D, "lesson.s4.a_row", { q: part.tokens[i].t }), xA, y0 - 4, { ...bold, align: "left" });
  penTry(pen, "V", xV + (d * cv) / 2, y0 - 4, bold);
  const share = (r) => w[i * n + r];
  penCells(pen, xA, y0, colA, n * rowH, n, 1, (r) => rampRgb(D.luts.weight, share(r), 0, 1));
  penCells(pen, xV, y0, d * cv, n * rowH, n, d, (r, k) => rampRgb(D.luts.signed, v[(head * n + r) * d + k], -lv, lv));
  for (let r = 0; r < n; r++) {
    const y = y0 + (r + 0.5) * rowH;
    penText(pen, labels[r], labelW, y, { px, align: "right" });
    const ink = penInkOn(pen, rampRgb(D.luts.weight, share(r), 0, 1));
    penText(pen, String(Math.round(share(r) * 100)), xA + colA / 2, y, { px: numPx, align: "center", colour: ink, cell: true });
  }
  penText(pen, "·", xV - 11, y0 + (n * rowH) / 2, { px: Math.round(base * 1.4), align: "center", weight: 700 });
  const yO = y0 + n * rowH + 8;
  penText(pen, "=", xV - 11, yO + rowH / 2, { px: Math.round(base * 1.2), align: "center", weight: 700 });
  penCells(pen, xV, yO, d * cv, rowH, 1, d, (r, k) => rampRgb(D.luts.signed, out[i * d + k], -lo, lo));
  penOutline(pen, xV, yO, d * cv, rowH);
  const says = tx(D, "lesson.s4.out_row", { q: part.tokens[i].t });
  penWrap(pen, says, 0, yO + rowH + 4, W, { px: Math.min(base, 18), weight: 700 });
  pen.ctx.globalAlpha = 1;
}
