/* §3 one word's three faces: its x times W_Q, W_K, W_V gives q, k, v. */

import { penArrow, penCells, penDone, penInkOn, penLine, penMeasure, penOutline, penText, penTry,
  penWrap, rampRgb } from "../pen.js";
import { tx } from "../text.js";
import { arr, focusIn } from "../numbers.js";
import { roomOf, scenePen } from "../room.js";
import { animate } from "../animate.js";
import { defineScene, pickHead, sceneCanvas } from "../kit.js";
import { fillSide, wReadout, wTokens } from "../widgets.js";

const S3_NAMES = ["Q", "K", "V"];

export default defineScene({
  id: "s03",
  title: "lesson.s3.title",
  steps: [
    { id: "x", label: "lesson.s3.step0", caption: "lesson.s3.cap.x" },
    { id: "q", label: "lesson.s3.step1", caption: "lesson.s3.cap.q" },
    { id: "k", label: "lesson.s3.step2", caption: "lesson.s3.cap.k" },
    { id: "v", label: "lesson.s3.step3", caption: "lesson.s3.cap.v" },
  ],
  words: (S) => ({ h: S.part.h, dk: S.part.d_k }),
  take: (S) => tx(S.D, "lesson.s3.take"),
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    let fade = 1;
    const paint = (step) => s3Paint(S, canvas, step, fade, readout);
    return {
      draw(step, from) {
        const part = S.part;
        const i = focusIn(S, part);
        const legend = tx(S.D, "lesson.s3.pick");
        fillSide(S, [wTokens(S, "s3-token", legend, part, i, roomOf(S.D).phone), readout]);
        fade = 1;
        if (from !== null && step === from + 1)
          animate(S.D, 500, (p) => {
            fade = p;
            paint(step);
          });
        else paint(step);
      },
    };
  },
});

/** x · W = row of Q, K or V (d_model numbers), from the arrays the core computed. */
function s3Vectors(S, part, i) {
  const D = S.D;
  const d = part.d_model;
  const x = arr(D, `${part.prefix}x`);
  const row = x ? x.subarray(i * d, (i + 1) * d) : null;
  const faces = S3_NAMES.map((name) => {
    const m = name.toLowerCase();
    const per = arr(D, `${part.prefix}${m}`); // (h, n, d_k): the row of token i, heads side by side
    const out = new Float64Array(d);
    for (let k = 0; k < part.h; k++) {
      for (let c = 0; c < part.d_k; c++)
        out[k * part.d_k + c] = per[(k * part.n + i) * part.d_k + c];
    }
    return { name, w: arr(D, `${part.prefix}w_${m}`), row: out };
  });
  return { x: row, faces };
}

function s3Paint(S, canvas, step, fade, readout) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const part = S.part;
  const i = focusIn(S, part);
  const tok = part.tokens[i].t;
  const d = part.d_model;
  const { x, faces } = s3Vectors(S, part, i);
  const head = pickHead(S, part, i); // the head in view (§4's): a phone draws its piece large
  const g = { D, W, H, base, stripH: Math.round(base * 1.3), part, step, fade, head };
  penText(pen, tx(D, "lesson.s3.x", { q: tok, d }), 0, 0, { px: base, base: "top", weight: 700 });
  s3Legend(pen, g);
  if (x) s3Strip(pen, g, x, 0, base * 1.4, W, false);
  g.top = base * 1.4 + g.stripH + base * 1.6;
  if (step === 0) s3Matrix(S, pen, g, i);
  else if (roomOf(D).phone) s3Column(pen, g, faces);
  else s3Row(pen, g, faces);
  penDone(pen);
  const shown = step === 0 ? [] : faces.slice(0, step);
  const lines = shown.map((f) =>
    tx(D, "lesson.s3.row", { q: tok, name: f.name.toLowerCase(), d, j: argmaxAbs(f.row) + 1 }),
  );
  const phone = roomOf(D).phone;
  const f = faces[step - 1];
  const inPiece = f ? argmaxAbs(f.row.subarray(head * part.d_k, (head + 1) * part.d_k)) : 0;
  // the step's face (the figure marks each); a phone: the piece drawn large, counted two ways
  readout.textContent = phone && f
    ? tx(D, "lesson.s3.row_phone", { q: tok, name: f.name.toLowerCase(), p: head + 1, dk: part.d_k,
      j: inPiece + 1, whole: head * part.d_k + inPiece + 1, d })
    : lines.slice(-1).join("");
  const alt =
    step === 0 ? tx(D, "lesson.s3.alt", { name: "X", n: part.n, d, q: tok }) : lines.join(" ");
  canvas.setAttribute("aria-label", alt);
}

