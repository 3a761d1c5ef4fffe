/* The live class's state on this deck (class.js makes, joins and streams the class; this file
   keeps what comes of it): a state from the server taken, the highest version kept (takeState),
   and followed: a phone goes to the class's scene and step with the teacher's sentence and
   measured figures, looks back (←) and follows again; the teacher's place posted after every
   step drawn, one request at a time; a phone's answer sent, retried with the same token; the
   class's state told to the teacher's presenter window. Everything it keeps is a field of the
   class's record D.klass (class.js newClass). */

import { speak } from "./deck.js";
import { post } from "./channel.js";
import { drawScene, goScene, goStep } from "./stage.js";
import { classNodesOf, classPaint, classWord } from "./class_panel.js";
import { classCall, classErrorOf, classPlaceOf, phoneToken, placeBody,
  writeClassLink } from "./class_net.js";

const ANSWER_TRIES = 5;

/** A phone on the class's place does not step past it (its next step is the teacher's). */
export function classHolds(D) {
  const K = D.klass;
  return !!(K && K.role === "phone" && K.following && K.place && K.status === "joined" &&
    K.place[0] === D.at && K.place[1] === D.step); // prettier-ignore
}

/** A state from the server: keep the highest version; end, follow, repaint. */
export function takeState(D, state, fresh = false) {
  const K = D.klass;
  const old = K.state;
  if (old && state.v < old.v) return;
  if (old && state.v === old.v && !fresh) return classPaint(D);
  const { teacher, tally, mine, ...bare } = state; // a read's extras, not the class's state
  K.state = bare;
  if (mine !== undefined && bare.question) K.mine[bare.question.id] = mine;
  if (tally) K.tally = tally;
  if (bare.ended) endLocally(D);
  else if (K.role === "phone") {
    if (old && resetSince(old, bare)) readMine(D);
    useSetup(D, bare.setup);
    if (K.following) goToClass(D);
  }
  K.place = classPlaceOf(D, bare);
  classPaint(D);
  tellPresenter(D);
}

/** The teacher reset the question: the same place and question, not revealed, a later version. */
function resetSince(old, now) {
  const same = (k) => JSON.stringify(old[k]) === JSON.stringify(now[k]);
  return now.question && same("scene") && same("step") && same("tally_visible") &&
    old.question?.id === now.question.id && !now.revealed; // prettier-ignore
}

async function readMine(D) {
  const K = D.klass;
  const got = await classCall(D, "GET", `/class/${K.code}?phone=${phoneToken(D)}`);
  if (got.status === 200 && got.body.question) {
    K.mine[got.body.question.id] = got.body.mine ?? undefined;
    if (got.body.mine == null) delete K.mine[got.body.question.id];
    redrawQuiz(D);
  }
}

function endLocally(D) {
  const K = D.klass;
  K.status = "ended";
  K.stream?.close();
  K.stream = null;
  clearTimeout(K.timer);
  classNodesOf(D).join.hidden = true;
  writeClassLink(D);
  speak(D.els.live, classWord(D, "ended"));
}

// The teacher's model settings a phone takes (pages/lesson.py FOLLOWED: settings_of's names).
const FOLLOWED = ["weights", "d", "h", "seed", "pos", "mode"];

/** The phone's sentence, model and numbers are the teacher's: the sentence and the model's
    settings (weights, d, h, seed, positions, word or character) asked of this phone's server once
    (one rerun, which reads them as a link is read), the measured figures (header.blocks) taken as
    they are. */
export function useSetup(D, setup) {
  const K = D.klass;
  if (!setup || !D.header) return;
  for (const name of ["variance", "cost"]) {
    if (setup.blocks?.[name]) D.header.blocks[name] = setup.blocks[name];
  }
  const s = setup.sentence;
  const mine = D.header.settings;
  const model = {};
  for (const k of FOLLOWED) if (k in (setup.settings || {})) model[k] = setup.settings[k];
  const differs = s !== mine.sentence || FOLLOWED.some((k) => k in model && model[k] !== mine[k]);
  const asked = JSON.stringify([s, model]);
  if (typeof s === "string" && s && differs && asked !== K.askedSentence) {
    K.askedSentence = asked;
    D.example = {};
    D.api?.setStateValue("deck", { seq: (D.seq += 1), sentence: s, model });
    D.pending = D.seq;
    delete D.els.root.dataset.synced;
  }
}

