/* The live class, the deck's side (the server is classroom/; its HTTP API, state and event
   stream: classroom/README.md). The teacher's deck (/lesson?room=new, or the class-start button)
   makes a class, shows its code and QR code, and posts every scene and step it draws (by id),
   its question (choices, the right answer and why: the server keeps them from phones until the
   reveal) and its setup (the sentence, the numbers its server measured: §5's variances, §7's
   timings). Phones (/lesson?join=CODE) read the state, then follow its event stream in the
   browser: no Streamlit rerun per phone per step. A phone answers the class's question (one
   answer per phone token, replaced until the reveal), may look back (←) and return
   (class-follow). The teacher's presenter window (presenter.js) talks to this deck over
   channel.js's BroadcastChannel: hello → class; its actions (reveal, tally, reset, end) run here.
   This file makes, leads or joins the class, keeps its event stream and the teacher's tools.
   The class's record is D.klass (run.js newDeck; its fields newClass's); its nodes are
   class_panel.js's, its calls to the server and its place as the class's state class_net.js's,
   what comes of a state (taken, followed, the place posted) class_follow.js's, what a phone
   may do on its own class_phone.js's, a phone's answer sent class_answer.js's. */

import { onMessage } from "./channel.js";
import { quizOf } from "./quiz.js";
import { goScene, goStep, stepNext } from "./stage.js";
import { toggleReview } from "./progress.js";
import { classError, classNodes, classNodesOf, classPaint, classSay, classTexts,
  paintBar } from "./class_panel.js";
import { classCall, classErrorOf, classUrl, phoneToken, placeBody,
  writeClassLink } from "./class_net.js";
import { followAgain, goToClass, takeState, tellPresenter, useSetup } from "./class_follow.js";
import { fetchSummary, toggleSummary } from "./class_end.js";

const CODE_RE = /^[2-9A-HJ-NP-Z]{4,6}$/; // classroom/codes.py: no 0/O/1/I
const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000];
const ACTIONS = ["reveal", "tally_show", "tally_hide", "reset", "end"]; // a presenter's asks
const END_ARMED_MS = 4000; // E, then E again within this, ends the class
// What T, R, X say on a step that asks no question (the bar's brief notice).
const NOTHING = { tally: "no_question_tally", tally_show: "no_question_tally",
  tally_hide: "no_question_tally", reveal: "no_question_reveal", reset: "no_question_reset" };
const WAIT_MS = [500, 1000, 2000, 3000]; // a teacher's change retried while the server is away

/** The class's record: every field written here, sealed. */
function newClass(role, code) {
  return Object.seal({
    role, // "teacher" | "phone"
    code,
    state: null, // the last state read (the highest v)
    tally: null, // the last tally message (the teacher's; a phone's while shown)
    join: null, // {url, reachable, reason}: the teacher's
    qr: "", // the QR code's address
    place: null, // [scene number, step index] of the class on this deck
    mine: {}, // a phone's answers: question id → choice id
    following: true, // a phone: on the class's place (false while it looks back)
    token: "", // a phone's signed token (POST /class/CODE/join): its reads, stream, answers
    status: "reconnecting", // joined | lost | reconnecting | ended | alone
    error: "", // the last refusal's code, shown in the bar
    stream: null, // the EventSource
    retry: 0, // how many reconnects in a row failed (the backoff's index)
    timer: 0,
    applying: false, // the deck moves because the class did (not a phone looking back)
    sent: "", // the last place posted (the teacher's), as JSON
    sending: false,
    queued: false,
    askedSentence: "", // the sentence and model a phone asked its server for (once)
    endArmed: 0, // the time E was pressed once
    outbox: null, // a phone's answer being sent, or the one to send after it (class_answer.js)
    room: null, // the teacher's: {joined, following} (the room and tally events)
    askedAt: 0, // the teacher's: when the current question was asked (the presenter's clock)
    summary: null, // the teacher's: the class's summary, read when it ends (class_end.js)
    pending: null, // the teacher's change waiting for the class server: {route, body}
    waiting: false, // the teacher's changes wait for the class server (retried)
    wake: null, // ends a wait at once (the server is back)
    notice: "", // a brief word in the bar (T, R, X on a step without a question)
    noticeTimer: 0,
    joinAt: "", // the place the join panel was opened at (it closes on the next step)
  });
}

