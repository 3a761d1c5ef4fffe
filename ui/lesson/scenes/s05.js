/* §5 why √d_k: var(q·k) measured against d_k, predict-then-reveal on the focus row (with and
   without ÷√d_k, side by side), then the τ sweep on the map (played when → reaches it). */

const { rowSpread } = VIEW;
const { addScene, animate, arr, askBlock, decadeTicks, divisorOf, drawChart, fillSide, focusIn,
  logAxis, make, NO_JOB, pctText, penDone, penText, roomOf, sceneCanvas, scenePen, sceneView,
  setLocal, tx, viewHeader, wButton, weightsOf, wReadout, wSlider, wSwitch } = LESSON;

function s5Tau(S, part) {
  return S.local.tau ?? divisorOf(S, part);
}

/** The focus row with √d_k and without in one head, and what happened to it (sharper, flatter,
    the same). The head: the scene's chosen one, else where scaling changes this row most. */
function s5Judge(S) {
  const D = S.D;
  const part = S.part;
  const n = part.n;
  const i = focusIn(S, part);
  const spread = (k, tau) => rowSpread(weightsOf(D, part, k, tau, S.local.causal), n, i);
  const change = (k) => Math.abs(spread(k, Math.sqrt(part.d_k)).entropy - spread(k, 1).entropy);
  let head = S.local.head;
  if (head === null || head === undefined || head >= part.h) {
    head = 0;
    for (let k = 1; k < part.h; k++) if (change(k) > change(head) + 1e-9) head = k;
  }
  const on = spread(head, Math.sqrt(part.d_k));
  const off = spread(head, 1);
  let verdict = "same";
  if (off.entropy < on.entropy - 0.15) verdict = "sharp";
  else if (off.entropy > on.entropy + 0.15) verdict = "flat";
  return { i, head, on, off, verdict };
}

const S5_CHOICES = [
  ["sharp", "lesson.s5.c_sharp"],
  ["flat", "lesson.s5.c_flat"],
  ["same", "lesson.s5.c_same"],
];

addScene({
  id: "s05",
  phone: (step) => (step === 2 ? 2.2 : 1.15), // two maps, one under the other, at the answer
  title: "lesson.s5.title",
  steps: [
    { id: "variance", label: "lesson.s5.step0", caption: "lesson.s5.cap.variance" },
    {
      id: "ask",
      label: "lesson.s5.step1",
      caption: "lesson.s5.cap.ask",
      quiz: {
        question: (S) => tx(S.D, "lesson.s5.question", { q: S.part.tokens[focusIn(S, S.part)].t }),
        choices: (S) => {
          const j = s5Judge(S);
          const why = tx(S.D, "lesson.s5.why", {
            q: S.part.tokens[j.i].t,
            m1: pctText(j.on.top),
            m0: pctText(j.off.top),
            h1: j.on.entropy.toFixed(2),
            h0: j.off.entropy.toFixed(2),
          });
          const right = (v) => v === j.verdict;
          return S5_CHOICES.map(([v, key]) => ({ id: v, label: tx(S.D, key), right: right(v), why }));
        },
      },
    },
    { id: "reveal", label: "lesson.s5.step2", caption: "lesson.s5.cap.reveal" },
    { id: "tau", label: "lesson.s5.step3", caption: "lesson.s5.cap.tau" },
  ],
  takeBefore: (S) => tx(S.D, "lesson.s5.take_before"),
  take: (S) => tx(S.D, "lesson.s5.take"),
  mount: (S) => s5Mount(S),
});

