/* §4 the formula, four steps morphing into one another on the sentence's real numbers
   (Q·Kᵀ → ÷√d_k → softmax → ·V), one head, the focus row's numbers beside; softmax opened up on
   the focus row (exp(x) / sum(exp(x)), the article's line, with that row's numbers) between ③ and
   ④; then all four played in a row (a step of its own, so a presenter's → reaches it). */

const { mapGeometry } = VIEW;
const { addScene, animate, arr, CELL_STEP, cellStep, divisorOf, fillSide, focusIn, fontsOf, goStep,
  headPicker, headWeights, labelsOf, mixRows, pctText, penCells, penDone, penInkOn, penMap,
  penMeasure, penOutline, penText, penTry, penWrap, pickHead, rampRgb, rankRow, roomOf, sceneCanvas,
  scenePen, setLocal, softmaxExample, stopAnimation, tx, wButton, wReadout } = LESSON;

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

/** Between ③ and ④: softmax opened up on the focus row (s4PaintExp); not a matrix step. */
const S4_EXP = { id: "exp", label: "lesson.s4.step_exp", caption: "lesson.s4.cap.exp" };

/** On a phone, the figure's height × its width: ③'s map holds its numbers (cells ≥ 19 px);
    ③′'s table and the cell take the screen's rest. */
const S4_PHONE = { softmax: 1.2, exp: 0, cell: 0 };

const S4_SCENE_STEPS = [
  ...S4_STEPS.slice(0, 3),
  S4_EXP,
  S4_STEPS[3],
  { id: "play", label: "lesson.s4.step_play", caption: "lesson.s4.cap.play" },
  CELL_STEP, // one score taken apart (cellstep.js)
];

/** The matrix step (index into S4_STEPS) the scene's step k shows: the play step ends on ④; -1
    for a step with a figure of its own (S4_OWN). */
