/* §6 the trained model's heads with their measured jobs, before training and after (two steps:
   a presenter's → reaches both): one head large, every head small beside it (views.js bigMap). */

const { attentionWeights } = VIEW;
const { addScene, arr, bigMap, divisorOf, fillSide, focusIn, make, pctText, pickHead, rankRow,
  QK_STEPS, qkStep, setLocal, tx, wReadout } = LESSON;

function s6Choice(S, when, label) {
  const b = make(
    S.doc,
    "button",
    "",
    {
      type: "button",
      "data-key": `s6-${when}`,
      "data-testid": `s6-${when}`,
      "aria-pressed": String(S.local.when === when),
    },
    label,
  );
  b.addEventListener("click", () => setLocal(S, { when }));
  return b;
}

addScene({
  id: "s06",
  phone: (step) => (step > 1 ? 0 : 4.2), // the q–k steps (qkstep.js): the screen's rest
  side: 0.22,
  title: "lesson.s6.title",
  local: { when: "after" }, // the heads before training ("before") or after ("after")
  steps: [
    { id: "before", label: "lesson.s6.step_before", caption: "lesson.s6.cap.before",
      set: { when: "before" } },
    { id: "after", label: "lesson.s6.step0", caption: "lesson.s6.cap.after", set: { when: "after" } },
    ...QK_STEPS, // queries and keys in one plane, step 0 then trained (qkstep.js)
  ],
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
    const big = bigMap(S, S.figure, part); // one head large, every head small
    const qk = qkStep(S, part); // the steps "qk0" and "qk" draw themselves
    return {
      draw(step) {
        if (qk.draw(step)) return;
        const D = S.D;
        const before = S.local.when === "before" && !!arr(D, `${part.prefix}scores0`);
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
        const jobs = before ? part.jobs0 : part.jobs; // measured, with their hits (data.py)
        const n = part.n;
        const weights = (k) => attentionWeights(scores, k * n * n, n, divisorOf(S, part),
          S.local.causal, new Float64Array(n * n)); // prettier-ignore
        big.show({ head: pickHead(S, part, focusIn(S, part)), values: scores, kind: "scores",
          digest: `${part.prefix}${name}`, jobs: jobs.map((j) => ({ ...j, label: j.name })),
          state: { scale: S.local.scale, causal: S.local.causal }, weights,
          onPick: (k) => setLocal(S, { head: k }) }, S.box); // prettier-ignore
        readout.textContent = s6Rows(S, part, scores, jobs);
      },
      destroy: () => big.destroy(),
    };
  },
});

/** Where the focus word looks in each head, and how well the head does its job on the
    human-written test sentences (its caption names the job), two lines per head. */
function s6Rows(S, part, scores, jobs) {
  const D = S.D;
  const n = part.n;
  const i = focusIn(S, part);
  const w = new Float64Array(n * n);
  const lines = [];
  for (let k = 0; k < part.h; k++) {
    attentionWeights(scores, k * n * n, n, divisorOf(S, part), S.local.causal, w);
    const j = rankRow(w, n, i)[0];
    lines.push(
      `${tx(D, "lesson.head", { i: k + 1 })}: ${part.tokens[i].t} → ${part.tokens[j].t} ${pctText(w[i * n + j])}`,
      `· ${jobs[k].measured}`,
    );
  }
  return lines.join("\n");
}

return {};
