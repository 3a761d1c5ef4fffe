/* §1 whom 他 means: predict, then the trained model's pronoun head answers (its row as bars),
   then an RNN's chain beside attention's one hop (rnnchain.js). */

import { penDone, penFont, penLine, penMeasure, penText, penTry, penWrap } from "../pen.js";
import { rankRow } from "../arith.js";
import { tx } from "../text.js";
import { roomOf, scenePen } from "../room.js";
import { animate } from "../animate.js";
import { defineScene, headWeights, sceneCanvas } from "../kit.js";
import { fillSide, pctText, quoteTok, wReadout } from "../widgets.js";
import { chainAcross, chainDown, chainHops } from "../rnnchain.js";

function s1Pronoun(set) {
  const p = set.trained;
  return p && p.quiz ? p.tokens[p.quiz.query].t : "他";
}

/** The head's job and how well it does it: for the pronoun head, labels counted as labels in
    the human-written sentences they are in ("347 个代词标注 … 326 句"). */
function s1Job(S, head) {
  const part = S.tpart;
  const job = part.jobs[head];
  if (!job) return "";
  if (job.relation !== "pronoun_antecedent") return job.label;
  const hits = tx(S.D, "lesson.s1.hits", {
    hits: job.hits, total: job.total, sentences: part.quiz.sentences,
  });
  return tx(S.D, "lesson.job.full", { job: job.name, hits });
}

