/* The live class's state on this deck (class.js makes, joins and streams the class; this file
   keeps what comes of it): a state from the server taken, the highest version kept (takeState),
   and followed: a phone goes to the class's scene and step with the teacher's sentence and
   measured figures, looks back (←) and follows again; the teacher's place posted at every place
   change (events.js), one request at a time; the class's state told to the teacher's presenter
   window. Everything it keeps is a field of the class's record D.klass (class.js newClass). */

import { speak } from "./elements.js";
import { post } from "./channel.js";
import { drawScene, goScene, goStep } from "./stage.js";
import { classNodesOf, classPaint, classWord } from "./class_panel.js";
import { classCall, classErrorOf, classPlaceOf, placeBody,
  writeClassLink } from "./class_net.js";
import { on } from "./events.js";
import { quizOf } from "./quiz.js";
import { markAnswer } from "./progress.js";
import { fetchSummary } from "./class_end.js";

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
  const asked = bare.question?.id || "";
  if (asked && (asked !== (old?.question?.id || "") || (old && resetSince(old, bare)))) {
    K.askedAt = Date.now(); // the presenter's clock of this question
  }
  if (bare.ended) endLocally(D);
  else if (K.role === "phone") {
    if (old && resetSince(old, bare)) readMine(D);
    useSetup(D, bare.setup);
    if (K.following) goToClass(D);
  }
  K.place = classPlaceOf(D, bare);
  noteMissed(D);
  classPaint(D);
  tellPresenter(D);
}

/** A phone at the class's revealed question: its answer judged by the server's key, a miss
    (wrong, or none sent) kept for its own review at the end (progress.js). */
function noteMissed(D) {
  const K = D.klass;
  const q = K?.state?.question;
  if (K?.role !== "phone" || !q || !K.state.revealed || !q.answer || !D.ctx) return;
  const found = quizOf(D.ctx, D.step);
  if (found?.id !== q.id) return;
  markAnswer(D, D.ctx, found.at, q.id, K.mine[q.id] === q.answer);
}

/** The teacher reset the question: the same place and question, not revealed, a later version. */
function resetSince(old, now) {
  const same = (k) => JSON.stringify(old[k]) === JSON.stringify(now[k]);
  return now.question && same("scene") && same("step") && same("tally_visible") &&
    old.question?.id === now.question.id && !now.revealed;
}

async function readMine(D) {
  const K = D.klass;
  const got = await classCall(D, "GET", `/class/${K.code}?token=${encodeURIComponent(K.token)}`);
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
  speak(D.els.live, classWord(D, K.role === "teacher" ? "lead_ended" : "ended"));
  if (K.role === "teacher") fetchSummary(D, () => tellPresenter(D));
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

/** At every place change: the class in the link; a phone that moved itself looks back (follow
    again with class-follow, or by stepping back to it). The teacher's deck posts it (postPlace). */
function classMoved(D) {
  const K = D.klass;
  if (!K) return;
  writeClassLink(D);
  if (K.role === "phone" && !K.applying && K.place && K.status !== "ended") {
    K.following = K.place[0] === D.at && K.place[1] === D.step;
  }
  const N = classNodesOf(D);
  if (N && !N.join.hidden && K.joinAt !== `${D.at}:${D.step}`) N.join.hidden = true; // J again
  noteMissed(D);
  classPaint(D);
}

/** POST the teacher's place when it changed; one request at a time, the latest wins. */
async function postPlace(D) {
  const K = D.klass;
  if (K?.role !== "teacher" || K.status === "ended" || !D.header) return;
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
    waitingOff(D);
    takeState(D, res.body.state);
  } else if (res.status === 0 || res.status === 503 || res.status === 429) {
    K.error = ""; // the class server is away: the place is posted again (the latest)
    K.waiting = true;
    clearTimeout(K.timer);
    K.timer = setTimeout(() => postPlace(D), Math.max(1000, res.retryAfter * 1000));
    classPaint(D);
    tellPresenter(D);
  } else {
    K.error = classErrorOf(res);
    classPaint(D);
  }
  if (K.queued) {
    K.queued = false;
    postPlace(D);
  }
}

on("placechanged", postPlace);
on("placechanged", classMoved);

function waitingOff(D) {
  const K = D.klass;
  if (!K.waiting || K.pending) return;
  K.waiting = false;
  tellPresenter(D);
}

/** The class's state, its tally and join link, the room (N / M), when its question was asked,
    whether the teacher's changes wait for the server, and its summary, to the teacher's other
    windows. */
export function tellPresenter(D) {
  const K = D.klass;
  if (!K || K.role !== "teacher" || !K.state) return;
  const waiting = K.waiting || (K.status === "lost" && !K.state.ended);
  post(D, { kind: "class", state: { ...K.state, tally: K.tally, join: K.join, qr: K.qr,
    room: K.room, askedAt: K.askedAt, waiting, summary: K.summary } });
}
