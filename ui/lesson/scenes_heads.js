/* §6 the trained model's heads side by side with their measured jobs (before and after
   training); §8 我打你 and 你打我 without and with positions; §9 the numpy skeleton and the
   causal mask. §6 and §9 draw through the map adapter (mapview.js). */

// ---- §6 -----------------------------------------------------------------------------------------

function s6Choice(S, when, label) {
  const b = tag(
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

SCENES[6] = {
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
    const view = createLessonView(S.figure, { heads, numbers: false });
    return {
      draw() {
        const D = S.D;
        const before = D.state.s6 === "before" && arr(D, `${part.prefix}scores0`);
        const group = tag(S.doc, "div", "chips", {
          role: "group",
          "aria-label": tx(D, "lesson.s6.when"),
        });
        group.append(
          s6Choice(S, "before", tx(D, "lesson.s6.before", { step: part.step0 })),
          s6Choice(S, "after", tx(D, "lesson.s6.after", { step: part.step })),
        );
        const readout = wReadout(S, "lesson-readout");
        fillSide(S, [group, readout]);
        const jobs = before ? part.jobs0 : part.jobs;
        const captions = heads.map((k) =>
          tx(D, "lesson.s6.job", { head: k + 1, job: jobs[k].label }),
        );
        const scores = before ? arr(D, `${part.prefix}scores0`) : arr(D, `${part.prefix}scores`);
        view.update(mapState(S, part, { scores, tau: divisorOf(D, part), captions }));
        readout.textContent = s6Rows(S, part, scores);
      },
      destroy: () => view.destroy(),
    };
  },
};

/** Where the focus word looks in each head, one line per head. */
function s6Rows(S, part, scores) {
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
    );
  }
  return lines.join("\n");
}

// ---- §8 -----------------------------------------------------------------------------------------

function s8Pos(S, step) {
  return step >= 2 || (step === 1 && S.D.state.s8pos);
}

SCENES[8] = {
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
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    return {
      draw(step, from) {
        const D = S.D;
        if (step === 2 && from === 1) D.state.s8pos = true;
        if (step === 1 && from === 2) D.state.s8pos = false;
        const pos = step >= 1 ? D.state.s8pos : false;
        const sw = wSwitch(
          S,
          tx(D, "lesson.s8.pos"),
          pos,
          (on) => {
            D.state.s8pos = on;
            drawScene(D, D.step, D.step);
          },
          "s8-pos",
        );
        fillSide(S, [step >= 1 ? sw : null, readout]);
        s8Paint(S, canvas, step, pos, readout);
      },
    };
  },
};

function s8Paint(S, canvas, step, pos, readout) {
  const D = S.D;
  const o = D.header.order;
  const { w: W, h: H } = S.box;
  const base = fontsOf(D).label;
  const pen = penStart(canvas, W, H);
  const tag1 = pos ? "1" : "0";
  const A = arr(D, `o.a${tag1}`);
  const B = arr(D, `o.b${tag1}`);
  let y =
    penWrap(pen, tx(D, "lesson.s8.weights", { d: o.d_model, h: o.h, seed: o.seed }), 0, 0, W, {
      px: base,
      colour: MUTED,
    }) +
    base * 0.6;
  const n = o.a.length;
  const phone = roomOf(D).phone;
  const gap = base * 2;
  const cell = Math.floor(
    Math.min(
      (phone ? W - base * 3 : (W - gap - base * 6) / 2) / n,
      (H - y - base * 5.5) / (phone ? 2 * n + 3 : n),
      base * 5,
    ),
  );
  const maps = [
    [o.a, A, 0],
    [o.b, B, 1],
  ];
  const me = [0, n - 1]; // 我 → 你 in 我打你: row 0, column 2; in 你打我 the same pair moved
  for (const [texts, w, k] of maps) {
    const x0 = phone ? base * 2 : base * 2.5 + k * (n * cell + gap + base * 2.5);
    const y0 = phone ? y + base * 1.6 + k * (n * cell + base * 4) : y + base * 1.6;
    penText(pen, tx(D, "lesson.s8.map", { s: texts.join("") }), x0, y0 - base * 0.3, {
      px: base,
      base: "bottom",
      weight: 700,
    });
    if (k === 1 && step === 0) {
      s8Hidden(pen, x0, y0, n * cell, base);
      continue;
    }
    s8Map(S, pen, { x: x0, y: y0, cell, base }, texts, w);
    const [r, c] = k === 0 ? me : [o.b.indexOf(o.a[me[0]]), o.b.indexOf(o.a[me[1]])];
    if (step >= 1) penOutline(pen, x0 + c * cell, y0 + r * cell, cell, cell, 4);
  }
  penDone(pen);
  const diff = pos ? o.diff1 : o.diff0;
  const line =
    step === 0
      ? ""
      : tx(D, pos ? "lesson.s8.why_pos" : "lesson.s8.why", { v: diff.toExponential(1) });
  readout.textContent = step === 1 && !pos ? "" : line; // at the reveal the verdict says it
  const cells = (texts, w) =>
    texts
      .map((q, i) => texts.map((k, j) => `${q}→${k} ${pctText(w[i * n + j])}`).join(" "))
      .join(tx(D, "explorer.sep"));
  canvas.setAttribute(
    "aria-label",
    [`${o.a.join("")}: ${cells(o.a, A)}`, step ? `${o.b.join("")}: ${cells(o.b, B)}` : "", line]
      .filter(Boolean)
      .join(". "),
  );
}

