/* §4 the formula, four steps morphing into one another on the sentence's real numbers
   (Q·Kᵀ → ÷√d_k → softmax → ·V), one head, the focus row's numbers beside; then all four played
   in a row (a step of its own, so a presenter's → reaches it). */

const { mapGeometry } = VIEW;
const { addScene, animate, arr, CELL_STEP, cellStep, divisorOf, fillSide, focusIn, fontsOf, goStep, headPicker,
  headWeights, labelsOf, mixRows, pctText, penCells, penDone, penInkOn, penMap, penText, penTry,
  penWrap, pickHead, rampRgb, rankRow, sceneCanvas, scenePen, setLocal, softmaxExample, tx,
  wButton, wReadout } = LESSON;

/** Step ②'s name: ÷√d_k with its value, or ÷1 with the scene's scaling off. */
function s4Second(S) {
  const root = Math.sqrt(S.part.d_k).toFixed(2);
  return S.local.scale ? tx(S.D, "lesson.s4.step1", { s: root }) : tx(S.D, "lesson.s4.step1_off");
}

const S4_STEPS = [
  { id: "scores", label: "lesson.s4.step0", caption: "lesson.s4.cap.scores" },
  { id: "scaled", label: s4Second, caption: "lesson.s4.cap.scaled" },
  { id: "softmax", label: "lesson.s4.step2", caption: "lesson.s4.cap.softmax" },
  { id: "mix", label: "lesson.s4.step3", caption: "lesson.s4.cap.mix" },
];

/** The numpy line of each matrix step, as run with the scene's √d_k and mask (pages/lesson.py). */
function s4Lines(S) {
  return S.D.header.numpy[`${Number(S.local.scale)}|${Number(S.local.causal)}`];
}

/** The name of the matrix step k (0 … 3) shows. */
function s4Name(S, k) {
  const label = S4_STEPS[k].label;
  return typeof label === "function" ? label(S) : tx(S.D, label);
}

addScene({
  id: "s04",
  phone: (step) => (step > S4_STEPS.length ? 0 : 1.2), // the cell step: the screen's rest
  title: "lesson.s4.title",
  steps: [...S4_STEPS, { id: "play", label: "lesson.s4.step_play", caption: "lesson.s4.cap.play" },
    CELL_STEP], // one score taken apart (cellstep.js)
  take: (S) => tx(S.D, S.local.scale ? "lesson.s4.take" : "lesson.s4.take_off"),
  terms: (S) => ({ softmax: softmaxExample(S, S.part) }), // the glossary's example, this row
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const cell = cellStep(S); // the step "cell" draws itself
    const readout = wReadout(S, "lesson-readout");
    let shown = { from: 0, to: 0, p: 1 };
    const kept = { key: "", gFull: null, gSmall: null }; // the maps' geometry (s4Geometry)
    const paint = () => s4Paint(S, canvas, shown, readout, kept);
    const morph = (from, to, ms = 650) => {
      shown = { from, to, p: 0 };
      animate(S.D, ms, (p) => {
        shown.p = p;
        paint();
      });
    };
    const play = () => {
      let k = 0;
      shown = { from: 0, to: 0, p: 1 };
      const stepOn = () => {
        if (k >= 3 || S.D.ctx !== S || S.D.step !== S4_STEPS.length) return; // left meanwhile
        k += 1;
        shown = { from: k - 1, to: k, p: 0 };
        animate(S.D, 900, (p) => {
          shown.p = p;
          paint();
          if (p >= 1) setTimeout(stepOn, 350);
        });
      };
      stepOn();
    };
    const replay = () => (S.D.step === S4_STEPS.length ? play() : goStep(S, "play"));
    return {
      draw(step, from) {
        if (cell.draw(step)) return;
        const part = S.part;
        const i = focusIn(S, part);
        const head = pickHead(S, part, i);
        fillSide(S, [
          wButton(S, tx(S.D, "lesson.s4.play"), replay, "s4-play", "primary"),
          part.h > 1 ? headPicker(S, part, head, (k) => setLocal(S, { head: k })) : null,
          readout,
        ]);
        const last = S4_STEPS.length - 1; // the play step (after ④) ends on ④
        const to = Math.min(step, last);
        const was = from === null ? null : Math.min(from, last);
        if (step > last && from !== null && from !== step) play();
        else if (was !== null && Math.abs(to - was) === 1) morph(was, to);
        else {
          shown = { from: to, to, p: 1 };
          paint();
        }
      },
    };
  },
});

