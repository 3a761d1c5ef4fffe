/* The presenter window's class (presenter.js builds the panel): what the projector sends
   ("class" messages, class_follow.js tellPresenter) drawn for the teacher — N / M answered
   (class-answered: M the phones following now), the question's own clock (class-clock, since
   it was asked), the tally with its buttons, a "waiting for the class server" line while the
   teacher's changes are retried, and after the end the class's summary with its files
   (class-summary, class-export). And the answer key (class-key): the right choice and why of
   the question this step asks or reveals, from this window's own deck, shown from the moment
   the question is asked (only where the notes are: the teacher's window). */

import { button, make } from "./elements.js";
import { tx } from "./text.js";
import { post } from "./channel.js";
import { quizOf } from "./quiz.js";
import { classWord, tallyRow } from "./class_panel.js";
import { exportLinks, said, summaryNodes } from "./class_end.js";

const END_SURE_MS = 4000; // "end the class" asks for a second press within this time

/** mm:ss (h:mm:ss past an hour). */
export function elapsedText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (x) => String(x).padStart(2, "0");
  const h = Math.floor(s / 3600);
  return h ? `${h}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}` : `${two(Math.floor(s / 60))}:${two(s % 60)}`;
}

/** The answer key of the question at this step (asked here or revealed here): the right
    choice and why, or the question's own words when it has no single right answer. */
export function fillKey(D) {
  const box = D.pres?.key;
  if (!box || !D.ctx) return; // the scene is being built: its draw's placechanged fills it
  const found = D.header.notes ? quizOf(D.ctx, D.step) : null;
  box.hidden = !found;
  if (!found) return box.replaceChildren();
  const doc = D.host.ownerDocument;
  let choices = [];
  try {
    choices = found.quiz.choices(D.ctx);
  } catch {
    choices = []; // its numbers are not here yet: the next draw fills it
  }
  const right = choices.find((c) => c.right);
  box.dataset.question = found.id;
  box.dataset.answer = right ? right.id : "";
  const body = [make(doc, "h3", "", {}, tx(D, "presenter.key"))];
  if (right) body.push(make(doc, "p", "p-right", {}, `✓ ${right.label}`), make(doc, "p", "", {}, right.why || ""));
  else if (choices.length) {
    body.push(make(doc, "p", "p-right", {}, tx(D, found.quiz.noAnswer || "lesson.quiz.open")),
      make(doc, "p", "", {}, choices[0].why || ""));
  }
  box.replaceChildren(...body);
}

/** The question's clock, every second (presenter.js's tick). */
export function tickQuestion(D) {
  const node = D.pres?.tally.querySelector('[data-testid="class-clock"]');
  const at = Number(D.classState?.askedAt);
  if (!node || !at) return;
  const ms = Date.now() - at;
  node.dataset.ms = String(ms);
  node.textContent = tx(D, "presenter.question_clock", { t: elapsedText(ms) });
}

/** The class as the projector last sent it. */
export function fillClass(D) {
  const box = D.pres?.tally;
  const state = D.classState;
  if (!box) return;
  box.hidden = !state;
  if (!state) return box.replaceChildren();
  const doc = D.host.ownerDocument;
  const code = String(state.code || "");
  const body = [make(doc, "h3", "", {}, tx(D, "presenter.class", { code }))];
  if (state.waiting) {
    body.push(make(doc, "p", "p-waiting", { "data-testid": "class-waiting", role: "status" },
      tx(D, "presenter.waiting")));
  }
  const q = state.question && typeof state.question === "object" ? state.question : null;
  if (state.ended) {
    body.push(make(doc, "p", "", {}, tx(D, "presenter.ended")));
    const summary = make(doc, "div", "p-summary", { "data-testid": "class-summary" });
    summary.append(...summaryNodes(D, state.summary || null));
    body.push(summary);
    if (state.summary) body.push(exportLinks(D, code));
  } else if (!q) body.push(answeredOf(D, doc, state, null), make(doc, "p", "", {}, tx(D, "presenter.no_question")));
  else {
    const clock = make(doc, "p", "p-qclock", { "data-testid": "class-clock", role: "timer" });
    body.push(answeredOf(D, doc, state, q), clock, tallyRows(D, doc, state, q),
      classButtons(D, doc, state));
  }
  box.dataset.visible = state.tally_visible ? "1" : "0";
  box.replaceChildren(...body);
  tickQuestion(D);
}

/** "N / M answered": N the answers to this question, M the phones following now. */
function answeredOf(D, doc, state, q) {
  const tally = q && state.tally && state.tally.question === q.id ? state.tally : null;
  const n = Number(tally?.total) || 0;
  const m = Number.isFinite(Number(state.room?.following)) ? Number(state.room.following) : "–";
  const p = make(doc, "p", "p-answered", { "data-testid": "class-answered", "data-n": String(n),
    "data-m": String(m) }, classWord(D, "answered_of", { n, m }));
  if (q) {
    const shown = state.tally_visible ? "presenter.tally_shown" : "presenter.tally_hidden";
    p.append(" · ", make(doc, "span", "p-shown", {}, tx(D, shown)));
  }
  return p;
}

/** Per choice its label, a bar of its share and its count (the projector's rows, tallyRow); the
    right one marked once revealed. */
function tallyRows(D, doc, state, q) {
  const tally = state.tally && state.tally.question === q.id ? state.tally : null;
  const counts = tally && typeof tally.counts === "object" ? tally.counts : {};
  const choices = Array.isArray(q.choices) ? q.choices.map(String) : Object.keys(counts);
  const sum = choices.reduce((a, id) => a + (Number(counts[id]) || 0), 0);
  const total = Number.isFinite(Number(tally?.total)) ? Number(tally.total) : sum;
  const list = make(doc, "div", "");
  for (const id of choices) {
    const n = Number(counts[id]) || 0;
    const share = total ? n / total : 0;
    const says = tx(D, "presenter.count", { n, pct: Math.round(100 * share) });
    const label = said(D, q.labels?.[id]) || id;
    list.append(tallyRow(doc, { id, label, n, share, right: state.revealed && q.answer === id, says }));
  }
  return list;
}

/** The teacher's buttons: each sends an "action" to the projector, which asks the class's server
    (the server checks the teacher's secret; this window only asks). */
function classButtons(D, doc, state) {
  const row = make(doc, "p", "p-actions");
  const act = (what) => () => post(D, { kind: "action", do: what });
  const reveal = button(doc, "primary", "presenter-reveal", tx(D, "presenter.reveal"), act("reveal"));
  reveal.disabled = !!state.revealed;
  const shown = !!state.tally_visible;
  const tally = button(doc, "", "presenter-tally-toggle",
    tx(D, shown ? "presenter.tally_hide" : "presenter.tally_show"),
    act(shown ? "tally_hide" : "tally_show"));
  const reset = button(doc, "", "presenter-question-reset", tx(D, "presenter.reset"), act("reset"));
  const end = button(doc, "", "presenter-end", tx(D, "presenter.end_class"), () => {
    const now = Date.now();
    if (now - D.pres.endAsked < END_SURE_MS) {
      D.pres.endAsked = 0;
      post(D, { kind: "action", do: "end" });
      end.textContent = tx(D, "presenter.end_class");
    } else {
      D.pres.endAsked = now;
      end.textContent = tx(D, "presenter.end_sure");
    }
  });
  row.append(reveal, tally, reset, end);
  return row;
}