function s8Hidden(pen, x, y, side, base) {
  const { ctx } = pen;
  ctx.save();
  ctx.setLineDash([10, 8]);
  ctx.strokeStyle = "#8d93a0";
  ctx.lineWidth = 3;
  ctx.strokeRect(x, y, side, side);
  ctx.restore();
  penText(pen, "?", x + side / 2, y + side / 2, {
    px: base * 3,
    align: "center",
    colour: WARM,
    weight: 700,
  });
}

/** A small map with big cells: every weight written in, rows and columns named. */
function s8Map(S, pen, at, texts, w) {
  const D = S.D;
  const n = texts.length;
  const { x, y, cell, base } = at;
  const scratch = S.doc.createElement("canvas");
  penCells(pen, scratch, x, y, n * cell, n * cell, n, n, (i, j) =>
    rampRgb(D.luts.weight, w[i * n + j], 0, 1),
  );
  penGrid(pen, x, y, cell, cell, n, n);
  const px = Math.max(16, Math.min(Math.round(base * 1.1), Math.floor(cell * 0.36)));
  for (let i = 0; i < n; i++) {
    penText(pen, texts[i], x - 8, y + (i + 0.5) * cell, { px: base, align: "right" });
    penText(pen, texts[i], x + (i + 0.5) * cell, y + n * cell + 6, {
      px: base,
      align: "center",
      base: "top",
    });
    for (let j = 0; j < n; j++) {
      const k = rampIndex(w[i * n + j], 0, 1);
      penText(pen, pctText(w[i * n + j]), x + (j + 0.5) * cell, y + (i + 0.5) * cell, {
        px,
        align: "center",
        colour: D.luts.weightInk[k],
        cell: true,
      });
    }
  }
}

// ---- §9 -----------------------------------------------------------------------------------------

const S9_MASK = /mask is not None|np\.where\(mask|causal_mask|tril/; // the lines the mask adds

SCENES[9] = {
  layout: "stack",
  title: (D) => tx(D, "lesson.s9.title"),
  steps: (S) => stepTexts(S, ["lesson.s9.step0"]),
  take: (S) => tx(S.D, "lesson.s9.take"),
  mount: (S) => {
    const D = S.D;
    const part = S.part;
    const wrap = tag(S.doc, "div", "code-wrap");
    const left = tag(S.doc, "div");
    const title = tag(S.doc, "p", "code-title", {}, tx(D, "lesson.s9.code"));
    const pre = tag(S.doc, "pre", "code", { "data-testid": "lesson-code" });
    const codeLines = D.header.code.map((ln) => tag(S.doc, "span", "ln", {}, ln || " "));
    pre.append(...codeLines);
    left.append(title, pre);
    const right = tag(S.doc, "div", "code-side");
    wrap.append(left, right);
    S.figure.append(wrap);
    const head = part.skeleton.head;
    const view = createLessonView(right, { heads: [head], numbers: true });
    return {
      draw() {
        const causal = D.state.causal;
        codeLines.forEach((el, k) =>
          el.classList.toggle("hot", causal && S9_MASK.test(D.header.code[k])),
        );
        const sw = wSwitch(
          S,
          tx(D, "lesson.s9.switch"),
          causal,
          (on) => changeShared(D, { causal: on }),
          "s9-causal",
        );
        fillSide(S, [sw, tag(S.doc, "p", "", {}, tx(D, "lesson.s9.batch"))]);
        const phone = roomOf(D).phone;
        const box = phone
          ? { w: S.box.w, h: Math.min(S.box.w, 460) }
          : { w: Math.max(200, S.box.w - left.offsetWidth - 16), h: S.box.h };
        const weights = [arr(D, `${part.prefix}sk${causal ? 1 : 0}`)];
        view.update(
          mapState(S, part, {
            weights,
            box,
            captions: [tx(D, "lesson.s9.map", { head: head + 1 })],
          }),
        );
      },
      destroy: () => view.destroy(),
    };
  },
};
