/* The scene on screen: entering it, its steps (fragments, answered in the browser with no
   rerun), predict-then-reveal, the example for a sentence it cannot use, and its layout in the
   room. */

const { button, deepActive, figureBox, fillNotes, make, needOf, roomOf, sceneTitle, sendState,
  setFor, showNotices, SIDE_FRACTION, speak, stopAnimation, tx } = LESSON;

function stepNames(D) {
  return D.inst && D.ctx ? D.scenes[D.at].steps(D.ctx) : [""];
}

function stepNext(D) {
  const n = stepNames(D).length;
  if (D.step < n - 1) setStep(D, D.step + 1);
  else if (D.at < D.header.scenes) goScene(D, D.at + 1, 0);
}

function stepBack(D) {
  if (D.step > 0) setStep(D, D.step - 1);
  else if (D.at > 1) goScene(D, D.at - 1, "last");
}

function goScene(D, k, step) {
  const at = Math.min(Math.max(1, k | 0), D.header.scenes);
  if (at === D.at && step === D.step && D.inst) return;
  if (at !== D.at) D.notices = D.notices.filter((n) => !D.header.notices.includes(n));
  D.at = at;
  D.quiz[at] = null;
  renderScene(D, step);
  showNotices(D);
  D.els.scene.querySelector(".title").focus({ preventScroll: true });
  speak(
    D.els.live,
    tx(D, "lesson.live", { k: at, n: D.header.scenes, title: sceneTitle(D, at) }),
  );
  sendState(D);
}

function setStep(D, i) {
  const quiz = D.inst && D.scenes[D.at].quiz;
  if (quiz && i === quiz.step) D.quiz[D.at] = null; // back to the question: ask it again
  const from = D.step;
  D.step = i;
  stopAnimation(D);
  drawScene(D, i, from);
  const names = stepNames(D);
  speak(D.els.live, tx(D, "lesson.live_step", { i: i + 1, n: names.length, name: names[i] }));
}

/** Build scene D.at from scratch (new scene, new sentence or language) at `step`; the control
    that had the keyboard (data-key) gets it back. */
function renderScene(D, step) {
  const active = deepActive(D.els.root.ownerDocument);
  const keep = active && D.els.scene.contains(active) ? active.dataset.key : null;
  stopAnimation(D);
  D.inst?.destroy?.();
  D.inst = null;
  const k = D.at;
  const scene = D.scenes[k];
  const parts = sceneFrame(D, scene);
  fillNotes(D);
  const need = needOf(D, k);
  if (need && !D.example[k]) return needPanel(D, need, parts);
  const set = setFor(D, k);
  // The scene's context S, every field written here (sealed): a scene keeps its own state in
  // its mount's closure, never on S.
  D.ctx = Object.seal({ D, k, set, part: set.lab, tpart: set.trained, doc: parts.doc,
    figure: parts.figure, side: parts.controls, quizBox: parts.quiz, box: null });
  if (D.example[k]) exampleNote(D, parts.side);
  parts.title.textContent = scene.title(D, set);
  D.ctx.box = figureBox(D);
  D.inst = scene.mount(D.ctx);
  const names = scene.steps(D.ctx);
  D.step = step === "last" ? names.length - 1 : Math.min(step, names.length - 1);
  drawScene(D, D.step, null);
  if (keep) D.els.scene.querySelector(`[data-key="${keep}"]`)?.focus();
}

/** The scene's empty frame: title, figure beside the side panel (controls, quiz, steps), the
    takeaway; the strip marks the scene. */
