/* §2 the library: one query against every key's card, softmax into shares, the values mixed. */

const { addScene, animate, arr, divisorOf, fillSide, focusIn, fontsOf, headPicker, headWeights,
  mixRows, pctText, penCells, penDone, penFont, penOutline, penText, penTry, pickHead, rampRgb,
  rankRow, sceneCanvas, scenePen, setLocal, softmaxExample, tx, wReadout, wTokens } = LESSON;

addScene({
  id: "s02",
  phone: 1.7,
  title: "lesson.s2.title",
  steps: [
    { id: "match", label: "lesson.s2.step0", caption: "lesson.s2.cap.match" },
    { id: "softmax", label: "lesson.s2.step1", caption: "lesson.s2.cap.softmax" },
    { id: "mix", label: "lesson.s2.step2", caption: "lesson.s2.cap.mix" },
  ],
  take: (S) => tx(S.D, "lesson.s2.take"),
  terms: (S) => ({ softmax: softmaxExample(S, S.part) }), // the glossary's example, this row
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    let grow = 1;
    let mix = 1;
    const paint = (step) => s2Paint(S, canvas, step, grow, mix, readout);
    return {
      draw(step, from) {
        const part = S.part;
        const i = focusIn(S, part);
        const head = pickHead(S, part, i);
        const pick = wTokens(
          S,
          tx(S.D, "lesson.s2.pick"),
          part,
          i,
          (j) => setLocal(S, { focus: part.tokens[j].t }),
          "s2-query",
        );
        const heads =
          part.h > 1
            ? headPicker(S, part, head, (k) => setLocal(S, { head: k }))
            : null;
        fillSide(S, [pick, heads, readout]);
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
  const i = focusIn(S, part);
  const head = pickHead(S, part, i);
  const all = headWeights(S, part, head);
  const w = all.subarray(i * n, (i + 1) * n);
  const what = tx(D, "lesson.s2.match", { f: S.local.scale ? "q·k / √d_k" : "q·k" });
  penText(pen, what, 0, 0, { px: base, base: "top", colour: pen.ink.muted });
  const used = s2Deck(S, pen, { step, grow, head, i, w, top: base * 1.5 });
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
  const share = ranked.slice(0, 3).reduce((a, j) => a + w[j], 0);
  const said = tx(D, "lesson.s2.top", { m: Math.min(3, n), share: pctText(share) });
  readout.textContent = step >= 1 ? said : "";
}

/** The cards, as many as the room holds (the mix keeps its place below); returns their bottom. */
function s2Deck(S, pen, o) {
  const D = S.D;
  const part = S.part;
  const { n, prefix } = part;
  const base = fontsOf(D).label;
  const en = D.header.lang === "en";
  const cardH = base * (en ? 6.6 : 5.3);
  const cols = Math.max(2, Math.min(n, Math.floor(pen.w / (base * 4.6)), 8));
  const room = pen.h - (base * 1.7 * 4 + base * 1.6) - o.top;
  const rows = Math.max(1, Math.floor(room / (cardH + 8)));
  const { cards, more } = s2Cards(o.w, n, cols * rows);
  const cw = (pen.w - (cols - 1) * 8) / cols;
  const at = (c) => [(c % cols) * (cw + 8), o.top + Math.floor(c / cols) * (cardH + 8)];
  const row = (o.head * n + o.i) * n;
  const raw = arr(D, `${prefix}scores`).subarray(row, row + n);
  const div = divisorOf(S, part);
  const best = rankRow(o.w, n, 0)[0];
  cards.forEach((j, c) => {
    const [x, y] = at(c);
    const masked = S.local.causal && j > o.i;
    s2Card(pen, { x, y, w: cw, h: cardH }, part.tokens[j], {
      base, en, masked, me: j === o.i, best: j === best && o.step >= 1, grow: o.grow,
      match: masked ? "−∞" : (raw[j] / div).toFixed(2),
      share: o.step >= 1 && !masked ? o.w[j] : null,
    }); // prettier-ignore
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
  const max = w - 8;
  penTry(pen, tok.t, x + w / 2, line, {
    px: Math.round(px * 1.15),
    align: "center",
    base: "top",
    weight: 700,
    max,
  });
  line += px * 1.45;
  if (o.en) {
    penTry(pen, tok.gloss || "·", x + w / 2, line, {
      px,
      align: "center",
      base: "top",
      colour: pen.ink.muted,
      max,
    });
    line += px * 1.3;
  }
  penTry(pen, o.match, x + w / 2, line, { px, align: "center", base: "top", colour: pen.ink.muted, max });
  if (o.share === null) return;
  line += px * 1.3;
  penTry(pen, pctText(o.share * o.grow), x + w / 2, line, {
    px,
    align: "center",
    base: "top",
    weight: 700,
    max,
  });
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
  const top = rankRow(w, part.n, 0)
    .slice(0, 3)
    .filter((j, r) => r === 0 || w[j] >= 0.01);
  const rows = top.map((j) => ({
    label: `${pctText(w[j])} × v(${part.tokens[j].t})`,
    values: Array.from({ length: d }, (_, c) => w[j] * v[(head * part.n + j) * d + c]),
  }));
  rows.push({ label: "= Σ", values: Array.from(out.subarray(i * d, (i + 1) * d)), out: true });
  let limit = 1e-9;
  for (const r of rows) for (const x of r.values) limit = Math.max(limit, Math.abs(x));
  const px = at.base;
  penText(pen, tx(D, "lesson.s2.mix", { d, head: head + 1 }), 0, at.y, {
    px,
    base: "top",
    weight: 600,
  });
  pen.ctx.font = penFont(pen, px);
  const labelW = Math.max(...rows.map((r) => pen.ctx.measureText(r.label).width)) + 12;
  pen.ctx.globalAlpha = at.alpha;
  rows.forEach((r, k) => {
    const y = at.y + px * 1.5 + k * px * 1.7;
    penText(pen, r.label, labelW - 8, y + px * 0.6, {
      px,
      align: "right",
      weight: r.out ? 700 : 400,
    });
    penCells(pen, labelW, y, at.w - labelW, px * 1.2, 1, d, (_, c) =>
      rampRgb(D.luts.signed, r.values[c], -limit, limit),
    );
    if (r.out) penOutline(pen, labelW, y, at.w - labelW, px * 1.2, 2);
  });
  pen.ctx.globalAlpha = 1;
}

return {};