/** The matrices of each step for the head: colour of cell (i, j), its number, and the ramp. */
function s4Layers(S, part, head) {
  const D = S.D;
  const n = part.n;
  const raw = arr(D, `${part.prefix}scores`).subarray(head * n * n, (head + 1) * n * n);
  let limit = 1e-9;
  for (const v of raw) limit = Math.max(limit, Math.abs(v));
  const div = divisorOf(S, part);
  const w = headWeights(S, part, head);
  const masked = (i, j) => S.local.causal && j > i;
  const signed = (f) => (i, j) => rampRgb(D.luts.signed, f(i, j), -limit, limit);
  return [
    {
      colour: signed((i, j) => raw[i * n + j]),
      value: (i, j) => raw[i * n + j].toFixed(1),
      widest: `-${limit.toFixed(1)}`,
      raw,
      limit,
    },
    {
      colour: signed((i, j) => raw[i * n + j] / div),
      value: (i, j) => (raw[i * n + j] / div).toFixed(1),
      widest: `-${(limit / div).toFixed(1)}`,
    },
    {
      colour: (i, j) => (masked(i, j) ? null : rampRgb(D.luts.weight, w[i * n + j], 0, 1)),
      value: (i, j) => (masked(i, j) ? null : String(Math.round(w[i * n + j] * 100))),
      widest: "100",
    },
    { colour: (i, j) => (masked(i, j) ? null : rampRgb(D.luts.weight, w[i * n + j], 0, 1)) },
  ].map((layer) => ({ ...layer, w }));
}

function s4Paint(S, canvas, shown, readout, kept) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const part = S.part;
  const fonts = fontsOf(D);
  const i = focusIn(S, part);
  const head = pickHead(S, part, i);
  const layers = s4Layers(S, part, head);
  const to = shown.to;
  const lines = s4Lines(S);
  const titleH = penWrap(pen, s4Name(S, to), 0, 0, W, { px: Math.round(base * 1.15), weight: 700 });
  penText(pen, lines[to], 0, titleH + 4, { px: base, base: "top", mono: true, colour: pen.ink.muted });
  const top = titleH + base * 1.6 + 8;
  const labels = labelsOf(D, part, { w: W, h: H - top });
  const { gFull, gSmall } = s4Geometry(S, kept, labels, W, H - top, fonts);
  const into3 = to === 3 ? (shown.from === 3 ? 1 : shown.p) : shown.from === 3 ? 1 - shown.p : 0;
  const g0 = into3 > 0 ? gSmall : gFull;
  const dy = top + (into3 > 0 ? base * 1.4 : 0);
  const g = { ...g0, top: g0.top + dy, height: g0.height + dy }; // the map's place in the figure
  const a = layers[Math.min(shown.from, 2)];
  const b = layers[Math.min(to, 2)];
  const p = shown.p;
  const rgb = (r, c) => s4Blend(a.colour(r, c), b.colour(r, c), p);
  const numbers = p >= 1 && to <= 2 ? s4Numbers(pen, layers[to]) : null;
  const causal = S.local.causal && Math.min(shown.from, to) >= 2;
  const axes = { query: tx(D, "main.query_axis"), key: tx(D, "main.key_axis") };
  penMap(pen, g, { rgb, labels, axes, keep: i, fonts, causal, numbers });
  if (into3 > 0) s4Mix(S, pen, g, head, layers[2].w, into3, base);
  penDone(pen);
  s4Words(S, canvas, readout, to, head, layers, i);
}

/** A cell's colour between two steps' (null: masked in both). */
function s4Blend(ca, cb, p) {
  if (!ca && !cb) return null;
  const x = ca || cb;
  const y = cb || ca;
  return [0, 1, 2].map((k) => x[k] + (y[k] - x[k]) * p);
}

/** The numbers of a step's cells, each in the ink its colour needs (the palette's rule). */
function s4Numbers(pen, layer) {
  if (!layer.value) return null;
  return {
    text: layer.value,
    widest: layer.widest,
    ink: (i, j) => {
      const c = layer.colour(i, j);
      return c ? penInkOn(pen, c) : pen.ink.mark_outer;
    },
  };
}

/** The map's geometry alone (steps ①–③) and beside V and O (step ④), kept while the room and
    the labels stay (in `kept`, the scene's own): a morph repaints cells, not the layout. */
