/* Drawing on canvas: token maps (weights or signed scores), colour bars and the focus bars.
   Pure functions of their arguments: they never read the DOM back. */

const MASKED_RGB = [236, 236, 236];
const HATCH = "#8a8a8a";

/** A crisp canvas of css size w × h; returns its context with the device-pixel transform set. */
function sizeCanvas(canvas, w, h) {
  const dpr = window.devicePixelRatio || 1;
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
function paintCells(ctx, g, n, indexAt, lut, scratch) {
  if (scratch.width !== n || scratch.height !== n) {
    scratch.width = n;
    scratch.height = n;
  }
  const sctx = scratch.getContext("2d");
  const img = sctx.createImageData(n, n);
  const px = img.data;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const k = indexAt(i, j);
      const o = (i * n + j) * 4;
      if (k < 0) {
        px[o] = MASKED_RGB[0];
        px[o + 1] = MASKED_RGB[1];
        px[o + 2] = MASKED_RGB[2];
      } else {
        px[o] = lut[k * 3];
        px[o + 1] = lut[k * 3 + 1];
        px[o + 2] = lut[k * 3 + 2];
      }
      px[o + 3] = 255;
    }
  }
  sctx.putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(scratch, g.left, g.top, g.side, g.side);
}

function gridLines(ctx, g) {
  if (g.cell < 7) return;
  ctx.beginPath();
  for (let k = 1; k < g.n; k++) {
    const p = k * g.cell;
    ctx.moveTo(g.left + p + 0.5, g.top);
    ctx.lineTo(g.left + p + 0.5, g.top + g.side);
    ctx.moveTo(g.left, g.top + p + 0.5);
    ctx.lineTo(g.left + g.side, g.top + p + 0.5);
  }
  ctx.strokeStyle = "rgba(255,255,255,0.9)";
  ctx.lineWidth = 1;
  ctx.stroke();
}

/** Diagonal hatching over the masked upper triangle (keys after the query). */
function hatchFuture(ctx, g) {
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
  ctx.strokeStyle = HATCH;
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}

