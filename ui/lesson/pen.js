/* Canvas drawing for the lesson. Every text drawn goes through the pen, which records its size and
   box on the canvas (data-fonts, data-cell-fonts, data-labels) so a test can check from the
   outside that nothing is under the room's minimum and no two labels overlap; `penTry` places a
   label only where it overlaps none already placed. Pure functions of their arguments. */

// The CJK stack comes from the one palette (ui/palette.py, header.colours.font_stack); for
// English, Latin glyphs go first so “ ” and ' are not full width. Set by penStacks().
const LATIN_FIRST = '"Segoe UI", Roboto, "Helvetica Neue", Arial, "DejaVu Sans", ';
let PEN_STACK = "sans-serif";

/** The font stack for the UI language, from the palette's CJK stack. */
function penStacks(cjk, lang) {
  PEN_STACK = lang === "en" ? LATIN_FIRST + cjk : cjk;
}
const MONO_STACK = '"Noto Sans Mono CJK SC", "DejaVu Sans Mono", Menlo, Consolas, monospace';
const INK = "#111";
const MUTED = "#3d4350"; // 10.3 : 1 on white
const ACCENT = "#1f5fbf"; // the app's focus and primary colour, 6.2 : 1 on white
const WARM = "#b3361b"; // the pronoun, the answer: 5.9 : 1 on white

/** A crisp canvas of css size w × h, cleared; the pen that draws on it. */
function penStart(canvas, w, h) {
  const dpr = window.devicePixelRatio || 1;
  const pw = Math.max(1, Math.round(w * dpr));
  const ph = Math.max(1, Math.round(h * dpr));
  if (canvas.width !== pw || canvas.height !== ph) {
    canvas.width = pw;
    canvas.height = ph;
  }
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  return { canvas, ctx, w, h, fonts: new Set(), cellFonts: new Set(), boxes: [] };
}

function penFont(px, weight = 400, mono = false) {
  return `${weight} ${px}px ${mono ? MONO_STACK : PEN_STACK}`;
}

function boxesMeet(a, b, pad = 1) {
  return (
    a[0] < b[0] + b[2] + pad &&
    b[0] < a[0] + a[2] + pad &&
    a[1] < b[1] + b[3] + pad &&
    b[1] < a[1] + a[3] + pad
  );
}

/** The box [x, y, w, h] text would take, without drawing it. */
function penMeasure(pen, s, x, y, o) {
  const px = o.px;
  pen.ctx.font = penFont(px, o.weight || 400, o.mono);
  const w = pen.ctx.measureText(s).width;
  const align = o.align || "left";
  const x0 = align === "center" ? x - w / 2 : align === "right" ? x - w : x;
  const base = o.base || "middle";
  const hh = px * 1.2;
  const y0 = base === "top" ? y : base === "bottom" ? y - hh : y - hh / 2;
  return [x0, y0, w, hh];
}