function s4Geometry(S, kept, labels, w, h, fonts) {
  const key = JSON.stringify([labels, w, h, fonts]);
  if (kept.key === key) return kept;
  const part = S.part;
  const n = part.n;
  const ctx = S.doc.createElement("canvas").getContext("2d");
  const gFull = mapGeometry(ctx, labels, w, h, fonts);
  const room = (w - gFull.left - 2 * 24) * (n / (n + 2 * part.d_k)) + gFull.left;
  const gSmall = mapGeometry(ctx, labels, room, h - fonts.label * 1.4, fonts);
  return Object.assign(kept, { key, gFull, gSmall });
}

/** Step ④: A · V = O beside the weights, rows aligned (fading in as it arrives). */
function s4Mix(S, pen, g, head, w, alpha, base) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const d = part.d_k;
  const v = arr(D, `${part.prefix}v`);
  const out = mixRows(w, v, head * n * d, n, d, new Float64Array(n * d));
  const c = g.cell;
  const xV = g.left + g.side + 24;
  const xO = xV + d * c + 24;
  let lv = 1e-9;
  let lo = 1e-9;
  for (let k = 0; k < n * d; k++) {
    lv = Math.max(lv, Math.abs(v[head * n * d + k]));
    lo = Math.max(lo, Math.abs(out[k]));
  }
  const top = g.top;
  pen.ctx.globalAlpha = alpha;
  penText(pen, "A", g.left + g.side / 2, top - 4, {
    px: base,
    align: "center",
    base: "bottom",
    weight: 700,
  });
  penText(pen, "V", xV + (d * c) / 2, top - 4, {
    px: base,
    align: "center",
    base: "bottom",
    weight: 700,
  });
  const oTitle = { px: base, align: "left", base: "bottom", weight: 700 };
  if (!penTry(pen, tx(D, "lesson.s4.out", { n, d }), xO, top - 4, oTitle)) {
    penText(pen, "O", xO, top - 4, oTitle); // a narrow O (many tokens, small d_k): its letter
  }
  penCells(pen, xV, top, d * c, n * c, n, d, (r, k) =>
    rampRgb(D.luts.signed, v[(head * n + r) * d + k], -lv, lv),
  );
  const mid = top + (n * c) / 2;
  penText(pen, "·", xV - 12, mid, { px: Math.round(base * 1.4), align: "center", weight: 700 });
  penText(pen, "=", xO - 12, mid, { px: Math.round(base * 1.2), align: "center", weight: 700 });
  penCells(pen, xO, top, d * c, n * c, n, d, (r, k) =>
    rampRgb(D.luts.signed, out[r * d + k], -lo, lo),
  );
  pen.ctx.globalAlpha = 1;
  S.figure.querySelector("canvas").dataset.values = JSON.stringify(Array.from(out));
}

function s4Words(S, canvas, readout, step, head, layers, i) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const w = layers[0].w;
  const order = rankRow(w, n, i)
    .slice(0, 4)
    .filter((j, r) => r === 0 || step < 2 || w[i * n + j] >= 0.01);
  const row = i * n;
  const raw = layers[0].raw;
  const div = divisorOf(S, part);
  const fmtOf = [
    (j) => raw[row + j].toFixed(2),
    (j) => (raw[row + j] / div).toFixed(2),
    (j) => pctText(w[row + j]),
  ];
  const head1 = tx(D, "lesson.s4.row", { q: part.tokens[i].t });
  let text;
  if (step <= 2)
    text = `${head1}: ${order.map((j) => `${part.tokens[j].t} ${fmtOf[step](j)}`).join(" · ")}`;
  else text = tx(D, "lesson.s4.out", { n, d: part.d_k });
  if (step === 2) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += w[row + j];
    text += ` (${tx(D, "lesson.s4.sum", { v: sum.toFixed(3) })})`;
  }
  readout.textContent = text;
  const rows =
    step <= 2
      ? `${head1}: ${order.map((j) => `${part.tokens[j].t} ${fmtOf[step](j)}`).join(tx(D, "explorer.sep"))}`
      : "";
  const lines = s4Lines(S);
  const name = `${s4Name(S, step)} (${lines[step]})`; // the numpy line too: what a reader would run
  canvas.setAttribute(
    "aria-label",
    tx(D, "lesson.s4.alt", { head: head + 1, name, n, m: step === 3 ? part.d_k : n, rows }),
  );
}

return {};
