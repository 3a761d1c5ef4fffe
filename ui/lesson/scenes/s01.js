/* §1 whom 他 means: predict, then the trained model's pronoun head answers (its row as bars),
   then an RNN's chain beside attention's one hop. */

const { addScene, animate, fillSide, headWeights, pctText, penArrow, penDone, penLine, penMeasure,
  penText, penTry, penWrap, quoteTok, rankRow, sceneCanvas, scenePen, tx, wReadout } = LESSON;

function s1Pronoun(set) {
  const p = set.trained;
  return p && p.quiz ? p.tokens[p.quiz.query].t : "他";
}

function s1Hops(quiz) {
  return quiz.top === null ? 0 : Math.abs(quiz.query - quiz.top);
}

addScene({
  id: "s01",
  title: (S) => tx(S.D, "lesson.s1.title", { q: s1Pronoun(S.set) }),
  steps: [
    {
      id: "ask",
      label: "lesson.s1.step0",
      caption: "lesson.s1.cap.ask",
      quiz: {
        words: true, // the choices are words of the sentence: on screen before the reveal too
        noAnswer: "lesson.quiz.no_answer", // the verdict's head when the model's pick is none
        question: (S) => tx(S.D, "lesson.s1.question", { q: s1Pronoun(S.set) }),
        choices: (S) =>
          S.tpart.quiz.choices.map((c) => ({
            id: `w${c.i}`,
            label: quoteTok(S.D, S.tpart.tokens[c.i]),
            right: S.tpart.quiz.judged ? c.right : null,
            why: c.why,
          })),
      },
    },
    { id: "reveal", label: "lesson.s1.step1", caption: "lesson.s1.cap.reveal" },
    { id: "rnn", label: "lesson.s1.step2", caption: "lesson.s1.cap.rnn" },
  ],
  words: (S) => ({ q: s1Pronoun(S.set) }),
  take: (S) => tx(S.D, "lesson.s1.take", { q: s1Pronoun(S.set), hops: s1Hops(S.tpart.quiz) }),
  mount: (S) => {
    const canvas = sceneCanvas(S);
    const readout = wReadout(S, "lesson-readout");
    let bars = 0;
    let chain = 0;
    const paint = (step) => s1Paint(S, canvas, step, bars, chain);
    return {
      draw(step, from) {
        const quiz = S.tpart.quiz;
        bars = step >= 1 ? 1 : 0;
        chain = step >= 2 ? 1 : 0;
        fillSide(S, [step >= 1 ? readout : null]);
        readout.textContent = step >= 1 ? s1Readout(S) : "";
        if (step === 1 && from === 0)
          animate(S.D, 700, (p) => {
            bars = p;
            paint(step);
          });
        else if (step === 2 && from === 1) {
          animate(S.D, 250 + 220 * s1Hops(quiz), (p) => {
            chain = p;
            paint(step);
          });
        } else paint(step);
      },
    };
  },
});

function s1Row(S) {
  const part = S.tpart;
  const quiz = part.quiz;
  const head = quiz.head ?? 0;
  const w = headWeights(S, part, head);
  return { head, w: w.subarray(quiz.query * part.n, (quiz.query + 1) * part.n) };
}

function s1Readout(S) {
  const part = S.tpart;
  const { head, w } = s1Row(S);
  const ranked = rankRow(w, part.n, 0)
    .slice(0, 3)
    .filter((j, r) => r === 0 || w[j] >= 0.01);
  const links = ranked
    .map((j) => `${part.tokens[j].t} ${pctText(w[j])}`)
    .join(tx(S.D, "explorer.sep"));
  const job = part.jobs[head] ? part.jobs[head].label : "";
  return `${tx(S.D, "lesson.head", { i: head + 1 })} · ${job}: ${links}`;
}

function s1Paint(S, canvas, step, bars, chain) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const part = S.tpart;
  const quiz = part.quiz;
  const ink = pen.ink;
  const n = part.n;
  const q = quiz.query;
  const { head, w } = s1Row(S);
  const colW = (W - 24) / n;
  const x = (j) => 12 + (j + 0.5) * colW;
  let top = 0;
  if (step >= 1) {
    const job = part.jobs[head] ? part.jobs[head].label : "";
    const cap = tx(D, "lesson.s1.bars", { head: head + 1, job, q: part.tokens[q].t });
    top = penWrap(pen, cap, 0, 0, W, { px: base, colour: ink.muted });
  }
  const labelsY = Math.round(H * (step >= 2 ? 0.5 : 0.62));
  const barTop = top + base * 1.6;
  const barMax = labelsY - 8 - barTop;
  const important = [q, ...(quiz.top !== null ? [quiz.top] : []), ...quiz.choices.map((c) => c.i)];
  s1Labels(S, pen, x, labelsY, important, base);
  if (step === 0) {
    s1Arcs(pen, x, labelsY - 6, quiz, colW);
    penText(pen, "?", x(q), labelsY - 10, {
      px: base * 2.4,
      align: "center",
      base: "bottom",
      colour: ink.warm,
      weight: 700,
    });
  } else {
    s1Bars(pen, w, x, colW, labelsY - 8, barMax * bars, quiz, base);
  }
  if (step >= 2)
    s1Chain(S, pen, x, colW, labelsY + base * (D.header.lang === "en" ? 2.8 : 1.6), chain, base);
  penDone(pen);
  canvas.setAttribute("aria-label", s1Alt(S, step, w));
}

