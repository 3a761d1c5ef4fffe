/* §4's step "exp" (③′, between softmax and ·V): softmax opened up on the focus row as the
   article writes it, a = np.exp(x) / np.sum(np.exp(x)): a table of x (the row's scores ÷ the
   divisor), eˣ, their sum and eˣ ÷ Σ, with each share's bar, on the sentence's real numbers
   (the largest shares and one line for the rest when the keys do not fit). scenes/s04.js adds
   EXP_STEP to its steps and draws it with paintExp(S, canvas, readout). */

import { penCells, penDone, penMeasure, penText, penWrap, rampRgb } from "./pen.js";
import { tx } from "./text.js";
import { arr, divisorOf, focusIn } from "./numbers.js";
import { labelsOf } from "./labels.js";
import { roomOf, scenePen } from "./room.js";
import { pickHead } from "./kit.js";

/** The step's place in §4's steps, between ③ and ④ (not a matrix step). */
export const EXP_STEP = { id: "exp", label: "lesson.s4.step_exp", caption: "lesson.s4.cap.exp" };

const SUPERSCRIPT = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

/** e to a power as people write it: 3 figures, or 2.09×10⁵ when it is very large or small. */
function s4Big(v) {
  if (v === 0) return "0";
  const e = Math.floor(Math.log10(v));
  if (e < 4 && e > -3) return v.toPrecision(3);
  const m = v / 10 ** e;
  const [mm, ee] = m >= 9.995 ? [1, e + 1] : [m, e]; // 9.996×10⁴ rounds to 1.00×10⁵
  return `${mm.toFixed(2)}×10${String(ee).split("").map((c) => SUPERSCRIPT[c]).join("")}`;
}

/** The focus row as softmax sees it: x = its scores ÷ the divisor, eˣ, their sum, eˣ ÷ sum (a
    masked key: x = −∞, eˣ = 0), in plain exp as the article writes it (no max subtracted). */
function s4Row(S, part, head, i) {
  const n = part.n;
  const raw = arr(S.D, `${part.prefix}scores`).subarray(head * n * n, (head + 1) * n * n);
  const div = divisorOf(S, part);
  const x = [];
  const ex = [];
  for (let j = 0; j < n; j++) {
    const masked = S.local.causal && j > i;
    x.push(masked ? -Infinity : raw[i * n + j] / div);
    ex.push(masked ? 0 : Math.exp(raw[i * n + j] / div));
  }
  const total = ex.reduce((a, b) => a + b, 0);
  const share = ex.map((e) => e / total);
  return { x, ex, total, share, div };
}

/** Which rows of the table fit: every key, or the largest shares (in the sentence's order) and
    one line for the rest. */
function s4Rows(share, fit) {
  const n = share.length;
  if (n <= fit) return { keys: share.map((_, j) => j), rest: [] };
  const top = share.map((a, j) => [a, j]).sort((a, b) => b[0] - a[0]).slice(0, Math.max(1, fit - 1));
  const keys = top.map(([, j]) => j).sort((a, b) => a - b);
  return { keys, rest: share.map((_, j) => j).filter((j) => !keys.includes(j)) };
}