function s5Mount(S) {
  const D = S.D;
  const readout = wReadout(S, "lesson-readout");
  const fig = { views: [], kind: "", said: 0 }; // said: when the readout last changed
  const paint = (step) => {
    const { i, head } = s5Judge(S);
    s5Figure(S, fig, step, head);
    if (step === 0) return s5Chart(S, S.figure.querySelector("canvas"), readout);
    const still = D.els.root.dataset.anim === undefined; // at rest (or the animation's last frame)
    s5Maps(S, fig, step, head);
    if (still || performance.now() - fig.said > 120) {
      fig.said = performance.now(); // mid-sweep the words follow at 8 Hz
      s5Stats(S, readout, step, i, head);
    }
  };
  return {
    draw(step, from) {
      if (step !== 3) {
        fillSide(S, [readout]);
        paint(step);
        return;
      }
      const repaint = () => paint(3);
      const c = s5Controls(S, repaint, readout, () => s5Sweep(S, c.map, c.slider, repaint));
      fillSide(S, c.nodes);
      paint(3);
      if (from === 2) s5Sweep(S, c.map, c.slider, repaint); // → into the step plays the sweep
    },
    destroy: () => fig.views.forEach((v) => v.destroy()),
  };
}

/** The figure of a step: the variance chart (①), one map (②, ④) or two side by side (③): the
    attention view, one per map, showing the head the question is about. */
function s5Figure(S, fig, step, head) {
  const want = step === 0 ? "chart" : `maps${step === 2 ? 2 : 1}-${head}`;
  if (want === fig.kind) return;
  fig.kind = want;
  fig.views.forEach((v) => v.destroy());
  fig.views = [];
  S.figure.replaceChildren();
  if (step === 0) {
    sceneCanvas(S);
    return;
  }
  const row = make(S.doc, "div", step === 2 ? "pair" : "one");
  S.figure.append(row);
  for (let k = 0; k < (step === 2 ? 2 : 1); k++) {
    const cell = make(S.doc, "div");
    row.append(cell);
    fig.views.push(sceneView(S, cell, S.part, [head]));
  }
}

/** The maps: with √d_k (the question), with and without (the answer), at τ (the sweep): the
    view divides the scores itself (softmax.js, tested against the core). */
function s5Maps(S, fig, step, head) {
  const D = S.D;
  const part = S.part;
  const root = Math.sqrt(part.d_k);
  const formula = tx(D, "lesson.s5.map");
  const causal = S.local.causal;
  const maps = step === 2
    ? [[{ scale: true }, tx(D, "lesson.scale_on")], [{ scale: false }, tx(D, "lesson.scale_off")]]
    : step === 1
      ? [[{ tau: root }, `${formula} · τ = ${root.toFixed(2)}`]]
      : [[{ tau: s5Tau(S, part) }, formula]]; // τ moves: the readout says its value
  const pair = maps.length > 1;
  const phone = roomOf(D).phone;
  const w = pair && !phone ? (S.box.w - 16) / 2 : S.box.w;
  const h = pair && phone ? (S.box.h - 16) / 2 : S.box.h;
  maps.forEach(([state, label], k) => {
    const jobs = Array.from({ length: part.h }, (_, x) => (x === head ? { label } : NO_JOB));
    const o = { digest: `${part.prefix}scores|${label}`, jobs, state: { ...state, causal }, numbers: true };
    fig.views[k].fit(w, h);
    fig.views[k].show(viewHeader(S, part, o), arr(D, `${part.prefix}scores`));
  });
}

function s5Stats(S, readout, step, i, head) {
  const D = S.D;
  const part = S.part;
  const q = part.tokens[i].t;
  const tau = step === 1 ? Math.sqrt(part.d_k) : step === 2 ? 1 : s5Tau(S, part);
  const r = rowSpread(weightsOf(D, part, head, tau, S.local.causal), part.n, i);
  const stats = tx(D, "lesson.s5.stats", { q, m: pctText(r.top), h: r.entropy.toFixed(2) });
  const value = tx(D, "lesson.s5.tau_value", {
    v: tau.toFixed(2),
    s: Math.sqrt(part.d_k).toFixed(2),
  });
  readout.textContent = step === 2 ? "" : `${value}\n${stats}`;
}

/** τ on a log scale from 1 to 4·√d_k (√d_k lands in the middle), as the main page's slider. */
function s5Slider(part) {
  const top = Math.log(4 * Math.sqrt(part.d_k));
  return {
    toTau: (p) => Math.exp((p / 1000) * top),
    toPos: (tau) => Math.round((1000 * Math.log(tau)) / top),
  };
}

