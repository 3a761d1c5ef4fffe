/* §7 the n² cost: the cells, then time and memory measured on this machine, then the KV cache's
   counted operations. */

const { cellLines, hexRgb } = VIEW;
const { addScene, askBlock, decadeTicks, drawChart, fillSide, logAxis, penCells, penDone, penText,
  penWrap, roomOf, sceneCanvas, scenePen, tx, wReadout, wSlider } = LESSON;

function medianOf(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length
    ? s.length % 2
      ? s[(s.length - 1) / 2]
      : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
    : NaN;
}

/** y(2n) / y(n) for each doubling of the measured lengths. */
function doublings(ns, ys) {
  const out = [];
  for (let k = 0; k + 1 < ns.length; k++)
    if (ns[k + 1] === 2 * ns[k] && ys[k] > 0) out.push(ys[k + 1] / ys[k]);
  return out;
}

addScene({
  id: "s07",
  phone: 1.4,
  title: "lesson.s7.title",
  steps: [
    { id: "cells", label: "lesson.s7.step0", caption: "lesson.s7.cap.cells" },
    { id: "measured", label: "lesson.s7.step1", caption: "lesson.s7.cap.measured" },
    { id: "kv", label: "lesson.s7.step2", caption: "lesson.s7.cap.kv" },
  ],
  take: (S) => {
    const b = S.D.header.blocks.cost;
    if (!b) return tx(S.D, "lesson.s7.take_wait");
    return tx(S.D, "lesson.s7.take", {
      t: medianOf(doublings(b.n, b.ms)).toFixed(1),
      m: medianOf(doublings(b.n, b.mib)).toFixed(1),
    });
  },
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    let pick = 3;
    return {
      draw(step) {
        const D = S.D;
        const b = D.header.blocks.cost;
        if (!b) askBlock(D, "cost");
        const nodes = [readout];
        if (step === 1 && b) {
          pick = Math.min(pick, b.n.length - 1);
          const sl = wSlider(
            S,
            tx(D, "lesson.s7.n"),
            b.n.length - 1,
            pick,
            (k) => {
              pick = k;
              s7Paint(S, canvas, step, pick, readout);
            },
            "s7-n",
          );
          sl.input.setAttribute("aria-valuetext", `n = ${b.n[pick]}`);
          nodes.unshift(sl.box);
        }
        fillSide(S, nodes);
        s7Paint(S, canvas, step, pick, readout);
      },
    };
  },
});

function s7Paint(S, canvas, step, pick, readout) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const b = D.header.blocks.cost;
  let alt;
  if (step === 0) alt = s7Grids(S, pen, W, H, base);
  else if (!b) {
    penText(pen, tx(D, "lesson.measuring"), W / 2, H / 2, { px: base, align: "center" });
    alt = tx(D, "lesson.measuring");
  } else if (step === 1) alt = s7Measured(S, pen, b, W, H, base, pick);
  else alt = s7Kv(S, pen, b, W, H, base);
  penDone(pen);
  canvas.setAttribute("aria-label", alt);
  readout.textContent =
    step === 0 ? s7Yours(D) : !b ? "" : step === 1 ? s7Point(D, b, pick) : s7KvSay(D, b);
}

function s7Yours(D) {
  const c = D.header.cells;
  return tx(D, "lesson.s7.yours", {
    n: c.word_n,
    cells: c.word_cells.toLocaleString("en"),
    nc: c.char_n,
    cc: c.char_cells.toLocaleString("en"),
  });
}

/** n × n cells beside 2n × 2n: twice the side, four times the cells. */
function s7Grids(S, pen, W, H, base) {
  const D = S.D;
  const n = Math.max(2, Math.min(D.header.cells.word_n || 8, 32));
  const small = Math.min((W - base * 4) / 3, (H - base * 4.5) / 2);
  const room = small * 2;
  const shades = pen.ink.squares.map(hexRgb);
  const squares = [
    [n, small, 0],
    [2 * n, room, small + base * 4],
  ];
  for (const [m, side, x] of squares) {
    penCells(pen, x, base * 0.5, side, side, m, m, (i, j) => shades[(i + j) % 2]);
    cellLines(pen.ctx, x, base * 0.5, side / m, side / m, m, m, pen.ink.grid);
    penWrap(
      pen,
      tx(D, "lesson.s7.cells", { n: m, cells: (m * m).toLocaleString("en") }),
      x,
      side + base,
      Math.max(side, base * 8),
      { px: base, weight: 600 },
    );
  }
  penText(pen, "×4", small + base * 2, base * 0.5 + small / 2, {
    px: Math.round(base * 1.4),
    align: "center",
    colour: pen.ink.warm,
    weight: 700,
  });
  return `${tx(D, "lesson.s7.cells", { n, cells: n * n })}; ${tx(D, "lesson.s7.cells", { n: 2 * n, cells: 4 * n * n })}`;
}

