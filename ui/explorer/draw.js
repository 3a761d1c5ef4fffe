/* Drawing on canvas: token maps (weights or signed scores), colour bars and the focus bars.
   Functions of their arguments: colours and sizes come in `look` (the palette Python sent),
   pixel ratio included; they never read the DOM back. */

import { headColour, RAMP_SIZE, rampCss } from "./colour.js";
import { boxesMeet, isUpright, keyLabels, labelDepth, labelIndices, labelWidth } from "./layout.js";

/** A crisp canvas of css size w × h; returns its context with the device-pixel transform set. */
export function sizeCanvas(canvas, w, h, dpr) {
  const pw = Math.round(w * dpr);
  const ph = Math.round(h * dpr);
  if (canvas.width !== pw || canvas.height !== ph) {
    canvas.width = pw;
    canvas.height = ph;
  }
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  return ctx;
}

/** A rows × cols grid of cells into the rectangle (x, y, w, h): one canvas pixel per cell in a
    scratch canvas, scaled up without smoothing (one draw call). put(i, j, px, o) writes cell
    (i, j)'s red, green and blue into px[o], px[o + 1], px[o + 2]. */
export function paintGrid(ctx, scratch, rect, rows, cols, put) {
  if (scratch.width !== cols || scratch.height !== rows) {
    scratch.width = cols;
    scratch.height = rows;
  }
  const sctx = scratch.getContext("2d");
  const img = sctx.createImageData(cols, rows);
  const px = img.data;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const o = (i * cols + j) * 4;
      put(i, j, px, o);
      px[o + 3] = 255;
    }
  }
  sctx.putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(scratch, rect[0], rect[1], rect[2], rect[3]);
}

/** The n × n cells of a map: a ramp index per cell (lut entries), or -1 for a masked cell. */
function paintCells(ctx, g, index, lut, masked, scratch) {
  paintGrid(ctx, scratch, [g.left, g.top, g.side, g.side], g.n, g.n, (i, j, px, o) => {
    const k = index(i, j);
    const src = k < 0 ? masked : lut;
    const at = k < 0 ? 0 : k * 3;
    px[o] = src[at];
    px[o + 1] = src[at + 1];
    px[o + 2] = src[at + 2];
  });
}

/** Thin lines between the cells of a rows × cols grid at (x, y), cells cw × ch, when the cells
    are big enough to tell apart. */
export function cellLines(ctx, x, y, cw, ch, rows, cols, colour) {
  if (Math.min(cw, ch) < 7) return;
  ctx.beginPath();
  for (let k = 1; k < cols; k++) {
    ctx.moveTo(Math.round(x + k * cw) + 0.5, y);
    ctx.lineTo(Math.round(x + k * cw) + 0.5, y + rows * ch);
  }
  for (let k = 1; k < rows; k++) {
    ctx.moveTo(x, Math.round(y + k * ch) + 0.5);
    ctx.lineTo(x + cols * cw, Math.round(y + k * ch) + 0.5);
  }
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.stroke();
}

export function gridLines(ctx, g, colour) {
  cellLines(ctx, g.left, g.top, g.cell, g.cell, g.n, g.n, colour);
}

/** Diagonal hatching over the masked upper triangle (keys after the query). */
export function hatchFuture(ctx, g, colour) {
  const { left: L, top: T, cell: c, n } = g;
  if (n < 2) return;
  ctx.save();
  ctx.beginPath();
  ctx.moveTo(L + c, T);
  ctx.lineTo(L + n * c, T);
  ctx.lineTo(L + n * c, T + (n - 1) * c);
  for (let i = n - 2; i >= 0; i--) {
    ctx.lineTo(L + (i + 1) * c, T + (i + 1) * c);
    ctx.lineTo(L + (i + 1) * c, T + i * c);
  }
  ctx.closePath();
  ctx.clip();
  ctx.beginPath();
  const step = Math.max(5, Math.min(10, c / 2));
  for (let d = -g.side; d < g.side; d += step) {
    ctx.moveTo(L + d, T);
    ctx.lineTo(L + d + g.side, T + g.side);
  }
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}

