/* The scene kit: what every scenes/sNN.js builds with. defineScene (a scene file's default
   export; order.js puts the scenes in the order of their numbers), the settings every scene has
   of its own (LOCAL), and the helpers scenes share: a canvas in the figure, a head's weights in
   the scene's settings, the head a scene shows.

   ---- THE SCENE API (every scenes/sNN.js follows it) -----------------------------------------

   A scene is one file, scenes/sNN.js, that imports what it draws with and ends with
   `export default defineScene({ … });`. Its words are its own text table,
   ui/text/lesson_sNN.toml (zh and en side by side; keys "lesson.sN.…", written out literally
   where they are used, so a grep finds each), and so are its facts: its table's [scene] says
   its number (number = 5: §5, the link's at=5, the key 5, 0 for 10; a scene between §4 and §5
   is 4.5, s04b.js, and the others keep theirs) and what its figure needs (needs = ["sentence",
   "two_tokens", "trained", "pronoun"]: the user's sentence, two tokens, the trained model, a
   pronoun it reads); ui/lesson/scenes.py reads them, Python says in the header when a sentence
   cannot give what a scene needs, and sends the numbers (header.numbers). To add §11:
   write scenes/s11.js and ui/text/lesson_s11.toml, and its tests: tests/ui/lesson/test_s11.py
   for its numbers (beside tests/pages/test_lesson.py, the page's); its browser cases in
   tests/browser/test_lesson_s11.py with tests/lesson_support.py's open_lesson, press, where,
   walk_scene; the rules every step meets run by themselves: tests/browser/test_lesson_rules.py,
   where a rule the scene does not meet yet is a line in PHONE_TODO or MAPS_TODO. Nothing else:
   run.js imports every scenes/*.js (`import SCENE_FILES from "glob:./scenes/*.js"`, the
   build's), ui/lesson/scenes.py reads the same files' names and their tables' facts,
   pages/lesson.py sends its lesson_sNN.toml table, and the strip, the overview, the keys (→, ←,
   the digits by number) and the handout list it (order.js). scenes/ holds scenes only: a scene's helper
   (cellstep.js) is a file of ui/lesson/ that the scene imports.

   export default defineScene({
     id: "s05",                   // the file's name; a question's id is "s05.ask"
     title: "lesson.s5.title",    // a key, or (S) => text (S has at least D, k, scene, set)
     steps: [                     // what → reaches, in order (reveal.js's fragments)
       { id: "variance",          // ascii slug, unique in the scene: the link's step=variance,
                                  //   the class's follow; keep ids when steps move
         label: "lesson.s5.step0",          // its name beside ◀ ▶ (a key or (S) => text)
         caption: "lesson.s5.cap.variance", // lesson-caption: 1–2 sentences for a student
                                  //   alone, zh + en; terms marked [[softmax]] or
                                  //   [[d_k|d_k 的大小]] (ui/text/glossary.toml keys); never
                                  //   an open question's answer; never the teacher's notes
         set: { causal: true },   // optional: scene-local settings this step sets (below)
       },
       { id: "ask", label: …, caption: …,
         quiz: {                  // optional: this step asks; the NEXT step reveals
           question: (S) => text,
           choices: (S) => [{ id: "sharp", label, right: true | false | null, why }],
                                  //   ids are ascii and stable (the class's server checks
                                  //   them); right null everywhere: no right answer
           words: true,           // optional: the labels are words of the sentence (they are
                                  //   on screen anyway; the spoiler check skips the labels)
           noAnswer: "lesson.quiz.no_answer", // optional: the verdict's head without an answer
         } },
       { id: "reveal", … },
     ],
     words: (S) => ({ q: "他" }),  // optional: values for the {placeholders} of the scene's
                                  //   keys (title, labels, captions)
     terms: (S) => ({ softmax: softmaxExample(S, S.part) }), // optional: values a glossary
                                  //   example needs ("glossary.softmax.example": q, a, b, wa,
                                  //   wb); d_k, d_model, h, n and √d_k come from S.part
     take: (S) => text,           // the takeaway; NO SPOILERS: with a quiz it shows only on
                                  //   steps after every question's reveal (quiz.js takeShown)
     takeBefore: (S) => text,     // optional: the line before that (must state no answer)
     local: { when: "after" },    // optional: the scene's own settings besides kit.js LOCAL
     side: 0.22,                  // optional: the side panel's share of the width
     layout: "stack",             // optional: controls under the figure, not beside it; or
                                  //   (step) => "stack" | "side", per step
     phone: 1.2 | (step) => 1.2,  // optional: the figure's height on a phone, × its width;
                                  //   omit it and the figure fills the screen's rest
     mount: (S) => ({ draw(step, from), destroy() }),
   });

   S, the scene's context (stage.js renderScene, sealed): D (the deck), k (its number), scene,
   steps, local, set (the sentence's numbers: part = set.lab, tpart = set.trained), doc,
   figure (the figure's element), side (its controls' element), quizBox, box ({w, h} css px the
   figure may use: read it after fillSide, which measures it again on a phone).
   draw(step, from): step is the index into steps (compare S.steps[step].id when order may
   change), from the step before (null: drawn fresh; equal: a redraw, e.g. a resize). Call
   fillSide(S, nodes) first (the controls beside the figure), then paint. Animate with
   animate(D, ms, fn) only when from is a neighbour.
   Scene-local settings, S.local: scale (√d_k on), causal, focus (a token's text; null: the
   part's default), head (null: the scene picks, pickHead), tau (null: √d_k), plus the scene's
   own (`local`). Entering a scene resets them; a step's `set` applies on arrival (going back
   undoes it); a control changes one with setLocal(S, { causal: true }) and the scene redraws.
   They never reach Python, another scene or the link (README's "What a lesson link carries").
   Phone (roomOf(D).phone, 390 × 844; D.touch: a touch screen): one column, the caption, the
   figure, the controls and the quiz, the takeaway, and the step bar (◀ ▶) fixed at the
   screen's bottom; a swipe steps. S.box.h is the screen's rest (measured after fillSide) unless
   the scene's `phone` asks for a height; each step must fit one screen with its figure and its
   control (tests/browser/test_lesson_rules.py measures every step: the page scrolls ≤ 10 % of
   the screen, no text box clipped). A comparison is one map with a tap to switch.
   Maps: sceneView (views.js) mounts the attention view; bigMap (views.js) shows one head large
   beside every head small (a tap picks the head: setLocal head); labelsOf(D, part, box) gives
   a map's token labels, with English glosses where they cost no cell size. Every map publishes
   data-cell (its cell side) and data-labelled ("13/13"): at 1024 × 680 and 1024 × 768 the
   example's maps need cells ≥ 20 px, every token labelled, numbers ≥ 20 px. */