/** Draw one label; record its size and box (cell numbers are recorded apart, o.cell). */
function penText(pen, s, x, y, o) {
  const box = penMeasure(pen, s, x, y, o);
  const { ctx } = pen;
  ctx.fillStyle = o.colour || INK;
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
function penTry(pen, s, x, y, o) {
  const box = penMeasure(pen, s, x, y, o);
  if (box[0] < -0.5 || box[0] + box[2] > pen.w + 0.5) return false;
  if (o.max && box[2] > o.max) return false; // wider than its place (a card): left out
  if (pen.boxes.some((b) => boxesMeet(b, box))) return false;
  penText(pen, s, x, y, o);
  return true;
}

/** Chinese standing upright, one character under the other, centred on x from y down. */
function penUpright(pen, s, x, y, o) {
  const chars = [...s];
  const step = o.px * 1.05;
  const box = [x - o.px / 2, y, o.px, chars.length * step];
  if (o.try && pen.boxes.some((b) => boxesMeet(b, box))) return false;
  const { ctx } = pen;
  ctx.font = penFont(o.px, o.weight || 400);
  ctx.fillStyle = o.colour || INK;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  chars.forEach((ch, c) => ctx.fillText(ch, x, y + c * step));
  pen.fonts.add(o.px);
  pen.boxes.push(box);
  return true;
}

/** Publish what was drawn: the fonts and the label boxes (css px inside the canvas). */
function penDone(pen) {
  const c = pen.canvas;
  c.dataset.fonts = [...pen.fonts].sort((a, b) => a - b).join(",");
  c.dataset.cellFonts = [...pen.cellFonts].sort((a, b) => a - b).join(",");
  c.dataset.labels = JSON.stringify(pen.boxes.map((b) => b.map((v) => Math.round(v * 10) / 10)));
}

function penLine(pen, x0, y0, x1, y1, colour = INK, width = 1, dash = null) {
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
function penArrow(pen, x0, y0, x1, y1, colour = INK, width = 2) {
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

/** A double (white inside black) outline, visible on every colour of the ramps. */
function penOutline(pen, x, y, w, h, width = 3) {
  const { ctx } = pen;
  ctx.save();
  ctx.lineWidth = width;
  ctx.strokeStyle = "#000";
  ctx.strokeRect(x - width / 2, y - width / 2, w + width, h + width);
  ctx.lineWidth = Math.max(1, width - 1);
  ctx.strokeStyle = "#fff";
  ctx.strokeRect(x + width / 2, y + width / 2, w - width, h - width);
  ctx.restore();
}

/** Cells of an r × c matrix, one canvas pixel per cell scaled up (one draw call).
    colourAt(i, j) → [r, g, b] or null (masked: light grey). */
function penCells(pen, scratch, x, y, w, h, rows, cols, colourAt) {
  if (scratch.width !== cols || scratch.height !== rows) {
    scratch.width = cols;
    scratch.height = rows;
  }
  const sctx = scratch.getContext("2d");
  const img = sctx.createImageData(cols, rows);
  const px = img.data;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const c = colourAt(i, j) || [236, 236, 236];
      const o = (i * cols + j) * 4;
      px[o] = c[0];
      px[o + 1] = c[1];
      px[o + 2] = c[2];
      px[o + 3] = 255;
    }
  }
  sctx.putImageData(img, 0, 0);
  pen.ctx.imageSmoothingEnabled = false;
  pen.ctx.drawImage(scratch, x, y, w, h);
}

/** Colour of value v on a ramp (a lookup table from colour.js) between lo and hi. */
function rampRgb(lut, v, lo, hi) {
  const k = rampIndex(v, lo, hi);
  return [lut[k * 3], lut[k * 3 + 1], lut[k * 3 + 2]];
}

/** Diagonal hatching over the masked upper triangle of an n × n map at (x, y), cell c. */
function penHatch(pen, x, y, c, n) {
  if (n < 2) return;
  const { ctx } = pen;
  const side = n * c;
  ctx.save();
  ctx.beginPath();
  ctx.moveTo(x + c, y);
  ctx.lineTo(x + side, y);
  ctx.lineTo(x + side, y + side - c);
  for (let i = n - 2; i >= 0; i--) {
    ctx.lineTo(x + (i + 1) * c, y + (i + 1) * c);
    ctx.lineTo(x + (i + 1) * c, y + i * c);
  }
  ctx.closePath();
  ctx.clip();
  ctx.beginPath();
  const step = Math.max(5, Math.min(10, c / 2));
  for (let d = -side; d < side; d += step) {
    ctx.moveTo(x + d, y);
    ctx.lineTo(x + d + side, y + side);
  }
  ctx.strokeStyle = "#8a8a8a";
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}

/** Thin white lines between cells when they are big enough to tell apart. */
function penGrid(pen, x, y, cw, ch, rows, cols) {
  if (Math.min(cw, ch) < 7) return;
  const { ctx } = pen;
  ctx.save();
  ctx.beginPath();
  for (let k = 1; k < cols; k++) {
    ctx.moveTo(Math.round(x + k * cw) + 0.5, y);
    ctx.lineTo(Math.round(x + k * cw) + 0.5, y + rows * ch);
  }
  for (let k = 1; k < rows; k++) {
    ctx.moveTo(x, Math.round(y + k * ch) + 0.5);
    ctx.lineTo(x + cols * cw, Math.round(y + k * ch) + 0.5);
  }
  ctx.strokeStyle = "rgba(255,255,255,0.9)";
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.restore();
}

/** A horizontal colour bar with a title and end labels, at (x, y), `w` wide; returns its height. */
function penColourBar(pen, lut, x, y, w, px, title, ticks) {
  penText(pen, title, x, y, { px, base: "top", colour: MUTED });
  const top = y + px * 1.3;
  for (let k = 0; k < w; k++) {
    const idx = Math.round((k / Math.max(1, w - 1)) * (RAMP_SIZE - 1));
    pen.ctx.fillStyle = rampCss(lut, idx);
    pen.ctx.fillRect(x + k, top, 1.5, 12);
  }
  ticks.forEach(([f, label], i) => {
    const align = i === 0 ? "left" : i === ticks.length - 1 ? "right" : "center";
    penTry(pen, label, x + f * w, top + 16, { px, base: "top", align, colour: MUTED });
  });
  return px * 2.6 + 20;
}

/** Lines of text no wider than maxW: break at spaces, or anywhere in Chinese. */
function penLines(pen, s, maxW, o) {
  pen.ctx.font = penFont(o.px, o.weight || 400, o.mono);
  const fits = (t) => pen.ctx.measureText(t).width <= maxW;
  const words = /[\u2e80-\u9fff]/u.test(s) ? [...s] : s.split(/(?<= )/);
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
function penWrap(pen, s, x, y, maxW, o) {
  const lines = penLines(pen, s, maxW, o);
  lines.forEach((ln, k) => penText(pen, ln, x, y + k * o.px * 1.25, { ...o, base: "top" }));
  return lines.length * o.px * 1.25;
}
