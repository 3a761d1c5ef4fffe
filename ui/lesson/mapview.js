/* The lesson's thin adapter over the attention view (§5, §6, §9): the shape of the view's
   coming `createView(host, opts) → {update, destroy}` (which heads, font scale), drawn until then
   with the view's own leaves: attentionWeights (softmax.js, tested against the core), the ramps
   (colour.js), mapGeometry (layout.js), summaryText (a11y.js). At the merge its
   body becomes a call to createView with these options; the scenes keep calling this. */

/** Maps of some heads of one sentence in `host`. opts: {heads: [k…], numbers: bool}. */
function createLessonView(host, opts) {
  const doc = host.ownerDocument;
  const grid = doc.createElement("div");
  grid.className = "maps";
  host.append(grid);
  const scratch = doc.createElement("canvas");
  const figs = opts.heads.map((k) => {
    const fig = doc.createElement("figure");
    fig.className = "map";
    const cap = doc.createElement("figcaption");
    const canvas = doc.createElement("canvas");
    canvas.setAttribute("role", "img");
    canvas.dataset.head = String(k);
    canvas.dataset.testid = "lesson-map";
    fig.append(cap, canvas);
    grid.append(fig);
    return { k, fig, cap, canvas, weights: null };
  });
  let last = null;

  function weightsOf(state, f, slot) {
    const { n } = state;
    if (state.weights) return state.weights[slot];
    f.weights = f.weights && f.weights.length === n * n ? f.weights : new Float64Array(n * n);
    const div = state.tau ?? 1;
    return attentionWeights(state.scores, f.k * n * n, n, div, !!state.causal, f.weights);
  }

  /** Columns of the grid that give the biggest cells in the box. */
  /** Columns of the grid: of the layouts whose maps fit the box, the one with the biggest
      cells (a long sentence's cells bottom out at 2 px; then the one that overflows least). */
  function columns(state, captionH) {
    const m = figs.length;
    let best = null;
    for (let cols = 1; cols <= m; cols++) {
      const rows = Math.ceil(m / cols);
      const w = (state.box.w - (cols - 1) * 16) / cols;
      const h = state.box.h / rows - captionH - 8;
      const g = roomyGeometry(scratch.getContext("2d"), state.labels, w, h, state.fonts);
      const over = Math.max(0, g.height - h) + Math.max(0, g.width - w);
      const score = [over <= 0 ? 1 : 0, g.cell, -over];
      if (!best || beats(score, best.score)) best = { cols, score };
    }
    return best.cols;
  }

  /** Layout (columns, caption room, geometry) and the label layer, redone only when the
      captions, the box, the labels or the fonts change: a τ sweep repaints cells alone. */
  let layoutKey = "";
  let frame = null;

  function layoutFor(state) {
    const key = JSON.stringify([state.captions, state.box, state.labels, state.fonts, state.axes]);
    if (key === layoutKey) return frame;
    figs.forEach((f, slot) => {
      f.cap.textContent = state.captions[slot] || "";
    });
    const cols = columns(state, state.fonts.label * 1.4);
    grid.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
    const capH = Math.max(...figs.map((f) => f.cap.offsetHeight || 0), 0); // as laid out now
    const rows = Math.ceil(figs.length / cols);
    const w = Math.floor((state.box.w - (cols - 1) * 16) / cols);
    const h = Math.floor((state.box.h - (rows - 1) * 8) / rows - capH - 6);
    const g = roomyGeometry(scratch.getContext("2d"), state.labels, w, h, state.fonts);
    const layer = doc.createElement("canvas");
    const pen = penStart(layer, g.width, g.height);
    mapLabels(pen, g, state);
    frame = { g, layer, fonts: [...pen.fonts], boxes: pen.boxes };
    layoutKey = key;
    return frame;
  }

  function update(state) {
    last = state;
    const f0 = layoutFor(state);
    figs.forEach((f, slot) => drawOne(state, f, f0, weightsOf(state, f, slot), slot));
    return f0.g;
  }

  function drawOne(state, f, f0, w, slot) {
    const { n, luts } = state;
    const g = f0.g;
    const pen = penStart(f.canvas, g.width, g.height);
    const masked = (i, j) => state.causal && j > i;
    penCells(pen, scratch, g.left, g.top, g.side, g.side, n, n, (i, j) =>
      masked(i, j) ? null : rampRgb(luts.weight, w[i * n + j], 0, 1),
    );
    penGrid(pen, g.left, g.top, g.cell, g.cell, n, n);
    if (state.causal) penHatch(pen, g.left, g.top, g.cell, n);
    pen.ctx.drawImage(f0.layer, 0, 0, g.width, g.height);
    f0.fonts.forEach((px) => pen.fonts.add(px));
    pen.boxes.push(...f0.boxes);
    if (opts.numbers) mapNumbers(pen, g, state, w, masked);
    if (state.focus !== null && state.focus !== undefined && state.focus < n) {
      penOutline(pen, g.left, g.top + state.focus * g.cell, g.side, g.cell, 3);
    }
    if (state.overlay) state.overlay(pen, g, f.k, w);
    penDone(pen);
    if (state.quick) return; // mid-animation: the words follow when it rests
    const title = state.captions[slot] || "";
    f.canvas.setAttribute("aria-label", summaryText(state.summaryText, title, state.texts, w, n));
  }

  return {
    update,
    redraw: () => last && update(last),
    canvases: () => figs.map((f) => f.canvas),
    destroy: () => grid.remove(),
  };
}

