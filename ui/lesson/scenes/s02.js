/* §2 the library, in words: a query compared with every card's label, the matches turned into
   shares, the cards' contents mixed by share. The formula waits for §3 and §4. The row shown is
   one whose mix is real (MIX_MIN), unless the class picks a word or a head. */

import { penCells, penDone, penFont, penLines, penOutline, penText, penTry, penWrap,
  rampRgb } from "../pen.js";
import { mixRows, rankRow } from "../arith.js";
import { tx } from "../text.js";
import { arr, divisorOf, focusIn } from "../numbers.js";
import { fontsOf, roomOf, scenePen } from "../room.js";
import { animate } from "../animate.js";
import { defineScene, headWeights, sceneCanvas, softmaxExample } from "../kit.js";
import { fillSide, headPicker, pctText, quoteTok, setLocal, wReadout, wTokens } from "../widgets.js";

// The second and third shares together at least this: the row mixes several cards' contents,
// it does not copy one (the pronoun head gives 小明 100%: a lookup, no mix).
const MIX_MIN = 0.25;

export default defineScene({
  id: "s02",
  title: "lesson.s2.title",
  steps: [
    {
      id: "match",
      label: "lesson.s2.step0",
      caption: "lesson.s2.cap.match",
      quiz: {
        words: true, // the choices are cards on screen: words of the sentence
        question: (S) => tx(S.D, "lesson.s2.question", { q: s2Query(S) }),
        choices: (S) => s2Choices(S),
      },
    },
    { id: "softmax", label: "lesson.s2.step1", caption: "lesson.s2.cap.softmax" },
    { id: "mix", label: "lesson.s2.step2", caption: "lesson.s2.cap.mix" },
  ],
  words: (S) => ({ q: s2Query(S) }),
  take: (S) => tx(S.D, roomOf(S.D).phone ? "lesson.s2.take_phone" : "lesson.s2.take"), // a phone: short
  terms: (S) => { // the glossary's example: the row on screen
    const { i, head } = s2Pick(S, S.part);
    return { softmax: softmaxExample(S, S.part, i, head) };
  },
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    let grow = 1;
    let mix = 1;
    const paint = (step) => s2Paint(S, canvas, step, grow, mix, readout);
    return {
      draw(step, from) {
        const part = S.part;
        const { i, head } = s2Pick(S, part);
        const legend = tx(S.D, "lesson.s2.pick");
        const phone = roomOf(S.D).phone; // a phone: the word only (the figure names the head)
        const mixing = step >= 2; // before: the question and its answer take the panel
        const select = phone || S.D.header.lang === "en"; // English chips carry glosses: seven lines
        const pick = mixing ? wTokens(S, "s2-query", legend, part, i, select) : null;
        const heads =
          part.h > 1 && !phone && mixing
            ? headPicker(S, part, head, (k) => setLocal(S, { head: k }))
            : null;
        fillSide(S, [pick, heads, phone || !mixing ? null : readout]);
        grow = step >= 1 ? 1 : 0;
        mix = step >= 2 ? 1 : 0;
        if (step === 1 && from === 0)
          animate(S.D, 600, (p) => {
            grow = p;
            paint(step);
          });
        else if (step === 2 && from === 1)
          animate(S.D, 600, (p) => {
            mix = p;
            paint(step);
          });
        else paint(step);
      },
    };
  },
});

/** How much of a row is mixed in besides its top card: its second and third shares. */
function s2Spread(S, part, head, i) {
  const w = headWeights(S, part, head);
  const r = rankRow(w, part.n, i);
  return (r.length > 1 ? w[i * part.n + r[1]] : 0) + (r.length > 2 ? w[i * part.n + r[2]] : 0);
}

/** The row the scene shows: the class's word and head when they picked them; else the part's
    word (他) in its most mixed head when that mixes (MIX_MIN), else the most mixed row of all. */
function s2Pick(S, part) {
  const chosen = S.local.head !== null && S.local.head < part.h;
  const heads = chosen ? [S.local.head] : [...Array(part.h).keys()];
  const best = (i) => {
    let head = heads[0];
    for (const k of heads) {
      if (s2Spread(S, part, k, i) > s2Spread(S, part, head, i) + 1e-9) head = k;
    }
    return { i, head, spread: s2Spread(S, part, head, i) };
  };
  if (S.local.focus !== null || part.n < 2) return best(focusIn(S, part));
  const mine = best(part.focus);
  if (mine.spread >= MIX_MIN) return mine;
  let top = mine;
  for (let i = 0; i < part.n; i++) {
    const r = best(i);
    if (r.spread > top.spread + 1e-9) top = r;
  }
  return top;
}

