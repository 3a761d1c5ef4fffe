/* Drawing on canvas: token maps (weights or signed scores), colour bars and the focus bars.
   Functions of their arguments: colours and sizes come in `look` (the palette Python sent),
   pixel ratio included; they never read the DOM back. */

/** A crisp canvas of css size w × h; returns its context with the device-pixel transform set. */
function sizeCanvas(canvas, w, h, dpr) {
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

/** One cell per pixel into a scratch canvas, then scaled up without smoothing: one draw call. */
function paintCells(ctx, g, index, lut, masked, scratch) {
  const n = g.n;
  if (scratch.width !== n || scratch.height !== n) {
    scratch.width = n;
    scratch.height = n;
  }
  const sctx = scratch.getContext("2d");
  const img = sctx.createImageData(n, n);
  const px = img.data;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const k = index(i, j);
      const o = (i * n + j) * 4;
      const src = k < 0 ? masked : lut;
      const at = k < 0 ? 0 : k * 3;
      px[o] = src[at];
      px[o + 1] = src[at + 1];
      px[o + 2] = src[at + 2];
      px[o + 3] = 255;
    }
  }
  sctx.putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(scratch, g.left, g.top, g.side, g.side);
}

function gridLines(ctx, g, colour) {
  if (g.cell < 7) return;
  ctx.beginPath();
  for (let k = 1; k < g.n; k++) {
    const p = k * g.cell;
    ctx.moveTo(g.left + p + 0.5, g.top);
    ctx.lineTo(g.left + p + 0.5, g.top + g.side);
    ctx.moveTo(g.left, g.top + p + 0.5);
    ctx.lineTo(g.left + g.side, g.top + p + 0.5);
  }
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.stroke();
}

