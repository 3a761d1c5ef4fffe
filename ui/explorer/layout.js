/* Layout by the room, not by the sentence: how many maps per row and how big, from the width the
   view has and the viewport's height (or the box a page gives it), so every map fits on one
   screen, and the first row whole on the first screen under what the page shows above it. Pure:
   sizes come from the palette (Python), text widths from a canvas context the caller passes. */

// leaf: pure (no page, clock or state); imports only leaves (tools/js/check.mjs)

export const GAP = 16; // px between maps
const PHONE = 640; // narrower than this: one map per row, panels stacked
export const FIGURE_PAD = 12; // a map's figure: 4 px padding and a 2 px border on each side (explorer.css)

/** Font sizes in px for the room (palette.fonts[mode]; by default classroom, phone or normal),
    times the page's scale; with the font stack and the smallest number a cell may hold. */
export function fontSizes(palette, classroom, width, scale = 1, mode = null) {
  const row = mode || (classroom ? "classroom" : width < PHONE ? "phone" : "normal");
  const f = palette.fonts[row];
  const px = (v) => Math.round(v * scale);
  return { label: px(f.label), min: px(f.min), title: px(f.title), cell: px(f.cell),
    cellMin: f.cell_min ? px(f.cell_min) : palette.cell_min, stack: palette.font_stack };
}

/** Maps per row: at most two on a laptop, one on a phone or for long sentences on a small screen. */
function gridColumns(width, n, h, classroom) {
  if (h === 1 || width < PHONE) return 1;
  if (classroom) return width >= 1400 ? 2 : 1;
  return n > 40 && width < 1400 ? 1 : 2;
}

/** Widest label in px at a font size (CJK-aware: measured, not guessed). */
export function labelWidth(ctx, labels, px, stack) {
  ctx.font = `${px}px ${stack}`;
  let widest = 0;
  for (const s of labels) widest = Math.max(widest, ctx.measureText(s).width);
  return Math.ceil(widest);
}

const WIDE = /^[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f\u2080-\u2089]+$/u;

/** Chinese labels stand upright, one character under the other, when they do not fit across:
    read like vertical Chinese, not turned on their side. */
export function isUpright(label) {
  return WIDE.test(label);
}

/** How far a key label reaches below the map when it does not fit across (px). */
export function labelDepth(ctx, labels, px, stack) {
  ctx.font = `${px}px ${stack}`;
  let deepest = 0;
  for (const s of labels) {
    const d = isUpright(s) ? [...s].length * px * 1.05 : ctx.measureText(s).width;
    deepest = Math.max(deepest, d);
  }
  return Math.ceil(deepest);
}

/** Size of the axis titles: a little smaller than the labels, never under the room's minimum. */
function axisTitlePx(fonts) {
  return Math.max(fonts.min, Math.round(fonts.label * 0.85));
}

/** A map's key (column) labels: `labels.columns` when a page gives its columns shorter labels
    than its rows (the lesson in English: "小明 Xiaoming" beside a row, "小明" under a column),
    else the row labels themselves. */
export function keyLabels(labels) {
  return labels.columns || labels;
}

/** Cells and label room of an n × n map in a box `box` px wide and at most `maxH` px tall,
    the cells starting `top` px down; px: the labels' size. */
function fitCells(ctx, labels, box, maxH, fonts, px, top) {
  const n = labels.length;
  const keys = keyLabels(labels);
  const title = Math.round(axisTitlePx(fonts) * 1.5) + 4; // room for an axis title
  const left = labelWidth(ctx, labels, px, fonts.stack) + 8 + title;
  const widest = keys === labels ? left - 8 - title : labelWidth(ctx, keys, px, fonts.stack);
  const across = Math.floor((box - left - 6) / n);
  const sized = (rotate) => {
    const bottom = (rotate ? labelDepth(ctx, keys, px, fonts.stack) + 8 : px + 8) + title;
    const cell = Math.min(across, Math.floor((maxH - top - bottom) / n));
    return { left, cell: Math.max(cell, 2), rotate, bottom, title };
  };
  const flat = sized(false); // labels across, unless the cells (a short screen) are narrower
  return widest > flat.cell - 4 ? sized(true) : flat;
}

/** Geometry of one n × n map in a box `box` px wide and at most `maxH` px tall.

    left/top: where the cells start; cell: side of one square cell; rotate: key labels stand
    upright or turn -90°; step: every step-th label is drawn when cells are smaller than the
    type. A label taller than its row reaches above the first row and past the last column:
    the cells move in by that much, so no label is cut. */
