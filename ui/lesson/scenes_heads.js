/* §6 the trained model's heads side by side with their measured jobs (before and after
   training); §8 我打你 and 你打我 without and with positions; §9 the numpy skeleton and the
   causal mask. Their maps are the attention view (views.js). */

const { attentionWeights } = VIEW;
const { arr, changeShared, divisorOf, drawScene, fillSide, focusIn, fontsOf, make, pctText, penDone,
  penStart, penText, rankRow, roomOf, sceneView, stepTexts, tx, viewHeader, wReadout,
  wSwitch } = LESSON;

// ---- §6 -----------------------------------------------------------------------------------------

function s6Choice(S, when, label) {
  const b = make(
    S.doc,
    "button",
    "",
    {
      type: "button",
      "data-key": `s6-${when}`,
      "data-testid": `s6-${when}`,
      "aria-pressed": String(S.D.state.s6 === when),
    },
    label,
  );
  b.addEventListener("click", () => {
    S.D.state.s6 = when;
    drawScene(S.D, S.D.step, S.D.step);
  });
  return b;
}

const scene6 = {
  phone: 4.2,
  side: 0.22,
  title: (D) => tx(D, "lesson.s6.title"),
  steps: (S) => stepTexts(S, ["lesson.s6.step0"]),
  take: (S) => {
    const c = S.D.header.heads_cost;
    const part = S.tpart;
    return tx(S.D, "lesson.s6.take", {
      h: part.h,
      dk: part.d_k,
      d: part.d_model,
      many: c.many.toLocaleString("en"),
      one: c.one.toLocaleString("en"),
    });
  },
  mount: (S) => {
    const part = S.tpart;
    const heads = Array.from({ length: part.h }, (_, k) => k);
    const view = sceneView(S, S.figure, part, heads);
    return {
      draw() {
        const D = S.D;
        const before = D.state.s6 === "before" && !!arr(D, `${part.prefix}scores0`);
        const group = make(S.doc, "div", "chips", {
          role: "group",
          "aria-label": tx(D, "lesson.s6.when"),
        });
        group.append(
          s6Choice(S, "before", tx(D, "lesson.s6.before", { step: part.step0 })),
          s6Choice(S, "after", tx(D, "lesson.s6.after", { step: part.step })),
        );
        const readout = wReadout(S, "lesson-readout");
        fillSide(S, [group, readout]);
        const name = before ? "scores0" : "scores";
        const scores = arr(D, `${part.prefix}${name}`);
        const state = { scale: D.state.scale, causal: D.state.causal };
        const jobs = before ? part.jobs0 : part.jobs; // measured, with their hits (data.py)
        const names = jobs.map((j) => ({ ...j, label: j.name })); // the caption: the job's name
        view.fit(S.box.w, S.box.h);
        view.show(viewHeader(D, part, { digest: `${part.prefix}${name}`, jobs: names, state }), scores);
        readout.textContent = s6Rows(S, part, scores, jobs);
      },
      destroy: () => view.destroy(),
    };
  },
};

/** Where the focus word looks in each head, and how well the head does its job on the
    human-written test sentences (its caption names the job), two lines per head. */
function s6Rows(S, part, scores, jobs) {
  const D = S.D;
  const n = part.n;
  const i = focusIn(D, part);
  const w = new Float64Array(n * n);
  const lines = [];
  for (let k = 0; k < part.h; k++) {
    attentionWeights(scores, k * n * n, n, divisorOf(D, part), D.state.causal, w);
    const j = rankRow(w, n, i)[0];
    lines.push(
      `${tx(D, "lesson.head", { i: k + 1 })}: ${part.tokens[i].t} → ${part.tokens[j].t} ${pctText(w[i * n + j])}`,
      `· ${jobs[k].measured}`,
    );
  }
  return lines.join("\n");
}

// ---- §8 -----------------------------------------------------------------------------------------

function s8Pos(S, step) {
  return step >= 2 || (step === 1 && S.D.state.s8pos);
}

