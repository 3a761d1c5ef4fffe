/* The live class on screen (class.js keeps its state and talks to the server, classroom/): the
   class bar under the notices (class-status; the teacher's code and tools; a phone's
   class-follow), the join panel on the projector (class-code, class-qr: the server's SVG, large
   enough to scan from the back of a room; the join link; whether phones can reach it) and the
   tally (class-tally: how many answered, and each choice's share as a bar) that the projector
   shows under the question. Builders and painters only: every word through classWord (the
   class's table, ui/lesson/class_text.py), nothing typed rendered as markup. classNodes builds
   a deck's nodes once; classNodesOf(D) finds them; classPaint(D) paints all three from D.klass. */

import { fmt } from "../explorer/a11y.js";
import { button, make } from "./elements.js";
import { quizOf } from "./quiz.js";

const built = new WeakMap(); // deck → its class nodes (D's frame is sealed)

/** A word of the class's table (header.classroom.text.word), its {placeholders} filled. */
export function classWord(D, name, values) {
  const s = D.header.classroom?.text.word[name];
  if (s === undefined) return name;
  return values ? fmt(s, values) : s;
}

/** The message for an error code of the class's routes (classroom/README.md "Refusals"). */
export function classError(D, code) {
  const table = D.header.classroom?.text.error || {};
  return table[code] || table.store_unavailable || code;
}

/** The class's nodes, built once per deck: the bar (status, the teacher's buttons, a phone's
    way back to the class), the join panel and the tally (both shown by class.js). */
export function classNodes(D, on) {
  const doc = D.els.root.ownerDocument;
  const bar = make(doc, "div", "class-bar", { "data-testid": "class-bar", hidden: "" });
  const status = make(doc, "p", "class-status", { "data-testid": "class-status", role: "status" });
  const follow = button(doc, "primary", "class-follow", "", on.follow, { hidden: "" });
  const alone = make(doc, "a", "class-alone", { "data-testid": "class-alone", hidden: "" });
  // the teacher's N / M: answers to the question on screen, of the phones following now
  const answered = make(doc, "span", "class-count", { "data-testid": "class-answered", hidden: "" });
  const notice = make(doc, "p", "class-notice", { "data-testid": "class-notice", role: "status", hidden: "" });
  const review = button(doc, "primary", "class-review", "", on.review, { hidden: "" }); // a phone's, at the end
  const tools = make(doc, "span", "class-tools", { hidden: "" });
  const tool = (testid, act) => button(doc, "tool", testid, "", act);
  const joinB = tool("class-join-toggle", on.join);
  const tallyB = tool("class-tally-toggle", on.tally);
  const resetB = tool("class-reset", on.reset);
  const endB = tool("class-end", on.end);
  tools.append(joinB, tallyB, resetB, endB);
  bar.append(status, answered, notice, follow, review, alone, tools);
  const join = make(doc, "div", "class-join", { "data-testid": "class-join", role: "dialog", hidden: "" });
  const qr = make(doc, "img", "class-qr", { "data-testid": "class-qr" });
  const code = make(doc, "p", "class-code", { "data-testid": "class-code" });
  const prompt = make(doc, "p", "class-prompt");
  const link = make(doc, "p", "class-link", { "data-testid": "class-link" });
  const warn = make(doc, "p", "class-unreachable", { "data-testid": "class-unreachable", hidden: "" });
  const close = button(doc, "", "class-join-close", "", on.join);
  const words = make(doc, "div", "class-words");
  words.append(code, prompt, link, warn, close);
  join.append(qr, words);
  const tally = make(doc, "div", "class-tally", { "data-testid": "class-tally" });
  const start = button(doc, "primary", "class-start", "", on.start); // in the key list (?)
  // TEACHER_PASSCODE set: the class starts with the passcode typed beside the button
  const pass = make(doc, "input", "class-passcode", { type: "password", "data-testid": "class-passcode",
    autocomplete: "off" });
  const passSaid = make(doc, "span", "class-passcode-said", { role: "status",
    "data-testid": "class-passcode-said" });
  D.els.notices.after(bar);
  D.els.scene.after(join);
  const N = { bar, status, answered, notice, follow, review, alone, tools, joinB, tallyB, resetB, endB,
    join, qr, code, prompt, link, warn, close, tally, start, pass, passSaid };
  built.set(D, N);
  return N;
}

/** A brief word in the class's bar (a key that had nothing to do), gone after NOTICE_MS. */
export function classSay(D, word) {
  const K = D.klass;
  K.notice = classWord(D, word);
  clearTimeout(K.noticeTimer);
  K.noticeTimer = setTimeout(() => {
    K.notice = "";
    classPaint(D);
  }, NOTICE_MS);
  classPaint(D);
}

