/* §6 the trained model's heads with their measured jobs: before training and after (a presenter's
   → reaches both), the question "which head finds 他's person?", then one head per step, each on
   a word its job is about, and how the heads split d_model and are joined back through W_O. One
   head large, every head small beside it (views.js bigMap). */

import { headColour, hexRgb } from "../../explorer/colour.js";
import { penArrow, penCells, penDone, penFont, penOutline, penText } from "../pen.js";
import { rankRow } from "../arith.js";
import { make } from "../elements.js";
import { tx } from "../text.js";
import { arr, divisorOf, focusIn, weightsOf } from "../numbers.js";
import { roomOf, scenePen } from "../room.js";
import { defineScene, headWeights, pickHead, sceneCanvas } from "../kit.js";
import { fillSide, pctText, quoteTok, setLocal, wReadout, wToggle } from "../widgets.js";
import { bigMap } from "../views.js";
import { QK_STEPS, qkStep } from "../qkstep.js";

/** The chip that shows the heads before training ("before") or after ("after"). */
function s6Choice(S, when, label) {
  return wToggle(S, label, S.local.when === when, () => setLocal(S, { when }), `s6-${when}`);
}

export default defineScene({
  id: "s06",
  side: 0.22,
  title: "lesson.s6.title",
  local: { when: "after" }, // the heads before training ("before") or after ("after")
  steps: [
    { id: "before", label: "lesson.s6.step_before", caption: "lesson.s6.cap.before",
      set: { when: "before" } },
    { id: "after", label: "lesson.s6.step0", caption: "lesson.s6.cap.after", set: { when: "after" },
      quiz: { question: (S) => s6Question(S), choices: (S) => s6Choices(S), words: true,
        noAnswer: "lesson.s6.no_pronoun" } },
    { id: "who", label: "lesson.s6.step_who", caption: "lesson.s6.cap.who", set: { when: "after" } },
    { id: "h1", label: (S) => s6HeadLabel(S, 0), caption: "lesson.s6.cap.h1", set: { when: "after" } },
    { id: "h2", label: (S) => s6HeadLabel(S, 1), caption: "lesson.s6.cap.h2", set: { when: "after" } },
    { id: "h3", label: (S) => s6HeadLabel(S, 2), caption: "lesson.s6.cap.h3", set: { when: "after" } },
    { id: "h4", label: (S) => s6HeadLabel(S, 3), caption: "lesson.s6.cap.h4", set: { when: "after" } },
    ...QK_STEPS, // queries and keys in one plane, step 0 then trained (qkstep.js)
    { id: "split", label: "lesson.s6.step_split", caption: "lesson.s6.cap.split" },
  ],
  words: (S) => s6Words(S),
  take: (S) => {
    // the cost of many heads is the split step's point: said there alone, it leaves the head
    // steps' side panel the room their readouts need (1024 × 768 in English)
    if (S.steps[S.D.step]?.id !== "split") return "";
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
    const big = bigMap(S, S.figure, part); // one head large, every head small
    const canvas = sceneCanvas(S, "s6-split");
    const qk = qkStep(S, part); // the steps "qk0" and "qk" draw themselves
    let pickedAt = -1; // the step on which a head was picked in the overview (it wins there)
    return {
      draw(step, from) {
        if (qk.draw(step)) return;
        const D = S.D;
        const id = S.steps[step].id;
        if (from !== step) pickedAt = -1;
        const split = id === "split";
        S.figure.querySelector(".bigmap").hidden = split;
        canvas.hidden = !split;
        const readout = wReadout(S, "lesson-readout");
        const phone = roomOf(D).phone;
        S.quizBox.classList.add("row-choices"); // "head 1" … "head 4" side by side
        if (split) {
          readout.textContent = tx(D, "lesson.s6.split_say", s6Words(S));
          fillSide(S, [phone ? null : readout]); // a phone: the caption says it
          s6Split(S, canvas);
          return;
        }
        const before = S.local.when === "before" && !!arr(D, `${part.prefix}scores0`);
        const group = make(S.doc, "div", "chips", {
          role: "group",
          "aria-label": tx(D, "lesson.s6.when"),
        });
        group.append( // a phone: the two chips short, in one row
          s6Choice(S, "before", tx(D, phone ? "lesson.s6.before_short" : "lesson.s6.before",
            { step: part.step0 })),
          s6Choice(S, "after", tx(D, phone ? "lesson.s6.after_short" : "lesson.s6.after",
            { step: part.step })),
        );
        const name = before ? "scores0" : "scores";
        const scores = arr(D, `${part.prefix}${name}`);
        const jobs = before ? part.jobs0 : part.jobs; // measured, with their hits (data.py)
        const weights = (k) => weightsOf(D, part, k, divisorOf(S, part), S.local.causal, name);
        const head = pickedAt === step ? S.local.head : s6Head(S, id);
        const w = weights(head);
        const i = s6Query(S, id, head, w);
        readout.textContent = s6Say(S, id, head, i, w, jobs, before); // before fillSide measures
        const said = phone && (id === "after" || id === "who") ? null : readout; // the caption or
        fillSide(S, [group, said]); //                          the verdict says it on a phone
        const open = id === "after"; // the question is open: no head's job on screen yet
        const shown = jobs.map((j) => ({ ...j, label: open ? "" : j.name }));
        big.show({ head, values: scores, kind: "scores", digest: `${part.prefix}${name}`,
          jobs: shown, state: { scale: S.local.scale, causal: S.local.causal, focus: i }, weights,
          onPick: (k) => { pickedAt = step; setLocal(S, { head: k }); } }, S.box);
      },
      destroy: () => big.destroy(),
    };
  },
});