import { rowSpread } from "../explorer/softmax.js";
import { rankRow } from "./arith.js";
import { make } from "./elements.js";
import { arr, divisorOf, focusIn, weightsOf } from "./numbers.js";

// The settings every scene has of its own (S.local), reset on entering the scene: √d_k on, no
// mask, the part's default focus (null) and head (null: the scene picks), τ at √d_k (null). A
// scene adds its own in `local` ({ when: "after" }), and a step may set any (`set`).
const LOCAL = Object.freeze({ scale: true, causal: false, focus: null, head: null, tau: null });

const STEP_ID = /^[a-z][a-z0-9_-]*$/;

/** A scene file's default export: the scene, its shape checked (ids, steps, quizzes), frozen. */
export function defineScene(scene) {
  const where = `scene ${scene.id}`;
  if (!/^s\d\d[a-z]?$/.test(scene.id || "")) throw new Error(`${where}: id must be "sNN"`);
  const ids = scene.steps.map((s) => s.id);
  for (const step of scene.steps) {
    if (!STEP_ID.test(step.id || "")) throw new Error(`${where}: step id ${step.id} is no slug`);
    if (!step.label || !step.caption) throw new Error(`${where}.${step.id}: a label and a caption`);
  }
  if (new Set(ids).size !== ids.length) throw new Error(`${where}: step ids repeat: ${ids}`);
  scene.steps.forEach((step, i) => {
    if (step.quiz && i + 1 >= scene.steps.length) throw new Error(`${where}.${step.id}: no reveal`);
  });
  return Object.freeze({ ...scene, steps: Object.freeze(scene.steps.map(Object.freeze)) });
}

/** The scene's settings when it is entered: LOCAL, its own (`local`), and what its first step
    sets; sealed, so a setting no scene declared cannot appear. */
export function freshLocal(scene) {
  return Object.seal({ ...LOCAL, ...(scene.local || {}), ...(scene.steps[0].set || {}) });
}

export function sceneCanvas(S, id = "lesson-canvas") {
  const c = make(S.doc, "canvas", "", { role: "img", "data-testid": id });
  S.figure.append(c);
  return c;
}

/** The weights a scene shows for a head: its √d_k (or 1) and its mask. */
export function headWeights(S, part, head) {
  return weightsOf(S.D, part, head, divisorOf(S, part), S.local.causal);
}

/** The glossary's softmax example on a row (terms.js; by default the scene's focus row in the
    head it shows): its two heaviest keys' scores (as divided) and shares. */
export function softmaxExample(S, part, i = focusIn(S, part), head = pickHead(S, part, i)) {
  const n = part.n;
  const w = headWeights(S, part, head);
  const raw = arr(S.D, `${part.prefix}scores`);
  const [a, b = a] = rankRow(w, n, i); // one key: its own example twice
  const score = (j) => (raw[(head * n + i) * n + j] / divisorOf(S, part)).toFixed(2);
  const share = (j) => `${(w[i * n + j] * 100).toFixed(0)}%`;
  return { q: part.tokens[i].t, a: score(a), b: score(b), wa: share(a), wb: share(b) };
}

/** The head a query is shown in: the scene's chosen head, else the one whose row is most
    decided. */
export function pickHead(S, part, i) {
  const chosen = S.local.head;
  if (chosen !== undefined && chosen !== null && chosen < part.h) return chosen;
  let best = 0;
  let top = -1;
  for (let k = 0; k < part.h; k++) {
    const { top: t } = rowSpread(headWeights(S, part, k), part.n, i);
    if (t > top + 1e-9) [best, top] = [k, t];
  }
  return best;
}