// ---- starting: the deck's first header ----------------------------------------------------

/** The deck has its first header: build the class's nodes and, as the link says, make a class
    (room=new), lead it again (room=CODE) or join one (join=CODE). */
export function startClassroom(D) {
  const info = D.header.classroom;
  if (!info || D.header.window === "presenter") return; // it hears the class from the projector
  const N = classNodes(D, {
    start: () => makeClass(D),
    follow: () => followAgain(D),
    review: () => toggleReview(D, true, (at, id) => goScene(D, at, id)), // a phone's misses
    join: () => toggleJoin(D),
    tally: () => classAction(D, "tally"),
    reset: () => classAction(D, "reset"),
    end: () => classAction(D, "end"),
  });
  listenToPresenter(D);
  classTexts(D, N);
  paintBar(D, N);
  if (info.room === "new") makeClass(D);
  else if (info.room && CODE_RE.test(info.room)) leadAgain(D, info.room);
  else if (info.join) joinClass(D, info.join);
}

/** A new header (a rerun): the words in its language; a phone's class numbers stay. */
export function classHeader(D) {
  const N = classNodesOf(D);
  if (!N) return;
  const K = D.klass;
  if (K?.role === "phone" && K.state) useSetup(D, K.state.setup);
  classTexts(D, N);
  classPaint(D);
}

/** POST /class/new with where the deck is (and the passcode typed, when the server asks for
    one): the teacher's cookie comes back (HttpOnly). */
async function makeClass(D) {
  if (D.klass) return;
  const N = classNodesOf(D);
  const body = { ...placeBody(D), tally_visible: false };
  if (D.header.classroom.passcode) body.passcode = N.pass.value;
  const res = await classCall(D, "POST", "/class/new", body);
  if (res.status !== 201) {
    const code = classErrorOf(res);
    N.passSaid.textContent = classError(D, code);
    if (code === "bad_passcode") {
      D.els.help.hidden = false; // the key list holds the passcode's field
      N.pass.focus();
    } else D.notices = [...D.notices, classError(D, code)];
    return;
  }
  D.els.help.hidden = true; // the key list closes; the join panel opens
  const K = newClass("teacher", res.body.code);
  D.klass = K;
  K.join = res.body.join;
  K.qr = classUrl(D, res.body.qr);
  K.sent = JSON.stringify(placeBody(D));
  takeState(D, res.body.state);
  K.status = "joined";
  writeClassLink(D);
  toggleJoin(D, true);
  openStream(D);
}

/** room=CODE: this browser made the class (its cookie says so): lead it again, where it is. */
async function leadAgain(D, code) {
  const me = await classCall(D, "GET", `/class/${code}/me`);
  if (!me.body?.teacher) return joinClass(D, code); // not this browser's class: follow it
  const K = newClass("teacher", code);
  D.klass = K;
  const join = await classCall(D, "GET", `/class/${code}/join`);
  const got = await classCall(D, "GET", `/class/${code}`);
  if (join.status === 200) {
    K.join = join.body;
    K.qr = classUrl(D, join.body.qr);
  }
  if (got.status !== 200) return refused(D, got);
  K.tally = got.body.tally || null;
  K.room = got.body.room || null;
  takeState(D, got.body);
  K.status = got.body.ended ? "ended" : "joined";
  if (K.status === "ended") fetchSummary(D, () => tellPresenter(D));
  goToClass(D);
  K.sent = JSON.stringify(placeBody(D));
  writeClassLink(D);
  openStream(D);
}

/** join=CODE: a phone reads the class and follows its stream. */
async function joinClass(D, code) {
  const K = newClass("phone", String(code).toUpperCase());
  D.klass = K;
  classPaint(D);
  await readClass(D);
}

/** Read the class (a phone joins it: its signed token and its own answer too), then its
    stream; a failure is retried. */
