/* Colour, from what Python sends (ui/palette.py, header.palette): 256-entry ramps between the
   stops, a map's cells as places on them, and the ink rule. A cell's colour and its number's
   colour are decided here and nowhere else in the view; the rule is ui/palette.text_on's
   (tests/browser/test_view_js.py compares). */

// leaf: pure (no page, clock or state); imports only leaves (tools/js/check.mjs)

export const RAMP_SIZE = 256;

export function hexRgb(hex) {
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
export function rampIndex(v, lo, hi) {
  const f = hi > lo ? (v - lo) / (hi - lo) : 0;
  return Math.round(Math.min(1, Math.max(0, f)) * (RAMP_SIZE - 1));
}

export function rampCss(lut, index) {
  return `rgb(${lut[index * 3]},${lut[index * 3 + 1]},${lut[index * 3 + 2]})`;
}

/** WCAG relative luminance of an sRGB colour (channels 0…255); `knee` from the palette. */
function relativeLuminance(r, g, b, knee) {
  const lin = (c) => {
    const s = c / 255;
    return s <= knee ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The ink for text on a colour: rule.dark above rule.threshold's luminance, else rule.light. */
export function inkOn(r, g, b, rule) {
  return relativeLuminance(r, g, b, rule.knee) > rule.threshold ? rule.dark : rule.light;
}

/** A ramp ready to paint: its colours and, per entry, the ink of a number written on it. */
export function paintRamp(stops, rule) {
  const lut = makeRamp(stops);
  const ink = new Array(RAMP_SIZE);
  for (let i = 0; i < RAMP_SIZE; i++) ink[i] = inkOn(lut[i * 3], lut[i * 3 + 1], lut[i * 3 + 2], rule);
  return { lut, ink };
}

/** Cells of a weight map: ramp index (or -1 when masked) and the number, 0…100, per cell. */
export function weightCells(w, n, causal, zmax) {
  return {
    index: (i, j) => (causal && j > i ? -1 : rampIndex(w[i * n + j], 0, zmax)),
    text: (i, j) => (causal && j > i ? null : String(Math.round(w[i * n + j] * 100))),
    widest: "100",
  };
}

/** Cells of a score map: raw[off + i·n + j] / divide on the diverging ramp ±limit. */
export function scoreCells(raw, off, n, divide, limit, masked) {
  const v = (i, j) => raw[off + i * n + j] / divide;
  return {
    index: (i, j) => (masked && j > i ? -1 : rampIndex(v(i, j), -limit, limit)),
    text: (i, j) => (masked && j > i ? null : v(i, j).toFixed(1)),
    widest: `-${Math.max(limit, 1).toFixed(1)}`,
  };
}

/** Colour of head k in bars and legends (palette.heads: one per head up to sixteen). */
export function headColour(colours, k) {
  return colours[k % colours.length];
}