/** The px of the numbers a map's cells can hold ("100" or "-12.3"), or 0 when none fits. */
export function cellNumberPx(ctx, g, fonts, widest) {
  for (let px = Math.min(fonts.cell, Math.floor(g.cell * 0.5)); px >= fonts.cellMin; px--) {
    ctx.font = `${px}px ${fonts.stack}`;
    if (ctx.measureText(widest).width <= g.cell - 4) return px;
  }
  return 0;
}

export function cellNumbers(ctx, g, px, fonts, text, inkAt) {
  ctx.font = `${px}px ${fonts.stack}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let i = 0; i < g.n; i++) {
    for (let j = 0; j < g.n; j++) {
      const s = text(i, j);
      if (s === null) continue;
      ctx.fillStyle = inkAt(i, j);
      ctx.fillText(s, g.left + (j + 0.5) * g.cell, g.top + (i + 0.5) * g.cell + 0.5);
    }
  }
}

/** A key label below the map at (x, y0): across, upright (Chinese, one character under the
    other) or turned -90° (other scripts), as the geometry decided; with its box. */
function keyItem(ctx, text, x, y0, px, rotate) {
  const w = ctx.measureText(text).width;
  if (rotate && isUpright(text)) {
    return { kind: "upright", text, x, y: y0, box: [x - px / 2, y0, px, [...text].length * px * 1.05] };
  }
  if (rotate) return { kind: "turned", text, x, y: y0, box: [x - px * 0.6, y0, px * 1.2, w] };
  return { kind: "across", text, x, y: y0, box: [x - w / 2, y0, w, px * 1.2] };
}

/** Where a map's labels go, each with its box [x, y, w, h] in css px: row labels at the left,
    key labels below, the two axis titles. Every step-th label and always `keep` (the focus
    row and its column); on tiny cells a row label that would run into a key label is left
    out, unless it is keep's (then the key label gives way). Uses ctx only to measure. */
function labelPlan(ctx, g, labels, axes, fonts, keep) {
  ctx.font = `${g.px}px ${fonts.stack}`;
  const shown = labelIndices(g.n, g.step, keep);
  const y0 = g.top + g.side + 6;
  const under = keyLabels(labels);
  const keys = shown.map((j) => ({ ...keyItem(ctx, under[j], g.left + (j + 0.5) * g.cell, y0,
    g.px, g.rotate), i: j }));
  const rows = shown.map((i) => {
    const w = ctx.measureText(labels[i]).width;
    const y = g.top + (i + 0.5) * g.cell;
    return { kind: "row", text: labels[i], x: g.left - 6, y, i, box: [g.left - 6 - w, y - g.px * 0.6, w, g.px * 1.2] };
  });
  const meet = (a, b) => boxesMeet(a.box, b.box, 0);
  const rowsKept = rows.filter((r) => r.i === keep || !keys.some((k) => meet(r, k)));
  const keysKept = keys.filter((k) => k.i === keep || !rowsKept.some((r) => meet(r, k)));
  const tp = g.titlePx;
  ctx.font = `${tp}px ${fonts.stack}`;
  const kw = ctx.measureText(axes.key).width;
  const qw = ctx.measureText(axes.query).width;
  const x0 = g.x0 || 0; // where the map's box starts when it is drawn beside something else
  // Centred on the cells, unless a small map's title is longer than its side: then kept inside
  // the map's box (the key title along the bottom, the query title down the left margin).
  const cx = Math.min(Math.max(g.left + g.side / 2, x0 + kw / 2 + 2), x0 + g.width - kw / 2 - 2);
  const cy = Math.min(Math.max(g.top + g.side / 2, qw / 2 + 2), g.height - qw / 2 - 2);
  const titles = [
    { kind: "title", text: axes.key, x: cx, y: g.height - 2, box: [cx - kw / 2, g.height - 2 - tp * 1.2, kw, tp * 1.2] },
    { kind: "qtitle", text: axes.query, x: x0 + tp * 0.6 + 2, y: cy, box: [x0 + 2, cy - qw / 2, tp * 1.2, qw] },
  ];
  return { px: g.px, titlePx: tp, items: [...rowsKept, ...keysKept], titles };
}

/** Draw a label plan in `colour`; returns what was drawn: {fonts, boxes, rows (the row labels:
    [token index, text] each)}. */
function drawPlan(ctx, plan, colour, stack) {
  ctx.fillStyle = colour;
  ctx.font = `${plan.px}px ${stack}`;
  for (const it of plan.items) drawItem(ctx, it, plan.px);
  ctx.font = `${plan.titlePx}px ${stack}`;
  const [key, query] = plan.titles;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(key.text, key.x, key.y);
  turnedText(ctx, query.text, query.x, query.y, "center");
  const boxes = [...plan.items, ...plan.titles].map((it) => it.box);
  const rows = plan.items.filter((it) => it.kind === "row").map((it) => [it.i, it.text]);
  return { fonts: [plan.px, plan.titlePx], boxes, rows };
}

/** One label of a plan (a row's, or a key's across, upright or turned), in the current font. */
function drawItem(ctx, it, px) {
  if (it.kind === "upright") {
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    [...it.text].forEach((ch, c) => ctx.fillText(ch, it.x, it.y + c * px * 1.05));
  } else if (it.kind === "turned") {
    turnedText(ctx, it.text, it.x, it.y, "right");
  } else {
    ctx.textAlign = it.kind === "row" ? "right" : "center";
    ctx.textBaseline = it.kind === "row" ? "middle" : "top";
    ctx.fillText(it.text, it.x, it.y);
  }
}

/** Text turned -90° (reading upwards) at (x, y), aligned along its line as `align` says. */
function turnedText(ctx, text, x, y, align) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = align;
  ctx.textBaseline = "middle";
  ctx.fillText(text, 0, 0);
  ctx.restore();
}

/** Row labels on the left, key labels below, axis titles; the focus row's label always drawn.
    Returns {fonts, boxes}: the sizes used and every label's box. */
export function axisLabels(ctx, g, labels, axes, colour, fonts, keep) {
  return drawPlan(ctx, labelPlan(ctx, g, labels, axes, fonts, keep), colour, fonts.stack);
}

/** Publish on a canvas what it shows in words, for tests that read the room from outside:
    data-fonts (px of its labels), data-cell-fonts (px of numbers in cells), data-labels (the
    label boxes, css px inside the canvas), data-cell (a map's cell side, css px),
    data-labelled (how many of its n tokens have a row label) and data-rows (each token's row
    label as drawn, null where none: "小明 Xiaoming" in the lesson in English). rows: the row
    labels drawn, [token index, text] each. Written only when they change. */
export function publishText(canvas, fonts, cellFonts, boxes, g = null, rows = null) {
  const round = (v) => Math.round(v * 10) / 10;
  const said = g ? Array.from({ length: g.n }, () => null) : [];
  for (const [i, s] of rows || []) said[i] = s;
  const text = {
    fonts: [...new Set(fonts)].sort((a, b) => a - b).join(","),
    cellFonts: [...new Set(cellFonts)].sort((a, b) => a - b).join(","),
    labels: JSON.stringify(boxes.map((b) => b.map(round))),
    ...(g ? { cell: String(round(g.cell)), labelled: `${(rows || []).length}/${g.n}`,
      rows: JSON.stringify(said) } : {}),
  };
  for (const [key, value] of Object.entries(text)) {
    if (canvas.dataset[key] !== value) canvas.dataset[key] = value;
  }
  if (!g) for (const key of ["cell", "labelled", "rows"]) delete canvas.dataset[key]; // no map now
}

/** A double outline (ink.mark_inner inside ink.mark_outer), visible on every colour of the ramps. */
export function outline(ctx, x, y, w, h, width, ink) {
  ctx.lineWidth = width;
  ctx.strokeStyle = ink.mark_outer;
  ctx.strokeRect(x - width / 2, y - width / 2, w + width, h + width);
  ctx.strokeStyle = ink.mark_inner;
  ctx.strokeRect(x + width / 2, y + width / 2, w - width, h - width);
}

/** Everything on top of the cells: the focus row, the hovered cell, the keyboard cursor, a
    ringed cell (a page's pointer at one pair). */
export function marks(ctx, g, m, ink) {
  if (m.focusRow !== null && m.focusRow < g.n) {
    outline(ctx, g.left, g.top + m.focusRow * g.cell, g.side, g.cell, 2, ink);
  }
  if (m.hover) outline(ctx, g.left + m.hover.j * g.cell, g.top + m.hover.i * g.cell, g.cell, g.cell, 2, ink);
  for (const c of [m.cursor, m.ring]) {
    if (c) outline(ctx, g.left + c.j * g.cell, g.top + c.i * g.cell, g.cell, g.cell, c === m.ring ? 4 : 3, ink);
  }
}

/** A token map. spec: cells (index, text, widest; or rgb(i, j) and ink(i, j) for colours of
    its own, as a morph between two ramps), paint ({lut, ink}), causal, numbers, marks, and a
    label layer ({canvas, fonts, boxes}, see labelLayer) or labels, axes and keep to draw; look:
    palette ink, fonts, masked colour, pixel ratio, scratch canvas. Publishes its words'
    sizes and boxes on the canvas (publishText). Returns whether the numbers were written. */
export function drawMap(canvas, g, spec, look) {
  const ctx = sizeCanvas(canvas, g.width, g.height, look.dpr);
  const { cells, paint } = spec;
  if (cells.rgb) {
    paintGrid(ctx, look.scratch, [g.left, g.top, g.side, g.side], g.n, g.n, (i, j, px, o) => {
      const c = cells.rgb(i, j) || look.masked;
      [px[o], px[o + 1], px[o + 2]] = c;
    });
  } else paintCells(ctx, g, cells.index, paint.lut, look.masked, look.scratch);
  let words;
  if (spec.labelLayer) {
    ctx.drawImage(spec.labelLayer.canvas, 0, 0, g.width, g.height);
    words = spec.labelLayer;
  } else words = axisLabels(ctx, g, spec.labels, spec.axes, look.ink.text, look.fonts, spec.keep);
  gridLines(ctx, g, look.ink.grid);
  if (spec.causal) hatchFuture(ctx, g, look.ink.hatch);
  const px = spec.numbers ? cellNumberPx(ctx, g, look.fonts, cells.widest) : 0;
  if (px) {
    const ink = cells.ink || ((i, j) => {
      const k = cells.index(i, j);
      return k < 0 ? look.ink.mark_outer : paint.ink[k];
    });
    cellNumbers(ctx, g, px, look.fonts, cells.text, ink);
  }
  marks(ctx, g, spec.marks, look.ink);
  publishText(canvas, words.fonts, px ? [px] : [], words.boxes, g, words.rows);
  return px > 0;
}

/** The labels and axis titles of a map geometry, drawn once on a transparent canvas: every map
    of the grid shares it, and a τ drag only repaints cells (one blit instead of 2n texts).
    Returns {canvas, fonts, boxes}. */
export function labelLayer(canvas, g, labels, axes, keep, look) {
  const ctx = sizeCanvas(canvas, g.width, g.height, look.dpr);
  return { canvas, ...axisLabels(ctx, g, labels, axes, look.ink.text, look.fonts, keep) };
}

/** A horizontal colour bar with ticks: `ticks` are [value, label] pairs on lo … hi. */
export function drawColourBar(canvas, width, lut, lo, hi, ticks, px, title, look) {
  const h = px * 3 + 22;
  const ctx = sizeCanvas(canvas, width, h, look.dpr);
  const barW = Math.max(120, Math.min(width - 20, 420));
  const x0 = 10;
  for (let k = 0; k < barW; k++) {
    ctx.fillStyle = rampCss(lut, Math.round((k / (barW - 1)) * (RAMP_SIZE - 1)));
    ctx.fillRect(x0 + k, px + 6, 1.5, 14);
  }
  ctx.strokeStyle = look.ink.frame;
  ctx.strokeRect(x0 + 0.5, px + 6.5, barW, 14);
  ctx.fillStyle = look.ink.text;
  ctx.font = `${px}px ${look.fonts.stack}`;
  ctx.textBaseline = "top";
  ctx.textAlign = "left";
  ctx.fillText(title, x0, 0);
  ctx.textAlign = "center";
  for (const [v, label] of ticks) {
    const x = x0 + ((v - lo) / (hi - lo)) * barW;
    ctx.fillRect(x - 0.5, px + 20, 1, 4);
    ctx.fillText(label, Math.min(Math.max(x, x0 + 12), x0 + barW - 12), px + 25);
  }
}

/** The y axis of the focus bars: gridlines and percentages up to ymax. */
function barsAxis(ctx, left, width, ymax, y, look) {
  ctx.strokeStyle = look.ink.rule;
  ctx.fillStyle = look.ink.text;
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (let t = 0; t <= ymax + 1e-9; t += ymax > 0.6 ? 0.25 : 0.1) {
    ctx.beginPath();
    ctx.moveTo(left, Math.round(y(t)) + 0.5);
    ctx.lineTo(width - 8, Math.round(y(t)) + 0.5);
    ctx.stroke();
    ctx.fillText(`${Math.round(t * 100)}%`, left - 6, y(t));
  }
}

/** The focus token's row of every head shown: for each key one group of bars, one colour per
    head (`heads` are the heads' indices, for their colours). */
export function drawBars(canvas, width, height, rows, heads, labels, hover, keep, look) {
  const ctx = sizeCanvas(canvas, width, height, look.dpr);
  const { fonts, ink } = look;
  const n = labels.length;
  let top = 0;
  for (const r of rows) for (const w of r) top = Math.max(top, w);
  const ymax = Math.min(1, Math.max(0.3, top * 1.15));
  const px = fonts.label;
  ctx.font = `${px}px ${fonts.stack}`;
  const left = Math.ceil(ctx.measureText("100%").width) + 12;
  const group = (width - left - 8) / n;
  const step = Math.max(1, Math.ceil((px * 1.2) / group));
  const rotate = labelWidth(ctx, labels, px, fonts.stack) > group * step - 4;
  const depth = rotate ? labelDepth(ctx, labels, px, fonts.stack) + 10 : px + 10;
  const bottom = Math.min(height * 0.4, depth);
  const plotH = height - bottom - 8;
  const y = (w) => 8 + plotH * (1 - w / ymax);
  barsAxis(ctx, left, width, ymax, y, look);
  const barW = Math.max(1, (group * 0.8) / rows.length);
  rows.forEach((row, k) => {
    ctx.fillStyle = headColour(look.heads, heads[k]);
    ctx.strokeStyle = ink.bar_edge;
    ctx.lineWidth = 0.6;
    for (let j = 0; j < n; j++) {
      const x = left + j * group + group * 0.1 + k * barW;
      const yy = y(row[j]);
      ctx.fillRect(x, yy, barW, y(0) - yy);
      if (barW >= 4) ctx.strokeRect(x, yy, barW, y(0) - yy);
    }
  });
  if (hover) {
    ctx.strokeStyle = ink.mark_outer;
    ctx.lineWidth = 2;
    ctx.strokeRect(left + hover.j * group + 1, 8, group - 2, plotH);
  }
  ctx.fillStyle = ink.text;
  for (const j of labelIndices(n, step, keep)) {
    drawItem(ctx, keyItem(ctx, labels[j], left + (j + 0.5) * group, height - bottom + 4, px, rotate), px);
  }
  return { left, group, top: 8, plotH };
}