const NOTICE_MS = 3000;

/** The deck's class nodes (undefined before classNodes built them). */
export function classNodesOf(D) {
  return built.get(D);
}

/** The bar, the join panel and the tally, as D.klass says. */
export function classPaint(D) {
  const N = classNodesOf(D);
  if (!N) return;
  paintBar(D, N);
  paintJoin(D, N);
  placeTally(D);
}

/** The tally under the projector's question (the teacher's screen, at a question). */
function placeTally(D) {
  const K = D.klass;
  const N = classNodesOf(D);
  const box = D.ctx?.quizBox;
  const here = K?.role === "teacher" && K.state?.question && D.ctx && quizOf(D.ctx, D.step);
  if (!here || !box || K.status === "ended") return N.tally.remove();
  const labels = {};
  for (const c of here.quiz.choices(D.ctx)) labels[c.id] = String(c.label);
  paintTally(D, N, labels);
  if (N.tally.parentNode !== box) box.append(N.tally);
}

/** The class's words in the deck's language (a rerun may change it). */
export function classTexts(D, N) {
  const K = D.klass;
  const set = (node, text, name) => {
    node.textContent = text;
    node.setAttribute("aria-label", name || text);
    node.title = name || text;
  };
  set(N.start, classWord(D, "start"));
  set(N.review, classWord(D, "review"));
  N.pass.setAttribute("aria-label", classWord(D, "passcode"));
  N.pass.placeholder = classWord(D, "passcode");
  // The top bar has no room left at 1024 px: the class starts from the key list (? : the
  // teacher's tools), which frame.js builds again with every header.
  if (!K && !D.touch && N.start.parentNode !== D.els.help) {
    D.els.help.prepend(N.start);
    if (D.header.classroom.passcode) N.start.before(N.pass, " ", N.passSaid, " ");
  }
  set(N.follow, `↩ ${classWord(D, "follow")}`, classWord(D, "follow"));
  set(N.joinB, classWord(D, "join_button"), `${classWord(D, "join_button")} (J)`);
  set(N.tallyB, classWord(D, "tally_button"), `${classWord(D, "tally_button")} (T)`);
  set(N.resetB, classWord(D, "reset"), `${classWord(D, "reset")} (X)`);
  set(N.endB, classWord(D, "end"), `${classWord(D, "end")} (E E)`);
  set(N.close, classWord(D, "close"));
  N.alone.textContent = classWord(D, "open_alone");
  N.alone.href = D.header.lang === "en" ? "/lesson?lang=en" : "/lesson";
  N.join.setAttribute("aria-label", classWord(D, "join_button"));
  N.qr.alt = K?.join ? classWord(D, "qr_alt", { url: K.join.url }) : "";
}

/** The bar: what the class's link is (joined, alone, lost, ended; a phone looking back names
    the class's place), with the state and place in data-* for tests. */
export function paintBar(D, N) {
  const K = D.klass;
  if (!K) return;
  N.start.remove(); // one class per deck
  N.pass.remove();
  N.passSaid.remove();
  N.bar.hidden = false;
  const st = K.state;
  const at = K.place ? K.place[0] : null;
  N.status.dataset.state = K.status;
  N.status.dataset.code = K.code;
  N.status.dataset.scene = at === null ? "" : String(at);
  N.status.dataset.step = K.place ? String(K.place[1]) : "";
  N.status.dataset.stepId = st?.step || "";
  N.status.dataset.v = st ? String(st.v) : "";
  N.status.dataset.stream = K.stream ? "open" : "closed";
  N.status.dataset.waiting = K.waiting ? "1" : "0";
  let text = classWord(D, K.status === "joined" ? "joined" : K.status, { code: K.code });
  if (K.role === "teacher") text = classWord(D, teacherWord(K), { code: K.code });
  if (K.error) text = classError(D, K.error);
  if (K.role === "phone" && !K.following && at !== null && K.status === "joined") {
    text = `${text} · ${classWord(D, "class_at", { k: at, i: K.place[1] + 1 })}`;
  }
  N.status.textContent = text;
  paintAnswered(D, N);
  N.notice.textContent = K.notice;
  N.notice.hidden = !K.notice;
  N.review.hidden = !(K.role === "phone" && K.status === "ended");
  N.follow.hidden = !(K.role === "phone" && !K.following && K.status === "joined");
  N.alone.hidden = !(K.role === "phone" && (K.error === "no_class" || K.status === "ended"));
  N.tools.hidden = K.role !== "teacher" || K.status === "ended";
  N.tallyB.setAttribute("aria-pressed", String(!!st?.tally_visible));
  N.joinB.setAttribute("aria-pressed", String(!N.join.hidden));
  N.endB.classList.toggle("armed", !!K.endArmed);
  if (K.endArmed) N.endB.textContent = classWord(D, "end_again");
  else N.endB.textContent = classWord(D, "end");
}

