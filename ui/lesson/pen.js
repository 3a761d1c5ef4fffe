/* The lesson's own figures (cards, chains, vectors, charts) on canvas. Every word drawn goes
   through the pen, which records its size and box and publishes them on the canvas as the
   attention view's maps do (publishText, draw.js), so a test can check from the outside that
   nothing is under the room's minimum and no two labels overlap; `penTry` places a label only
   where it overlaps none already placed. Cells, grid lines, hatching and outlines are the view's
   (draw.js); colours and font stacks come in `theme` (the palette, header.colours). */

import { inkOn, rampIndex } from "../explorer/colour.js";
import { boxesMeet } from "../explorer/layout.js";
import { axisLabels, cellNumberPx, cellNumbers, gridLines, hatchFuture, marks, outline, paintGrid,
  publishText, sizeCanvas } from "../explorer/draw.js";

/** A crisp canvas of css size w × h, cleared; the pen that draws on it. theme: ink (colours by
    name), stack and mono (font stacks), dpr, masked ([r, g, b] of a masked cell), scratch. */
export function penStart(canvas, w, h, theme) {
  const ctx = sizeCanvas(canvas, Math.max(1, w), Math.max(1, h), theme.dpr);
  return { canvas, ctx, w, h, theme, ink: theme.ink, fonts: new Set(), cellFonts: new Set(),
    boxes: [], map: null, rows: null }; // map, rows: the last map's geometry and row labels
}

export function penFont(pen, px, weight = 400, mono = false) {
  return `${weight} ${px}px ${mono ? pen.theme.mono : pen.theme.stack}`;
}

/** The box [x, y, w, h] text would take, without drawing it. */
export function penMeasure(pen, s, x, y, o) {
  const px = o.px;
  pen.ctx.font = penFont(pen, px, o.weight || 400, o.mono);
  const w = pen.ctx.measureText(s).width;
  const align = o.align || "left";
  const x0 = align === "center" ? x - w / 2 : align === "right" ? x - w : x;
  const base = o.base || "middle";
  const hh = px * 1.2;
  const y0 = base === "top" ? y : base === "bottom" ? y - hh : y - hh / 2;
  return [x0, y0, w, hh];
}

/** Draw one label; record its size and box (cell numbers are recorded apart, o.cell). */
export function penText(pen, s, x, y, o) {
  const box = penMeasure(pen, s, x, y, o);
  const { ctx } = pen;
  ctx.fillStyle = o.colour || pen.ink.text;
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(s, box[0], box[1] + o.px * 0.1);
  if (o.cell) pen.cellFonts.add(o.px);
  else {
    pen.fonts.add(o.px);
    pen.boxes.push(box);
  }
  return box;
}

/** Draw a label only where it overlaps no label placed before; true when drawn. */
export function penTry(pen, s, x, y, o) {
  const box = penMeasure(pen, s, x, y, o);
  if (box[0] < -0.5 || box[0] + box[2] > pen.w + 0.5) return false;
  if (o.max && box[2] > o.max) return false; // wider than its place (a card): left out
  if (pen.boxes.some((b) => boxesMeet(b, box))) return false;
  penText(pen, s, x, y, o);
  return true;
}

/** Publish what was drawn: the fonts and the label boxes (css px inside the canvas), and the
    cell size and labelled rows of the map drawn on it (penMap), if any. */
export function penDone(pen) {
  publishText(pen.canvas, [...pen.fonts], [...pen.cellFonts], pen.boxes, pen.map, pen.rows);
}

export function penLine(pen, x0, y0, x1, y1, colour, width = 1, dash = null) {
  const { ctx } = pen;
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  if (dash) ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.restore();
}

/** An arrow from (x0, y0) to (x1, y1), its head at the end. */
export function penArrow(pen, x0, y0, x1, y1, colour, width = 2) {
  const { ctx } = pen;
  const a = Math.atan2(y1 - y0, x1 - x0);
  const head = 6 + width * 2;
  penLine(pen, x0, y0, x1 - Math.cos(a) * head * 0.6, y1 - Math.sin(a) * head * 0.6, colour, width);
  ctx.save();
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - head * Math.cos(a - 0.4), y1 - head * Math.sin(a - 0.4));
  ctx.lineTo(x1 - head * Math.cos(a + 0.4), y1 - head * Math.sin(a + 0.4));
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

