/* Layout by the room, not by the sentence: how many maps per row and how big, from the width the
   view has and the viewport's height, so every map fits on one screen. Pure: sizes come from the
   palette (Python), text widths from a canvas context the caller passes. */

const GAP = 16; // px between maps
const PHONE = 640; // narrower than this: one map per row, panels stacked

/** Font sizes in px for the room (palette.fonts), times the page's scale; with the font stack. */
function fontSizes(palette, classroom, width, scale = 1) {
  const mode = classroom ? "classroom" : width < PHONE ? "phone" : "normal";
  const f = palette.fonts[mode];
  const px = (v) => Math.round(v * scale);
  return { label: px(f.label), min: px(f.min), title: px(f.title), cell: px(f.cell),
    cellMin: palette.cell_min, stack: palette.font_stack };
}

/** Maps per row: at most two on a laptop, one on a phone or for long sentences on a small screen. */
function gridColumns(width, n, h, classroom) {
  if (h === 1 || width < PHONE) return 1;
  if (classroom) return width >= 1400 ? 2 : 1;
  return n > 40 && width < 1400 ? 1 : 2;
}

/** Widest label in px at a font size (CJK-aware: measured, not guessed). */
function labelWidth(ctx, labels, px, stack) {
  ctx.font = `${px}px ${stack}`;
  let widest = 0;
  for (const s of labels) widest = Math.max(widest, ctx.measureText(s).width);
  return Math.ceil(widest);
}

const WIDE = /^[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f\u2080-\u2089]+$/u;

/** Chinese labels stand upright, one character under the other, when they do not fit across:
    read like vertical Chinese, not turned on their side. */
function isUpright(label) {
  return WIDE.test(label);
}

/** How far a key label reaches below the map when it does not fit across (px). */
function labelDepth(ctx, labels, px, stack) {
  ctx.font = `${px}px ${stack}`;
  let deepest = 0;
  for (const s of labels) {
    const d = isUpright(s) ? [...s].length * px * 1.05 : ctx.measureText(s).width;
    deepest = Math.max(deepest, d);
  }
  return Math.ceil(deepest);
}

/** Geometry of one n × n map in a box `box` px wide and at most `maxH` px tall.

    left/top: where the cells start; cell: side of one square cell; rotate: key labels stand
    upright or turn -90°; step: every step-th label is drawn when cells are smaller than the type. */
function mapGeometry(ctx, labels, box, maxH, fonts) {
  const n = labels.length;
  const title = Math.round(fonts.label * 1.4); // room for an axis title
  let px = fonts.label;
  let widest = labelWidth(ctx, labels, px, fonts.stack);
  const fit = (w) => {
    const left = w + 8 + title;
    const across = Math.floor((box - left - 6) / n);
    const sized = (rotate) => {
      const bottom = (rotate ? labelDepth(ctx, labels, px, fonts.stack) + 8 : px + 8) + title;
      const cell = Math.min(across, Math.floor((maxH - 6 - bottom) / n));
      return { left, cell: Math.max(cell, 2), rotate, bottom };
    };
    const flat = sized(false); // labels across, unless the cells (a short screen) are narrower
    return w > flat.cell - 4 ? sized(true) : flat;
  };
  let g = fit(widest);
  if (g.cell < px * 1.1 && px > fonts.min) {
    px = Math.max(fonts.min, Math.floor(g.cell * 0.9));
    widest = labelWidth(ctx, labels, px, fonts.stack);
    g = fit(widest);
  }
  const step = Math.max(1, Math.ceil((px * 1.15) / g.cell));
  const side = n * g.cell;
  return {
    n, left: g.left, top: 6, cell: g.cell, side, width: g.left + side + 6,
    height: 6 + side + g.bottom, rotate: g.rotate, px, step, title,
  };
}

/** Which of n labels to draw when only every step-th fits: every step-th, and always `keep`
    (the focus token), dropping the neighbours it would overlap. */
function labelIndices(n, step, keep) {
  const out = [];
  for (let i = 0; i < n; i += step) if (keep === null || Math.abs(i - keep) >= step) out.push(i);
  if (keep !== null && keep >= 0 && keep < n) out.push(keep);
  return out.sort((a, b) => a - b);
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

/** The whole view's layout for a width: grid columns, map box, panel box, bar height, fonts. */
function viewLayout(width, viewportH, n, h, classroom, palette, scale) {
  const fonts = fontSizes(palette, classroom, width, scale);
  const cols = gridColumns(width, n, h, classroom);
  const box = Math.floor((width - GAP * (cols - 1)) / cols);
  const maxH = Math.max(220, viewportH - (classroom ? 150 : 100));
  const panelCols = panelColumns(width, n, fonts);
  const panelBox = Math.floor((width - GAP * (panelCols - 1)) / panelCols);
  const barsH = classroom ? 340 : width < PHONE ? 220 : 260;
  return { width, fonts, cols, box, maxH, panelCols, panelBox, barsH, phone: width < PHONE };
}