function s3Lim(a) {
  let m = 1e-9;
  for (const v of a) m = Math.max(m, Math.abs(v));
  return m;
}

/** One row of d numbers as cells; `mark`: outline the largest |value| and write its number
    (counted from 1) under it, and show where each head's piece ends. */
function s3Strip(pen, g, row, x, y, w, mark) {
  const lim = s3Lim(row);
  const d = row.length;
  penCells(pen, x, y, w, g.stripH, 1, d, (_, c) => rampRgb(g.D.luts.signed, row[c], -lim, lim));
  if (!mark) return;
  s3HeadTicks(pen, x, y, w, g.stripH, g.part);
  const j = argmaxAbs(row);
  const cw = w / d;
  penOutline(pen, x + j * cw, y, cw, g.stripH, 2);
  const at = Math.min(Math.max(x + (j + 0.5) * cw, x + g.base), x + w - g.base);
  penTry(pen, String(j + 1), at, y + g.stripH + 3, {
    px: g.base, align: "center", base: "top", weight: 700,
  });
}

/** Step x: the sentence's X, one row per word, the chosen word's row outlined. */
function s3Matrix(S, pen, g, i) {
  const x = arr(g.D, `${g.part.prefix}x`);
  if (!x) return;
  const { n, d_model: d, tokens } = g.part;
  const rowH = Math.max(2, Math.min(g.base * 1.5, (g.H - g.top - g.base * 2.9) / n));
  const labelW = g.base * 3.2;
  const lim = s3Lim(x);
  const said = tx(g.D, "lesson.s3.big_x", { n, d });
  const y0 = g.top + penWrap(pen, said, 0, g.top, g.W, { px: g.base, colour: pen.ink.muted }) + 4;
  penCells(pen, labelW, y0, g.W - labelW, rowH * n, n, d, (r, c) =>
    rampRgb(g.D.luts.signed, x[r * d + c], -lim, lim),
  );
  penOutline(pen, labelW, y0 + i * rowH, g.W - labelW, rowH, 2);
  const order = [i, ...tokens.map((_, r) => r)];
  for (const r of new Set(order)) {
    penTry(pen, tokens[r].t, labelW - 6, y0 + (r + 0.5) * rowH, {
      px: roomOf(g.D).phone ? Math.min(g.base, Math.max(11, rowH * 0.8)) : g.base, // every few
      align: "right",
      weight: r === i ? 700 : 400,
      colour: r === i ? pen.ink.warm : pen.ink.text,
      max: labelW - 6,
    });
  }
}

/** Wide: the three faces side by side, W above its row of q, k or v. */
function s3Row(pen, g, faces) {
  const { D, W, H, base, stripH, part, top } = g;
  const d = part.d_model;
  const colW = (W - 2 * 16) / 3;
  const side = Math.max(40, Math.min(colW, H - top - base * 5.6 - stripH));
  faces.forEach((f, k) => {
    if (g.step < k + 1) return;
    pen.ctx.globalAlpha = g.step === k + 1 ? g.fade : 1;
    const x0 = k * (colW + 16);
    const cx = x0 + colW / 2;
    penArrow(pen, cx, base * 1.4 + stripH + 4, cx, top - 4, pen.ink.muted, 2);
    penText(pen, `W_${f.name}  ${d} × ${d}`, cx, top, {
      px: base, align: "center", base: "top", colour: pen.ink.muted,
    });
    const wy = top + base * 1.3;
    if (f.w) s3Weights(pen, g, f.w, cx - side / 2, wy, side);
    const ry = wy + side + base * 0.4;
    penText(pen, `${f.name.toLowerCase()} = x·W_${f.name}`, cx, ry, {
      px: base, align: "center", base: "top", weight: 700,
    });
    s3Strip(pen, g, f.row, x0, ry + base * 1.4, colW, true);
    pen.ctx.globalAlpha = 1;
  });
}

/** Phone: the step's face alone, and less of it (issue 39 item 18: W_Q's 48 × 48 cells were
    4 px): W named, not drawn; the face's whole row with its pieces (one per head, §3's last
    step names them); the piece of the head in view (§4's) drawn large with its numbers, the one
    furthest from 0 outlined and counted within the piece (the readout gives the whole row's
    count too: the same number counted two ways). */