export function mapGeometry(ctx, labels, box, maxH, fonts) {
  const n = labels.length;
  let px = fonts.label;
  let g = fitCells(ctx, labels, box, maxH, fonts, px, 6);
  if (g.cell < px * 1.1 && px > fonts.min) {
    px = Math.max(fonts.min, Math.floor(g.cell * 0.9));
    g = fitCells(ctx, labels, box, maxH, fonts, px, 6);
  }
  const over = (c) => Math.max(0, Math.ceil(px * 0.6 - c / 2)); // half a label past its cell
  let top = 6;
  let right = 6;
  const short = () => over(g.cell) + 1 > top || (g.rotate && over(g.cell) + 1 > right);
  for (let k = 0; k < 3 && short(); k++) {
    top = Math.max(top, over(g.cell) + 1);
    right = g.rotate ? Math.max(right, over(g.cell) + 1) : 6;
    g = fitCells(ctx, labels, box - right + 6, maxH, fonts, px, top);
  }
  const step = Math.max(1, Math.ceil((px * 1.15) / g.cell));
  const side = n * g.cell;
  return {
    n, left: g.left, top, cell: g.cell, side, width: g.left + side + right,
    height: top + side + g.bottom, rotate: g.rotate, px, step, title: g.title,
    titlePx: axisTitlePx(fonts),
  };
}

/** Which of n labels to draw when only every step-th fits: every step-th, and always `keep`
    (the focus token), dropping the neighbours it would overlap. */
export function labelIndices(n, step, keep) {
  const out = [];
  for (let i = 0; i < n; i += step) if (keep === null || Math.abs(i - keep) >= step) out.push(i);
  if (keep !== null && keep >= 0 && keep < n) out.push(keep);
  return out.sort((a, b) => a - b);
}

/** True when boxes a and b ([x, y, w, h]) overlap, or come closer than `pad` px. */
export function boxesMeet(a, b, pad = 1) {
  return a[0] < b[0] + b[2] + pad && b[0] < a[0] + a[2] + pad
    && a[1] < b[1] + b[3] + pad && b[1] < a[1] + a[3] + pad;
}

/** Before/after panels per row: three when a cell can hold a label, else two, else one. */
function panelColumns(width, n, fonts) {
  if (width < PHONE) return 1;
  for (const cols of [3, 2]) {
    const box = (width - GAP * (cols - 1)) / cols;
    if ((box - fonts.label * 5) / n >= fonts.label * 1.15) return cols;
  }
  return 1;
}

/** Lines a caption of `width` px takes in a column `column` px wide. */
function captionLines(width, column) {
  return Math.max(1, Math.ceil(width / Math.max(1, column)));
}

/** count maps in a box {w, h}: of the column counts whose maps fit, the one with the biggest
    cells (when none fits, a long sentence's cells at 2 px: the one that overflows least).
    captionW: the widest caption in px (its height, fonts.label × 1.45 a line, comes off
    each map). Returns {cols, box, maxH}: each map's box width and height for mapGeometry. */
export function fitGrid(ctx, labels, box, count, fonts, captionW) {
  let best = null;
  for (let cols = 1; cols <= count; cols++) {
    const rows = Math.ceil(count / cols);
    const w = Math.floor((box.w - (cols - 1) * GAP) / cols) - FIGURE_PAD;
    const cap = captionLines(captionW * 1.05, w) * Math.ceil(fonts.label * 1.45) + 2; // explorer.css
    const h = Math.floor((box.h - (rows - 1) * GAP) / rows) - FIGURE_PAD - cap;
    const g = mapGeometry(ctx, labels, w, h, fonts);
    const over = Math.max(0, g.height - h) + Math.max(0, g.width - w);
    const score = over <= 0 ? [1, g.cell, 0] : [0, -over, g.cell]; // else: the least overflow
    if (!best || firstBeats(score, best.score)) best = { cols, box: w, maxH: h, score };
  }
  return best;
}

/** Lexicographic order of two score lists: true when a comes first. */
function firstBeats(a, b) {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] > b[k];
  return false;
}

const FIT_MIN = 240; // px: a first row of maps smaller than this is not fitted to the first screen
const FIT_MARGIN = 10; // px left under the first row on the first screen: its figure's edge, air

/** How tall a map may be: one to a screen under the sticky toolbar; and when the first row of maps
    starts `firstTop` px down the window (the page scrolled to its top; null: not known), that row
    whole on the first screen, unless that leaves it under FIT_MIN (a phone: words come first). */
function mapMaxH(viewportH, classroom, firstTop) {
  const room = Math.max(220, viewportH - (classroom ? 150 : 100));
  if (firstTop === null) return room;
  const fit = viewportH - firstTop - FIT_MARGIN;
  return fit >= FIT_MIN ? Math.min(room, fit) : room;
}

/** The whole view's layout for a width: grid columns, map box, panel box, bar height, fonts.
    firstTop: where the first row of maps starts on the first screen (mapMaxH), or null. */
export function viewLayout(width, viewportH, n, h, classroom, palette, scale, mode = null, firstTop = null) {
  const fonts = fontSizes(palette, classroom, width, scale, mode);
  const cols = gridColumns(width, n, h, classroom);
  const box = Math.floor((width - GAP * (cols - 1)) / cols);
  const maxH = mapMaxH(viewportH, classroom, firstTop);
  const panelCols = panelColumns(width, n, fonts);
  const panelBox = Math.floor((width - GAP * (panelCols - 1)) / panelCols);
  const barsH = classroom ? 340 : width < PHONE ? 220 : 260;
  return { width, fonts, cols, box, maxH, panelCols, panelBox, barsH, phone: width < PHONE };
}