const scene8 = {
  phone: 2.4,
  title: (D) => tx(D, "lesson.s8.title"),
  steps: (S) => stepTexts(S, ["lesson.s8.step0", "lesson.s8.step1", "lesson.s8.step2"]),
  take: (S) => tx(S.D, "lesson.s8.take"),
  quiz: {
    step: 0,
    question: (S) => tx(S.D, "lesson.s8.question"),
    choices: (S) => {
      const o = S.D.header.order;
      const same = o.diff0 < 1e-9;
      const why = tx(S.D, "lesson.s8.why", { v: o.diff0.toExponential(1) });
      return [
        { label: tx(S.D, "lesson.s8.c_diff"), right: !same, why },
        { label: tx(S.D, "lesson.s8.c_perm"), right: same, why },
        { label: tx(S.D, "lesson.s8.c_same"), right: false, why },
      ];
    },
  },
  mount: (S) => s8Mount(S),
};

/** The two sentences as the view reads them: three tokens each, head 1's weights. */
function s8Part(o, texts) {
  return { n: texts.length, h: 1, d_k: o.d_model / o.h, source: "random",
    tokens: texts.map((t) => ({ t, tag: "", tag_name: "", gloss: null })) };
}

function s8Mount(S) {
  const D = S.D;
  const o = D.header.order;
  const readout = wReadout(S, "lesson-readout");
  const note = make(S.doc, "p", "figure-note", {}, tx(D, "lesson.s8.weights", { d: o.d_model, h: o.h, seed: o.seed }));
  const pair = make(S.doc, "div", "pair");
  const slots = [make(S.doc, "div"), make(S.doc, "div")];
  pair.append(...slots);
  S.figure.append(note, pair);
  const parts = [s8Part(o, o.a), s8Part(o, o.b)];
  const views = parts.map((part, k) => sceneView(S, slots[k], part, [0]));
  const hidden = make(S.doc, "canvas", "", { role: "img", "data-testid": "lesson-hidden-map" });
  return {
    draw(step, from) {
      if (step === 2 && from === 1) D.state.s8pos = true;
      if (step === 1 && from === 2) D.state.s8pos = false;
      const pos = step >= 1 ? D.state.s8pos : false;
      const flip = (on) => {
        D.state.s8pos = on;
        drawScene(D, D.step, D.step);
      };
      fillSide(S, [step >= 1 ? wSwitch(S, tx(D, "lesson.s8.pos"), pos, flip, "s8-pos") : null, readout]);
      s8Maps(S, { views, parts, slots, pair, hidden }, step, pos);
      const line = step === 0 ? "" : tx(D, pos ? "lesson.s8.why_pos" : "lesson.s8.why", {
        v: (pos ? o.diff1 : o.diff0).toExponential(1),
      });
      readout.textContent = step === 1 && !pos ? "" : line; // at the reveal the verdict says it
    },
    destroy: () => views.forEach((v) => v.destroy()),
  };
}

/** 我打你 beside 你打我 (hidden behind a "?" until the reveal), each its own view with numbers;
    the pair 我 → 你 ringed in both, wherever the reordering moved it. */
function s8Maps(S, fig, step, pos) {
  const D = S.D;
  const o = D.header.order;
  const phone = roomOf(D).phone;
  const w = phone ? S.box.w : (fig.pair.clientWidth - 16) / 2;
  // On a phone the pair is as tall as its maps: share the scene's height under the note.
  const above = fig.pair.getBoundingClientRect().top - S.figure.getBoundingClientRect().top;
  const h = phone ? (S.box.h - above - 16) / 2 : fig.pair.clientHeight;
  const me = [o.a.indexOf(o.a[0]), o.a.length - 1]; // 我 → 你 in 我打你: row 0, column 2
  const cells = [me, [o.b.indexOf(o.a[me[0]]), o.b.indexOf(o.a[me[1]])]];
  const show = step === 0 ? [0] : [0, 1];
  fig.slots[1].replaceChildren(...(step === 0 ? [fig.hidden] : [fig.views[1].view.root]));
  show.forEach((k) => {
    const texts = k === 0 ? o.a : o.b;
    const label = tx(D, "lesson.s8.map", { s: texts.join("") });
    const values = arr(D, `o.${k === 0 ? "a" : "b"}${pos ? 1 : 0}`);
    const part = fig.parts[k];
    const head = { digest: `o.${k}${pos ? 1 : 0}`, values: "weights", jobs: [{ label }], numbers: true,
      state: { focus: cells[k][0] } };
    fig.views[k].fit(w, h);
    fig.views[k].show(viewHeader(D, part, head), values);
    fig.views[k].view.mark(step >= 1 ? { i: cells[k][0], j: cells[k][1] } : null);
  });
  if (step === 0) s8Hidden(S, fig.hidden, w, h, tx(D, "lesson.s8.map", { s: o.b.join("") }));
}