function sceneFrame(D, scene) {
  const { els } = D;
  const doc = els.root.ownerDocument;
  els.scene.dataset.scene = String(D.at);
  delete els.scene.dataset.waiting;
  els.scene.classList.toggle("stack", scene.layout === "stack");
  const wide = Math.max(250, roomOf(D).w * (scene.side || SIDE_FRACTION));
  els.root.style.setProperty("--side", `${Math.round(wide)}px`);
  const title = make(doc, "h2", "title", { tabindex: "-1", "data-testid": "lesson-title" });
  const figure = make(doc, "div", "figure", { "data-testid": "lesson-figure" });
  const side = make(doc, "div", "side", { "data-testid": "lesson-side" });
  const controls = make(doc, "div", "controls");
  const quiz = make(doc, "div", "quiz", { "data-testid": "lesson-quiz" });
  const body = make(doc, "div", "body");
  const take = make(doc, "p", "takeaway", { "data-testid": "lesson-take" });
  side.append(controls, quiz, stepNav(D));
  body.append(figure, side);
  els.scene.replaceChildren(title, body, take);
  els.stripButtons.forEach((b, i) => {
    if (i + 1 === D.at) b.setAttribute("aria-current", "step");
    else b.removeAttribute("aria-current");
  });
  return { doc, title, figure, side, controls, quiz, take };
}

/** A scene this sentence cannot show: say why; offer the example (what was typed stays). */
function needPanel(D, need, { title, figure, take }) {
  const doc = D.els.root.ownerDocument;
  title.textContent = sceneTitle(D, D.at);
  const box = make(doc, "div", "need", { role: "status", "data-testid": "lesson-need" });
  box.append(make(doc, "p", "", {}, tx(D, need)));
  if (D.header.sets.example && need !== "lesson.need.trained") {
    const use = () => {
      D.example[D.at] = true;
      renderScene(D, 0);
      D.els.scene.querySelector(".title").focus({ preventScroll: true });
    };
    box.append(button(doc, "primary", "lesson-use-example", tx(D, "lesson.show_example"), use));
  }
  figure.append(box);
  take.textContent = "";
  D.ctx = null;
  D.step = 0;
  D.els.scene.dataset.step = "0";
  updateNav(D, [""]);
}

function exampleNote(D, side) {
  const doc = D.els.root.ownerDocument;
  const p = make(
    doc,
    "p",
    "example-note",
    { "data-testid": "lesson-example-note" },
    tx(D, "lesson.on_example", { s: D.header.example }),
  );
  const back = make(doc, "button", "", { type: "button" }, tx(D, "lesson.back_mine"));
  back.addEventListener("click", () => {
    D.example[D.at] = false;
    renderScene(D, 0);
  });
  p.append(" ", back);
  side.prepend(p);
}

function stepNav(D) {
  const doc = D.els.root.ownerDocument;
  const nav = make(doc, "div", "stepnav");
  const back = make(doc, "button", "", { type: "button", "data-testid": "lesson-prev" }, "◀");
  const name = make(doc, "span", "stepname", { "data-testid": "lesson-step-name" });
  const label = make(doc, "span", "steplabel", { "data-testid": "lesson-step" });
  const fwd = make(doc, "button", "", { type: "button", "data-testid": "lesson-next" }, "▶");
  back.setAttribute("aria-label", tx(D, "lesson.prev"));
  fwd.setAttribute("aria-label", tx(D, "lesson.next"));
  back.addEventListener("click", () => stepBack(D));
  fwd.addEventListener("click", () => stepNext(D));
  nav.append(name, back, label, fwd);
  return nav;
}

function updateNav(D, names) {
  const label = D.els.scene.querySelector(".steplabel");
  if (!label) return;
  const i = D.step;
  label.textContent = names[0] ? tx(D, "lesson.step", { i: i + 1, n: names.length }) : "";
  D.els.scene.querySelector(".stepname").textContent = names[i] || "";
  D.els.scene.querySelector('[data-testid="lesson-prev"]').disabled = D.at === 1 && i === 0;
  D.els.scene.querySelector('[data-testid="lesson-next"]').disabled =
    D.at === D.header.scenes && i === names.length - 1;
}

/** Draw the scene's step (animated from `from` when it is a neighbour) and its words; the words
    first, so the figure is measured in the room they leave. */
