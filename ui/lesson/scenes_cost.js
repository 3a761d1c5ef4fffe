/* §7 the n² cost: the cells, then time and memory measured on this machine, then the KV cache's
   counted operations; §10 why attention won: every row at once beside an RNN's chain, and the
   pronoun head learning by gradient descent. */

const { cellLines, hexRgb, mapGeometry } = VIEW;
const { animate, askBlock, decadeTicks, drawChart, fillSide, focusIn, fontsOf, headWeights,
  labelsOf, logAxis, pctText, penArrow, penCells, penDone, penLine, penMap, penText, penTry,
  penWrap, rampRgb, roomOf, s2Head, sceneCanvas, scenePen, stepTexts, tx, wButton, wReadout,
  wSlider } = LESSON;

// ---- §7 -----------------------------------------------------------------------------------------

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

const scene7 = {
  phone: 1.4,
  title: (D) => tx(D, "lesson.s7.title"),
  steps: (S) => stepTexts(S, ["lesson.s7.step0", "lesson.s7.step1", "lesson.s7.step2"]),
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
};

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

// ---- §10 ----------------------------------------------------------------------------------------

const scene10 = {
  phone: 1.9,
  title: (D) => tx(D, "lesson.s10.title"),
  steps: (S) => stepTexts(S, ["lesson.s10.step0", "lesson.s10.step1"]),
  take: (S) => tx(S.D, "lesson.s10.take"),
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    let t = 1;
    const race = () => {
      const n = S.part.n;
      animate(S.D, Math.max(1500, 140 * n), (p) => {
        t = p;
        s10Paint(S, canvas, 0, t, readout);
      });
    };
    return {
      draw(step, from) {
        const nodes =
          step === 0
            ? [wButton(S, tx(S.D, "lesson.s10.play"), race, "s10-play", "primary"), readout]
            : [readout];
        fillSide(S, nodes);
        if (step === 0 && from !== 0) race();
        else s10Paint(S, canvas, step, step === 0 ? t : 1, readout);
      },
    };
  },
};

function s10Paint(S, canvas, step, t, readout) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const alt =
    step === 0 ? s10Race(S, pen, W, H, base, t, readout) : s10Curve(S, pen, W, H, base, readout);
  penDone(pen);
  canvas.setAttribute("aria-label", alt);
}

/** Left: the RNN lights one state per tick, each waiting for the one before; right: attention
    fills every row of its map in the first tick. */
function s10Race(S, pen, W, H, base, t, readout) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const phone = roomOf(D).phone;
  const half = phone ? W : (W - base * 2) / 2;
  const done = t >= 1 ? n : Math.min(n, Math.floor(t * n) + (t > 0 ? 1 : 0));
  const rnn = tx(D, "lesson.s10.rnn", { t: done, n });
  const att = tx(D, "lesson.s10.att", { n });
  const top = penWrap(pen, rnn, 0, 0, half, { px: base, weight: 700 }) + base * 0.6;
  s10Chain(S, pen, { x: 0, y: top, w: half, h: (phone ? H / 2 : H) - top }, done, base);
  const x0 = phone ? 0 : half + base * 2;
  const y0 = phone ? H / 2 + base * 0.5 : 0;
  const mapTop = y0 + penWrap(pen, att, x0, y0, half, { px: base, weight: 700 }) + base * 0.4;
  const head = s2Head(S, part, focusIn(D, part));
  const w = headWeights(S, part, head);
  const labels = labelsOf(part);
  const fonts = fontsOf(D);
  const g0 = mapGeometry(S.doc.createElement("canvas").getContext("2d"), labels, half, H - mapTop, fonts);
  const g = { ...g0, left: g0.left + x0, top: g0.top + mapTop, height: g0.height + mapTop, x0 };
  const rgb = (i, j) => (t > 0 ? rampRgb(D.luts.weight, w[i * n + j], 0, 1) : null);
  const axes = { query: tx(D, "main.query_axis"), key: tx(D, "main.key_axis") };
  penMap(pen, g, { rgb, labels, axes, keep: focusIn(D, part), fonts, causal: false, numbers: null });
  readout.textContent = `${rnn}\n${att}`;
  return `${rnn}. ${att}.`;
}

/** The chain as a snake: one node per word, an arrow to the next, the word under its node (at
    a row's end, tucked in on the side away from the bend); "+ k" for the words that do not fit. */