function s2Query(S) {
  return S.part.tokens[s2Pick(S, S.part).i].t;
}

/** The question on the cards: which gets the largest share? The right card is the row's top
    share (computed); the others are the next two. */
function s2Choices(S) {
  const part = S.part;
  const n = part.n;
  const { i, head } = s2Pick(S, part);
  const w = headWeights(S, part, head);
  const ranked = rankRow(w, n, i);
  const picked = ranked.slice(0, 3); // the three best matches: close calls, one right
  const raw = arr(S.D, `${part.prefix}scores`);
  const match = (j) => (raw[(head * n + i) * n + j] / divisorOf(S, part)).toFixed(2);
  const top = ranked[0];
  return picked
    .sort((a, b) => a - b)
    .map((j) => ({
      id: `w${j}`,
      label: quoteTok(S.D, part.tokens[j]),
      right: j === top,
      why: tx(S.D, j === top ? "lesson.s2.why_right" : "lesson.s2.why_wrong", {
        c: part.tokens[j].t, sc: match(j), k: part.tokens[top].t, sk: match(top),
        w: pctText(w[i * n + top]), wc: pctText(w[i * n + j]),
      }),
    }));
}

/** Which cards fit: every key in sentence order, or the heaviest ones and a "+ m" card. */
function s2Cards(w, n, room) {
  if (n <= room) return { cards: Array.from({ length: n }, (_, j) => j), more: 0 };
  const keep = rankRow(w, n, 0)
    .slice(0, room - 1)
    .sort((a, b) => a - b);
  return { cards: keep, more: n - keep.length };
}

function s2Paint(S, canvas, step, grow, mix, readout) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const part = S.part;
  const n = part.n;
  const { i, head } = s2Pick(S, part);
  const all = headWeights(S, part, head);
  const w = all.subarray(i * n, (i + 1) * n);
  const phone = roomOf(D).phone;
  const key = phone ? "lesson.s2.match_short" : "lesson.s2.match";
  const what = tx(D, key, { q: part.tokens[i].t, head: head + 1 });
  const bare = phone && step >= 2; // a phone's mix step: the mix alone (its rows name the cards)
  const high = bare ? 0 : penWrap(pen, what, 0, 0, W, { px: base, colour: pen.ink.muted });
  const used = bare ? high : s2Deck(S, pen, { step, grow, head, i, w, top: high + base * 0.3 });
  const out = s2Output(S, part, head, all);
  const mine = Array.from(out.subarray(i * part.d_k, (i + 1) * part.d_k));
  canvas.dataset.values = JSON.stringify(mine); // the row's mix, for the test against the core
  if (step >= 2) s2Mix(S, pen, { y: used + 8, w: W, base, alpha: mix }, w, head, i, out);
  penDone(pen);
  const ranked = rankRow(w, n, 0);
  const links = ranked.slice(0, 4).map((j) => `${part.tokens[j].t} ${pctText(w[j])}`);
  const sep = tx(D, "explorer.sep");
  canvas.setAttribute(
    "aria-label",
    tx(D, "lesson.s2.alt", { q: part.tokens[i].t, links: links.join(sep) }),
  );
  const said = tx(D, "lesson.s2.top", {
    k: part.tokens[ranked[0]].t, w: pctText(w[ranked[0]]), rest: pctText(1 - w[ranked[0]]),
  });
  readout.textContent = step >= 1 ? said : "";
}