/** Diagonal hatching over the masked upper triangle (keys after the query). */
function hatchFuture(ctx, g, colour) {
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
function cellNumberPx(ctx, g, fonts, widest) {
  for (let px = Math.min(fonts.cell, Math.floor(g.cell * 0.5)); px >= fonts.cellMin; px--) {
    ctx.font = `${px}px ${fonts.stack}`;
    if (ctx.measureText(widest).width <= g.cell - 4) return px;
  }
  return 0;
}

function cellNumbers(ctx, g, px, fonts, text, inkAt) {
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

/** A label at (x, y0) below an axis: across, upright (Chinese, one character under the other)
    or turned -90° (other scripts), as the geometry decided. */
function keyLabel(ctx, label, x, y0, px, rotate) {
  if (rotate && isUpright(label)) {
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    [...label].forEach((ch, c) => ctx.fillText(ch, x, y0 + c * px * 1.05));
  } else if (rotate) {
    ctx.save();
    ctx.translate(x, y0);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillText(label, 0, 0);
    ctx.restore();
  } else {
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.fillText(label, x, y0);
  }
}

/** Row labels on the left, key labels below, axis titles; the focus row's label always drawn. */
function axisLabels(ctx, g, labels, axes, colour, fonts, keep) {
  ctx.fillStyle = colour;
  ctx.font = `${g.px}px ${fonts.stack}`;
  const shown = labelIndices(g.n, g.step, keep);
  ctx.textBaseline = "middle";
  ctx.textAlign = "right";
  for (const i of shown) ctx.fillText(labels[i], g.left - 6, g.top + (i + 0.5) * g.cell);
  const y0 = g.top + g.side + 6;
  for (const j of shown) keyLabel(ctx, labels[j], g.left + (j + 0.5) * g.cell, y0, g.px, g.rotate);
  const tp = Math.max(fonts.min, Math.round(g.px * 0.85));
  ctx.font = `${tp}px ${fonts.stack}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(axes.key, g.left + g.side / 2, g.height - 2);
  ctx.save();
  ctx.translate(tp + 2, g.top + g.side / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(axes.query, 0, 0);
  ctx.restore();
}

/** A double outline (ink.mark_inner inside ink.mark_outer), visible on every colour of the ramps. */
function outline(ctx, x, y, w, h, width, ink) {
  ctx.lineWidth = width;
  ctx.strokeStyle = ink.mark_outer;
  ctx.strokeRect(x - width / 2, y - width / 2, w + width, h + width);
  ctx.strokeStyle = ink.mark_inner;
  ctx.strokeRect(x + width / 2, y + width / 2, w - width, h - width);
}

/** Everything on top of the cells: the focus row, the hovered cell, the keyboard cursor. */
function marks(ctx, g, m, ink) {
  if (m.focusRow !== null && m.focusRow < g.n) {
    outline(ctx, g.left, g.top + m.focusRow * g.cell, g.side, g.cell, 2, ink);
  }
  if (m.hover) outline(ctx, g.left + m.hover.j * g.cell, g.top + m.hover.i * g.cell, g.cell, g.cell, 2, ink);
  if (m.cursor) {
    const c = m.cursor;
    outline(ctx, g.left + c.j * g.cell, g.top + c.i * g.cell, g.cell, g.cell, 3, ink);
  }
}

/** Cells of a weight map: ramp index (or -1 when masked) and the number, 0…100, per cell. */
function weightCells(w, n, causal, zmax) {
  return {
    index: (i, j) => (causal && j > i ? -1 : rampIndex(w[i * n + j], 0, zmax)),
    text: (i, j) => (causal && j > i ? null : String(Math.round(w[i * n + j] * 100))),
    widest: "100",
  };
}

/** Cells of a score map: raw[off + i·n + j] / divide on the diverging ramp ±limit. */
function scoreCells(raw, off, n, divide, limit, masked) {
  const v = (i, j) => raw[off + i * n + j] / divide;
  return {
    index: (i, j) => (masked && j > i ? -1 : rampIndex(v(i, j), -limit, limit)),
    text: (i, j) => (masked && j > i ? null : v(i, j).toFixed(1)),
    widest: `-${Math.max(limit, 1).toFixed(1)}`,
  };
}

/** A token map. spec: cells (index, text, widest), paint ({lut, ink}), causal, numbers, marks,
    and a label layer (or labels and axes to draw); look: palette ink, fonts, masked colour,
    pixel ratio, scratch canvas. Returns whether the cells' numbers were written. */
function drawMap(canvas, g, spec, look) {
  const ctx = sizeCanvas(canvas, g.width, g.height, look.dpr);
  const { cells, paint } = spec;
  paintCells(ctx, g, cells.index, paint.lut, look.masked, look.scratch);
  if (spec.labelLayer) ctx.drawImage(spec.labelLayer, 0, 0, g.width, g.height);
  else axisLabels(ctx, g, spec.labels, spec.axes, look.ink.text, look.fonts, spec.keep);
  gridLines(ctx, g, look.ink.grid);
  if (spec.causal) hatchFuture(ctx, g, look.ink.hatch);
  let written = false;
  if (spec.numbers) {
    const px = cellNumberPx(ctx, g, look.fonts, cells.widest);
    if (px) {
      const ink = (i, j) => {
        const k = cells.index(i, j);
        return k < 0 ? look.ink.mark_outer : paint.ink[k];
      };
      cellNumbers(ctx, g, px, look.fonts, cells.text, ink);
      written = true;
    }
  }
  marks(ctx, g, spec.marks, look.ink);
  return written;
}

/** The labels and axis titles of a map geometry, drawn once on a transparent canvas: every map
    of the grid shares it, and a τ drag only repaints cells (one blit instead of 2n texts). */
function labelLayer(canvas, g, labels, axes, keep, look) {
  const ctx = sizeCanvas(canvas, g.width, g.height, look.dpr);
  axisLabels(ctx, g, labels, axes, look.ink.text, look.fonts, keep);
  return canvas;
}

/** A horizontal colour bar with ticks: `ticks` are [value, label] pairs on lo … hi. */
function drawColourBar(canvas, width, lut, lo, hi, ticks, px, title, look) {
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
function drawBars(canvas, width, height, rows, heads, labels, hover, keep, look) {
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
    keyLabel(ctx, labels[j], left + (j + 0.5) * group, height - bottom + 4, px, rotate);
  }
  return { left, group, top: 8, plotH };
}