/** The head a step shows: before training and at the question the one the scene picks (head 1
    at the question: no hint), at the reveal the pronoun head, on hN head N. */
function s6Head(S, id) {
  const part = S.tpart;
  if (id === "after") return 0;
  if (id === "who") return s6Right(S) ?? pickHead(S, part, focusIn(S, part));
  if (/^h\d$/.test(id)) return Math.min(Number(id.slice(1)) - 1, part.h - 1); // one step per head
  // of the trained model (it has four), on a word its job is about (data.py head_queries)
  return pickHead(S, part, focusIn(S, part));
}

/** The row a step shows: on a head's step the word its job asks about (data.py head_queries),
    or, when no word here asks it, the head's sharpest row (its largest weight, w: its n × n
    weights); else 他 (the question's word) or the focus. */
function s6Query(S, id, head, w) {
  const part = S.tpart;
  if (/^h\d$/.test(id)) {
    const q = part.queries?.[head];
    if (q !== null && q !== undefined) return q;
    let best = 0;
    for (let k = 1; k < w.length; k++) if (w[k] > w[best]) best = k;
    return Math.floor(best / part.n);
  }
  return part.quiz ? part.quiz.query : focusIn(S, part);
}

/** The pronoun head (the answer to the question), from the measurements: the head the model's
    reading uses for 他/她/它 (data.py pronoun_quiz); null without one. */
function s6Right(S) {
  const q = S.tpart.quiz;
  return q && q.status !== "no_head" ? q.head : null;
}

function s6Words(S) {
  const part = S.tpart;
  const q = part.quiz ? part.tokens[part.quiz.query].t : "他";
  return { q, d: part.d_model, h: part.h, dk: part.d_k };
}

function s6Question(S) {
  return tx(S.D, S.tpart.quiz ? "lesson.s6.question" : "lesson.s6.question_none", s6Words(S));
}

function s6Choices(S) {
  const D = S.D;
  const part = S.tpart;
  const right = s6Right(S);
  const why = right === null ? tx(D, "lesson.s6.why_none", s6Words(S)) : s6Why(S, right);
  return Array.from({ length: part.h }, (_, k) => ({
    id: `h${k + 1}`,
    label: tx(D, "lesson.head", { i: k + 1 }),
    right: right === null ? null : k === right,
    why,
  }));
}

/** Why the pronoun head is the answer: its measured job and its hits, and where 他 looks in it
    here (the trained weights, as the map shows them). */
