/* §5's two steps of reasons, each drawn from what was measured: "why" (var(q·k) ≈ d_k: a sum of
   d_k independent products of variance 1, the variance block's numbers for d_k = 1, the
   sentence's d_k and ÷√d_k; then this sentence's own q, k and q·k, measured apart) and "grad"
   (what saturation does to learning: the focus row's shares with ÷√d_k and without, and the
   gradient of the shares with respect to the raw score q·k there, ‖diag(a) − a·aᵀ‖_F / τ).
   scenes/s05.js draws them with paintWhy(S, canvas, readout) and paintGrad(S, canvas, readout,
   i, head), i and head its question's row and head. */

import { penCells, penDone, penInkOn, penMeasure, penText, penTry, penWrap,
  rampRgb } from "./pen.js";
import { tx } from "./text.js";
import { weightsOf } from "./numbers.js";
import { labelsOf } from "./labels.js";
import { roomOf, scenePen } from "./room.js";
import { askBlock, pctText } from "./widgets.js";
import { powerOfTen } from "./chart.js";

const SUBSCRIPT = "₀₁₂₃₄₅₆₇₈₉";

/** §5's variance block, or null while the server measures it (asked for once): then the canvas
    says so, in its middle and its label, and the readout is empty. drawn: scenePen's answer. */
export function varianceOr(drawn, canvas, readout) {
  const { D, W, H, base, pen } = drawn;
  const block = D.header.blocks.variance;
  if (block) return block;
  askBlock(D, "variance");
  penText(pen, tx(D, "lesson.measuring"), W / 2, H / 2, { px: base, align: "center" });
  penDone(pen);
  canvas.setAttribute("aria-label", tx(D, "lesson.measuring"));
  readout.textContent = "";
  return null;
}
const sub = (n) => String(n).split("").map((c) => SUBSCRIPT[Number(c)]).join("");

/** The reasoning in lines, each with what was measured (the variance block: one product q_i·k_i
    is d_k = 1; the sentence's d_k; ÷√d_k); apart from it, in the readout, this sentence's own
    q, k and q·k, which need not meet the condition (data.py qk_spread). */
export function paintWhy(S, canvas, readout) {
  const drawn = scenePen(S, canvas);
  const { D, W, H, base, pen } = drawn;
  const block = varianceOr(drawn, canvas, readout);
  if (!block) return;
  const d = S.part.d_k;
  const one = block.d_k.indexOf(1);
  const k = block.d_k.indexOf(d);
  const v1 = one < 0 ? null : block.raw[one];
  const vd = k < 0 ? null : block.raw[k];
  const vs = k < 0 ? null : block.scaled[k];
  const dec = (v, digits) => (v === null ? "—" : v.toFixed(digits));
  const words = { d, d1: sub(d), root: Math.sqrt(d).toFixed(2), m: block.samples };
  const lines = [
    [tx(D, "lesson.s5.why_sum", words), null],
    [tx(D, "lesson.s5.why_one", words), tx(D, "lesson.s5.measured", { v: dec(v1, 2) })],
    [tx(D, "lesson.s5.why_add", words), tx(D, "lesson.s5.measured", { v: dec(vd, 1) })],
    [tx(D, "lesson.s5.why_scaled", words), tx(D, "lesson.s5.measured", { v: dec(vs, 2) })],
  ];
  let y = 0;
  const gap = base * 0.9;
  for (const [text, measured] of lines) {
    y += penWrap(pen, text, 0, y, W, { px: base, weight: 400 });
    if (measured) y += penWrap(pen, measured, base * 1.5, y, W - base * 1.5, { px: base, weight: 700, colour: pen.ink.accent });
    y += gap;
  }
  const how = tx(D, "lesson.s5.why_how", words); // a phone: the caption says it (no room)
  if (!roomOf(D).phone) penWrap(pen, how, 0, y, W, { px: base, colour: pen.ink.muted });
  penDone(pen);
  const own = S.part.spread;
  const span = (vs) => { // "1.6–3.9", "76–554": one precision for both ends
    const [lo, hi] = [Math.min(...vs), Math.max(...vs)];
    return [lo, hi].map((v) => v.toFixed(hi >= 100 ? 0 : 1)).join("–");
  };
  const here = tx(D, "lesson.s5.why_here", { q: span(own.q), k: span(own.k), s: span(own.s),
    lo: own.range[0].toFixed(0).replace("-", "−"), hi: own.range[1].toFixed(0).replace("-", "−"), d });
  canvas.setAttribute("aria-label", [...lines.map(([a, b]) => (b ? `${a} ${b}` : a)), how].join(" "));
  canvas.dataset.values = JSON.stringify({ d_k: d, one: v1, raw: vd, scaled: vs, samples: block.samples, here });
  readout.textContent = here;
}

/** ‖J‖_F of softmax's Jacobian at a row of weights a: J = diag(a) − a·aᵀ, how much the shares
    move when softmax's input (the score ÷ τ) moves; ÷ τ once more for the raw score q·k. */