function s4Stage(S, k) {
  const id = S.steps[k].id;
  return id === "play" ? S4_STEPS.length - 1 : S4_STEPS.findIndex((s) => s.id === id);
}

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
  phone: (k) => S4_PHONE[S4_SCENE_STEPS[k]?.id] ?? 1, // ③′'s table, the cell: the screen's rest
  title: "lesson.s4.title",
  steps: S4_SCENE_STEPS,
  words: (S) => ({ q: S.part.tokens[focusIn(S, S.part)].t }),
  take: (S) => tx(S.D, S.local.scale ? "lesson.s4.take" : "lesson.s4.take_off"),
  terms: (S) => ({ softmax: softmaxExample(S, S.part) }), // the glossary's example, this row
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const cell = cellStep(S); // the step "cell" draws itself
    const readout = wReadout(S, "lesson-readout");
    let shown = { from: 0, to: 0, p: 1 };
    const kept = { key: "", gFull: null, gSmall: null, full: null, small: null }; // s4Geometry
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
        if (k >= 3 || S.D.ctx !== S || S.steps[S.D.step].id !== "play") return; // left meanwhile
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
    const replay = () => (S.steps[S.D.step].id === "play" ? play() : goStep(S, "play"));
    return {
      draw(step, from) {
        if (cell.draw(step)) return;
        const part = S.part;
        const i = focusIn(S, part);
        const head = pickHead(S, part, i);
        fillSide(S, [
          wButton(S, tx(S.D, "lesson.s4.play"), replay, "s4-play", "primary"),
          part.h > 1 ? headPicker(S, part, head, (k) => setLocal(S, { head: k })) : null,
          roomOf(S.D).phone && !S4_OWN[S.steps[step].id] ? null : readout, // a phone: the map's own
        ]);
        const own = S4_OWN[S.steps[step].id];
        if (own) {
          stopAnimation(S.D);
          own(S, canvas, readout);
          return;
        }
        const to = s4Stage(S, step);
        const was = from === null || Math.abs(step - from) !== 1 ? -1 : s4Stage(S, from);
        if (S.steps[step].id === "play" && from !== null && from !== step) play();
        else if (was >= 0 && Math.abs(to - was) === 1) morph(was, to);
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
  const top = s4Heading(S, pen, to, lines, W, base);
  const { gFull, gSmall, full, small } = s4Geometry(S, kept, W, H - top, fonts);
  const into3 = to === 3 ? (shown.from === 3 ? 1 : shown.p) : shown.from === 3 ? 1 - shown.p : 0;
  const labels = into3 > 0 ? small : full;
  if (into3 > 0 && roomOf(D).phone) {
    s4MixPhone(S, pen, { top, W, H, base, labels }, head, layers[2].w, into3);
    penDone(pen);
    s4Words(S, canvas, readout, to, head, layers, i);
    return;
  }
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
  const cellMin = roomOf(D).phone ? S4_PHONE_CELL_MIN : Math.max(fonts.cellMin, S4_ROOM_CELL_MIN);
  penMap(pen, g, { rgb, labels, axes, keep: i, fonts: { ...fonts, cellMin }, causal, numbers });
  if (into3 > 0) s4Mix(S, pen, g, head, layers[2].w, into3, base);
  penDone(pen);
  s4Words(S, canvas, readout, to, head, layers, i);
}

/** Numbers in cells: on a projector ≥ 20 px or none (read from the back row; the focus row's
    are at ③′ in full size); on a phone as small as a cell holds them, so a row's sum can be
    checked by eye (a phone is held close). */
const S4_ROOM_CELL_MIN = 20;
const S4_PHONE_CELL_MIN = 9;

/** The step's name and its numpy line: on one line when every matrix step's pair fits the width
    (so the map keeps its place from step to step and gains a line of room), else one under the
    other. Returns where the map may start. */
function s4Heading(S, pen, to, lines, W, base) {
  const phone = roomOf(S.D).phone; // narrow: smaller, and every word still on screen
  const name = { px: Math.round(base * (phone ? 1 : 1.15)), weight: 700 };
  const code = { px: phone ? Math.round(base * 0.8) : base, base: "top", mono: true, colour: pen.ink.muted };
  const gap = base * 1.5;
  const width = (k) => penMeasure(pen, s4Name(S, k), 0, 0, name)[2] + gap + penMeasure(pen, lines[k], 0, 0, code)[2];
  if (S4_STEPS.every((_, k) => width(k) <= W)) {
    penText(pen, s4Name(S, to), 0, 0, { ...name, base: "top" });
    const x = penMeasure(pen, s4Name(S, to), 0, 0, name)[2] + gap;
    penText(pen, lines[to], x, (name.px - code.px) * 0.6, code);
    return name.px * 1.25 + 8;
  }
  const titleH = penWrap(pen, s4Name(S, to), 0, 0, W, name);
  penText(pen, lines[to], 0, titleH + 4, code);
  return titleH + code.px * 1.6 + 8;
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

/** The map's geometry alone (steps ①–③) and beside V (step ④: the focus row of O under V), kept
    while the room and the labels stay (in `kept`, the scene's own): a morph repaints cells, not
    the layout. */
function s4Geometry(S, kept, w, h, fonts) {
  const part = S.part;
  const words = part.tokens.map((t) => t.t).join("\u0000");
  const key = JSON.stringify([words, S.D.header.lang, w, h, fonts]);
  if (kept.key === key) return kept;
  const ctx = S.doc.createElement("canvas").getContext("2d");
  const full = labelsOf(S.D, part, { w, h }); // ①–③'s labels; ④'s for its narrower room
  const gFull = mapGeometry(ctx, full, w, h, fonts);
  const small = labelsOf(S.D, part, { w: s4Room(part, w, gFull.left), h: h - fonts.label * 1.4 });
  const left = mapGeometry(ctx, small, w, h, fonts).left;
  const gSmall = mapGeometry(ctx, small, s4Room(part, w, left), h - fonts.label * 1.4, fonts);
  return Object.assign(kept, { key, gFull, gSmall, full, small });
}

const S4_V_COL = 0.7; // V's columns (and O's) are narrower than A's: its rows, A's keys, align

/** ④'s room for A in a figure w px wide whose labels take `left` px: A's n columns and V's d
    narrower ones share the rest (a 24 px gap for the "·"). */
function s4Room(part, w, left) {
  return (w - left - 24 - 6) * (part.n / (part.n + S4_V_COL * part.d_k)) + left + 6;
}

/** Step ④: A · V beside the weights, rows aligned, and under V the focus row of O = A · V (the
    whole of O is computed, and published for tests); fading in as it arrives. */
function s4Mix(S, pen, g, head, w, alpha, base) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const d = part.d_k;
  const v = arr(D, `${part.prefix}v`);
  const out = mixRows(w, v, head * n * d, n, d, new Float64Array(n * d));
  const c = g.cell;
  const cv = c * S4_V_COL;
  const xV = g.left + g.side + 24;
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
  penText(pen, "V", xV + (d * cv) / 2, top - 4, {
    px: base,
    align: "center",
    base: "bottom",
    weight: 700,
  });
  penCells(pen, xV, top, d * cv, n * c, n, d, (r, k) =>
    rampRgb(D.luts.signed, v[(head * n + r) * d + k], -lv, lv),
  );
  const mid = top + (n * c) / 2;
  penText(pen, "·", xV - 12, mid, { px: Math.round(base * 1.4), align: "center", weight: 700 });
  const i = focusIn(S, part);
  const yO = top + n * c + Math.max(8, c / 2); // O's focus row, under V: its columns are V's
  penText(pen, "=", xV - 12, yO + c / 2, { px: Math.round(base * 1.2), align: "center", weight: 700 });
  penCells(pen, xV, yO, d * cv, c, 1, d, (r, k) => rampRgb(D.luts.signed, out[i * d + k], -lo, lo));
  penOutline(pen, xV, yO, d * cv, c);
  const oTitle = { px: base, align: "left", base: "top", weight: 700 };
  const says = tx(D, "lesson.s4.out_row", { q: part.tokens[i].t });
  if (!penTry(pen, says, xV, yO + c + 4, { ...oTitle, max: pen.w - xV })) {
    penText(pen, "O", xV, yO + c + 4, oTitle); // a narrow V (many tokens, small d_k): its letter
  }
  pen.ctx.globalAlpha = 1;
  S.figure.querySelector("canvas").dataset.values = JSON.stringify(Array.from(out));
}

/** Step ④ on a phone, where A beside V would leave cells of 11 px: the focus row of A as a
    column (its shares, in %, beside the keys they weigh), times V (rows: those keys), equals the
    focus row of O; the whole of O is computed and published, as on a projector. */
function s4MixPhone(S, pen, box, head, w, alpha) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const d = part.d_k;
  const i = focusIn(S, part);
  const v = arr(D, `${part.prefix}v`);
  const out = mixRows(w, v, head * n * d, n, d, new Float64Array(n * d));
  const { top, W, H, base, labels } = box;
  const rowH = Math.max(4, Math.min(base * 1.4, (H - top - base * 4.2) / (n + 1)));
  const px = Math.max(10, Math.min(base, Math.floor(rowH * 0.85)));
  const numPx = Math.max(8, Math.min(base * 0.75, Math.floor(rowH * 0.6)));
  const labelW = Math.max(...labels.map((t) => penMeasure(pen, t, 0, 0, { px })[2]));
  const xA = labelW + 8;
  const colA = penMeasure(pen, "100", 0, 0, { px: numPx })[2] + 10;
  const xV = xA + colA + 22;
  const cv = Math.max(2, Math.min(rowH, (W - xV - 2) / d));
  const y0 = top + base * 1.4;
  let lv = 1e-9;
  let lo = 1e-9;
  for (let k = 0; k < n * d; k++) {
    lv = Math.max(lv, Math.abs(v[head * n * d + k]));
    lo = Math.max(lo, Math.abs(out[k]));
  }
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

// ---- ③′ softmax opened up on the focus row ---------------------------------------------------------

/** Steps with a figure of their own (not one of the four matrices), by step id. */
const S4_OWN = { exp: (S, canvas, readout) => s4PaintExp(S, canvas, readout) };

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

function s4PaintExp(S, canvas, readout) {
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
    weights' colours. Its type shrinks (never under 14 px) until the widest line fits. */
function s4Table(S, pen, lines, o) {
  const D = S.D;
  const rows = lines.length;
  const rowH = Math.min(o.base * 1.6, (o.H - o.top) / rows);
  let px = Math.min(o.base, Math.floor(rowH / 1.25));
  const gap = () => px * 1.2;
  const widths = () =>
    [0, 1, 2, 3].map((c) =>
      Math.max(...lines.map((ln) => penMeasure(pen, ln[c], 0, 0, { px, weight: c === 0 ? 700 : 400 })[2])),
    );
  let w = widths();
  const bar = () => Math.min(200, o.W * 0.25);
  while (px > 14 && w.reduce((a, b) => a + b, 0) + 3 * gap() + bar() > o.W) {
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

return {};