function s6Why(S, k) {
  const D = S.D;
  const part = S.tpart;
  const n = part.n;
  const i = part.quiz.query;
  const w = headWeights(S, part, k);
  const j = rankRow(w, n, i)[0];
  const job = part.jobs[k];
  // the tokens bare and the counts short: the verdict stands under the readout, which glosses
  // the tokens and names the test set in full (a side panel 250 px wide at 1024 × 768)
  const tok = (x) => part.tokens[x].t;
  const hits = tx(D, "lesson.s6.why_hits", { hits: job.hits, total: job.total });
  return tx(D, "lesson.s6.why", { head: k + 1, job: job.name, hits, q: tok(i), k: tok(j),
    w: pctText(w[i * n + j]) });
}

function s6HeadLabel(S, k) {
  const job = S.tpart.jobs[k];
  return tx(S.D, "lesson.s6.step_head", { i: k + 1, job: job ? job.name : "" });
}

/** The readout: what the step's map shows, in a line or two (a phone: shorter, the tokens
    without glosses). */
function s6Say(S, id, head, i, w, jobs, before) {
  const D = S.D;
  const part = S.tpart;
  const n = part.n;
  const phone = roomOf(D).phone;
  const j = rankRow(w, n, i)[0];
  const name = tx(D, "lesson.head", { i: head + 1 });
  const tok = (k) => (phone ? part.tokens[k].t : quoteTok(D, part.tokens[k]));
  const arrow = `${tok(i)} → ${tok(j)} ${pctText(w[i * n + j])}`;
  const row = tx(D, "lesson.s6.row", { row: arrow });
  if (id === "after") return tx(D, "lesson.s6.look", { q: part.tokens[i].t });
  const lines = [before ? `${name} · ${jobs[head].label}` : jobs[head].measured, row]; // after
  // training the map's title names the job: the readout gives its counts
  if (before || !/^h\d$/.test(id)) return lines.join("\n");
  const asked = part.queries?.[head];
  if (jobs[head].clear && (asked === null || asked === undefined))
    lines[1] = tx(D, "lesson.s6.not_here", { head: name, row: arrow });
  const twin = jobs.findIndex((o, k) => k !== head && o.clear && o.relation === jobs[head].relation);
  if (twin >= 0) {
    const [a, b] = jobs[head].read ? [head, twin] : [twin, head];
    const key = phone ? "lesson.s6.twins_short" : "lesson.s6.twins";
    lines.push(tx(D, key, { a: a + 1, b: b + 1, job: jobs[head].name,
      ha: jobs[a].heldout_hits, hb: jobs[b].heldout_hits, t: jobs[a].heldout_total,
      ta: jobs[a].hits, tb: jobs[b].hits, total: jobs[a].total }));
  }
  return lines.join("\n");
}

/** d_model split into h heads of d_k, each head's output n × d_k, joined back (n × d_model) and
    multiplied by W_O (d_model × d_model): one strip per matrix, a colour per head. */