function s5Jacobian(a) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < a.length; j++) {
      const v = (i === j ? a[i] : 0) - a[i] * a[j];
      sum += v * v;
    }
  }
  return Math.sqrt(sum);
}

/** The focus row i in the question's head (§5's judgement), with ÷√d_k and without: its shares as two strips of
    cells (numbers in them), and under each the gradient of the shares with respect to the raw
    score q·k (what W_Q and W_K make), ‖J‖_F / τ; the readout says which is smaller, and by how much. */
export function paintGrad(S, canvas, readout, i, head) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const part = S.part;
  const n = part.n;
  const root = Math.sqrt(part.d_k);
  const rowOf = (tau) => Array.from(weightsOf(D, part, head, tau, S.local.causal).subarray(i * n, (i + 1) * n));
  const rows = [
    [tx(D, "lesson.scale_on"), rowOf(root), root],
    [tx(D, "lesson.scale_off"), rowOf(1), 1],
  ];
  const norms = rows.map(([, a, tau]) => s5Jacobian(a) / tau); // ∂a/∂(q·k): the chain rule's ÷ τ
  const q = part.tokens[i].t;
  const names = labelsOf(D, part);
  const title = tx(D, "lesson.s5.grad_title", { q, head: head + 1 });
  let y = penWrap(pen, title, 0, 0, W, { px: base, weight: 700 }) + base * 0.6;
  const c = Math.min(Math.floor(W / n), base * 3.2);
  const phone = roomOf(D).phone;
  const cellPx = Math.min(base, Math.floor(c * 0.5));
  const numbersFit = cellPx >= (phone ? 9 : 20);
  y += s5Columns(pen, names, c, y, base) + base * 0.4;
  rows.forEach(([label, a], r) => {
    y += penWrap(pen, label, 0, y, W, { px: base, weight: 700 }) + 4;
    penCells(pen, 0, y, n * c, c, 1, n, (_, j) => rampRgb(D.luts.weight, a[j], 0, 1));
    if (numbersFit) {
      for (let j = 0; j < n; j++) {
        const rgb = rampRgb(D.luts.weight, a[j], 0, 1);
        penText(pen, String(Math.round(a[j] * 100)), j * c + c / 2, y + c / 2, { px: cellPx, align: "center", colour: penInkOn(pen, rgb), cell: true });
      }
    }
    y += c + 4;
    const says = tx(D, "lesson.s5.grad_norm", { v: s5Small(norms[r]) });
    y += penWrap(pen, says, 0, y, W, { px: base, colour: pen.ink.accent, weight: 700 }) + base * 0.8;
  });
  penDone(pen);
  const smaller = norms[1] <= norms[0]; // without ÷√d_k: smaller (saturated) or larger
  const [big, small] = smaller ? norms : [norms[1], norms[0]];
  const ratio = small > 0 ? big / small : Infinity;
  readout.textContent = tx(D, smaller ? "lesson.s5.grad_smaller" : "lesson.s5.grad_larger", {
    on: s5Small(norms[0]), off: s5Small(norms[1]), r: Number.isFinite(ratio) ? s5Times(ratio) : "∞",
  });
  canvas.setAttribute("aria-label", `${title}. ${rows.map(([l, a], r) => `${l}: ${a.map((w, j) => `${part.tokens[j].t} ${pctText(w)}`).join(tx(D, "explorer.sep"))}; ${tx(D, "lesson.s5.grad_norm", { v: s5Small(norms[r]) })}`).join(". ")}`);
  canvas.dataset.values = JSON.stringify({ head, row: i, on: rows[0][1], off: rows[1][1], norms });
}

/** The words over the strips' columns: across where one fits its column, else its characters
    one under the other (Chinese); returns the height taken. */
function s5Columns(pen, names, c, y, px) {
  let deepest = px * 1.2;
  names.forEach((t, j) => {
    const x = j * c + c / 2;
    if (penMeasure(pen, t, x, y, { px })[2] <= c - 2) {
      penTry(pen, t, x, y, { px, align: "center", base: "top" });
      return;
    }
    const chars = [...t];
    if (!chars.every((ch) => penMeasure(pen, ch, x, y, { px })[2] <= c - 2)) return; // no room
    chars.forEach((ch, k) => penTry(pen, ch, x, y + k * px * 1.1, { px, align: "center", base: "top" }));
    deepest = Math.max(deepest, chars.length * px * 1.1 + px * 0.1);
  });
  return deepest;
}

/** A small positive number people can read: 3 decimals, or 2 figures and a power of ten. */
function s5Small(v) {
  if (v >= 0.001 || v === 0) return v.toFixed(3);
  const e = Math.floor(Math.log10(v));
  return `${(v / 10 ** e).toFixed(1)}×${powerOfTen(e)}`;
}

function s5Times(r) {
  return r >= 100 ? Math.round(r).toLocaleString("en") : r.toFixed(r >= 10 ? 0 : 1);
}