/** The τ step's controls: the √d_k switch, the τ slider, ▶ Sweep τ (sweep()), the readout. */
function s5Controls(S, repaint, readout, sweep) {
  const D = S.D;
  const part = S.part;
  const map = s5Slider(part);
  const onScale = (checked) => setLocal(S, { scale: checked, tau: null });
  const onTau = (pos) => {
    S.local.tau = map.toTau(pos);
    slider.input.setAttribute("aria-valuetext", `τ = ${S.local.tau.toFixed(2)}`);
    repaint();
  };
  const on = S.local.scale && S.local.tau === null;
  const scale = wSwitch(S, tx(D, "lesson.s5.switch"), on, onScale, "s5-scale");
  const at = map.toPos(s5Tau(S, part));
  const slider = wSlider(S, tx(D, "lesson.s5.tau"), 1000, at, onTau, "s5-tau");
  const go = wButton(S, tx(D, "lesson.s5.sweep"), sweep, "s5-sweep", "primary");
  return { nodes: [scale, slider.box, go, readout], slider, map };
}

/** ▶ Sweep τ: down to 1 (sharp), up to 4·√d_k (flat), back to √d_k, in 3.2 s; then τ follows
    the √d_k switch again. */
function s5Sweep(S, map, slider, repaint) {
  const D = S.D;
  const home = map.toPos(Math.sqrt(S.part.d_k));
  const legs = [
    [map.toPos(s5Tau(S, S.part)), 0, 0.25],
    [0, 1000, 0.5],
    [1000, home, 0.25],
  ];
  animate(D, 3200, (p) => {
    let t = p;
    let pos = home;
    for (const [a, b, share] of legs) {
      if (t <= share) {
        pos = a + (b - a) * (t / share);
        break;
      }
      t -= share;
    }
    S.local.tau = p >= 1 ? null : map.toTau(pos);
    slider.input.value = String(Math.round(pos));
    repaint();
  });
}

function s5Chart(S, canvas, readout) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const block = D.header.blocks.variance;
  if (!block) {
    askBlock(D, "variance");
    penText(pen, tx(D, "lesson.measuring"), W / 2, H / 2, { px: base, align: "center" });
    penDone(pen);
    canvas.setAttribute("aria-label", tx(D, "lesson.measuring"));
    readout.textContent = "";
    return;
  }
  const lo = Math.min(...block.scaled) * 0.5;
  const hi = Math.max(...block.raw) * 1.6;
  const ink = pen.ink;
  const spec = {
    x: logAxis(block.d_k, "d_k", 1.3),
    y: { ...logAxis([lo, hi], tx(D, "lesson.s5.var", { m: block.samples }), 1), ticks: decadeTicks(lo, hi) },
    series: [
      { xs: block.d_k, ys: block.d_k, colour: ink.line, dash: [8, 6], label: tx(D, "lesson.s5.line") },
      { xs: block.d_k, ys: block.raw, colour: ink.accent, marks: true, label: tx(D, "lesson.s5.raw") },
      { xs: block.d_k, ys: block.scaled, colour: ink.warm, marks: true, label: tx(D, "lesson.s5.scaled") },
    ],
  };
  drawChart(pen, { x: 0, y: 0, w: W, h: H }, spec, base);
  penDone(pen);
  const k = block.d_k.indexOf(64) >= 0 ? block.d_k.indexOf(64) : block.d_k.length - 1;
  const line = `d_k = ${block.d_k[k]}: ${tx(D, "lesson.s5.raw")} ${block.raw[k].toFixed(1)}, ${tx(D, "lesson.s5.scaled")} ${block.scaled[k].toFixed(2)}`;
  readout.textContent = line;
  canvas.setAttribute(
    "aria-label",
    `${spec.y.title}. ${block.d_k.map((d, j) => `d_k ${d}: ${block.raw[j].toFixed(1)} / ${block.scaled[j].toFixed(2)}`).join(tx(D, "explorer.sep"))}`,
  );
}

return {};
