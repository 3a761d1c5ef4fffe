/* Colour ramps from the stops Python sends (ui/figures.WEIGHT_SCALE for weights, RdBu_r for
   scores): 256-entry lookup tables, plus the ink (black or white) that reads best on a cell. */

const RAMP_SIZE = 256;

function hexRgb(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** A lookup table of RAMP_SIZE colours, linear between stops [[position 0…1, "#rrggbb"], …]. */
function makeRamp(stops) {
  const lut = new Uint8ClampedArray(RAMP_SIZE * 3);
  const pts = stops.map(([p, c]) => [p, hexRgb(c)]);
  let k = 0;
  for (let i = 0; i < RAMP_SIZE; i++) {
    const p = i / (RAMP_SIZE - 1);
    while (k < pts.length - 2 && p > pts[k + 1][0]) k++;
    const [p0, c0] = pts[k];
    const [p1, c1] = pts[k + 1];
    const f = p1 > p0 ? Math.min(1, Math.max(0, (p - p0) / (p1 - p0))) : 0;
    for (let c = 0; c < 3; c++) lut[i * 3 + c] = c0[c] + f * (c1[c] - c0[c]);
  }
  return lut;
}

/** Index into a ramp for value v on lo … hi (clamped). */
function rampIndex(v, lo, hi) {
  const f = hi > lo ? (v - lo) / (hi - lo) : 0;
  return Math.round(Math.min(1, Math.max(0, f)) * (RAMP_SIZE - 1));
}

function rampCss(lut, index) {
  return `rgb(${lut[index * 3]},${lut[index * 3 + 1]},${lut[index * 3 + 2]})`;
}

function relativeLuminance(r, g, b) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrastRatio(l1, l2) {
  return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
}

/** Per ramp entry: "#000" or "#fff", whichever has the higher contrast on that colour. */
function inkTable(lut) {
  const ink = new Array(RAMP_SIZE);
  for (let i = 0; i < RAMP_SIZE; i++) {
    const l = relativeLuminance(lut[i * 3], lut[i * 3 + 1], lut[i * 3 + 2]);
    ink[i] = contrastRatio(l, 0) >= contrastRatio(l, 1) ? "#000" : "#fff";
  }
  return ink;
}

/** Colour of each head in bars and legends (Okabe–Ito, colour-blind-safe; as ui/figures). */
const HEAD_COLOURS = [
  "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#999933",
];

function headColour(i) {
  return HEAD_COLOURS[i % HEAD_COLOURS.length];
}
