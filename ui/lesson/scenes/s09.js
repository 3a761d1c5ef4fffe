/* §9 the numpy skeleton (its real source, written as the article writes it) beside the map it
   computed; a question (what does the causal mask do to the focus row?), then the mask (a step:
   → shows it; the switch is the scene's own what-if, to compare). On a phone the code is a step
   of its own and the map follows. */

import { mapGeometry } from "../../explorer/layout.js";
import { make } from "../elements.js";
import { tx } from "../text.js";
import { arr, focusIn } from "../numbers.js";
import { labelsOf } from "../labels.js";
import { fontsOf, roomOf } from "../room.js";
import { defineScene } from "../kit.js";
import { richText } from "../terms.js";
import { fillSide, pctText, quoteTok, setLocal, wSwitch } from "../widgets.js";
import { sceneView, viewHeader } from "../views.js";

const S9_MASK = /mask is not None|np\.where\(mask|causal_mask|tril/; // the lines the mask adds

/** What the mask does to the focus row i, read from the skeleton's own weights without (sk0)
    and with (sk1) the mask: "same" (nothing after i), "renorm" (the words after i get 0, the
    rest are divided by their sum), "keep" (the rest unchanged), and the numbers the why quotes. */
function s9Judge(S) {
  const part = S.part;
  const n = part.n;
  const i = focusIn(S, part);
  const w0 = arr(S.D, `${part.prefix}sk0`);
  const w1 = arr(S.D, `${part.prefix}sk1`);
  const at = (w, j) => w[i * n + j];
  let future = 0;
  for (let j = i + 1; j < n; j++) future += at(w0, j);
  const past = 1 - future;
  let [same, renorm, keep, top] = [0, 0, 0, 0];
  for (let j = 0; j < n; j++) {
    same = Math.max(same, Math.abs(at(w1, j) - at(w0, j)));
    const want = j > i ? 0 : at(w0, j) / past;
    renorm = Math.max(renorm, Math.abs(at(w1, j) - want));
    keep = Math.max(keep, Math.abs(at(w1, j) - (j > i ? 0 : at(w0, j))));
    if (j <= i && at(w0, j) > at(w0, top)) top = j;
  }
  const TOL = 1e-4; // the arrays are float32
  const verdict = same < TOL ? "same" : renorm < TOL ? "renorm" : keep < TOL ? "keep" : null;
  return { i, after: n - 1 - i, future, past, top, a: at(w0, top), b: at(w1, top), verdict };
}

const S9_CHOICES = [
  ["renorm", "lesson.s9.c_renorm"],
  ["keep", "lesson.s9.c_keep"],
  ["same", "lesson.s9.c_same"],
];

function s9Why(S) {
  const D = S.D;
  const j = s9Judge(S);
  const tok = S.part.tokens;
  const q = quoteTok(D, tok[j.i]);
  if (j.after === 0) return tx(D, "lesson.s9.why_last", { q });
  return tx(D, "lesson.s9.why", {
    q,
    k: j.after,
    f: pctText(j.future, 1),
    p: j.past.toFixed(3),
    t: quoteTok(D, tok[j.top]),
    a: pctText(j.a, 1),
    b: pctText(j.b, 1),
  });
}

export default defineScene({
  id: "s09",
  layout: (step) => (step === 0 ? "stack" : "side"), // the code beside the map; then the question
  side: 0.26,
  // phone: none: on a phone the figure (the code; then the map) fills what the quiz leaves
  title: "lesson.s9.title",
  steps: [
    { id: "code", label: "lesson.s9.step0", caption: "lesson.s9.cap.code", set: { causal: false } },
    {
      id: "ask",
      label: "lesson.s9.step_ask",
      caption: "lesson.s9.cap.ask",
      set: { causal: false },
      quiz: {
        question: (S) =>
          tx(S.D, "lesson.s9.question", { q: quoteTok(S.D, S.part.tokens[focusIn(S, S.part)]) }),
        choices: (S) => {
          const j = s9Judge(S);
          const why = s9Why(S);
          return S9_CHOICES.map(([id, key]) => ({ id, label: tx(S.D, key), right: id === j.verdict, why }));
        },
      },
    },
    { id: "mask", label: "lesson.s9.step_mask", caption: "lesson.s9.cap.mask", set: { causal: true } },
    { id: "compare", label: "lesson.s9.step_compare", caption: "lesson.s9.cap.compare", set: { causal: true } },
  ],
  // a phone's reveal: the answer under the map says it; the line comes with the last step
  take: (S) => (roomOf(S.D).phone && S.steps[S.D.step]?.id === "mask" ? "" : tx(S.D, "lesson.s9.take")),
  mount: (S) => s9Mount(S),
});

function s9Mount(S) {
  const D = S.D;
  const part = S.part;
  const wrap = make(S.doc, "div", "code-wrap");
  const left = make(S.doc, "div", "code-left");
  const pre = make(S.doc, "pre", "code", { "data-testid": "lesson-code" });
  const codeLines = D.header.code.map(() => make(S.doc, "span", "ln"));
  pre.append(...codeLines);
  left.append(pre);
  const right = make(S.doc, "div", "code-side");
  wrap.append(left, right);
  S.figure.append(wrap);
  const view = sceneView(S, right, part, [0]); // the skeleton ran head 1 (page.skeleton_part)
  return {
    draw(step) {
      const phone = roomOf(D).phone;
      const id = S.steps[step].id;
      const causal = (id === "mask" || id === "compare") && S.local.causal;
      // The code step: the whole code beside the map (on a phone: alone, indents halved so fewer
      // lines wrap). After it, the map, under the mask's own line of code (not on a phone).
      const excerpt = id !== "code";
      wrap.classList.toggle("excerpt", excerpt);
      left.hidden = phone && excerpt;
      right.hidden = phone && !excerpt;
      pre.style.fontSize = phone || excerpt ? "" : `${s9CodePx(S, codeLines.length)}px`;
      const fit = phone && !excerpt ? s9Columns(S, pre) : 0; // a phone: characters a line holds
      const write = (narrow) =>
        D.header.code.forEach((ln, k) => {
          const line = codeLines[k];
          line.hidden = excerpt && !/np\.where\(mask/.test(ln);
          const half = ln.replace(/^( {4})+/, (m) => " ".repeat(m.length / 2));
          line.textContent = (excerpt ? ln.trim() : phone ? s9Wrap(half, fit) : narrow ? half : ln) || " ";
          line.style.whiteSpace = fit ? "pre" : ""; // broken where Python may break, never mid-word
          line.classList.toggle("hot", excerpt && S9_MASK.test(ln));
        });
      write(false);
      const sw =
        id === "compare" || (id === "mask" && !phone) // a phone's reveal has the verdict's room
          ? wSwitch(S, tx(D, "lesson.s9.switch"), causal, (on) => setLocal(S, { causal: on }), "s9-causal")
          : null;
      const batch = id === "code" ? make(S.doc, "p", "code-note") : null;
      if (batch) batch.append(...richText(D, tx(D, "lesson.s9.batch")));
      fillSide(S, [sw, batch]);
      if (right.hidden) return;
      let box = phone ? S.box : excerpt
        ? { w: S.box.w, h: S.box.h - left.offsetHeight - 8 }
        : { w: S.box.w - left.offsetWidth - 16, h: S.box.h };
      // Fewer things at once where the map would not be readable from the back (every word
      // labelled, cells ≥ 20 px): the code step halves its indents, then keeps its code alone;
      // the later steps drop the mask's line of code above the map.
      if (!phone && !excerpt && !s9Readable(S, box)) {
        write(true); // a projector's 1024 px: indents halved, the map beside the code readable
        box = { w: S.box.w - left.offsetWidth - 16, h: S.box.h };
      }
      if (!phone && !s9Readable(S, box)) {
        if (!excerpt) {
          right.hidden = true;
          return;
        }
        left.hidden = true;
        box = S.box;
      }
      const name = `${part.prefix}sk${causal ? 1 : 0}`; // the skeleton's own output, not the view's
      const jobs = [{ label: tx(D, causal ? "lesson.s9.map_mask" : "lesson.s9.map") }];
      const o = { digest: name, values: "weights", h: 1, jobs, state: { causal }, box, numbers: false };
      view.fit(box.w, box.h);
      view.show(viewHeader(S, { ...part, h: 1 }, o), arr(D, name));
    },
    destroy: () => view.destroy(),
  };
}

/** Whether head 1's map of the part, fitted into box, labels every word with cells ≥ 20 px (the
    view's own geometry, layout.js mapGeometry, under its one-line caption). */
function s9Readable(S, box) {
  const D = S.D;
  const fonts = fontsOf(D);
  const ctx = S.doc.createElement("canvas").getContext("2d");
  const labels = labelsOf(D, S.part, box);
  const g = mapGeometry(ctx, labels, box.w, box.h - fonts.label * 1.8, fonts);
  return g.step === 1 && g.cell >= 20;
}

/** How many characters of the code's monospace fit one line of `pre` (its width, its font). */
function s9Columns(S, pre) {
  const cs = S.doc.defaultView.getComputedStyle(pre);
  const ctx = S.doc.createElement("canvas").getContext("2d");
  ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
  const room = pre.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return Math.max(20, Math.floor(room / ctx.measureText("0").width));
}

/** A line of code in lines of at most `fit` characters, broken where Python lets a line break:
    a trailing comment that does not fit left out (a comment, not code); inside brackets after
    ", " (the rest hung 4 spaces in, as PEP 8 hangs them). A line that fits is left alone. */
function s9Wrap(ln, fit) {
  if (!fit || ln.length <= fit) return ln;
  const indent = ln.match(/^ */)[0];
  const hash = ln.indexOf("  # ");
  if (hash > 0) return s9Wrap(ln.slice(0, hash), fit); // the projector shows it; a phone: the code
  const open = ln.indexOf("(");
  const cut = ln.lastIndexOf(", ", fit - 1);
  if (open < 0 || cut <= open) return ln; // nowhere Python breaks: the box scrolls, never cuts
  const hang = `${indent}    `;
  return `${ln.slice(0, cut + 1)}\n${s9Wrap(hang + ln.slice(cut + 2), fit)}`;
}

/** The code's type on a projector: the room's (20 px at 1024 px), smaller only when its lines
    would not fit the figure's height (line-height 1.3; never under 16 px). */
function s9CodePx(S, lines) {
  const base = roomOf(S.D).base;
  return Math.max(16, Math.min(base, Math.floor((S.box.h - 20) / (lines * 1.3))));
}