/** The cards, as many as the room holds (the mix keeps its place below); returns their bottom. */
function s2Deck(S, pen, o) {
  const D = S.D;
  const part = S.part;
  const { n, prefix } = part;
  const base = fontsOf(D).label;
  const phone = roomOf(D).phone; // small cards, no gloss line (the select names each word)
  const en = D.header.lang === "en" && !phone;
  const cardH = base * (phone ? 4.9 : en ? 6.6 : 5.3);
  const wide = phone ? 3.2 : 4.6; // a card's least width, in labels
  const cols = Math.max(2, Math.min(n, Math.floor(pen.w / (base * wide)), 8));
  const mixRoom = phone ? 0 : base * 1.7 * 4 + base * 6; // the mix, legend, sums (a phone: alone)
  const room = pen.h - mixRoom - o.top;
  const rows = Math.max(1, Math.floor(room / (cardH + 8)));
  const { cards, more } = s2Cards(o.w, n, cols * rows);
  const cw = (pen.w - (cols - 1) * 8) / cols;
  const at = (c) => [(c % cols) * (cw + 8), o.top + Math.floor(c / cols) * (cardH + 8)];
  const row = (o.head * n + o.i) * n;
  const raw = arr(D, `${prefix}scores`).subarray(row, row + n);
  const div = divisorOf(S, part);
  const best = rankRow(o.w, n, 0)[0];
  const marked = o.step >= 1 ? [...new Set([o.i, best])] : []; // drawn in the warm ink
  pen.ctx.canvas.dataset.marked = JSON.stringify(marked.filter((j) => cards.includes(j)));
  cards.forEach((j, c) => {
    const [x, y] = at(c);
    const masked = S.local.causal && j > o.i;
    s2Card(pen, { x, y, w: cw, h: cardH }, part.tokens[j], {
      base, en, masked, me: j === o.i && marked.length > 0, best: j === best && marked.length > 0,
      grow: o.grow, phone, // the query's card plain at the question: marked, it would point at it
      match: masked ? "−∞" : (raw[j] / div).toFixed(2),
      share: o.step >= 1 && !masked ? o.w[j] : null,
    });
  });
  if (more) {
    const [x, y] = at(cards.length);
    penText(pen, `+ ${more}`, x + cw / 2, y + cardH / 2, {
      px: base,
      align: "center",
      colour: pen.ink.muted,
    });
  }
  return o.top + Math.ceil((cards.length + (more ? 1 : 0)) / cols) * (cardH + 8);
}

function s2Card(pen, box, tok, o) {
  const { ctx } = pen;
  const { x, y, w, h } = box;
  const px = o.base;
  ctx.save();
  const ink = pen.ink;
  ctx.fillStyle = o.masked ? ink.paper_masked : o.me ? ink.paper_me : ink.paper;
  ctx.strokeStyle = o.best || o.me ? ink.warm : ink.edge;
  ctx.lineWidth = o.best ? 4 : 2;
  ctx.beginPath();
  ctx.roundRect(x + 1, y + 1, w - 2, h - 2, 8);
  ctx.fill();
  ctx.stroke();
  ctx.restore();
  let line = y + 6;
  // the card's lines, centred, each left out where it would not fit the card
  const write = (text, look) => penTry(pen, text, x + w / 2, line, { px, align: "center", base: "top", max: w - 8, ...look });
  write(tok.t, { px: o.phone ? px : Math.round(px * 1.15), weight: 700 });
  line += px * (o.phone ? 1.3 : 1.45);
  if (o.en) {
    write(tok.gloss || "·", { colour: pen.ink.muted });
    line += px * 1.3;
  }
  write(o.match, { colour: pen.ink.muted });
  if (o.share === null) return;
  line += px * 1.3;
  write(pctText(o.share * o.grow), { weight: 700 });
  ctx.fillStyle = ink.track;
  ctx.fillRect(x + 6, y + h - 11, w - 12, 6);
  ctx.fillStyle = o.best ? ink.warm : ink.accent;
  ctx.fillRect(x + 6, y + h - 11, (w - 12) * o.share * o.grow, 6);
}

/** Every row's mix Σ_j w_ij v_j for the head (arith.js; the test holds it to the core). */
function s2Output(S, part, head, w) {
  const v = arr(S.D, `${part.prefix}v`);
  const d = part.d_k;
  return mixRows(w, v, head * part.n * d, part.n, d, new Float64Array(part.n * d));
}

