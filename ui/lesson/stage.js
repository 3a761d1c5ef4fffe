/* The scene on screen: entering it (its own settings fresh: S.local), its steps (objects with an
   id, a label and a caption; answered in the browser, never a rerun), the example for a sentence
   it cannot use, and its layout in the room. Each move emits one "placechanged" (events.js),
   which the link, the progress, the other window, the presenter and the class take; a redraw
   for a resize emits none. Predict-then-reveal is quiz.js's; the scene API is kit.js's header. */

import { button, deepActive, make, speak } from "./elements.js";
import { sceneTitle, tx } from "./text.js";
import { setFor } from "./numbers.js";
import { figureBox, roomOf } from "./room.js";
import { stopAnimation } from "./animate.js";
import { freshLocal } from "./kit.js";
import { closeTerm, richText } from "./terms.js";
import { followingPlace } from "./channel.js";
import { showNotices, whereText } from "./frame.js";
import { keepAnswer, quizOf, renderQuiz, sayVerdict, takeText } from "./quiz.js";
import { markAnswer, toggleReview } from "./progress.js";
import { classAsks, classHolds } from "./class_phone.js";
import { classAnswer } from "./class_answer.js";
import { emit } from "./events.js";
import { sceneAt, sceneBeside } from "./order.js";

const SIDE_FRACTION = 0.29; // the side panel's share of the width, unless a scene says

/** A string of the scene: a key of its text table (filled with the scene's words), or a
    function of S for one that depends on more. */
export function sceneText(S, key) {
  if (typeof key === "function") return key(S);
  return tx(S.D, key, S.scene.words ? S.scene.words(S) : undefined);
}

function stepLabels(S) {
  return S.steps.map((step) => sceneText(S, step.label));
}

function stepCount(D) {
  return D.ctx ? D.ctx.steps.length : 1;
}

/** The next step, the next scene; after the last one, the review of the questions answered
    wrong (or its word that there are none). */
export function stepNext(D) {
  if (classHolds(D)) return; // a phone in a class: the teacher's next step, not its own
  if (D.step < stepCount(D) - 1) setStep(D, D.step + 1);
  else if (sceneBeside(D, D.at, 1) !== null) goScene(D, sceneBeside(D, D.at, 1), 0);
  else toggleReview(D, true, (at, id) => goScene(D, at, id));
}

export function stepBack(D) {
  if (D.step > 0) setStep(D, D.step - 1);
  else if (sceneBeside(D, D.at, -1) !== null) goScene(D, sceneBeside(D, D.at, -1), "last");
}

/** Scene k at `step` (a number, "last", or a step's id): its settings fresh, its questions
    asked again; announced, the title focused, the link written. */
export function goScene(D, k, step) {
  const at = sceneAt(D, k);
  if (at === D.at && step === D.step && D.inst) return;
  if (at !== D.at) D.notices = D.notices.filter((n) => !D.header.notices.includes(n));
  D.at = at;
  const mine = `${D.scenes[at].id}.`; // its questions are asked again
  for (const id of Object.keys(D.answers)) if (id.startsWith(mine)) delete D.answers[id];
  renderScene(D, step, false);
  showNotices(D);
  D.els.scene.querySelector(".title").focus({ preventScroll: true });
  if (roomOf(D).phone) D.els.root.scrollIntoView({ block: "start" }); // a phone: from its top
  speak(D.els.live, tx(D, "lesson.live", { k: at, n: D.header.scenes, title: sceneTitle(D, at) }));
}

function setStep(D, i) {
  closeTerm(D, false);
  const S = D.ctx;
  const asked = S && quizOf(S, i);
  if (asked && asked.open) delete D.answers[asked.id]; // back to a question: ask it again
  const from = D.step;
  D.step = i;
  stopAnimation(D);
  if (S) applySet(S, i);
  drawScene(D, i, from);
  emit(D, "placechanged");
  if (S) {
    const name = stepLabels(S)[i];
    speak(D.els.live, tx(D, "lesson.live_step", { i: i + 1, n: S.steps.length, name }));
  }
}

/** Move the scene on screen to its step `id` (a control that is a step, e.g. §4's ▶). */
export function goStep(S, id) {
  const i = S.steps.findIndex((s) => s.id === id);
  if (i >= 0 && S.D.ctx === S && i !== S.D.step) setStep(S.D, i);
}