function s6Split(S, canvas) {
  const { D, W, H, base, pen } = scenePen(S, canvas);
  const part = S.tpart;
  const { h, d_k: dk, d_model: d } = part;
  const ink = pen.ink;
  const hues = Array.from({ length: h }, (_, k) => s6Light(headColour(D.header.colours.heads, k)));
  const phone = roomOf(D).phone;
  const rows = phone ? 4 : 3;
  const gap = base * 1.2;
  const cost = D.header.heads_cost; // every h the width offers, below the strips (data.py)
  const lineH = base * (phone ? 1.1 : 1.25);
  const tableH = (cost.rows.length + 2) * lineH + gap;
  const room = (H - tableH - gap * (rows + 1) - base * 1.4 * rows) / rows;
  const stripH = Math.max(base * 1.2, Math.min(base * 2.2, room));
  const fullW = Math.min(W - base * 2, base * 24);
  const x0 = (W - fullW) / 2;
  const fit = (text, w, weight = 600) => { // the type's size for text in w, at most base
    pen.ctx.font = penFont(pen, base, weight);
    return Math.min(base, Math.floor((base * w) / Math.max(1, pen.ctx.measureText(text).width)));
  };
  const line = (y, s, o = {}) => penText(pen, s, W / 2, y, { px: fit(s, W - 4), align: "center",
    base: "top", ...o });
  const strip = (x, y, w, cols, hue) => {
    penCells(pen, x, y, w, stripH, 1, cols, (_, c) => hue(c));
    penOutline(pen, x, y, w, stripH, 1.5);
  };
  let y = 0;
  line(y, tx(D, "lesson.s6.split_x", { d }), { weight: 600 });
  y += base * 1.4;
  strip(x0, y, fullW, d, (c) => hues[Math.floor(c / dk) % hues.length]);
  y += stripH + base * 0.3;
  const cut = (fullW - gap * (h - 1)) / h;
  for (let k = 0; k < h; k++) penArrow(pen, x0 + (k + 0.5) * (fullW / h), y, x0 + k * (cut + gap) + cut / 2, y + gap, ink.muted, 2);
  y += gap;
  line(y, tx(D, "lesson.s6.split_heads", { h, dk }), { weight: 600 });
  y += base * 1.4;
  for (let k = 0; k < h; k++) {
    const x = x0 + k * (cut + gap);
    strip(x, y, cut, dk, () => hues[k % hues.length]);
    const said = tx(D, "lesson.head", { i: k + 1 });
    const px = fit(said, cut - 6);
    const name = px >= base * 0.8 ? said : String(k + 1); // too narrow: its number alone
    penText(pen, name, x + cut / 2, y + stripH / 2, { px: fit(name, cut - 6), align: "center",
      colour: ink.text, weight: 600 });
  }
  y += stripH + base * 0.3;
  for (let k = 0; k < h; k++) penArrow(pen, x0 + k * (cut + gap) + cut / 2, y, x0 + (k + 0.5) * (fullW / h), y + gap, ink.muted, 2);
  y += gap;
  line(y, tx(D, "lesson.s6.split_join", { d }), { weight: 600 });
  y += base * 1.4;
  strip(x0, y, fullW, d, (c) => hues[Math.floor(c / dk) % hues.length]);
  y += stripH + gap;
  const title = tx(D, "lesson.s6.cost_title", { n: cost.n, d });
  line(y, title, { weight: 600 });
  const heads = s6CostTable(S, pen, { y: y + lineH, x0, w: fullW, lineH, base, h });
  penDone(pen);
  canvas.setAttribute("aria-label", `${tx(D, "lesson.s6.split_say", s6Words(S))} ${title}: ${heads}`);
  canvas.dataset.values = JSON.stringify(cost.rows);
}

/** §6's cost at every h (from the heads page): h, d_k, operations and score cells h·n², the
    model's own h in bold; returns the table as one line for the canvas's label. */
function s6CostTable(S, pen, o) {
  const D = S.D;
  const cols = [0.1, 0.26, 0.6, 1]; // each column's right edge, a share of the width
  const head = ["h", "d_k", tx(D, "lesson.s6.cost_ops"), tx(D, "lesson.s6.cost_cells")];
  const rows = D.header.heads_cost.rows.map((r) =>
    [r.h, r.d_k, r.flops, r.cells].map((v) => v.toLocaleString("en")));
  pen.ctx.font = penFont(pen, o.base);
  const room = (c) => o.w * (cols[c] - (c ? cols[c - 1] : 0)) - o.base * 0.6; // a gap between
  const px = Math.min(o.base, ...[head, ...rows].flatMap((r) => r.map((v, c) =>
    Math.floor((o.base * room(c)) / Math.max(1, pen.ctx.measureText(v).width)))));
  [head, ...rows].forEach((r, k) => {
    const own = k > 0 && D.header.heads_cost.rows[k - 1].h === o.h;
    const ink = k === 0 ? pen.ink.muted : own ? pen.ink.accent : pen.ink.text;
    r.forEach((v, c) => penText(pen, String(v), o.x0 + o.w * cols[c], o.y + k * o.lineH,
      { px, align: "right", base: "top", colour: ink, weight: own ? 700 : 400 }));
  });
  return rows.map((r) => `h = ${r[0]}: ${r[2]}`).join(tx(D, "explorer.sep"));
}

/** A head's colour, lightened so its name reads on it. */
function s6Light(hex) {
  return hexRgb(hex).map((c) => Math.round(c * 0.45 + 255 * 0.55));
}