function drawScene(D, step, from) {
  if (!D.inst) return;
  const scene = D.scenes[D.at];
  D.els.scene.dataset.step = String(step);
  const names = scene.steps(D.ctx);
  updateNav(D, names);
  renderQuiz(D, scene, step);
  D.els.scene.querySelector(".takeaway").textContent = scene.take(D.ctx, step);
  D.ctx.box = figureBox(D);
  D.inst.draw(step, from);
  if (scene.quiz) renderQuiz(D, scene, step); // the scene's draw may have changed its answer
}

// ---- predict, then reveal ---------------------------------------------------------------------

function scheduleLayout(D) {
  if (D.frame || !D.header) return;
  D.frame = requestAnimationFrame(() => {
    D.frame = 0;
    layoutDeck(D);
  });
}

function layoutDeck(D) {
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
  if (size === D.size && D.inst) return;
  D.size = size;
  if (D.inst) drawScene(D, D.step, D.step);
}

// ---- predict, then reveal ---------------------------------------------------------------------

function renderQuiz(D, scene, step) {
  const box = D.ctx.quizBox;
  const quiz = scene.quiz;
  if (!quiz || step < quiz.step || step > quiz.step + 1) {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const doc = D.els.root.ownerDocument;
  const choices = quiz.choices(D.ctx);
  const chosen = D.quiz[D.at];
  const open = step === quiz.step && (chosen === null || chosen === undefined);
  const q = make(doc, "p", "question", { id: "lesson-question" });
  q.append(make(doc, "strong", "", {}, tx(D, "lesson.quiz.guess")), " ", quiz.question(D.ctx));
  const group = make(doc, "div", "choices", { role: "group", "aria-labelledby": "lesson-question" });
  choices.forEach((c, i) => {
    if (!open && !c.right && i !== chosen && choices.some((x) => x.right)) return; // answered: keep it short
    const b = button(doc, "choice", "lesson-choice", c.label, () => chooseAnswer(D, i), {
      "data-choice": String(i),
    });
    b.disabled = !open;
    if (!open && c.right) b.classList.add("right");
    if (!open && i === chosen && !c.right) b.classList.add("wrong");
    b.setAttribute("aria-pressed", String(i === chosen));
    group.append(b);
  });
  const parts = [q, group];
  if (open) {
    const reveal = tx(D, "lesson.quiz.reveal");
    parts.push(button(doc, "reveal", "lesson-reveal", reveal, () => stepNext(D)));
  } else parts.push(verdict(D, quiz, choices, chosen));
  box.replaceChildren(...parts);
}

/** The judgement and its reason: of the answer chosen, or the answer itself when revealed; a
    question without a right answer says so in the quiz's own words (quiz.noAnswer). */
function verdict(D, quiz, choices, chosen) {
  const doc = D.els.root.ownerDocument;
  const p = make(doc, "p", "verdict", { role: "status", "data-testid": "lesson-verdict" });
  const right = choices.find((c) => c.right);
  const picked = chosen === null || chosen === undefined ? null : choices[chosen];
  let head;
  let why;
  if (!right) [head, why] = [tx(D, quiz.noAnswer || "lesson.quiz.open"), (picked || choices[0]).why];
  else if (!picked) [head, why] = [tx(D, "lesson.quiz.answer", { a: right.label }), right.why];
  else if (picked.right) [head, why] = [tx(D, "lesson.quiz.right"), picked.why];
  else [head, why] = [tx(D, "lesson.quiz.wrong"), picked.why];
  p.dataset.verdict = !right ? "open" : !picked ? "revealed" : picked.right ? "right" : "wrong";
  p.append(make(doc, "strong", "", {}, head), " ", why);
  return p;
}

/** A student's answer: judged at once, explained, and the answer revealed. */
function chooseAnswer(D, i) {
  D.quiz[D.at] = i;
  const quiz = D.scenes[D.at].quiz;
  if (D.step === quiz.step) setStep(D, quiz.step + 1);
  else renderQuiz(D, D.scenes[D.at], D.step);
  const said = D.ctx.quizBox.querySelector(".verdict");
  if (said) speak(D.els.live, said.textContent);
}

return { drawScene, goScene, layoutDeck, renderScene, scheduleLayout, stepBack, stepNext };
