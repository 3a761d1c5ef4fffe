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
   The class's record is D.klass (run.js newDeck); its nodes are class_panel.js's, its calls
   to the server and its place as the class's state class_net.js's. */

const { classCall, classError, classErrorOf, classNodes, classTexts, classUrl, classWord, drawScene,
  goScene, goStep, onMessage, paintBar, paintJoin, paintTally, phoneToken, placeBody, classPlaceOf,
  post, quizOf, speak, stepNext } = LESSON;

const CODE_RE = /^[2-9A-HJ-NP-Z]{4,6}$/; // classroom/codes.py: no 0/O/1/I
const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000];
const ANSWER_TRIES = 5;
const ACTIONS = ["reveal", "tally_show", "tally_hide", "reset", "end"]; // a presenter's asks
const END_ARMED_MS = 4000; // E, then E again within this, ends the class

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
    status: "reconnecting", // joined | lost | reconnecting | ended | alone
    error: "", // the last refusal's code, shown in the bar
    stream: null, // the EventSource
    retry: 0, // how many reconnects in a row failed (the backoff's index)
    timer: 0,
    applying: false, // the deck moves because the class did (not a phone looking back)
    sent: "", // the last place posted (the teacher's), as JSON
    sending: false,
    queued: false,
    askedSentence: "", // the sentence a phone asked its server for (once)
    endArmed: 0, // the time E was pressed once
    outbox: null, // a phone's answer being sent, or the one to send after it
    // what the deck's earlier files call (they run before this one): stage.js after every step
    // drawn, quiz.js and stage.js at a question, stage.js before → passes the class
    moved: classMoved,
    asks: classAsks,
    answer: classAnswer,
    holds: classHolds,
  });
}

/** A phone on the class's place does not step past it (its next step is the teacher's). */
function classHolds(D) {
  const K = D.klass;
  return !!(K && K.role === "phone" && K.following && K.place && K.status === "joined" &&
    K.place[0] === D.at && K.place[1] === D.step); // prettier-ignore
}

// ---- starting: the deck's first header ----------------------------------------------------

/** The deck has its first header: build the class's nodes and, as the link says, make a class
    (room=new), lead it again (room=CODE) or join one (join=CODE). */
function startClassroom(D) {
  const info = D.header.classroom;
  if (!info || D.header.window === "presenter") return; // it hears the class from the projector
  const N = classNodes(D, {
    start: () => {
      D.els.help.hidden = true; // the key list closes; the join panel opens
      makeClass(D);
    },
    follow: () => followAgain(D),
    join: () => toggleJoin(D),
    tally: () => classAction(D, "tally"),
    reset: () => classAction(D, "reset"),
    end: () => classAction(D, "end"),
  });
  classNodesOf.set(D, N);
  listenToPresenter(D);
  classTexts(D, N);
  paintBar(D, N);
  if (info.room === "new") makeClass(D);
  else if (info.room && CODE_RE.test(info.room)) leadAgain(D, info.room);
  else if (info.join) joinClass(D, info.join);
}

const classNodesOf = new WeakMap(); // deck → its class nodes (D's frame is sealed)

function nodes(D) {
  return classNodesOf.get(D);
}

function paint(D) {
  const N = nodes(D);
  if (!N) return;
  paintBar(D, N);
  paintJoin(D, N);
  placeTally(D);
}

/** A new header (a rerun): the words in its language; a phone's class numbers stay. */
function classHeader(D) {
  const N = nodes(D);
  if (!N) return;
  const K = D.klass;
  if (K?.role === "phone" && K.state) useSetup(D, K.state.setup);
  classTexts(D, N);
  paint(D);
}

/** room=CODE (or join=CODE) in the address: a reload rejoins, never makes a second class. */
function writeClassLink(D) {
  const K = D.klass;
  const win = D.els.root.ownerDocument.defaultView;
  const url = new URL(win.location.href);
  url.searchParams.delete("room");
  url.searchParams.delete("join");
  if (K && K.status !== "ended" && K.error !== "no_class") {
    url.searchParams.set(K.role === "teacher" ? "room" : "join", K.code);
  } else if (!K && D.header.classroom?.join) {
    url.searchParams.set("join", D.header.classroom.join);
  }
  if (url.href !== win.location.href) win.history.replaceState(win.history.state, "", url.href);
}