export default defineScene({
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
  // k: the word the head picked (the pronoun itself when none), which fades along the RNN's chain
  words: (S) => {
    const quiz = S.tpart?.quiz;
    const k = (quiz && S.tpart.tokens[quiz.top ?? quiz.query]?.t) || s1Pronoun(S.set);
    return { q: s1Pronoun(S.set), k };
  },
  take: (S) => {
    const hops = chainHops(S.tpart.quiz);
    const key = hops > 0 ? "lesson.s1.take" : "lesson.s1.take_same"; // "传 0 步" says nothing
    return tx(S.D, key, { q: s1Pronoun(S.set), hops });
  },
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
        fillSide(S, [step >= 1 && !roomOf(S.D).phone ? readout : null]); // a phone: the verdict
        readout.textContent = step >= 1 ? s1Readout(S) : "";
        if (step === 1 && from === 0)
          animate(S.D, 700, (p) => {
            bars = p;
            paint(step);
          });
        else if (step === 2 && from === 1) {
          animate(S.D, 250 + 220 * chainHops(quiz), (p) => {
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
  return `${s1Job(S, head)}: ${links}`; // no head number: §6 asks which head finds pronouns
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
    const job = part.jobs[head] ? part.jobs[head].name : ""; // its counts: readout, verdict
    const key = roomOf(D).phone ? "lesson.s1.bars_short" : "lesson.s1.bars"; // a phone: rows
    const cap = tx(D, key, { head: head + 1, job, q: part.tokens[q].t });
    top = penWrap(pen, cap, 0, 0, W, { px: base, colour: ink.muted });
  }
  const roomy = roomOf(D).phone || (H - top - base * 3) / n >= base * 1.2; // rows at full size
  if (roomy && s1Tall(S, pen, colW, base)) {
    s1Column(S, pen, { step, bars, chain, w, top, base });
    canvas.dataset.words = `${n}/${n}`; // every word of the sentence drawn (tests)
    penDone(pen);
    canvas.setAttribute("aria-label", s1Alt(S, step, w));
    return;
  }
  const labelsY = Math.round(H * (step >= 2 ? 0.5 : 0.62));
  const barTop = top + base * 1.6;
  const barMax = labelsY - 8 - barTop;
  const important = [q, ...(quiz.top !== null ? [quiz.top] : []), ...quiz.choices.map((c) => c.i)];
  canvas.dataset.words = `${s1Labels(S, pen, x, labelsY, important, base)}/${n}`;
  if (step === 0) {
    const arcY = labelsY - 6; // a row: arcs bulge up
    const arcUp = (c, span) => [(x(q) + x(c.i)) / 2, arcY - Math.min(arcY * 0.9, span * colW * 0.6)];
    s1Arcs(pen, quiz, (i) => [x(i), arcY], arcUp);
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
    chainAcross(S, pen, x, colW, labelsY + base * (D.header.lang === "en" ? 2.8 : 1.6), chain, base);
  penDone(pen);
  canvas.setAttribute("aria-label", s1Alt(S, step, w));
}

/** Whether the words in one row would crowd out a word: then they stand in a column. */
function s1Tall(S, pen, colW, base) {
  pen.ctx.font = penFont(pen, base);
  return S.tpart.tokens.some((t) => pen.ctx.measureText(t.t).width + 6 > colW);
}

/** The sentence as a column, one word per row (a phone, a long sentence): every word shown;
    the pronoun's bars run to the right; an RNN's chain stands at the left, its hop as an arc. */
function s1Column(S, pen, o) {
  const { step, bars, chain, w, base } = o;
  const part = S.tpart;
  const quiz = part.quiz;
  const { n, tokens } = part;
  const q = quiz.query;
  const ink = pen.ink;
  const en = S.D.header.lang === "en";
  const foot = step >= 2 ? base * 2.8 : 0;
  const top = o.top + base * 0.3;
  const rowH = Math.min(base * 1.9, (pen.h - top - foot) / n);
  const px = Math.max(10, Math.min(base, rowH * 0.8));
  const y = (j) => top + (j + 0.5) * rowH;
  const r = Math.max(3, Math.min(rowH * 0.32, base * 0.55));
  const left = step >= 2 ? base * 1.4 + 2 * r + 8 : 0; // the chain's column
  const cx = base * 1.4 + r;
  let labelW = 0;
  for (const t of tokens) {
    const g = en && t.under ? ` ${t.under}` : "";
    labelW = Math.max(labelW, penMeasure(pen, t.t + g, 0, 0, { px, weight: 700 })[2]);
  }
  const x0 = left + labelW + 10; // where the bars start
  const barMax = Math.max(20, pen.w - x0 - px * 3.2);
  tokens.forEach((t, j) => {
    const mine = j === q;
    const o2 = { px, base: "middle", colour: mine ? ink.warm : ink.text, weight: mine ? 700 : 400 };
    const box = penText(pen, t.t, left, y(j), o2);
    if (en && t.under) { // every word's gloss, the pronoun's too ("他 he"): its row is its own
      penText(pen, t.under, left + box[2] + px * 0.3, y(j), { ...o2, colour: ink.muted, weight: 400 });
    }
  });
  if (step === 0) {
    const arcX = x0 - 4; // a column: arcs bulge right, into the bars' room
    const arcRight = (c, span) => [arcX + Math.min(barMax, span * rowH * 0.8), (y(q) + y(c.i)) / 2];
    s1Arcs(pen, quiz, (i) => [arcX, y(i)], arcRight);
    penText(pen, "?", x0 + px * 0.3, y(q), { px: px * 1.6, colour: ink.warm, weight: 700 });
  } else {
    const bh = Math.max(3, rowH * 0.62);
    for (let j = 0; j < n; j++) {
      pen.ctx.fillStyle = j === quiz.top ? ink.warm : ink.accent;
      pen.ctx.fillRect(x0, y(j) - bh / 2, w[j] * barMax * bars, bh);
      if (w[j] >= 0.02 && bars > 0) {
        penTry(pen, pctText(w[j]), x0 + w[j] * barMax * bars + 4, y(j), { px, base: "middle" });
      }
    }
    penLine(pen, x0 - 0.5, top, x0 - 0.5, top + n * rowH, ink.muted, 1);
  }
  if (step >= 2) chainDown(S, pen, { cx, r, y, rowH, p: chain, base, bottom: top + n * rowH });
}

/** Step 0: dashed arcs from the pronoun to each word the class may choose; at(i) is word i's
    point, bend(c, span) the curve's control point for choice c, span its distance in words. */
function s1Arcs(pen, quiz, at, bend) {
  const { ctx } = pen;
  ctx.save();
  ctx.setLineDash([8, 6]);
  ctx.lineWidth = 3;
  ctx.strokeStyle = pen.ink.line;
  for (const c of quiz.choices) {
    ctx.beginPath();
    ctx.moveTo(...at(quiz.query));
    ctx.quadraticCurveTo(...bend(c, Math.abs(c.i - quiz.query)), ...at(c.i));
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
  let drawn = 0; // words of the sentence drawn: the rest would be crowded out
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
    drawn += 1;
    const under = en ? part.tokens[j].under : null;
    if (under) {
      const g = { ...o, colour: pen.ink.muted, weight: 400, max: 2 * colW };
      const half = penMeasure(pen, under, 0, 0, g)[2] / 2; // kept inside the canvas at its ends
      penTry(pen, under, Math.min(Math.max(x(j), half), pen.w - half), y + base * 1.3, g);
    }
  }
  return drawn;
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
    alt += ` ${tx(S.D, "lesson.s1.hops", { k: part.tokens[part.quiz.top].t, q, hops: chainHops(part.quiz) })}`;
  }
  return alt;
}
