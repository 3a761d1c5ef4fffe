/* The scene kit: what every scenes/sNN.js builds with. addScene (a scene file registers its
   scene; the deck numbers them in bundle order), the settings every scene has of its own (LOCAL),
   and the helpers scenes share: a canvas in the figure, a head's weights in the scene's
   settings, the head a scene shows. The scene API itself is written in registry.js's header. */

const { rowSpread } = VIEW;
const { arr, divisorOf, focusIn, make, rankRow, weightsOf } = LESSON;

const SCENE_LIST = []; // the scenes in bundle order (§1 first); filled once, as the files run

// The settings every scene has of its own (S.local), reset on entering the scene: √d_k on, no
// mask, the part's default focus (null) and head (null: the scene picks), τ at √d_k (null). A
// scene adds its own in `local` ({ when: "after" }), and a step may set any (`set`).
const LOCAL = Object.freeze({ scale: true, causal: false, focus: null, head: null, tau: null });

const STEP_ID = /^[a-z][a-z0-9_-]*$/;

/** A scene file's last act: check its shape (ids, steps, quizzes) and add it to the deck. */
function addScene(scene) {
  const where = `scene ${SCENE_LIST.length + 1} (${scene.id})`;
  if (!/^s\d\d$/.test(scene.id || "")) throw new Error(`${where}: id must be "sNN"`);
  const ids = scene.steps.map((s) => s.id);
  for (const step of scene.steps) {
    if (!STEP_ID.test(step.id || "")) throw new Error(`${where}: step id ${step.id} is no slug`);
    if (!step.label || !step.caption) throw new Error(`${where}.${step.id}: a label and a caption`);
  }
  if (new Set(ids).size !== ids.length) throw new Error(`${where}: step ids repeat: ${ids}`);
  scene.steps.forEach((step, i) => {
    if (step.quiz && i + 1 >= scene.steps.length) throw new Error(`${where}.${step.id}: no reveal`);
  });
  SCENE_LIST.push(Object.freeze({ ...scene, steps: Object.freeze(scene.steps.map(Object.freeze)) }));
}

/** The scenes by number: { 1: §1, 2: §2, … }. */
function sceneList() {
  return Object.fromEntries(SCENE_LIST.map((scene, i) => [i + 1, scene]));
}

/** The scene's settings when it is entered: LOCAL, its own (`local`), and what its first step
    sets; sealed, so a setting no scene declared cannot appear. */
function freshLocal(scene) {
  return Object.seal({ ...LOCAL, ...(scene.local || {}), ...(scene.steps[0].set || {}) });
}

function sceneCanvas(S, id = "lesson-canvas") {
  const c = make(S.doc, "canvas", "", { role: "img", "data-testid": id });
  S.figure.append(c);
  return c;
}

/** The weights a scene shows for a head: its √d_k (or 1) and its mask. */
function headWeights(S, part, head) {
  return weightsOf(S.D, part, head, divisorOf(S, part), S.local.causal);
}

/** The glossary's softmax example on the scene's focus row (terms.js): its two heaviest keys'
    scores (as divided) and shares, in the head the scene shows. */
function softmaxExample(S, part) {
  const n = part.n;
  const i = focusIn(S, part);
  const head = pickHead(S, part, i);
  const w = headWeights(S, part, head);
  const raw = arr(S.D, `${part.prefix}scores`);
  const [a, b] = rankRow(w, n, i);
  const score = (j) => (raw[(head * n + i) * n + j] / divisorOf(S, part)).toFixed(2);
  const share = (j) => `${(w[i * n + j] * 100).toFixed(0)}%`;
  return { q: part.tokens[i].t, a: score(a), b: score(b), wa: share(a), wb: share(b) };
}

/** The head a query is shown in: the scene's chosen head, else the one whose row is most
    decided. */
function pickHead(S, part, i) {
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

return { addScene, freshLocal, headWeights, pickHead, sceneCanvas, sceneList, softmaxExample };