/** POST /class/new with where the deck is: the teacher's cookie comes back (HttpOnly). */
async function makeClass(D) {
  if (D.klass) return;
  const res = await classCall(D, "POST", "/class/new", { ...placeBody(D), tally_visible: false });
  if (res.status !== 201) {
    D.notices = [...D.notices, classError(D, classErrorOf(res))];
    return;
  }
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
  takeState(D, got.body);
  K.status = got.body.ended ? "ended" : "joined";
  goToClass(D);
  K.sent = JSON.stringify(placeBody(D));
  writeClassLink(D);
  openStream(D);
}

/** join=CODE: a phone reads the class and follows its stream. */
async function joinClass(D, code) {
  const K = newClass("phone", String(code).toUpperCase());
  D.klass = K;
  paint(D);
  await readClass(D);
}

/** GET the class (a phone: its own answer too), then its stream; a failure is retried. */
async function readClass(D) {
  const K = D.klass;
  const token = K.role === "phone" ? `?phone=${phoneToken(D)}` : "";
  const got = await classCall(D, "GET", `/class/${K.code}${token}`);
  if (got.status !== 200) return refused(D, got);
  if (got.body.question && got.body.mine) K.mine[got.body.question.id] = got.body.mine;
  if (got.body.tally) K.tally = got.body.tally;
  K.error = "";
  takeState(D, got.body, true);
  if (K.status !== "ended") openStream(D);
  paint(D);
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
  paint(D);
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
  const token = K.role === "phone" ? `?phone=${phoneToken(D)}` : "";
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
    paint(D);
    tellPresenter(D);
  });
  es.addEventListener("store", (ev) => {
    const s = data(ev);
    if (s) K.status = s.ok ? "joined" : "lost";
    paint(D);
  });
  es.addEventListener("gone", () => {
    es.close();
    refused(D, { status: 404, body: { error: "no_class" }, retryAfter: 0 });
  });
  es.addEventListener("error", () => {
    if (es.readyState !== 2 || K.stream !== es) return; // EventSource retries by itself
    K.status = K.status === "ended" ? "ended" : "lost"; // a refusal (404, 503): our backoff
    paint(D);
    if (K.status !== "ended") retryLater(D);
  });
}

/** A state from the server: keep the highest version; end, follow, repaint. */
function takeState(D, state, fresh = false) {
  const K = D.klass;
  const old = K.state;
  if (old && state.v < old.v) return;
  if (old && state.v === old.v && !fresh) return paint(D);
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
  paint(D);
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
  nodes(D).join.hidden = true;
  writeClassLink(D);
  speak(D.els.live, classWord(D, "ended"));
}

// ---- following: the class's place on this deck --------------------------------------------

/** The phone's sentence and numbers are the teacher's: the sentence asked of this phone's server
    once (one rerun), the measured figures (header.blocks) taken as they are. */
function useSetup(D, setup) {
  const K = D.klass;
  if (!setup || !D.header) return;
  for (const name of ["variance", "cost"]) {
    if (setup.blocks?.[name]) D.header.blocks[name] = setup.blocks[name];
  }
  const s = setup.sentence;
  if (typeof s === "string" && s && s !== D.header.settings.sentence && s !== K.askedSentence) {
    K.askedSentence = s;
    D.example = {};
    D.api?.setStateValue("deck", { seq: (D.seq += 1), sentence: s });
    D.pending = D.seq;
    delete D.els.root.dataset.synced;
  }
}

/** Move this deck to the class's scene and step (not a move of the phone's own). */
function goToClass(D) {
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

function followAgain(D) {
  const K = D.klass;
  if (!K) return;
  K.following = true;
  goToClass(D);
  paint(D);
}

/** The question's box again (a phone's answer, a reset): the scene redraws this step. */
function redrawQuiz(D) {
  if (D.ctx && D.inst) drawScene(D, D.step, D.step);
}

/** stage.js's writeLink, after every step drawn: the teacher posts where the deck is; a phone
    that moved itself looks back (follow again with class-follow, or by stepping back to it). */
function classMoved(D) {
  const K = D.klass;
  if (!K) return;
  writeClassLink(D);
  if (K.role === "teacher") postPlace(D);
  else if (!K.applying && K.place && K.status !== "ended") {
    K.following = K.place[0] === D.at && K.place[1] === D.step;
  }
  paint(D);
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
    paint(D);
  }
  if (K.queued) {
    K.queued = false;
    postPlace(D);
  }
}

