/* Line charts on the pen (§5's variance, §7's measurements, §10's learning curve): a legend row
   above, the y title above the axis (never turned), ticks placed only where they fit. */

import { penFont, penLine, penMeasure, penText, penTry, penWrap } from "./pen.js";

/** A log axis over measured values: from the first ÷ pad to the last × pad, a tick at each. */
export function logAxis(values, title, pad) {
  return {
    min: values[0] / pad,
    max: values.at(-1) * pad,
    log: true,
    title,
    ticks: values.map((v) => [v, String(v)]),
  };
}

function chartScale(axis, lo, hi) {
  const f = axis.log ? Math.log10 : (v) => v;
  const a = f(axis.min);
  const b = f(axis.max);
  return (v) => lo + ((f(v) - a) / (b - a)) * (hi - lo);
}

/** Draw the chart in box {x, y, w, h}; returns {sx, sy} to place marks on it. */
export function drawChart(pen, box, spec, px) {
  let top = box.y + chartLegend(pen, box, spec.series, px);
  const muted = pen.ink.muted;
  top += penWrap(pen, spec.y.title, box.x, top, box.w, { px, colour: muted }) + px * 0.3;
  pen.ctx.font = penFont(pen, px);
  const tickW = Math.max(...spec.y.ticks.map(([, s]) => pen.ctx.measureText(s).width)) + 10;
  const left = box.x + tickW;
  const right = box.x + box.w - px;
  const bottom = box.y + box.h - px * 2.8;
  const sx = chartScale(spec.x, left, right);
  const sy = chartScale(spec.y, bottom, top + px * 0.6);
  penLine(pen, left, bottom, right, bottom, muted, 1.5);
  penLine(pen, left, top, left, bottom, muted, 1.5);
  for (const [v, s] of spec.y.ticks) {
    penLine(pen, left, sy(v), right, sy(v), pen.ink.rule, 1);
    penTry(pen, s, left - 6, sy(v), { px, align: "right", colour: muted });
  }
  // x ticks left to right, each at least half a letter clear of the last one drawn: "8" and
  // "12" never read as "812"
  let clear = -Infinity;
  for (const [v, s] of spec.x.ticks) {
    const o = { px, align: "center", base: "top", colour: muted };
    const [x0, , w] = penMeasure(pen, s, sx(v), bottom + 4, o);
    if (x0 < clear + px * 0.5) continue;
    if (penTry(pen, s, sx(v), bottom + 4, o)) clear = x0 + w;
  }
  penTry(pen, spec.x.title, (left + right) / 2, box.y + box.h, {
    px,
    align: "center",
    base: "bottom",
    colour: muted,
  });
  for (const s of spec.series) chartSeries(pen, s, sx, sy);
  return { sx, sy, left, right, top, bottom };
}

function chartSeries(pen, s, sx, sy) {
  const { ctx } = pen;
  const count = s.upto ?? s.xs.length;
  ctx.save();
  ctx.strokeStyle = s.colour;
  ctx.fillStyle = s.colour;
  ctx.lineWidth = s.width || 3;
  if (s.dash) ctx.setLineDash(s.dash);
  ctx.beginPath();
  for (let k = 0; k < count; k++) {
    const x = sx(s.xs[k]);
    const y = sy(s.ys[k]);
    if (k) ctx.lineTo(x, y);
    else ctx.moveTo(x, y);
  }
  ctx.stroke();
  ctx.setLineDash([]);
  if (s.marks) {
    for (let k = 0; k < count; k++) {
      ctx.beginPath();
      ctx.arc(sx(s.xs[k]), sy(s.ys[k]), 5, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  ctx.restore();
}

/** One legend item per series (a short line and its name), wrapped; returns its height. */
function chartLegend(pen, box, series, px) {
  let x = box.x;
  let y = box.y;
  const named = series.filter((s) => s.label);
  for (const s of named) {
    pen.ctx.font = penFont(pen, px);
    const w = 34 + pen.ctx.measureText(s.label).width + 18;
    if (x > box.x && x + w > box.x + box.w) {
      x = box.x;
      y += px * 1.35;
    }
    penLine(pen, x, y + px * 0.65, x + 26, y + px * 0.65, s.colour, s.width || 3, s.dash);
    penText(pen, s.label, x + 34, y, { px, base: "top" });
    x += w;
  }
  return named.length ? y - box.y + px * 1.5 : 0;
}

/** Ticks at powers of ten between lo and hi, labelled like 0.1, 1, 10, 100, 1 000. */
/** 10⁻³ for -3: ten to the power e, the exponent in superscript digits. */
export function powerOfTen(e) {
  return `10${[...String(e)].map((c) => (c === "-" ? "⁻" : "⁰¹²³⁴⁵⁶⁷⁸⁹"[Number(c)])).join("")}`;
}

export function decadeTicks(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    const v = 10 ** e;
    if (v >= lo * 0.999 && v <= hi * 1.001)
      out.push([v, v >= 1 ? v.toLocaleString("en") : String(v)]);
  }
  return out;
}