function s7Measured(S, pen, b, W, H, base, pick) {
  const D = S.D;
  const phone = roomOf(D).phone;
  const cw = phone ? W : (W - base) / 2;
  const ch = phone ? (H - base) / 2 : H - base * 1.6;
  const title = tx(D, "lesson.s7.measured", { d: b.d });
  penText(pen, title, 0, 0, { px: base, base: "top", weight: 600 });
  const charts = [
    ["ms", "lesson.s7.ms", b.slope_t, pen.ink.accent],
    ["mib", "lesson.s7.mib", b.slope_m, pen.ink.warm],
  ];
  charts.forEach(([key, name, slope, colour], k) => {
    const box = phone
      ? { x: 0, y: base * 1.5 + k * (ch + base * 0.5), w: W, h: ch }
      : { x: k * (cw + base), y: base * 1.5, w: cw, h: ch };
    s7Chart(S, pen, box, { ys: b[key], n: b.n, name, slope, colour, pick }, base);
  });
  const rows = b.n.map((n, k) => `n ${n}: ${b.ms[k].toFixed(2)} ms, ${b.mib[k].toFixed(2)} MiB`);
  return `${title}: ${rows.join(tx(D, "explorer.sep"))}`;
}

/** One log-log chart of a measurement against n, its fitted slope named, n = pick ringed. */
function s7Chart(S, pen, box, m, base) {
  const lo = Math.min(...m.ys) / 2;
  const hi = Math.max(...m.ys) * 2;
  const label = tx(S.D, "lesson.s7.slope", { s: m.slope.toFixed(2) });
  const spec = {
    x: logAxis(m.n, "n", 1.4),
    y: { ...logAxis([lo, hi], tx(S.D, m.name), 1), ticks: decadeTicks(lo, hi) },
    series: [{ xs: m.n, ys: m.ys, colour: m.colour, marks: true, label }],
  };
  const sc = drawChart(pen, box, spec, base);
  pen.ctx.beginPath();
  pen.ctx.arc(sc.sx(m.n[m.pick]), sc.sy(m.ys[m.pick]), 11, 0, 2 * Math.PI);
  pen.ctx.lineWidth = 3;
  pen.ctx.strokeStyle = pen.ink.text;
  pen.ctx.stroke();
}

function s7Point(D, b, k) {
  const here = `n = ${b.n[k]}: ${b.ms[k].toFixed(2)} ms · ${b.mib[k].toFixed(2)} MiB`;
  if (k === 0 || b.n[k] !== 2 * b.n[k - 1]) return here;
  return `${here} (×${(b.ms[k] / b.ms[k - 1]).toFixed(1)} · ×${(b.mib[k] / b.mib[k - 1]).toFixed(1)}, n = ${b.n[k - 1]})`;
}

function s7Kv(S, pen, b, W, H, base) {
  const D = S.D;
  const lo = Math.min(...b.kv_with) / 2;
  const hi = Math.max(...b.kv_without) * 2;
  const title = tx(D, "lesson.s7.kv", { d: b.d });
  const ink = pen.ink;
  const ticks = decadeTicks(lo, hi).filter((_, k) => k % 2 === 0);
  const spec = {
    x: logAxis(b.kv_t, "t", 1.4),
    y: { ...logAxis([lo, hi], title, 1), ticks },
    series: [
      { xs: b.kv_t, ys: b.kv_without, colour: ink.warm, marks: true, label: tx(D, "lesson.s7.kv_without") },
      { xs: b.kv_t, ys: b.kv_with, colour: ink.accent, marks: true, label: tx(D, "lesson.s7.kv_with") },
    ],
  };
  spec.y.ticks = spec.y.ticks.map(([v]) => [v, powerOfTen(v)]);
  drawChart(pen, { x: 0, y: 0, w: W, h: H }, spec, base);
  return `${title}. ${s7KvSay(D, b)}`;
}

function s7KvSay(D, b) {
  const r = b.kv_without.at(-1) / b.kv_with.at(-1);
  return tx(D, "lesson.s7.kv_ratio", { t: b.kv_t.at(-1), r: Math.round(r).toLocaleString("en") });
}

/** 10⁶ for 1e6: the exponent in superscript digits. */
function powerOfTen(v) {
  const sup = "⁰¹²³⁴⁵⁶⁷⁸⁹";
  const e = String(Math.round(Math.log10(v)));
  return `10${[...e].map((c) => (c === "-" ? "⁻" : sup[Number(c)])).join("")}`;
}

return {};