/** The mix written out: the three heaviest shares × their values, and the output. */
function s2Mix(S, pen, at, w, head, i, out) {
  const D = S.D;
  const part = S.part;
  const d = part.d_k;
  const v = arr(D, `${part.prefix}v`);
  const px = at.base;
  const title = tx(D, "lesson.s2.mix", { d, head: head + 1 });
  const y0 = at.y + penWrap(pen, title, 0, at.y, at.w, { px, weight: 600 }) + px * 0.25;
  const top = rankRow(w, part.n, 0)
    .slice(0, 3)
    .filter((j, r) => r === 0 || w[j] >= 0.01);
  const rows = top.map((j) => ({
    label: tx(D, roomOf(D).phone ? "lesson.s2.part_short" : "lesson.s2.part", {
      w: pctText(w[j]), k: part.tokens[j].t,
    }),
    values: Array.from({ length: d }, (_, c) => w[j] * v[(head * part.n + j) * d + c]),
  }));
  const { sums, gaps } = s2Sums(S, w, head, i, out);
  pen.ctx.canvas.dataset.sums = JSON.stringify(gaps);
  const sumsH = penLines(pen, sums, at.w, { px }).length * px * 1.25; // its lines, under the legend
  const fit = Math.floor((pen.h - y0 - px * 4.4 - sumsH) / (px * 1.7)); // product rows that fit
  rows.splice(Math.max(1, fit));
  rows.push({ label: "= Σ", values: Array.from(out.subarray(i * d, (i + 1) * d)), out: true });
  let limit = 1e-9;
  for (const r of rows) for (const x of r.values) limit = Math.max(limit, Math.abs(x));
  pen.ctx.font = penFont(pen, px);
  const labelW = Math.max(...rows.map((r) => pen.ctx.measureText(r.label).width)) + 12;
  pen.ctx.globalAlpha = at.alpha;
  rows.forEach((r, k) => {
    const y = y0 + k * px * 1.7;
    penText(pen, r.label, labelW - 8, y + px * 0.6, {
      px,
      align: "right",
      weight: r.out ? 700 : 400,
    });
    penCells(pen, labelW, y, at.w - labelW - 3, px * 1.2, 1, d, (_, c) =>
      rampRgb(D.luts.signed, r.values[c], -limit, limit),
    );
    if (r.out) penOutline(pen, labelW, y, at.w - labelW - 3, px * 1.2, 2);
  });
  s2Legend(S, pen, labelW, y0 + rows.length * px * 1.7, limit, px);
  penWrap(pen, sums, 0, y0 + rows.length * px * 1.7 + px * 2.2, at.w, { px, colour: pen.ink.muted });
  pen.ctx.globalAlpha = 1;
}

/** The sum as the cards are added, largest share first (from the library page): how far it
    still is from the output, ‖Σ − output‖, before the first card and after each (published on
    the canvas), and in words. */
function s2Sums(S, w, head, i, out) {
  const { n, d_k: d, prefix } = S.part;
  const v = arr(S.D, `${prefix}v`);
  const o = Array.from(out.subarray(i * d, (i + 1) * d));
  const sum = new Float64Array(d);
  const gap = () => Math.hypot(...o.map((x, c) => sum[c] - x));
  const gaps = [gap()];
  for (const j of rankRow(w, n, 0)) {
    for (let c = 0; c < d; c++) sum[c] += w[j] * v[(head * n + j) * d + c];
    gaps.push(gap());
  }
  const ends = gaps.length > 5 ? [...gaps.slice(0, 4), null, gaps[gaps.length - 1]] : gaps;
  const shown = ends.map((g) => (g === null ? "…" : g.toFixed(2)));
  return { sums: tx(S.D, "lesson.s2.sums", { gaps: shown.join(" → ") }), gaps };
}

/** The colours' legend: a ramp from −limit to +limit, its ends and 0 written. */
function s2Legend(S, pen, x, y, limit, px) {
  const w = Math.min(pen.w - x - 3, px * 12);
  const steps = 21;
  penCells(pen, x, y, w, px * 0.6, 1, steps, (_, c) =>
    rampRgb(S.D.luts.signed, ((2 * c) / (steps - 1) - 1) * limit, -limit, limit),
  );
  const small = roomOf(S.D).phone ? Math.max(11, Math.round(px * 0.8)) : px; // the room's least
  const o = { px: small, base: "top", colour: pen.ink.muted };
  const at = y + px * 0.7;
  penText(pen, `−${limit.toFixed(2)}`, x, at, o);
  penText(pen, "0", x + w / 2, at, { ...o, align: "center" });
  penText(pen, `+${limit.toFixed(2)}`, x + w, at, { ...o, align: "right" });
  penTry(pen, tx(S.D, "lesson.s2.legend"), x - 8, at, { ...o, align: "right" });
}
