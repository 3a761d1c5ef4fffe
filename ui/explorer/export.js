/* PNG of the whole view at projector resolution (1920 px wide), drawn from a snapshot of the
   view's state (snap: what it shows, its words and its palette), not from the view itself:
   every head's map, the inspected head's before/after panels and the focus bars. */

import { headColour, weightCells } from "./colour.js";
import { fontSizes, GAP, mapGeometry } from "./layout.js";
import { drawBars, drawMap } from "./draw.js";

const EXPORT_WIDTH = 1920;

function exportTitle(ctx, fonts, ink, text, x, y) {
  ctx.font = `${fonts.title}px ${fonts.stack}`;
  ctx.fillStyle = ink.text;
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(text, x, y);
}

/** Draw with `paint(canvas)` on a fresh canvas and place it at (x, y). */
function placed(doc, ctx, paint, x, y, w, h) {
  const c = doc.createElement("canvas");
  paint(c);
  ctx.drawImage(c, x, y, w, h);
}

/** The legend of the focus bars: one swatch and name per head. */
function exportLegend(ctx, snap, fonts, x, y) {
  for (let k = 0; k < snap.heads.length; k++) {
    ctx.fillStyle = headColour(snap.palette.heads, snap.heads[k]);
    ctx.fillRect(x, y + 4, fonts.label, fonts.label);
    ctx.fillStyle = snap.look.ink.text;
    ctx.font = `${fonts.label}px ${fonts.stack}`;
    ctx.fillText(snap.words.headNames[k], x + fonts.label + 6, y + 2);
    x += fonts.label + 6 + ctx.measureText(snap.words.headNames[k]).width + 24;
  }
}

export function exportCanvas(doc, snap) {
  const fonts = fontSizes({ ...snap.palette, fonts: { normal: snap.palette.fonts.export } }, false, EXPORT_WIDTH);
  const look = { ...snap.look, fonts, dpr: 1, scratch: doc.createElement("canvas") };
  const { words, state } = snap;
  const pad = 24;
  const inner = EXPORT_WIDTH - 2 * pad;
  const cols = Math.min(snap.heads.length, 4);
  const measure = doc.createElement("canvas").getContext("2d");
  const g = mapGeometry(measure, snap.labels, Math.floor((inner - GAP * (cols - 1)) / cols), 980, fonts);
  const pg = mapGeometry(measure, snap.labels, Math.floor((inner - 2 * GAP) / 3), 980, fonts);
  const titleH = fonts.title + 16;
  const mapsH = Math.ceil(snap.heads.length / cols) * (titleH + g.height + GAP);
  const barsH = 360;
  const height = pad + 2 * titleH + mapsH + 2 * titleH + pg.height + GAP + 2 * titleH + barsH + pad;
  const out = doc.createElement("canvas");
  out.width = EXPORT_WIDTH;
  out.height = height;
  const ctx = out.getContext("2d");
  ctx.fillStyle = look.ink.paper;
  ctx.fillRect(0, 0, EXPORT_WIDTH, height);
  const title = (text, x, y) => exportTitle(ctx, fonts, look.ink, text, x, y);
  let y = pad;
  title(words.sentence, pad, y);
  title(words.note, pad, (y += titleH));
  y += titleH;
  const axes = words.axes;
  const base = { causal: state.causal, numbers: snap.numbers, labels: snap.labels, axes, keep: state.focus };
  snap.heads.forEach((k, slot) => {
    const x = pad + (slot % cols) * (g.width + GAP);
    const top = y + Math.floor(slot / cols) * (titleH + g.height + GAP);
    title(words.mapTitles[slot], x, top);
    const cells = weightCells(snap.weights[slot], snap.n, state.causal, snap.zmax[slot]);
    const spec = { ...base, cells, paint: snap.paints.weight, marks: { focusRow: state.focus } };
    placed(doc, ctx, (c) => drawMap(c, g, spec, look), x, top + titleH, g.width, g.height);
  });
  y += mapsH;
  title(words.panelsTitle, pad, y);
  y += titleH;
  snap.panels.forEach((cells, p) => {
    const x = pad + p * (pg.width + GAP);
    title(words.captions[p], x, y);
    const paint = p < 2 ? snap.paints.signed : snap.paints.weight;
    const spec = { ...base, cells, paint, causal: p > 0 && state.causal, marks: { focusRow: state.focus } };
    placed(doc, ctx, (c) => drawMap(c, pg, spec, look), x, y + titleH, pg.width, pg.height);
  });
  y += titleH + pg.height + GAP;
  title(words.focusTitle, pad, y);
  y += titleH;
  exportLegend(ctx, { ...snap, look }, fonts, pad, y);
  y += titleH;
  const draw = (c) => drawBars(c, inner, barsH, snap.rows, snap.heads, snap.labels, null, state.focus, look);
  placed(doc, ctx, draw, pad, y, inner, barsH);
  return out;
}