/** Where another of the teacher's windows went (a "goto" on the channel: scene and step by id):
    the same scene steps there, another scene is entered there. False for an unknown scene. */
export function goPlace(D, sceneId, stepId) {
  const found = Object.entries(D.scenes).find(([, scene]) => scene.id === sceneId);
  if (!found || !D.header) return false;
  const k = Number(found[0]);
  const here = D.ctx && k === D.at;
  const i = here ? D.ctx.steps.findIndex((s) => s.id === stepId) : -1;
  if (here && (i < 0 || i === D.step)) return true; // there already (or no such step here)
  followingPlace(D, { scene: sceneId, step: stepId });
  if (here) setStep(D, i);
  else goScene(D, k, typeof stepId === "string" && stepId ? stepId : 0);
  return true;
}

/** The settings the steps set (`set`), as they stand at step i: each key at the value the last
    step at or before i gave it, or the scene's own; the other settings stay as the user left
    them. */
function applySet(S, i) {
  const base = freshLocal(S.scene);
  for (const step of S.steps) {
    for (const key of Object.keys(step.set || {})) {
      let value = base[key];
      S.steps.slice(0, i + 1).forEach((s) => {
        if (s.set && key in s.set) value = s.set[key];
      });
      S.local[key] = value;
    }
  }
}

/** The step a link or a caller names: a number (0-based here), "last", or a step's id. */
function stepIndex(steps, step) {
  if (step === "last") return steps.length - 1;
  if (typeof step === "string") return Math.max(0, steps.findIndex((s) => s.id === step));
  return Math.min(Math.max(0, step | 0), steps.length - 1);
}

/** Build scene D.at from scratch at `step`: a new scene (keep false: its settings fresh), or the
    same one for new numbers or words (keep: its settings as they were). The control that had
    the keyboard (data-key) gets it back. */
export function renderScene(D, step, keep = true) {
  const active = deepActive(D.els.root.ownerDocument);
  const held = active && D.els.scene.contains(active) ? active.dataset.key : null;
  unsettle(D);
  closeTerm(D, false);
  stopAnimation(D);
  D.inst?.destroy?.();
  D.inst = null;
  const k = D.at;
  const scene = D.scenes[k];
  if (!keep || !D.local || D.localOf !== k) [D.local, D.localOf] = [freshLocal(scene), k];
  const parts = sceneFrame(D, scene);
  const need = needOf(D, k);
  if (need && !D.example[k]) {
    needPanel(D, need, parts);
    return settle(D);
  }
  const set = setFor(D, k);
  // The scene's context S, every field written here (sealed): a scene keeps its own state in
  // its mount's closure or in S.local (its settings), never on S.
  D.ctx = Object.seal({ D, k, scene, steps: scene.steps, local: D.local, set, part: set.lab,
    tpart: set.trained, doc: parts.doc, figure: parts.figure, side: parts.controls,
    quizBox: parts.quiz, box: null });
  if (D.example[k]) exampleNote(D, parts.side);
  parts.title.textContent = sceneText(D.ctx, scene.title);
  D.ctx.box = figureBox(D);
  D.inst = scene.mount(D.ctx);
  D.step = stepIndex(scene.steps, step);
  if (!keep) applySet(D.ctx, D.step);
  drawScene(D, D.step, null);
  emit(D, "placechanged");
  if (held) D.els.scene.querySelector(`[data-key="${held}"]`)?.focus();
  settle(D);
}

/** The scene's empty frame: title; the step's caption over the figure, beside the side panel
    (controls, quiz, steps); the takeaway; the strip marks the scene. */