function s3Column(pen, g, faces) {
  const { D, W, base, stripH, part } = g;
  const d = part.d_model;
  const dk = part.d_k;
  const f = faces[g.step - 1];
  const head = g.head;
  let y = g.top - base * 0.6;
  pen.ctx.globalAlpha = g.fade;
  // a line as large as the width lets it be, never under 14 px (no text on a phone is smaller)
  const fit = (text, weight) => {
    const w = penMeasure(pen, text, 0, 0, { px: base, weight })[2];
    return Math.max(14, Math.min(base, Math.floor((base * (W - 4)) / Math.max(1, w))));
  };
  const times = tx(D, "lesson.s3.times_w", { name: f.name, d });
  penText(pen, times, W / 2, y, {
    px: fit(times, 400), align: "center", base: "top", colour: pen.ink.muted,
  });
  y += base * 1.35;
  penText(pen, `${f.name.toLowerCase()} = x·W_${f.name}`, 0, y, { px: base, base: "top", weight: 700 });
  y += base * 1.3;
  const lim = s3Lim(f.row);
  penCells(pen, 0, y, W, stripH, 1, d, (_, c) => rampRgb(D.luts.signed, f.row[c], -lim, lim));
  s3HeadTicks(pen, 0, y, W, stripH, part);
  const x0 = (W * head * dk) / d;
  const x1 = (W * (head + 1) * dk) / d;
  penOutline(pen, x0, y, x1 - x0, stripH, 3);
  y += stripH + 2;
  const zoomY = y + base * 2.3;
  penLine(pen, x0, y, 0, zoomY, pen.ink.muted, 1.5);
  penLine(pen, x1, y, W, zoomY, pen.ink.muted, 1.5);
  const said = tx(D, g.step === 3 ? "lesson.s3.piece_head" : "lesson.s3.piece",
    { p: head + 1, h: part.h, dk });
  penText(pen, said, W / 2, y + base * 1.15, { px: fit(said, 700), align: "center", base: "middle", weight: 700 });
  const piece = f.row.subarray(head * dk, (head + 1) * dk);
  const cw = W / dk;
  const ch = Math.round(base * 1.8);
  penCells(pen, 0, zoomY, W, ch, 1, dk, (_, c) => rampRgb(D.luts.signed, piece[c], -lim, lim));
  const px = Math.max(14, Math.min(base, Math.floor(cw * 0.45)));
  for (let c = 0; c < dk; c++) {
    const ink = penInkOn(pen, rampRgb(D.luts.signed, piece[c], -lim, lim));
    penTry(pen, piece[c].toFixed(1), (c + 0.5) * cw, zoomY + ch / 2, {
      px, align: "center", colour: ink, cell: true, max: cw - 2,
    });
  }
  const j = argmaxAbs(piece);
  penOutline(pen, j * cw, zoomY, cw, ch, 3);
  const at = Math.min(Math.max((j + 0.5) * cw, base), W - base);
  penTry(pen, String(j + 1), at, zoomY + ch + 3, { px: base, align: "center", base: "top", weight: 700 });
  pen.ctx.globalAlpha = 1;
}

function s3Weights(pen, g, w, x, y, side) {
  const d = g.part.d_model;
  const lim = s3Lim(w);
  penCells(pen, x, y, side, side, d, d, (r, c) => rampRgb(g.D.luts.signed, w[r * d + c], -lim, lim));
}

/** The colours' legend at the top right: blue below 0, red above, each strip and matrix on
    its own scale (its largest |value| the deepest colour). */
function s3Legend(pen, g) {
  const px = roomOf(g.D).phone ? Math.max(11, Math.round(g.base * 0.8)) : g.base; // room's least
  const o = { px, base: "middle", colour: pen.ink.muted };
  const y = g.base * 0.6; // on the title's line, at its right: "colour − ▬▬▬ +"
  const w = g.base * 4;
  const x = g.W - px - w;
  const steps = 21;
  penCells(pen, x, y - px * 0.35, w, px * 0.7, 1, steps, (_, c) =>
    rampRgb(g.D.luts.signed, (2 * c) / (steps - 1) - 1, -1, 1),
  );
  penText(pen, "+", g.W, y, { ...o, align: "right" });
  const minus = penText(pen, "−", x - 4, y, { ...o, align: "right" });
  penTry(pen, tx(g.D, "lesson.s3.legend"), minus[0] - 6, y, { ...o, align: "right" });
}

/** Where one head's d_k columns end and the next head's begin. */
function s3HeadTicks(pen, x, y, w, h, part) {
  for (let k = 1; k < part.h; k++) {
    const xx = x + (w * k * part.d_k) / part.d_model;
    penLine(pen, xx, y - 4, xx, y + h + 4, pen.ink.text, 2);
  }
}


/** The dimension with the largest |value|, 0-based (the words count from 1). */
function argmaxAbs(a) {
  let best = 0;
  for (let j = 1; j < a.length; j++) if (Math.abs(a[j]) > Math.abs(a[best])) best = j;
  return best;
}