async function readClass(D) {
  const K = D.klass;
  const got = K.role === "phone"
    ? await classCall(D, "POST", `/class/${K.code}/join`, { phone: phoneToken(D) })
    : await classCall(D, "GET", `/class/${K.code}`);
  if (got.status !== 200) return refused(D, got);
  if (got.body.token) K.token = got.body.token;
  if (got.body.question && got.body.mine) K.mine[got.body.question.id] = got.body.mine;
  if (got.body.tally) K.tally = got.body.tally;
  K.error = "";
  takeState(D, got.body, true);
  if (K.status !== "ended") openStream(D);
  classPaint(D);
}

/** A refused read: no such class (said on the phone, with the lesson alone a tap away), or a
    passing trouble (Redis, a restart, too many tries): the class link is lost, retried later. */
function refused(D, res) {
  const K = D.klass;
  const code = classErrorOf(res);
  K.error = code === "store_unavailable" || code === "server_stopping" ? "" : code;
  if (code === "no_class" || code === "ended") {
    K.status = code === "ended" ? "ended" : "alone";
    writeClassLink(D);
  } else {
    K.status = "lost";
    retryLater(D, res.retryAfter * 1000);
  }
  classPaint(D);
}

function retryLater(D, atLeast = 0) {
  const K = D.klass;
  clearTimeout(K.timer);
  const ms = Math.max(atLeast, BACKOFF_MS[Math.min(K.retry, BACKOFF_MS.length - 1)]);
  K.retry += 1;
  K.timer = setTimeout(() => readClass(D), ms);
}

// ---- the event stream ---------------------------------------------------------------------

function openStream(D) {
  const K = D.klass;
  K.stream?.close();
  const win = D.els.root.ownerDocument.defaultView;
  const token = K.role === "phone" ? `?token=${encodeURIComponent(K.token)}` : "";
  const es = new win.EventSource(classUrl(D, `/class/${K.code}/events${token}`));
  K.stream = es;
  const data = (ev) => {
    try {
      return JSON.parse(ev.data);
    } catch {
      return null;
    }
  };
  es.addEventListener("open", () => {
    K.retry = 0;
    K.wake?.(); // a teacher's change waiting is sent again now
  });
  es.addEventListener("state", (ev) => {
    const state = data(ev);
    if (!state) return;
    if (K.status !== "ended") K.status = "joined";
    K.error = "";
    takeState(D, state);
  });
  es.addEventListener("tally", (ev) => {
    const t = data(ev);
    if (t && (!K.tally || t.question !== K.tally.question || t.rev >= K.tally.rev)) K.tally = t;
    if (t && Number.isFinite(t.following)) K.room = { joined: t.joined, following: t.following };
    classPaint(D);
    tellPresenter(D);
  });
  es.addEventListener("room", (ev) => {
    const r = data(ev);
    if (!r) return;
    K.room = { joined: r.joined, following: r.following };
    classPaint(D);
    tellPresenter(D);
  });
  es.addEventListener("store", (ev) => {
    const s = data(ev);
    if (s && K.status !== "ended") K.status = s.ok ? "joined" : "lost";
    if (s?.ok) K.wake?.();
    classPaint(D);
    tellPresenter(D);
  });
  es.addEventListener("bye", (ev) => {
    const reason = data(ev)?.reason;
    if (reason === "server_stopping") return; // EventSource reconnects: nginx picks another
    es.close(); // ended, expired, or this phone follows in another tab: no reconnecting
    if (K.stream === es) K.stream = null;
    const replaced = reason === "replaced"; // another tab of this phone follows now
    if (replaced) K.status = "lost";
    classPaint(D);
  });
  es.addEventListener("gone", () => {
    es.close();
    refused(D, { status: 404, body: { error: "no_class" }, retryAfter: 0 });
  });
  es.addEventListener("error", () => {
    if (es.readyState !== 2 || K.stream !== es) return; // EventSource retries by itself
    K.status = K.status === "ended" ? "ended" : "lost"; // a refusal (404, 503): our backoff
    classPaint(D);
    if (K.status !== "ended") retryLater(D);
  });
}

// ---- the teacher's tools: keys, buttons, the presenter window ------------------------------