// ---- a phone's answer ---------------------------------------------------------------------

/** quiz.js: may this phone's answer go to the class (it follows, the question is the class's,
    not revealed)? */
function classAsks(D, questionId) {
  const K = D.klass;
  return !!(K && K.role === "phone" && K.following && K.status !== "ended" &&
    K.state?.question?.id === questionId); // prettier-ignore
}

/** A phone's answer: kept, shown, sent; one request at a time, so a change of mind never
    overtakes the answer it replaces (the latest is sent last). */
async function classAnswer(D, questionId, choice) {
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
      return paint(D);
    }
    if (res.status !== 0 && res.status !== 503 && res.status !== 429) {
      K.error = classErrorOf(res);
      return paint(D);
    }
    await new Promise((ok) => setTimeout(ok, Math.max(res.retryAfter * 1000, 500 * 2 ** i)));
  }
  K.error = "store_unavailable";
  paint(D);
}

// ---- the teacher's tools: keys, buttons, the presenter window ------------------------------

function toggleJoin(D, show) {
  const N = nodes(D);
  const K = D.klass;
  if (!N || !K || K.role !== "teacher") return false;
  N.join.hidden = show === undefined ? !N.join.hidden : !show;
  paint(D);
  return true;
}

/** A teacher's action on the class (a key, a button, the presenter window): false when this
    deck leads no class. reveal: the question's next step; tally: show or hide it; reset: its
    answers gone, asked again; end: E twice. */
function classAction(D, what) {
  const K = D.klass;
  if (!K || K.role !== "teacher" || K.status === "ended") return false;
  const found = D.ctx ? quizOf(D.ctx, D.step) : null;
  if (what === "reveal") {
    if (found?.open) stepNext(D);
  } else if (what === "tally" || what === "tally_show" || what === "tally_hide") {
    const show = what === "tally" ? !K.state?.tally_visible : what === "tally_show";
    teacherPost(D, "state", { tally_visible: show });
  } else if (what === "reset") {
    if (!found) return true;
    if (!found.open) goStep(D.ctx, D.ctx.steps[found.at].id); // asked again
    teacherPost(D, "reset", { question: found.id });
  } else if (what === "end") {
    const now = Date.now();
    if (K.endArmed && now - K.endArmed < END_ARMED_MS) teacherPost(D, "end", {});
    else K.endArmed = now;
    paint(D);
    setTimeout(() => {
      K.endArmed = 0;
      paint(D);
    }, END_ARMED_MS);
  }
  return true;
}

async function teacherPost(D, route, body) {
  const K = D.klass;
  const res = await classCall(D, "POST", `/class/${K.code}/${route}`, body);
  if (res.status === 200) takeState(D, res.body.state);
  else K.error = classErrorOf(res);
  if (res.status === 200 && route === "reset") K.tally = null;
  paint(D);
}

/** The tally under the projector's question (the teacher's screen, at a question). */
function placeTally(D) {
  const K = D.klass;
  const N = nodes(D);
  const box = D.ctx?.quizBox;
  const here = K?.role === "teacher" && K.state?.question && D.ctx && quizOf(D.ctx, D.step);
  if (!here || !box || K.status === "ended") return N.tally.remove();
  const labels = {};
  for (const c of here.quiz.choices(D.ctx)) labels[c.id] = String(c.label);
  paintTally(D, N, labels);
  if (N.tally.parentNode !== box) box.append(N.tally);
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

/** The class's state, its tally and join link, to the teacher's other windows. */
function tellPresenter(D) {
  const K = D.klass;
  if (!K || K.role !== "teacher" || !K.state) return;
  post(D, { kind: "class", state: { ...K.state, tally: K.tally, join: K.join, qr: K.qr } });
}

/** The deck leaves the page: close the stream, the channel and the timers. */
function stopClassroom(D) {
  const K = D.klass;
  if (K) {
    K.stream?.close();
    clearTimeout(K.timer);
  }
}

return { classAction, classHeader, startClassroom, stopClassroom, toggleJoin };