function cellNumbers(ctx, g, fonts, text, inkAt) {
  const px = Math.min(fonts.cell, Math.floor(g.cell * 0.42));
  if (px < 9) return false;
  ctx.font = `${px}px ${FONT_STACK}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  const widest = ctx.measureText("100").width;
  if (widest > g.cell - 4) return false;
  for (let i = 0; i < g.n; i++) {
    for (let j = 0; j < g.n; j++) {
      const s = text(i, j);
      if (s === null) continue;
      ctx.fillStyle = inkAt(i, j);
      ctx.fillText(s, g.left + (j + 0.5) * g.cell, g.top + (i + 0.5) * g.cell + 0.5);
    }
  }
  return true;
}

function clipLabel(s) {
  return s.length > 8 ? `${s.slice(0, 7)}…` : s;
}

/** Row labels on the left, key labels below (turned -90° when cells are narrow), axis titles. */
function axisLabels(ctx, g, labels, axes, colour) {
  ctx.fillStyle = colour;
  ctx.font = `${g.px}px ${FONT_STACK}`;
  ctx.textBaseline = "middle";
  ctx.textAlign = "right";
  for (let i = 0; i < g.n; i += g.step) {
    ctx.fillText(labels[i], g.left - 6, g.top + (i + 0.5) * g.cell);
  }
  const y0 = g.top + g.side + 6;
  for (let j = 0; j < g.n; j += g.step) {
    const x = g.left + (j + 0.5) * g.cell;
    if (g.rotate && isUpright(labels[j])) {
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      [...labels[j]].forEach((ch, c) => ctx.fillText(ch, x, y0 + c * g.px * 1.05));
      ctx.textBaseline = "middle";
    } else if (g.rotate) {
      ctx.save();
      ctx.translate(x, y0);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = "right";
      ctx.fillText(labels[j], 0, 0);
      ctx.restore();
    } else {
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.fillText(labels[j], x, y0);
      ctx.textBaseline = "middle";
    }
  }
  const tp = Math.max(11, Math.round(g.px * 0.85));
  ctx.font = `${tp}px ${FONT_STACK}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(axes.key, g.left + g.side / 2, g.height - 2);
  ctx.save();
  ctx.translate(tp + 2, g.top + g.side / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(axes.query, 0, 0);
  ctx.restore();
}

/** A double (white inside black) outline, visible on every colour of the ramps. */
function outline(ctx, x, y, w, h, width) {
  ctx.lineWidth = width;
  ctx.strokeStyle = "#000";
  ctx.strokeRect(x - width / 2, y - width / 2, w + width, h + width);
  ctx.strokeStyle = "#fff";
  ctx.strokeRect(x + width / 2, y + width / 2, w - width, h - width);
}

/** Everything on top of the cells: the focus row, the hovered cell, the keyboard cursor. */
function marks(ctx, g, m) {
  if (m.focusRow !== null && m.focusRow < g.n) {
    outline(ctx, g.left, g.top + m.focusRow * g.cell, g.side, g.cell, 2);
  }
  if (m.hover) outline(ctx, g.left + m.hover.j * g.cell, g.top + m.hover.i * g.cell, g.cell, g.cell, 2);
  if (m.cursor) {
    const c = m.cursor;
    outline(ctx, g.left + c.j * g.cell, g.top + c.i * g.cell, g.cell, g.cell, 3);
  }
}

/** A token map: `value(i, j)` → ramp index (or -1 for masked), `text(i, j)` → cell number. */
function drawMap(canvas, g, spec) {
  const ctx = sizeCanvas(canvas, g.width, g.height);
  paintCells(ctx, g, g.n, spec.index, spec.lut, spec.scratch);
  if (spec.labelLayer) ctx.drawImage(spec.labelLayer, 0, 0, g.width, g.height);
  else axisLabels(ctx, g, spec.labels, spec.axes, spec.labelColour);
  gridLines(ctx, g);
  if (spec.causal) hatchFuture(ctx, g);
  if (spec.numbers) {
    const ink = (i, j) => {
      const k = spec.index(i, j);
      return k < 0 ? "#000" : spec.ink[k];
    };
    cellNumbers(ctx, g, spec.fonts, spec.text, ink);
  }
  marks(ctx, g, spec.marks);
}

/** The labels and axis titles of a map geometry, drawn once on a transparent canvas: every map
    of the grid shares it, and a τ drag only repaints cells (one blit instead of 2n texts). */
function labelLayer(doc, g, labels, axes, colour) {
  const canvas = doc.createElement("canvas");
  const ctx = sizeCanvas(canvas, g.width, g.height);
  axisLabels(ctx, g, labels, axes, colour);
  return canvas;
}

/** A horizontal colour bar with ticks: `ticks` are [value, label] pairs on lo … hi. */
function drawColourBar(canvas, width, lut, lo, hi, ticks, px, title) {
  const key = JSON.stringify([width, lo, hi, ticks, px, title, window.devicePixelRatio]);
  if (canvas.__key === key && canvas.__lut === lut) return; // unchanged: keep the pixels
  canvas.__key = key;
  canvas.__lut = lut;
  const h = px * 3 + 22;
  const ctx = sizeCanvas(canvas, width, h);
  const barW = Math.max(120, Math.min(width - 20, 420));
  const x0 = 10;
  for (let k = 0; k < barW; k++) {
    const idx = Math.round((k / (barW - 1)) * (RAMP_SIZE - 1));
    ctx.fillStyle = rampCss(lut, idx);
    ctx.fillRect(x0 + k, px + 6, 1.5, 14);
  }
  ctx.strokeStyle = "#444";
  ctx.strokeRect(x0 + 0.5, px + 6.5, barW, 14);
  ctx.fillStyle = "#111";
  ctx.font = `${px}px ${FONT_STACK}`;
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

/** The focus token's row of every head: for each key one group of h bars, one colour per head. */
function drawBars(canvas, width, height, rows, labels, fonts, hover) {
  const ctx = sizeCanvas(canvas, width, height);
  const h = rows.length;
  const n = labels.length;
  let top = 0;
  for (const r of rows) for (const w of r) top = Math.max(top, w);
  const ymax = Math.min(1, Math.max(0.3, top * 1.15));
  const px = fonts.label;
  ctx.font = `${px}px ${FONT_STACK}`;
  const left = Math.ceil(ctx.measureText("100%").width) + 12;
  const group = (width - left - 8) / n;
  const step = Math.max(1, Math.ceil((px * 1.2) / group));
  const rotate = labelWidth(ctx, labels, px) > group * step - 4;
  const bottom = rotate ? Math.min(height * 0.4, labelDepth(ctx, labels, px) + 10) : px + 10;
  const plotH = height - bottom - 8;
  const y = (w) => 8 + plotH * (1 - w / ymax);
  ctx.strokeStyle = "#c8c8c8";
  ctx.fillStyle = "#111";
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (let t = 0; t <= ymax + 1e-9; t += ymax > 0.6 ? 0.25 : 0.1) {
    ctx.beginPath();
    ctx.moveTo(left, Math.round(y(t)) + 0.5);
    ctx.lineTo(width - 8, Math.round(y(t)) + 0.5);
    ctx.stroke();
    ctx.fillText(`${Math.round(t * 100)}%`, left - 6, y(t));
  }
  const barW = Math.max(1, (group * 0.8) / h);
  for (let j = 0; j < n; j++) {
    for (let k = 0; k < h; k++) {
      const x = left + j * group + group * 0.1 + k * barW;
      const yy = y(rows[k][j]);
      ctx.fillStyle = headColour(k);
      ctx.fillRect(x, yy, barW, y(0) - yy);
      if (barW >= 4) {
        ctx.strokeStyle = "#222";
        ctx.lineWidth = 0.6;
        ctx.strokeRect(x, yy, barW, y(0) - yy);
      }
    }
  }
  if (hover) {
    ctx.strokeStyle = "#000";
    ctx.lineWidth = 2;
    ctx.strokeRect(left + hover.j * group + 1, 8, group - 2, plotH);
  }
  ctx.fillStyle = "#111";
  for (let j = 0; j < n; j += step) {
    const x = left + (j + 0.5) * group;
    if (rotate && isUpright(labels[j])) {
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      [...labels[j]].forEach((ch, c) => ctx.fillText(ch, x, height - bottom + 4 + c * px * 1.05));
      ctx.textBaseline = "middle";
    } else if (rotate) {
      ctx.save();
      ctx.translate(x, height - bottom + 6);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = "right";
      ctx.fillText(labels[j], 0, 0);
      ctx.restore();
    } else {
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.fillText(labels[j], x, height - bottom + 4);
      ctx.textBaseline = "middle";
    }
  }
  return { left, group, top: 8, plotH };
}