/** mapGeometry (layout.js) in a box, with room for labels larger than their cells: a 20 px
    label centred on a 5 px row reaches above the map's top and past its last column. */
function roomyGeometry(ctx, labels, w, h, fonts) {
  const g0 = mapGeometry(ctx, labels, w, h, fonts);
  const over = Math.max(0, Math.ceil(g0.px * 0.6 - g0.cell / 2)); // half a label past its cell
  const top = Math.max(0, over - g0.top + 1);
  const right = Math.max(0, over - 6 + 1);
  if (!top && !right) return g0;
  const g = mapGeometry(ctx, labels, w - right, h - top, fonts);
  return { ...g, top: g.top + top, height: g.height + top, width: g.width + right };
}

/** Lexicographic order of two score lists: true when a comes first. */
function beats(a, b) {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] > b[k];
  return false;
}

/** Row labels at the left, key labels below (upright Chinese when cells are narrow), the
    axis titles; every step-th label when the cells are smaller than the type. g may be moved
    in the canvas: g.x0 is where its box starts (left and top are already moved). */
function mapLabels(pen, g, state) {
  const px = g.px;
  const o = { px, colour: INK };
  const y0 = g.top + g.side + 6;
  for (let j = 0; j < g.n; j += g.step) {
    const x = g.left + (j + 0.5) * g.cell;
    const s = state.labels[j];
    if (g.rotate && isUpright(s)) penUpright(pen, s, x, y0, o);
    else if (g.rotate) rotatedLabel(pen, s, x, y0, px);
    else penText(pen, s, x, y0, { ...o, align: "center", base: "top" });
  }
  // Rows after the keys: on tiny cells the last row's label would reach the first key's.
  for (let i = 0; i < g.n; i += g.step) {
    penTry(pen, state.labels[i], g.left - 6, g.top + (i + 0.5) * g.cell, { ...o, align: "right" });
  }
  const axes = state.axes;
  penText(pen, axes.key, g.left + g.side / 2, g.height - 2, {
    px,
    align: "center",
    base: "bottom",
    colour: MUTED,
  });
  rotatedTitle(pen, axes.query, (g.x0 || 0) + px * 0.6 + 2, g.top + g.side / 2, px);
}

/** A label turned −90°, reading upwards from (x, y) downwards. */
function rotatedLabel(pen, s, x, y, px) {
  const { ctx } = pen;
  ctx.save();
  ctx.font = penFont(px);
  const w = ctx.measureText(s).width;
  ctx.translate(x, y);
  ctx.rotate(-Math.PI / 2);
  ctx.fillStyle = INK;
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  ctx.fillText(s, 0, 0);
  ctx.restore();
  pen.fonts.add(px);
  pen.boxes.push([x - px * 0.6, y, px * 1.2, w]);
}

/** An axis title turned −90°, centred on (x, y). */
function rotatedTitle(pen, s, x, y, px) {
  const { ctx } = pen;
  ctx.save();
  ctx.font = penFont(px);
  const w = ctx.measureText(s).width;
  ctx.translate(x, y);
  ctx.rotate(-Math.PI / 2);
  ctx.fillStyle = MUTED;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(s, 0, 0);
  ctx.restore();
  pen.fonts.add(px);
  pen.boxes.push([x - px * 0.6, y - w / 2, px * 1.2, w]);
}

/** Percentages in the cells, only where they fit at 16 px or more. */
function mapNumbers(pen, g, state, w, masked) {
  const px = Math.min(state.fonts.cell, Math.floor(g.cell * 0.42));
  if (px < 16) return;
  pen.ctx.font = penFont(px);
  if (pen.ctx.measureText("100").width > g.cell - 4) return;
  const { n, luts } = state;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (masked(i, j)) continue;
      const k = rampIndex(w[i * n + j], 0, 1);
      penText(
        pen,
        String(Math.round(w[i * n + j] * 100)),
        g.left + (j + 0.5) * g.cell,
        g.top + (i + 0.5) * g.cell,
        { px, align: "center", colour: luts.weightInk[k], cell: true },
      );
    }
  }
}