/** The map not shown yet: its name, a dashed square and a "?". */
function s8Hidden(S, canvas, w, h, name) {
  const D = S.D;
  const base = fontsOf(D).label;
  const pen = penStart(canvas, w, h, D.theme);
  const side = Math.max(base * 4, Math.min(w, h) - base * 3);
  penText(pen, name, 0, 0, { px: base, base: "top", weight: 600 });
  const { ctx } = pen;
  ctx.save();
  ctx.setLineDash([10, 8]);
  ctx.strokeStyle = pen.ink.line;
  ctx.lineWidth = 3;
  ctx.strokeRect(base, base * 1.8, side - base, side - base);
  ctx.restore();
  penText(pen, "?", base + (side - base) / 2, base * 1.8 + (side - base) / 2, {
    px: base * 3, align: "center", colour: pen.ink.warm, weight: 700,
  });
  penDone(pen);
  canvas.setAttribute("aria-label", `${name}: ?`);
}

// ---- §9 -----------------------------------------------------------------------------------------

const S9_MASK = /mask is not None|np\.where\(mask|causal_mask|tril/; // the lines the mask adds

const scene9 = {
  layout: "stack",
  title: (D) => tx(D, "lesson.s9.title"),
  steps: (S) => stepTexts(S, ["lesson.s9.step0"]),
  take: (S) => tx(S.D, "lesson.s9.take"),
  mount: (S) => {
    const D = S.D;
    const part = S.part;
    const wrap = make(S.doc, "div", "code-wrap");
    const left = make(S.doc, "div");
    const title = make(S.doc, "p", "code-title", {}, tx(D, "lesson.s9.code"));
    const pre = make(S.doc, "pre", "code", { "data-testid": "lesson-code" });
    const codeLines = D.header.code.map((ln) => make(S.doc, "span", "ln", {}, ln || " "));
    pre.append(...codeLines);
    left.append(title, pre);
    const right = make(S.doc, "div", "code-side");
    wrap.append(left, right);
    S.figure.append(wrap);
    const view = sceneView(S, right, part, [0]); // the skeleton ran head 1 (page.skeleton_part)
    return {
      draw() {
        const causal = D.state.causal;
        codeLines.forEach((line, k) =>
          line.classList.toggle("hot", causal && S9_MASK.test(D.header.code[k])),
        );
        const sw = wSwitch(
          S,
          tx(D, "lesson.s9.switch"),
          causal,
          (on) => changeShared(D, { causal: on }),
          "s9-causal",
        );
        fillSide(S, [sw, make(S.doc, "p", "", {}, tx(D, "lesson.s9.batch"))]);
        const phone = roomOf(D).phone;
        const box = phone
          ? { w: S.box.w, h: Math.min(S.box.w, 460) }
          : { w: Math.max(200, S.box.w - left.offsetWidth - 16), h: S.box.h };
        const name = `${part.prefix}sk${causal ? 1 : 0}`; // the skeleton's own output, not the view's
        const jobs = [{ label: tx(D, "lesson.s9.map") }];
        const o = { digest: name, values: "weights", h: 1, jobs, state: { causal } };
        view.fit(box.w, box.h);
        view.show(viewHeader(D, { ...part, h: 1 }, o), arr(D, name));
      },
      destroy: () => view.destroy(),
    };
  },
};

return { scene6, scene8, scene9 };