function sceneFrame(D, scene) {
  const { els } = D;
  const doc = els.root.ownerDocument;
  els.scene.dataset.scene = String(D.at);
  delete els.scene.dataset.waiting;
  els.scene.classList.toggle("stack", scene.layout === "stack");
  const wide = Math.max(250, roomOf(D).w * (scene.side || SIDE_FRACTION));
  els.root.style.setProperty("--side", `${Math.round(wide)}px`);
  const title = make(doc, "h2", "title", { tabindex: "-1", "data-testid": "lesson-title" });
  const caption = make(doc, "p", "caption", { "data-testid": "lesson-caption" });
  const figure = make(doc, "div", "figure", { "data-testid": "lesson-figure" });
  const side = make(doc, "div", "side", { "data-testid": "lesson-side" });
  const controls = make(doc, "div", "controls");
  const quiz = make(doc, "div", "quiz", { "data-testid": "lesson-quiz" });
  const body = make(doc, "div", "body");
  const lead = make(doc, "div", "lead"); // the caption above the figure, beside the controls
  const take = make(doc, "p", "takeaway", { "data-testid": "lesson-take" });
  side.append(...[controls, quiz, labLink(D, D.at), stepNav(D)].filter(Boolean));
  lead.append(caption, figure);
  body.append(lead, side);
  els.scene.replaceChildren(title, body, take);
  els.stripButtons.forEach((b, i) => {
    if (i + 1 === D.at) b.setAttribute("aria-current", "step");
    else b.removeAttribute("aria-current");
  });
  whereText(D);
  return { doc, title, figure, side, controls, quiz, take };
}

/** "Try it in the lab": the lab page the scene declares ([scene] lab, header.labs), its link
    keeping the address's sentence and settings (not the lesson's own at, step, room, join). */
function labLink(D, at) {
  const page = D.header.labs?.[String(at)];
  if (!page) return null;
  const doc = D.els.root.ownerDocument;
  const href = () => {
    const here = new URL(doc.defaultView.location.href);
    const url = new URL(page, here); // beside /lesson: /scaling, under any base path
    for (const [k, v] of here.searchParams) if (!LESSON_ONLY.has(k)) url.searchParams.set(k, v);
    return url.href;
  };
  const a = make(doc, "a", "lab-link", { href: href(), target: "_self", "data-testid": "lesson-lab" },
    tx(D, "lesson.lab"));
  a.addEventListener("click", () => a.setAttribute("href", href())); // the sentence as it is now
  return a;
}
const LESSON_ONLY = new Set(["at", "step", "room", "join"]);

/** A scene this sentence cannot show: say why; offer the example (what was typed stays). */
function needPanel(D, need, { title, figure, take }) {
  const doc = D.els.root.ownerDocument;
  title.textContent = sceneTitle(D, D.at);
  const box = make(doc, "div", "need", { role: "status", "data-testid": "lesson-need" });
  box.append(make(doc, "p", "", {}, tx(D, need)));
  if (D.header.sets.example && need !== "lesson.need.trained") {
    const use = () => {
      D.example[D.at] = true;
      renderScene(D, 0, false);
      D.els.scene.querySelector(".title").focus({ preventScroll: true });
    };
    box.append(button(doc, "primary", "lesson-use-example", tx(D, "lesson.show_example"), use));
  }
  figure.append(box);
  take.textContent = "";
  D.ctx = null;
  D.step = 0;
  Object.assign(D.els.scene.dataset, { step: "0", stepId: "" });
  updateNav(D, [""]);
  emit(D, "placechanged");
}

function exampleNote(D, side) {
  const doc = D.els.root.ownerDocument;
  const say = tx(D, "lesson.on_example", { s: D.header.example });
  const p = make(doc, "p", "example-note", { "data-testid": "lesson-example-note" }, say);
  const back = button(doc, "", "", tx(D, "lesson.back_mine"), () => {
    D.example[D.at] = false;
    renderScene(D, 0, false);
  });
  p.append(" ", back);
  side.prepend(p);
}

function stepNav(D) {
  const doc = D.els.root.ownerDocument;
  const nav = make(doc, "div", "stepnav");
  const back = button(doc, "", "lesson-prev", "◀", () => stepBack(D), { "aria-label": tx(D, "lesson.prev") });
  const name = make(doc, "span", "stepname", { "data-testid": "lesson-step-name" });
  const label = make(doc, "span", "steplabel", { "data-testid": "lesson-step" });
  const fwd = button(doc, "", "lesson-next", "▶", () => stepNext(D), { "aria-label": tx(D, "lesson.next") });
  nav.append(name, back, label, fwd);
  return nav;
}

function updateNav(D, names) {
  const label = D.els.scene.querySelector(".steplabel");
  if (!label) return;
  const i = D.step;
  label.textContent = names[0] ? tx(D, "lesson.step", { i: i + 1, n: names.length }) : "";
  D.els.scene.querySelector(".lab-link")?.classList.toggle("last", i === names.length - 1);
  D.els.scene.querySelector(".stepname").textContent = names[i] || "";
  const first = sceneBeside(D, D.at, -1) === null;
  D.els.scene.querySelector('[data-testid="lesson-prev"]').disabled = first && i === 0;
  // ▶ at the last step opens the review: never grey
}

