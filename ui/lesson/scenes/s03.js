/* §3 one word's three faces: its x times W_Q, W_K, W_V gives q, k, v. */

const { addScene, animate, arr, fillSide, focusIn, penArrow, penCells, penDone, penLine, penText,
  rampRgb, sceneCanvas, scenePen, setLocal, tx, wReadout, wTokens } = LESSON;

const S3_NAMES = ["Q", "K", "V"];

addScene({
  id: "s03",
  title: "lesson.s3.title",
  steps: [
    { id: "x", label: "lesson.s3.step0", caption: "lesson.s3.cap.x" },
    { id: "q", label: "lesson.s3.step1", caption: "lesson.s3.cap.q" },
    { id: "k", label: "lesson.s3.step2", caption: "lesson.s3.cap.k" },
    { id: "v", label: "lesson.s3.step3", caption: "lesson.s3.cap.v" },
  ],
  take: (S) => tx(S.D, "lesson.s3.take"),
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    let fade = 1;
    const paint = (step) => s3Paint(S, canvas, step, fade, readout);
    return {
      draw(step, from) {
        const part = S.part;
        const i = focusIn(S, part);
        fillSide(S, [
          wTokens(
            S,
            tx(S.D, "lesson.s3.pick"),
            part,
            i,
            (j) => setLocal(S, { focus: part.tokens[j].t }),
            "s3-token",
          ),
          readout,
        ]);
        fade = 1;
        if (from !== null && step === from + 1)
          animate(S.D, 500, (p) => {
            fade = p;
            paint(step);
          });
        else paint(step);
      },
    };
  },
});

/** x · W = row of Q, K or V (d_model numbers), from the arrays the core computed. */
function s3Vectors(S, part, i) {
  const D = S.D;
  const d = part.d_model;
  const x = arr(D, `${part.prefix}x`);
  const row = x ? x.subarray(i * d, (i + 1) * d) : null;
  const faces = S3_NAMES.map((name) => {
    const m = name.toLowerCase();
    const per = arr(D, `${part.prefix}${m}`); // (h, n, d_k): the row of token i, heads side by side
    const out = new Float64Array(d);
    for (let k = 0; k < part.h; k++) {
      for (let c = 0; c < part.d_k; c++)
        out[k * part.d_k + c] = per[(k * part.n + i) * part.d_k + c];
    }
    return { name, w: arr(D, `${part.prefix}w_${m}`), row: out };
  });
  return { x: row, faces };
}

function s3Paint(S, canvas, step, fade, readout) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const part = S.part;
  const i = focusIn(S, part);
  const tok = part.tokens[i].t;
  const d = part.d_model;
  const { x, faces } = s3Vectors(S, part, i);
  const stripH = Math.round(base * 1.3);
  const lim = (a) => Math.max(1e-9, ...Array.from(a, Math.abs));
  penText(pen, tx(D, "lesson.s3.x", { q: tok, d }), 0, 0, { px: base, base: "top", weight: 700 });
  if (x) {
    penCells(pen, 0, base * 1.4, W, stripH, 1, d, (_, c) =>
      rampRgb(D.luts.signed, x[c], -lim(x), lim(x)),
    );
  }
  const colW = (W - 2 * 16) / 3;
  const top = base * 1.4 + stripH + base * 1.6;
  const side = Math.max(40, Math.min(colW, H - top - base * 4.4 - stripH));
  faces.forEach((f, k) => {
    if (step < k + 1) return;
    pen.ctx.globalAlpha = step === k + 1 ? fade : 1;
    const x0 = k * (colW + 16);
    const cx = x0 + colW / 2;
    penArrow(pen, cx, base * 1.4 + stripH + 4, cx, top - 4, pen.ink.muted, 2);
    penText(pen, `W_${f.name}  ${d} × ${d}`, cx, top, {
      px: base,
      align: "center",
      base: "top",
      colour: pen.ink.muted,
    });
    const wy = top + base * 1.3;
    if (f.w)
      penCells(pen, cx - side / 2, wy, side, side, d, d, (r, c) =>
        rampRgb(D.luts.signed, f.w[r * d + c], -lim(f.w), lim(f.w)),
      );
    const ry = wy + side + base * 0.4;
    penText(pen, `${f.name.toLowerCase()} = x·W_${f.name}`, cx, ry, {
      px: base,
      align: "center",
      base: "top",
      weight: 700,
    });
    penCells(pen, x0, ry + base * 1.4, colW, stripH, 1, d, (_, c) =>
      rampRgb(D.luts.signed, f.row[c], -lim(f.row), lim(f.row)),
    );
    s3HeadTicks(pen, x0, ry + base * 1.4, colW, stripH, part);
    pen.ctx.globalAlpha = 1;
  });
  penDone(pen);
  const shown = step === 0 ? [] : faces.slice(0, step);
  const lines = shown.map((f) =>
    tx(D, "lesson.s3.row", { q: tok, name: f.name.toLowerCase(), d, j: argmaxAbs(f.row) }),
  );
  readout.textContent = lines.join("\n");
  const alt =
    step === 0 ? tx(D, "lesson.s3.alt", { name: "X", n: part.n, d, q: tok }) : lines.join(" ");
  canvas.setAttribute("aria-label", alt);
}

/** Where one head's d_k columns end and the next head's begin. */
function s3HeadTicks(pen, x, y, w, h, part) {
  for (let k = 1; k < part.h; k++) {
    const xx = x + (w * k * part.d_k) / part.d_model;
    penLine(pen, xx, y - 4, xx, y + h + 4, pen.ink.text, 2);
  }
}

function argmaxAbs(a) {
  let best = 0;
  for (let j = 1; j < a.length; j++) if (Math.abs(a[j]) > Math.abs(a[best])) best = j;
  return best;
}

return {};
