/* Layout by the room, not by the sentence: how many maps per row and how big, from the width the
   view actually has and the viewport's height, so every map fits on one screen. */

const GAP = 16; // px between maps
const PHONE = 640; // narrower than this: one map per row, panels stacked
const FONT_STACK = '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif';

/** Font sizes in px: labels, titles and in-cell numbers; classroom mode is read from the back. */
function fontSizes(classroom, width) {
  if (classroom) return { label: 24, min: 16, title: 26, cell: 20 };
  if (width < PHONE) return { label: 13, min: 9, title: 15, cell: 11 };
  return { label: 14, min: 9, title: 16, cell: 12 };
}

/** Maps per row: at most two on a laptop, one on a phone or for long sentences on a small screen. */
function gridColumns(width, n, h, classroom) {
  if (h === 1 || width < PHONE) return 1;
  if (classroom) return width >= 1400 ? 2 : 1;
  return n > 40 && width < 1400 ? 1 : 2;
}

/** Widest label in px at a font size (CJK-aware: measured, not guessed). */
function labelWidth(ctx, labels, px) {
  ctx.font = `${px}px ${FONT_STACK}`;
  let widest = 0;
  for (const s of labels) widest = Math.max(widest, ctx.measureText(s).width);
  return Math.ceil(widest);
}

const WIDE = /^[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+$/u;

/** Chinese labels stand upright, one character under the other, when they do not fit across:
    read like vertical Chinese, not turned on their side. */
function isUpright(label) {
  return WIDE.test(label);
}

/** How far a key label reaches below the map when it does not fit across (px). */
function labelDepth(ctx, labels, px) {
  ctx.font = `${px}px ${FONT_STACK}`;
  let deepest = 0;
  for (const s of labels) {
    const d = isUpright(s) ? [...s].length * px * 1.05 : ctx.measureText(s).width;
    deepest = Math.max(deepest, d);
  }
  return Math.ceil(deepest);
}

/** Geometry of one n × n map in a box `box` px wide and at most `maxH` px tall.

    left/top: where the cells start; cell: side of one square cell; rotate: key labels turned
    -90°; step: draw every step-th label when cells are smaller than the type. */
function mapGeometry(ctx, labels, box, maxH, fonts) {
  const n = labels.length;
  const title = Math.round(fonts.label * 1.4); // room for an axis title
  let px = fonts.label;
  let widest = labelWidth(ctx, labels, px);
  const fit = (w) => {
    const left = w + 8 + title;
    let cell = Math.floor((box - left - 6) / n);
    const rotate = w > cell - 4;
    const bottom = (rotate ? labelDepth(ctx, labels, px) + 8 : px + 8) + title;
    cell = Math.min(cell, Math.floor((maxH - 6 - bottom) / n));
    return { left, cell: Math.max(cell, 2), rotate, bottom };
  };
  let g = fit(widest);
  if (g.cell < px * 1.1 && px > fonts.min) {
    px = Math.max(fonts.min, Math.floor(g.cell * 0.9));
    widest = labelWidth(ctx, labels, px);
    g = fit(widest);
  }
  const step = Math.max(1, Math.ceil((px * 1.15) / g.cell));
  const side = n * g.cell;
  return {
    n,
    left: g.left,
    top: 6,
    cell: g.cell,
    side,
    width: g.left + side + 6,
    height: 6 + side + g.bottom,
    rotate: g.rotate,
    px,
    step,
    title,
  };
}

/** The whole view's layout for a width: grid columns, map box, panel box, bar height, fonts. */
function viewLayout(width, viewportH, n, h, classroom) {
  const fonts = fontSizes(classroom, width);
  const cols = gridColumns(width, n, h, classroom);
  const box = Math.floor((width - GAP * (cols - 1)) / cols);
  const maxH = Math.max(220, viewportH - (classroom ? 150 : 100));
  const panelCols = width < PHONE ? 1 : 3;
  const panelBox = Math.floor((width - GAP * (panelCols - 1)) / panelCols);
  const barsH = classroom ? 340 : width < PHONE ? 220 : 260;
  return { width, fonts, cols, box, maxH, panelCols, panelBox, barsH, phone: width < PHONE };
}