/** Draw the scene's step (animated from `from` when it is a neighbour) and its words; the words
    first, so the figure is measured in the room they leave. */
export function drawScene(D, step, from) {
  const S = D.ctx;
  if (!D.inst || !S) return;
  const step0 = S.steps[step];
  Object.assign(D.els.scene.dataset, { step: String(step), stepId: step0.id });
  updateNav(D, stepLabels(S));
  const on = quizHandlers(D);
  renderQuiz(D, S, step, on);
  D.els.scene.querySelector(".caption").replaceChildren(...richText(D, sceneText(S, step0.caption)));
  D.els.scene.querySelector(".takeaway").textContent = takeText(S, step);
  if (typeof S.scene.layout === "function") {
    D.els.scene.classList.toggle("stack", S.scene.layout(step) === "stack"); // a step's own layout
  }
  S.box = figureBox(D);
  D.inst.draw(step, from);
  if (quizOf(S, step)) renderQuiz(D, S, step, on); // the scene's draw may have changed its answer
}

/** What the quiz's buttons do: an answer is kept and judged and, at the question, revealed
    (setStep); the reveal button is →. */
function quizHandlers(D) {
  return {
    choose: (id) => {
      const S = D.ctx;
      const found = quizOf(S, D.step);
      if (classAsks(D, found.id)) {
        classAnswer(D, found.id, id); // to the class (class_answer.js)
        return drawScene(D, D.step, D.step); // the choice shown as this phone's
      }
      markAnswer(D, S, found.at, found.id, keepAnswer(D, S, D.step, id));
      if (found.open) setStep(D, D.step + 1);
      else renderQuiz(D, S, D.step, quizHandlers(D));
      sayVerdict(D, S);
    },
    reveal: () => stepNext(D),
  };
}

export function scheduleLayout(D) {
  if (D.frame || !D.header) return;
  unsettle(D);
  D.frame = requestAnimationFrame(() => {
    D.frame = 0;
    layoutDeck(D);
  });
}

export function layoutDeck(D) {
  const { els } = D;
  const room = roomOf(D);
  const root = els.root;
  root.classList.toggle("phone", room.phone);
  root.style.setProperty("--base", `${room.base}px`);
  root.style.setProperty("--code-phone", `${D.header.colours.lesson.type.phone_code}px`);
  const side = D.scenes[D.at]?.side || SIDE_FRACTION;
  root.style.setProperty("--side", `${Math.round(Math.max(250, room.w * side))}px`);
  if (room.phone) root.style.height = "";
  else {
    const top = Math.max(0, root.getBoundingClientRect().top);
    root.style.height = `${Math.max(420, room.h - top - 6)}px`;
  }
  const size = `${room.w}|${room.h}|${room.base}|${els.scene.clientWidth}|${els.scene.clientHeight}`;
  if (size !== D.size || !D.inst) {
    D.size = size;
    if (D.inst) drawScene(D, D.step, D.step);
  }
  settle(D);
}

/** For tests and benches: a resize, new data or a new scene starts the deck's next layout
    generation (its root's data-generation), unsettled until the scene is drawn for it. */
function unsettle(D) {
  D.gen += 1;
  D.els.root.dataset.generation = String(D.gen);
  delete D.els.root.dataset.settled;
}

/** The scene is drawn for this generation: data-settled names it once the fonts it measured
    with are in (if they were still loading, it is laid out again with them). The views a scene
    mounts say the same on their own roots (ui/explorer/view.js). */
function settle(D) {
  if (D.frame || !D.header) return;
  const gen = D.gen;
  const root = D.els.root;
  const fonts = root.ownerDocument.fonts;
  const loaded = fonts.status === "loaded";
  fonts.ready.then(() => {
    if (gen !== D.gen || D.frame) return;
    if (loaded) root.dataset.settled = String(gen);
    else {
      D.size = ""; // measured before the fonts came: again, with them
      scheduleLayout(D);
    }
  });
}

/** Why scene k cannot show this sentence: a text key ("" = it can; Python's scene_needs). */
function needOf(D, k) {
  return D.header.sets.user.needs[String(k)] || "";
}