/** "N / M 已作答" in the teacher's bar while the class has a question: N its answers (the
    tally's total), M the phones following now (the room's). */
function paintAnswered(D, N) {
  const K = D.klass;
  const q = K.state?.question;
  N.answered.hidden = !(K.role === "teacher" && q && K.status !== "ended");
  if (N.answered.hidden) return;
  const n = K.tally && K.tally.question === q.id ? K.tally.total : 0;
  const m = K.room ? K.room.following : "–";
  N.answered.dataset.n = String(n);
  N.answered.dataset.m = K.room ? String(m) : "";
  N.answered.textContent = classWord(D, "answered_of", { n, m });
  N.answered.title = K.state.tally_visible ? "" : classWord(D, "tally_hidden");
}

/** The teacher's own words for the class's link: leading it, waiting for its server, ended. */
function teacherWord(K) {
  if (K.status === "ended") return "lead_ended";
  if (K.waiting || K.status === "lost" || K.status === "reconnecting") return "waiting";
  return "lead";
}

/** The join panel: the code (big), the QR code of the join link (large), the link, and the
    server's word on whether phones can reach it (loopback: they cannot). */
function paintJoin(D, N) {
  const K = D.klass;
  if (!K || !K.join) return;
  N.join.style.top = `${D.els.scene.offsetTop + 4}px`; // under the bar, over the scene
  N.code.textContent = K.code;
  N.link.textContent = K.join.url;
  N.prompt.textContent = classWord(D, "scan");
  if (N.qr.getAttribute("src") !== K.qr) N.qr.setAttribute("src", K.qr);
  N.qr.alt = classWord(D, "qr_alt", { url: K.join.url });
  const reason = K.join.reachable ? "" : K.join.reason;
  N.warn.hidden = !reason;
  N.warn.dataset.reason = reason;
  if (reason) {
    const host = new URL(K.join.url).hostname;
    const command = D.header.classroom.command; // the command that runs this server, opened up
    N.warn.textContent = classWord(D, reason === "loopback" ? "unreachable" : "no_lan", { host, command });
  }
}

/** The tally under the projector's question: how many answered; each choice's share as a bar
    (while the teacher shows it: T), labelled with the choice's words; the right one marked
    once revealed. `labels`: choice id → its words on this screen. */
function paintTally(D, N, labels) {
  const K = D.klass;
  const doc = D.els.root.ownerDocument;
  const q = K?.state?.question;
  const t = K?.tally && q && K.tally.question === q.id ? K.tally : null;
  const total = t ? t.total : 0;
  const shown = !!K?.state?.tally_visible;
  N.tally.dataset.total = String(total);
  N.tally.dataset.visible = shown ? "1" : "0";
  N.tally.dataset.question = q ? q.id : "";
  N.tally.hidden = !shown; // N / M is the bar's (paintBar); the shares only while shown
  const rows = [];
  if (shown && q) {
    for (const id of q.choices) {
      const n = t ? t.counts[id] || 0 : 0;
      const right = K.state.revealed && q.answer === id;
      rows.push(tallyRow(doc, { id, label: labels[id] || id, n, share: total ? n / total : 0, right }));
    }
  }
  N.tally.replaceChildren(...rows);
}

/** One choice's row of a tally (the projector's, the summary's, the presenter's): its words (✓
    when right), its share as a bar and in words (`says`; by default "pct% (n)"). */
export function tallyRow(doc, { id, label, n, share, right, says = `${Math.round(100 * share)}% (${n})` }) {
  const row = make(doc, "div", right ? "tally-row right" : "tally-row", { "data-choice": id, "data-count": String(n) });
  const track = make(doc, "span", "tally-track");
  const fill = make(doc, "span", "tally-fill");
  fill.style.width = `${(100 * share).toFixed(1)}%`;
  row.style.setProperty("--share", fill.style.width); // the compact row's own bar (class.css)
  track.append(fill);
  row.append(make(doc, "span", "tally-label", {}, right ? `✓ ${label}` : label), track,
    make(doc, "span", "tally-pct", {}, says));
  return row;
}