function s10Chain(S, pen, box, done, base) {
  const part = S.part;
  const n = part.n;
  const step = base * 3;
  const perRow = Math.max(2, Math.floor(box.w / step));
  const r = Math.min(base * 0.75, step * 0.3);
  const rowH = r * 2 + base * 2;
  const rowOf = (j) => Math.floor(j / perRow);
  const at = (j) => {
    const col = rowOf(j) % 2 ? perRow - 1 - (j % perRow) : j % perRow;
    return [box.x + col * step + step / 2, box.y + rowOf(j) * rowH + r];
  };
  const fits = (j) => at(j)[1] + r + base * 1.3 <= box.y + box.h;
  let shown = 0;
  while (shown < n && fits(shown)) shown += 1;
  const ink = pen.ink;
  const colour = (j) => (j + 1 < done ? ink.accent : ink.line);
  for (let j = 0; j + 1 < shown; j++) s10Link(pen, at(j), at(j + 1), r, colour(j));
  const { ctx } = pen;
  for (let j = 0; j < shown; j++) {
    const [x, y] = at(j);
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = j < done - 1 ? ink.accent : j === done - 1 ? ink.warm : ink.paper;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = ink.muted;
    ctx.stroke();
    const bend = j + 1 < shown && rowOf(j + 1) !== rowOf(j) ? (rowOf(j) % 2 ? -1 : 1) : 0;
    const align = bend > 0 ? "right" : bend < 0 ? "left" : "center";
    const lx = x + bend * r;
    penTry(pen, part.tokens[j].t, lx, y + r + 3, { px: base, align, base: "top" });
  }
  if (shown < n) {
    const [x, y] = at(shown - 1);
    const side = rowOf(shown - 1) % 2 ? -1 : 1;
    penTry(pen, `+ ${n - shown}`, x + side * (r + 8), y, {
      px: base,
      align: side > 0 ? "left" : "right",
    });
  }
}

/** The arrow from one node to the next: across a row, or a bracket down at the row's end. */
function s10Link(pen, [x, y], [x1, y1], r, colour) {
  if (y1 === y) {
    const dx = Math.sign(x1 - x);
    penArrow(pen, x + dx * (r + 2), y, x1 - dx * (r + 2), y1, colour, 2);
    return;
  }
  const out = x > pen.w / 3 ? 1 : -1; // the bend is on the row's outer side
  const bx = x + out * (r + 12);
  penLine(pen, x + out * r, y, bx, y, colour, 2);
  penLine(pen, bx, y, bx, y1, colour, 2);
  penArrow(pen, bx, y1, x1 + out * (r + 1), y1, colour, 2);
}

function s10Curve(S, pen, W, H, base, readout) {
  const D = S.D;
  const part = S.tpart;
  const c = part && part.curve;
  if (!c) {
    penWrap(pen, tx(D, "lesson.s10.no_curve"), 0, 0, W, { px: base });
    readout.textContent = "";
    return tx(D, "lesson.s10.no_curve");
  }
  const head = part.quiz.head;
  const last = c.steps.at(-1);
  const spec = {
    x: {
      min: 0,
      max: last,
      title: tx(D, "lesson.s10.steps"),
      ticks: [0, 0.25, 0.5, 0.75, 1].map((f) => [
        Math.round(f * last),
        String(Math.round(f * last)),
      ]),
    },
    y: {
      min: 0,
      max: 1.05,
      title: tx(D, "lesson.s10.curve", { head: head + 1 }),
      ticks: [0, 0.25, 0.5, 0.75, 1].map((v) => [v, pctText(v)]),
    },
    series: [{ xs: c.steps, ys: c.hits, colour: pen.ink.accent, marks: c.steps.length <= 60 }],
  };
  const sc = drawChart(pen, { x: 0, y: 0, w: W, h: H }, spec, base);
  let say = "";
  if (c.onset !== null) {
    penLine(pen, sc.sx(c.onset), sc.top, sc.sx(c.onset), sc.bottom, pen.ink.warm, 3, [8, 6]);
    say = tx(D, "lesson.s10.onset", { step: c.onset });
    penTry(pen, say, sc.sx(c.onset) + 10, sc.sy(0.4), { px: base, colour: pen.ink.warm, weight: 700 });
  }
  readout.textContent = `${tx(D, "lesson.s10.curve", { head: head + 1 })}: ${pctText(c.hits[0])} → ${pctText(c.hits.at(-1))}${say ? ` · ${say}` : ""}`;
  return readout.textContent;
}

return { scene10, scene7 };