export function toggleJoin(D, show) {
  const N = classNodesOf(D);
  const K = D.klass;
  if (!N || !K || K.role !== "teacher") return false;
  N.join.hidden = show === undefined ? !N.join.hidden : !show;
  K.joinAt = `${D.at}:${D.step}`; // the next step closes it (class_follow.js)
  classPaint(D);
  return true;
}


/** A teacher's action on the class (a key, a button, the presenter window): false when this
    deck leads no class. reveal: the question's next step; tally: show or hide it; reset: its
    answers gone, asked again; end: E twice. */
export function classAction(D, what) {
  const K = D.klass;
  if (!K || K.role !== "teacher") return false;
  if (what === "summary") return toggleSummary(D);
  if (K.status === "ended") return false;
  const found = D.ctx ? quizOf(D.ctx, D.step) : null;
  const none = what !== "end" && (!found || !K.state?.question);
  if (none) classSay(D, NOTHING[what]); // T, R, X on a step without a question: said so
  else if (what === "reveal") {
    if (found.open) stepNext(D);
  } else if (what === "tally" || what === "tally_show" || what === "tally_hide") {
    // the server's flag, never a copy of ours: it hides the tally at every new question
    const now = K.pending?.body.tally_visible ?? K.state.tally_visible;
    const show = what === "tally" ? !now : what === "tally_show";
    teacherPost(D, "state", { tally_visible: show });
  } else if (what === "reset") {
    if (!found.open) goStep(D.ctx, D.ctx.steps[found.at].id); // asked again
    teacherPost(D, "reset", { question: found.id });
  } else if (what === "end") {
    const now = Date.now();
    if (K.endArmed && now - K.endArmed < END_ARMED_MS) teacherPost(D, "end", {});
    else K.endArmed = now;
    classPaint(D);
    setTimeout(() => {
      K.endArmed = 0;
      classPaint(D);
    }, END_ARMED_MS);
  }
  return true;
}

/** A teacher's change (the tally shown, a reset, the end): sent, and while the class server is
    away (no answer, 503, 429) retried, the bar and the presenter saying that it waits; a newer
    change replaces one still waiting. */
async function teacherPost(D, route, body) {
  const K = D.klass;
  const busy = !!K.pending;
  K.pending = { route, body };
  if (busy) return; // the loop below sends it
  let tries = 0;
  while (K.pending) {
    const job = K.pending;
    const res = await classCall(D, "POST", `/class/${K.code}/${job.route}`, job.body);
    if (res.status === 0 || res.status === 503 || res.status === 429) {
      setWaiting(D, true);
      const ms = Math.max(res.retryAfter * 1000, WAIT_MS[Math.min(tries, WAIT_MS.length - 1)]);
      tries += 1;
      await new Promise((ok) => {
        K.wake = ok;
        setTimeout(ok, ms);
      });
      continue;
    }
    if (K.pending === job) K.pending = null;
    tries = 0;
    setWaiting(D, false);
    if (res.status === 200) {
      K.error = "";
      if (job.route === "reset") K.tally = null;
      takeState(D, res.body.state);
    } else K.error = classErrorOf(res);
    classPaint(D);
  }
}

/** The teacher's changes wait for the class server (or no longer): the bar and presenter say so. */
function setWaiting(D, on) {
  const K = D.klass;
  if (K.waiting === on) return;
  K.waiting = on;
  if (!on) K.wake = null;
  classPaint(D);
  tellPresenter(D);
}

/** The teacher's presenter window (channel.js): its hello gets the class, its actions lead it
    as the teacher's keys do. */
function listenToPresenter(D) {
  onMessage(D, "hello", () => tellPresenter(D));
  onMessage(D, "action", (m) => {
    const K = D.klass;
    if (!K || K.role !== "teacher" || !ACTIONS.includes(m.do)) return;
    if (m.do === "end") K.endArmed = Date.now(); // the presenter asked twice already
    classAction(D, m.do);
  });
}

/** The deck leaves the page: close the stream, the channel and the timers. */
export function stopClassroom(D) {
  const K = D.klass;
  if (K) {
    K.stream?.close();
    clearTimeout(K.timer);
    clearTimeout(K.noticeTimer);
  }
}