/** Move this deck to the class's scene and step (not a move of the phone's own). */
export function goToClass(D) {
  const K = D.klass;
  const place = classPlaceOf(D, K.state);
  if (!place || !D.header) return;
  K.applying = true;
  try {
    if (place[0] !== D.at || !D.inst) goScene(D, place[0], K.state.step || 0);
    else if (D.ctx && D.ctx.steps[place[1]] && place[1] !== D.step) goStep(D.ctx, K.state.step);
    else if (K.role === "phone") redrawQuiz(D);
  } finally {
    K.applying = false;
  }
}

export function followAgain(D) {
  const K = D.klass;
  if (!K) return;
  K.following = true;
  goToClass(D);
  classPaint(D);
}

/** The question's box again (a phone's answer, a reset): the scene redraws this step. */
function redrawQuiz(D) {
  if (D.ctx && D.inst) drawScene(D, D.step, D.step);
}

/** stage.js's writeLink, after every step drawn: the teacher posts where the deck is; a phone
    that moved itself looks back (follow again with class-follow, or by stepping back to it). */
export function classMoved(D) {
  const K = D.klass;
  if (!K) return;
  writeClassLink(D);
  if (K.role === "teacher") postPlace(D);
  else if (!K.applying && K.place && K.status !== "ended") {
    K.following = K.place[0] === D.at && K.place[1] === D.step;
  }
  classPaint(D);
}

/** POST the teacher's place when it changed; one request at a time, the latest wins. */
async function postPlace(D) {
  const K = D.klass;
  if (K.status === "ended" || !D.header) return;
  const body = placeBody(D);
  const said = JSON.stringify(body);
  if (said === K.sent && K.state) return;
  if (K.sending) {
    K.queued = true;
    return;
  }
  K.sending = true;
  const res = await classCall(D, "POST", `/class/${K.code}/state`, body);
  K.sending = false;
  if (res.status === 200) {
    K.sent = said;
    K.error = "";
    if (K.status === "lost") K.status = "joined";
    takeState(D, res.body.state);
  } else {
    K.error = classErrorOf(res);
    if (K.error === "store_unavailable" || res.status === 0) {
      K.status = "lost";
      K.error = "";
      clearTimeout(K.timer);
      K.timer = setTimeout(() => postPlace(D), 2000);
    }
    classPaint(D);
  }
  if (K.queued) {
    K.queued = false;
    postPlace(D);
  }
}

/** quiz.js: may this phone's answer go to the class (it follows, the question is the class's,
    not revealed)? */
export function classAsks(D, questionId) {
  const K = D.klass;
  return !!(K && K.role === "phone" && K.following && K.status !== "ended" &&
    K.state?.question?.id === questionId); // prettier-ignore
}

/** A phone's answer: kept, shown, sent; one request at a time, so a change of mind never
    overtakes the answer it replaces (the latest is sent last). */
export async function classAnswer(D, questionId, choice) {
  const K = D.klass;
  if (!classAsks(D, questionId) || K.state.revealed) return;
  K.mine[questionId] = choice;
  redrawQuiz(D);
  const body = { phone: phoneToken(D), question: questionId, choice };
  if (K.outbox) {
    K.outbox = body; // sent when the one in flight is answered
    return;
  }
  K.outbox = body;
  while (K.outbox) {
    const next = K.outbox;
    await sendAnswer(D, next);
    if (K.outbox === next) K.outbox = null;
  }
}

/** POST one answer, retried with the same token (nginx does not retry a POST; the server
    counts a retry once). */
async function sendAnswer(D, body) {
  const K = D.klass;
  for (let i = 0; i < ANSWER_TRIES; i++) {
    const res = await classCall(D, "POST", `/class/${K.code}/answer`, body);
    if (res.status === 200) {
      K.error = "";
      return classPaint(D);
    }
    if (res.status !== 0 && res.status !== 503 && res.status !== 429) {
      K.error = classErrorOf(res);
      return classPaint(D);
    }
    await new Promise((ok) => setTimeout(ok, Math.max(res.retryAfter * 1000, 500 * 2 ** i)));
  }
  K.error = "store_unavailable";
  classPaint(D);
}

/** The class's state, its tally and join link, to the teacher's other windows. */
export function tellPresenter(D) {
  const K = D.klass;
  if (!K || K.role !== "teacher" || !K.state) return;
  post(D, { kind: "class", state: { ...K.state, tally: K.tally, join: K.join, qr: K.qr } });
}