export function paintExp(S, canvas, readout) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const part = S.part;
  const i = focusIn(S, part);
  const head = pickHead(S, part, i);
  const q = part.tokens[i].t;
  const row = s4Row(S, part, head, i);
  const title = tx(D, "lesson.s4.step_exp");
  const titleH = penWrap(pen, title, 0, 0, W, { px: Math.round(base * 1.15), weight: 700 });
  const code = "a = np.exp(x) / np.sum(np.exp(x))";
  penText(pen, code, 0, titleH + 4, { px: base, base: "top", mono: true, colour: pen.ink.muted });
  const top = titleH + base * 1.6 + 8;
  const names = labelsOf(D, part, { w: W, h: H - top }); // glosses in English where they fit
  const { keys, rest } = s4Rows(row.share, Math.floor((H - top) / (base * 1.3)) - 2);
  const cells = keys.map((j) => [names[j], s4X(row.x[j]), s4Big(row.ex[j]), s4Share(row.share[j])]);
  if (rest.length) {
    const sum = (f) => rest.reduce((a, j) => a + f(j), 0);
    const other = tx(D, "lesson.s4.exp_rest", { m: rest.length });
    cells.push([other, "", s4Big(sum((j) => row.ex[j])), s4Share(sum((j) => row.share[j]))]);
  }
  const sumShare = row.share.reduce((a, b) => a + b, 0);
  const head1 = ["", "x", "eˣ", "eˣ / Σ"];
  const foot = ["Σ", "", s4Big(row.total), sumShare.toFixed(3)];
  s4Table(S, pen, [head1, ...cells, foot], { top, W, H, base, shares: keys.map((j) => row.share[j]) });
  penDone(pen);
  const sep = tx(D, "explorer.sep");
  readout.textContent = tx(D, "lesson.s4.exp_sum", { q, total: s4Big(row.total), v: sumShare.toFixed(3) });
  const lines = keys.map((j) => `${part.tokens[j].t} ${s4X(row.x[j])} → ${s4Big(row.ex[j])} → ${s4Share(row.share[j])}`);
  if (rest.length) lines.push(cells[cells.length - 1].slice(2).join(" → ").replace(/^/, `${cells[cells.length - 1][0]} `));
  canvas.setAttribute("aria-label", `${tx(D, "lesson.head", { i: head + 1 })}, ${title}: ${lines.join(sep)}${sep}Σ ${s4Big(row.total)} → ${sumShare.toFixed(3)}`);
  canvas.dataset.values = JSON.stringify({ head, row: i, x: row.x.map((v) => (Number.isFinite(v) ? v : null)), exp: row.ex, total: row.total, share: row.share });
}

/** A share: 3 decimals, or 2 figures and a power of ten when it is under 0.0005 (not "0.000"). */
function s4Share(v) {
  return v >= 0.0005 || v === 0 ? v.toFixed(3) : s4Big(v);
}

function s4X(v) {
  return Number.isFinite(v) ? v.toFixed(2) : "−∞";
}

/** The table of ③′: a header, a line per key, Σ last; the share column with its bar in the
    weights' colours. Its type shrinks until the widest line fits, never under 20 px on a projector
    (read from the back; paintExp gives it the rows that fit at the room's type) nor 14 px on a
    phone (held close). */
function s4Table(S, pen, lines, o) {
  const D = S.D;
  const rows = lines.length;
  const rowH = Math.min(o.base * 1.6, (o.H - o.top) / rows);
  const phone = roomOf(D).phone;
  const least = phone ? 14 : 20;
  let px = Math.min(o.base, Math.floor(rowH / 1.25));
  if (!phone) px = Math.max(least, px);
  const gap = () => px * 1.2;
  const widths = () =>
    [0, 1, 2, 3].map((c) =>
      Math.max(...lines.map((ln) => penMeasure(pen, ln[c], 0, 0, { px, weight: c === 0 ? 700 : 400 })[2])),
    );
  let w = widths();
  const bar = () => Math.min(200, o.W * 0.25);
  while (px > least && w.reduce((a, b) => a + b, 0) + 3 * gap() + bar() > o.W) {
    px -= 1;
    w = widths();
  }
  const xs = [0];
  for (let c = 1; c < 4; c++) xs.push(xs[c - 1] + w[c - 1] + gap());
  const right = (c) => xs[c] + w[c]; // numbers align right, as in a ledger
  lines.forEach((ln, r) => {
    const y = o.top + r * rowH + rowH / 2;
    const strong = r === 0 || r === rows - 1;
    penText(pen, ln[0], right(0), y, { px, align: "right", weight: 700 });
    for (let c = 1; c < 4; c++) {
      if (ln[c]) penText(pen, ln[c], right(c), y, { px, align: "right", weight: strong ? 700 : 400 });
    }
    const share = r > 0 && r < rows - 1 ? o.shares[r - 1] ?? null : null;
    if (share !== null) {
      const x0 = right(3) + gap() / 2;
      const rgb = rampRgb(D.luts.weight, share, 0, 1);
      penCells(pen, x0, y - rowH * 0.3, Math.max(1, share * bar()), rowH * 0.6, 1, 1, () => rgb);
    }
  });
  const yLine = o.top + (rows - 1) * rowH;
  pen.ctx.fillStyle = pen.ink.text;
  pen.ctx.fillRect(0, yLine, right(3), 1.5); // the sum's rule
}