/** The view's double outline (white inside black), visible on every colour of the ramps. */
export function penOutline(pen, x, y, w, h, width = 3) {
  pen.ctx.save();
  outline(pen.ctx, x, y, w, h, width, pen.ink);
  pen.ctx.restore();
}

/** Cells of an r × c matrix in (x, y, w, h): colourAt(i, j) → [r, g, b], or null for a masked
    cell (the palette's masked colour). The view's paintGrid: one draw call. */
export function penCells(pen, x, y, w, h, rows, cols, colourAt) {
  const masked = pen.theme.masked;
  paintGrid(pen.ctx, pen.theme.scratch, [x, y, w, h], rows, cols, (i, j, px, o) => {
    const c = colourAt(i, j) || masked;
    px[o] = c[0];
    px[o + 1] = c[1];
    px[o + 2] = c[2];
  });
}

/** Colour of value v on a ramp (a lookup table from colour.js) between lo and hi. */
export function rampRgb(lut, v, lo, hi) {
  const k = rampIndex(v, lo, hi);
  return [lut[k * 3], lut[k * 3 + 1], lut[k * 3 + 2]];
}

/** Lines of text no wider than maxW: break at spaces, or anywhere in Chinese. */
export function penLines(pen, s, maxW, o) {
  pen.ctx.font = penFont(pen, o.px, o.weight || 400, o.mono);
  const fits = (t) => pen.ctx.measureText(t).width <= maxW;
  // pieces a line may break after: each Chinese character, or a run of other characters with
  // its spaces (English with a Chinese word in it still breaks between words)
  const piece = /[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+\s*|\s+/gu;
  const words = s.match(piece) || [];
  const lines = [];
  let line = "";
  for (const w of words) {
    if (line && !fits(line + w)) {
      lines.push(line.trimEnd());
      line = w.trimStart();
    } else line += w;
  }
  if (line) lines.push(line.trimEnd());
  return lines;
}

/** Wrapped text from (x, y) down; returns the height it took. */
export function penWrap(pen, s, x, y, maxW, o) {
  const lines = penLines(pen, s, maxW, o);
  lines.forEach((ln, k) => penText(pen, ln, x, y + k * o.px * 1.25, { ...o, base: "top" }));
  return lines.length * o.px * 1.25;
}

/** An attention map on the pen's canvas at geometry g (layout.js's mapGeometry, moved to where
    it goes; g.x0: where its box starts), drawn with the view's own pieces (draw.js): cells,
    grid lines, hatching, the labels (the focus row's and its column's always) and the marks.
    spec: rgb(i, j) → [r, g, b] or null (masked), labels, axes, keep (the focus row), fonts,
    causal, numbers ({text(i, j), widest, ink(i, j)} or null). Its words are the pen's. */
export function penMap(pen, g, spec) {
  const { ctx } = pen;
  ctx.save();
  penCells(pen, g.left, g.top, g.side, g.side, g.n, g.n, spec.rgb);
  gridLines(ctx, g, pen.ink.grid);
  if (spec.causal) hatchFuture(ctx, g, pen.ink.hatch);
  const words = axisLabels(ctx, g, spec.labels, spec.axes, pen.ink.text, spec.fonts, spec.keep);
  [pen.map, pen.rows] = [g, words.rows];
  for (const px of words.fonts) pen.fonts.add(px);
  pen.boxes.push(...words.boxes);
  const px = spec.numbers ? cellNumberPx(ctx, g, spec.fonts, spec.numbers.widest) : 0;
  if (px) {
    cellNumbers(ctx, g, px, spec.fonts, spec.numbers.text, spec.numbers.ink);
    pen.cellFonts.add(px);
  }
  marks(ctx, g, { focusRow: spec.keep, ...spec.marks }, pen.ink);
  ctx.restore();
}

/** The view's hatching over a map's masked (future) cells, geometry g as penMap's. */
export function penHatch(pen, g) {
  pen.ctx.save();
  hatchFuture(pen.ctx, g, pen.ink.hatch);
  pen.ctx.restore();
}

/** The ink (palette rule) for a number written on a cell of colour [r, g, b]. */
export function penInkOn(pen, rgb) {
  return inkOn(rgb[0], rgb[1], rgb[2], pen.theme.rule);
}