/** Step 0: dashed arcs from the pronoun to each word the class may choose. */
function s1Arcs(pen, x, y, quiz, colW) {
  const { ctx } = pen;
  ctx.save();
  ctx.setLineDash([8, 6]);
  ctx.lineWidth = 3;
  ctx.strokeStyle = pen.ink.line;
  for (const c of quiz.choices) {
    const span = Math.abs(c.i - quiz.query) * colW;
    ctx.beginPath();
    ctx.moveTo(x(quiz.query), y);
    ctx.quadraticCurveTo(
      (x(quiz.query) + x(c.i)) / 2,
      y - Math.min(y * 0.9, span * 0.6),
      x(c.i),
      y,
    );
    ctx.stroke();
  }
  ctx.restore();
}

function s1Labels(S, pen, x, y, important, base) {
  const part = S.tpart;
  const order = [...new Set(important), ...part.tokens.map((_, j) => j)];
  const en = S.D.header.lang === "en";
  const colW = part.tokens.length > 1 ? x(1) - x(0) : pen.w; // a gloss may take two columns
  const seen = new Set();
  for (const j of order) {
    if (seen.has(j)) continue;
    seen.add(j);
    const mine = j === part.quiz.query;
    const o = {
      px: base,
      align: "center",
      base: "top",
      colour: mine ? pen.ink.warm : pen.ink.text,
      weight: mine ? 700 : 400,
    };
    if (!penTry(pen, part.tokens[j].t, x(j), y, o)) continue;
    const under = en ? part.tokens[j].under : null;
    if (under) {
      const g = { ...o, colour: pen.ink.muted, weight: 400, max: 2 * colW };
      const half = penMeasure(pen, under, 0, 0, g)[2] / 2; // kept inside the canvas at its ends
      penTry(pen, under, Math.min(Math.max(x(j), half), pen.w - half), y + base * 1.3, g);
    }
  }
}

function s1Bars(pen, w, x, colW, bottom, maxH, quiz, base) {
  const { ctx } = pen;
  const bw = Math.max(3, Math.min(colW * 0.6, base * 2));
  for (let j = 0; j < w.length; j++) {
    const hgt = w[j] * maxH;
    ctx.fillStyle = j === quiz.top ? pen.ink.warm : pen.ink.accent;
    ctx.fillRect(x(j) - bw / 2, bottom - hgt, bw, hgt);
  }
  penLine(pen, 0, bottom + 0.5, pen.w, bottom + 0.5, pen.ink.muted, 1);
  if (maxH <= 0) return;
  const order = rankRow(w, w.length, 0);
  for (const j of order) {
    if (w[j] < 0.02) break;
    penTry(pen, pctText(w[j]), x(j), bottom - w[j] * maxH - 4, {
      px: base,
      align: "center",
      base: "bottom",
    });
  }
}

/** The RNN's chain under the words: one state per word, passed along one step at a time; the
    path from the answer to the pronoun lights up hop by hop; attention's one hop beside it. */
function s1Chain(S, pen, x, colW, y0, p, base) {
  const quiz = S.tpart.quiz;
  const n = S.tpart.n;
  const r = Math.max(4, Math.min(colW * 0.32, base * 0.7));
  const ink = pen.ink;
  penText(pen, tx(S.D, "lesson.s1.rnn"), 0, y0, { px: base, base: "top", colour: ink.muted });
  const y = y0 + base * 1.4 + r;
  const { ctx } = pen;
  const a = Math.min(quiz.top ?? quiz.query, quiz.query);
  const b = Math.max(quiz.top ?? quiz.query, quiz.query);
  const lit = a + Math.floor(p * (b - a + 1) - 1e-9);
  for (let j = 0; j < n; j++) {
    if (j + 1 < n && colW > 2 * r + 8)
      penArrow(
        pen,
        x(j) + r + 2,
        y,
        x(j + 1) - r - 2,
        y,
        j >= a && j < lit ? ink.accent : ink.line,
        2,
      );
    ctx.beginPath();
    ctx.arc(x(j), y, r, 0, 2 * Math.PI);
    ctx.fillStyle = j >= a && j <= lit ? ink.accent : ink.paper;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = j === quiz.query ? ink.warm : ink.muted;
    ctx.stroke();
  }
  const arcY = y + r + base * 0.9;
  ctx.save();
  ctx.strokeStyle = ink.warm;
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.moveTo(x(quiz.query), y + r + 2);
  ctx.quadraticCurveTo((x(a) + x(b)) / 2, arcY + base, x(quiz.top ?? quiz.query), y + r + 2);
  ctx.stroke();
  ctx.restore();
  const part = S.tpart;
  const k = quiz.top === null ? part.tokens[quiz.query].t : part.tokens[quiz.top].t;
  const text = tx(S.D, "lesson.s1.hops", { k, q: part.tokens[quiz.query].t, hops: s1Hops(quiz) });
  penWrap(pen, text, 0, arcY + base * 1.2, pen.w, { px: base, weight: 600 });
}

function s1Alt(S, step, w) {
  const part = S.tpart;
  const q = part.tokens[part.quiz.query].t;
  if (step === 0)
    return `${tx(S.D, "lesson.s1.question", { q })} ${part.tokens.map((t) => t.t).join(" ")}`;
  const links = rankRow(w, part.n, 0)
    .slice(0, 3)
    .map((j) => `${part.tokens[j].t} ${pctText(w[j])}`);
  let alt = tx(S.D, "lesson.s1.alt", { q, links: links.join(tx(S.D, "explorer.sep")) });
  if (step >= 2 && part.quiz.top !== null) {
    alt += ` ${tx(S.D, "lesson.s1.hops", { k: part.tokens[part.quiz.top].t, q, hops: s1Hops(part.quiz) })}`;
  }
  return alt;
}

return {};
