/* A student's progress, on their own device only (localStorage; nothing about a student reaches
   the server): the scene and step last shown, where a later visit without a scene in its link
   lands; and the questions answered wrong, which come back at the end in the review
   (lesson-review: after the last step, and from the overview). */

import { button, make } from "./elements.js";
import { sceneTitle, tx } from "./text.js";
import { on } from "./events.js";

const STORE = "attention-lab.lesson"; // localStorage key: {v, at, step, wrong: {id: {at, step, q}}}

function readStore(D) {
  try {
    const got = JSON.parse(D.els.root.ownerDocument.defaultView.localStorage.getItem(STORE));
    return got && got.v === 1 ? got : null;
  } catch {
    return null; // storage off (a private window) or unreadable: no progress
  }
}

function writeStore(D, patch) {
  try {
    const store = D.els.root.ownerDocument.defaultView.localStorage;
    const now = readStore(D) || { v: 1, at: 1, step: 0, wrong: {} };
    store.setItem(STORE, JSON.stringify({ ...now, ...patch }));
  } catch {
    // storage off or full: the lesson works without it
  }
}

/** Keep the scene and step on screen (not while the handout is being built). */
function saveProgress(D) {
  if (D.els.root.dataset.handout === "building") return;
  writeStore(D, { at: D.at, step: D.step });
}

on("placechanged", saveProgress);

/** Where a visit whose link names no scene starts: [scene, step] last shown, or null. */
export function lastPlace(D) {
  const got = readStore(D);
  if (!got || typeof got.at !== "number" || !D.scenes[got.at]) return null; // a scene's number
  return [got.at, Number.isInteger(got.step) ? got.step : 0];
}

/** A judged answer: a wrong one joins the review (with its question's words), a right one
    leaves it. */
export function markAnswer(D, S, at, id, right) {
  if (right === null) return;
  const wrong = { ...(readStore(D)?.wrong || {}) };
  if (right) delete wrong[id];
  else wrong[id] = { at: S.k, step: S.steps[at].id, q: S.steps[at].quiz.question(S) };
  writeStore(D, { wrong });
}

export function wrongOnes(D) {
  return Object.entries(readStore(D)?.wrong || {});
}

/** The review's list: per question answered wrong, its scene, its words, and a button that goes
    back to it (go(scene, stepId)). Empty: it says so. */
function reviewList(D, go) {
  const doc = D.els.root.ownerDocument;
  const items = wrongOnes(D);
  if (!items.length) return [make(doc, "p", "", {}, tx(D, "lesson.review_none"))];
  const list = make(doc, "ul", "review-list");
  for (const [id, item] of items) {
    const li = make(doc, "li", "", { "data-question": id });
    const where = tx(D, "lesson.scene", { k: item.at, title: sceneTitle(D, item.at) });
    li.append(make(doc, "strong", "", {}, where), " ", item.q, " ");
    li.append(button(doc, "", "", tx(D, "lesson.review_again"), () => {
      toggleReview(D, false);
      go(item.at, item.step);
    }));
    list.append(li);
  }
  return [list];
}

/** Show or hide the review; go(scene, stepId) is how its buttons go back to a question. */
export function toggleReview(D, show, go) {
  const box = D.els.review;
  box.hidden = !show;
  if (!show) return;
  const doc = D.els.root.ownerDocument;
  const title = make(doc, "h3", "", { id: "lesson-review-title" }, tx(D, "lesson.review"));
  const close = button(doc, "", "", tx(D, "lesson.close"), () => toggleReview(D, false));
  box.setAttribute("aria-labelledby", "lesson-review-title");
  box.replaceChildren(title, ...reviewList(D, go), close);
  box.querySelector("button").focus({ preventScroll: true });
}
