/* Predict, then reveal: a step with a quiz asks (its choices as large buttons), the step after it
   reveals (the right answer and why). A question's id is its scene's and step's ("s05.ask"), a
   choice's its own ("sharp"); D.answers holds the choice id picked per question. No spoilers:
   a scene's takeaway shows only once every question of the scene is revealed (takeShown). */

import { button, make, speak } from "./elements.js";
import { tx } from "./text.js";
import { classAsks } from "./class_phone.js";

/** The id of the question asked at step i of the scene on screen ("s05.ask"). */
function quizId(S, i) {
  return `${S.scene.id}.${S.steps[i].id}`;
}

/** The question this step asks or reveals: {at, quiz, id, open} (open: it is asked here), or
    null. */
export function quizOf(S, step) {
  for (const at of [step, step - 1]) {
    const quiz = S.steps[at]?.quiz;
    if (quiz) return { at, quiz, id: quizId(S, at), open: at === step };
  }
  return null;
}

/** The takeaway may show at this step: every question of the scene is behind it (revealed). */
function takeShown(S, step) {
  return !S.steps.some((s, i) => s.quiz && i >= step);
}

/** The takeaway at this step: the scene's `take` once every question is revealed, before that
    its `takeBefore` (words that state no answer) or nothing. */
export function takeText(S, step) {
  const scene = S.scene;
  if (takeShown(S, step)) return scene.take(S);
  return scene.takeBefore ? scene.takeBefore(S) : "";
}

/** Draw the quiz box of this step: on a question step its choices and a reveal button, on its
    reveal step the answer and why. on.choose(choiceId) and on.reveal() are the stage's. */
export function renderQuiz(D, S, step, on) {
  const box = S.quizBox;
  const found = quizOf(S, step);
  if (!found) {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const { quiz, id } = found;
  const doc = D.els.root.ownerDocument;
  const choices = quiz.choices(S);
  // A phone in a class (class.js): its answer is the class's, open until the teacher reveals.
  const K = classAsks(D, id) ? D.klass : null;
  const chosen = (K ? K.mine[id] : D.answers[id]) ?? null;
  const open = K ? found.open && !K.state.revealed : found.open && chosen === null;
  const q = make(doc, "p", "question", { id: "lesson-question" });
  q.append(make(doc, "strong", "", {}, tx(D, "lesson.quiz.guess")), " ", quiz.question(S));
  const group = make(doc, "div", "choices", { role: "group", "aria-labelledby": "lesson-question" });
  const judged = choices.some((x) => x.right);
  for (const c of choices) {
    if (!open && !c.right && c.id !== chosen && judged) continue; // answered: keep it short
    const b = button(doc, "choice", "lesson-choice", c.label, () => on.choose(c.id), {
      "data-choice": c.id,
    });
    b.disabled = !open;
    if (!open && c.right) b.classList.add("right");
    if (!open && c.id === chosen && !c.right) b.classList.add("wrong");
    b.setAttribute("aria-pressed", String(c.id === chosen));
    group.append(b);
  }
  const parts = [q, group];
  if (open && K) {
    const said = chosen === null ? "" : D.header.classroom.text.word.answered;
    parts.push(make(doc, "p", "class-answered", { role: "status", "data-testid": "class-sent" }, said));
  } else if (open) {
    const reveal = tx(D, D.touch ? "lesson.quiz.reveal_touch" : "lesson.quiz.reveal");
    parts.push(button(doc, "reveal", "lesson-reveal", reveal, on.reveal));
  } else parts.push(verdict(D, quiz, choices, chosen));
  box.replaceChildren(...parts);
}

/** The judgement and its reason: of the answer chosen, or the answer itself when revealed; a
    question without a right answer says so in the quiz's own words (quiz.noAnswer). */
function verdict(D, quiz, choices, chosen) {
  const doc = D.els.root.ownerDocument;
  const p = make(doc, "p", "verdict", { role: "status", "data-testid": "lesson-verdict" });
  const right = choices.find((c) => c.right);
  const picked = choices.find((c) => c.id === chosen) || null;
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

/** A student's answer to the question at or before this step: kept (D.answers) and judged;
    whether it was right (null: the question has no right answer). */
export function keepAnswer(D, S, step, choiceId) {
  const found = quizOf(S, step);
  if (!found) return null;
  D.answers[found.id] = choiceId;
  const choices = found.quiz.choices(S);
  if (!choices.some((c) => c.right)) return null;
  return !!choices.find((c) => c.id === choiceId)?.right;
}

/** Say the verdict on screen in the live region. */
export function sayVerdict(D, S) {
  const said = S.quizBox.querySelector(".verdict");
  if (said) speak(D.els.live, said.textContent);
}
