/* The class's end (classroom/README.md "The teacher's view"): the teacher's projector reads the
   class's summary once the class ends (GET /class/CODE/summary: per question answered / joined,
   each choice's share, the right share, the hardest question; no phone in it), sends it to the
   presenter window (class_follow.js tellPresenter) and shows it on the projector with its key
   (Q: class-summary). summaryNodes draws it for both windows; exportLinks are the server's
   files (CSV, JSON) the presenter offers (class-export). A phone's own review of the questions
   it missed is progress.js's (class_follow.js keeps its misses). */

import { button, make } from "./elements.js";
import { sceneTitle } from "./text.js";
import { classCall } from "./class_net.js";
import { classPaint, classSay, classWord, tallyRow } from "./class_panel.js";

const SUMMARY_TRIES = 5;
const panels = new WeakMap(); // deck → its summary panel (D's frame is sealed)

/** Read the ended class's summary (retried while the server is away), then show it where asked;
    told(): the presenter window hears of it (class_follow.js tellPresenter). */
export async function fetchSummary(D, told) {
  const K = D.klass;
  if (K.summary) return;
  for (let i = 0; i < SUMMARY_TRIES && !K.summary; i++) {
    const got = await classCall(D, "GET", `/class/${K.code}/summary`);
    if (got.status === 200 && got.body && Array.isArray(got.body.questions)) K.summary = got.body;
    else await new Promise((ok) => setTimeout(ok, 1000 * 2 ** i));
  }
  paintSummary(D);
  classPaint(D);
  told();
}

/** Q on the projector: the summary, once the class has ended (before: a word saying when). */
export function toggleSummary(D) {
  const K = D.klass;
  if (!K.state?.ended) {
    classSay(D, "summary_after_end");
    return true;
  }
  const box = panelOf(D);
  box.hidden = !box.hidden;
  if (!K.summary) fetchSummary(D, () => {});
  paintSummary(D);
  return true;
}

function panelOf(D) {
  let box = panels.get(D);
  if (box) return box;
  const doc = D.els.root.ownerDocument;
  box = make(doc, "div", "class-summary", { "data-testid": "class-summary", role: "dialog" });
  box.hidden = true;
  D.els.scene.after(box);
  panels.set(D, box);
  return box;
}

function paintSummary(D) {
  const box = panels.get(D);
  if (!box || box.hidden) return;
  const doc = D.els.root.ownerDocument;
  box.style.top = `${D.els.scene.offsetTop + 4}px`; // over the scene, as the join panel
  const title = make(doc, "h3", "", { id: "class-summary-title" }, classWord(D, "summary_title"));
  box.setAttribute("aria-labelledby", "class-summary-title");
  const close = button(doc, "", "class-summary-close", classWord(D, "close"), () => {
    box.hidden = true;
  });
  box.replaceChildren(title, ...summaryNodes(D, D.klass.summary), close);
}

/** A text of the class's state: a string, or {zh, en}. */
export function said(D, text) {
  if (typeof text === "string") return text;
  if (!text || typeof text !== "object") return "";
  return String(text[D.header.lang] ?? text.en ?? text.zh ?? "");
}

const pct = (share) => Math.round(100 * (Number(share) || 0));

/** The summary as nodes: how many joined; per question (in the order asked) its scene, N / M,
    the right share, and each choice's share as a bar (the right one marked); the hardest
    question marked. `summary` null: it is being read. */
export function summaryNodes(D, summary) {
  const doc = D.els.root.ownerDocument;
  if (!summary) return [make(doc, "p", "", {}, classWord(D, "summary_wait"))];
  const out = [make(doc, "p", "summary-joined", {}, classWord(D, "summary_joined", { n: summary.joined }))];
  if (!summary.questions.length) return [...out, make(doc, "p", "", {}, classWord(D, "summary_none"))];
  const list = make(doc, "ol", "summary-list");
  for (const q of summary.questions) {
    const hardest = q.id === summary.hardest;
    const li = make(doc, "li", hardest ? "hardest" : "", { "data-question": q.id,
      "data-answered": String(q.answered), "data-joined": String(q.joined),
      "data-right-share": q.right_share === null ? "" : String(q.right_share) });
    const k = Object.keys(D.scenes).find((n) => D.scenes[n].id === q.scene);
    const where = k ? `§${k} ${sceneTitle(D, Number(k))}` : q.id;
    const head = make(doc, "p", "summary-head");
    head.append(make(doc, "strong", "", {}, where), " · ", classWord(D, "answered_of", { n: q.answered, m: q.joined }), " · ",
      q.answer === null ? classWord(D, "summary_open") : classWord(D, "summary_right", { pct: pct(q.right_share) }));
    if (hardest) head.append(" · ", make(doc, "span", "summary-hardest", {}, classWord(D, "summary_hardest")));
    li.append(head);
    for (const c of q.choices) {
      const label = said(D, c.label) || c.id;
      li.append(tallyRow(doc, { id: c.id, label, n: c.count, share: Number(c.share) || 0, right: c.right }));
    }
    list.append(li);
  }
  return [...out, list];
}

/** The server's files of the summary (the teacher's cookie opens them): CSV and JSON. */
export function exportLinks(D, code) {
  const doc = D.els.root.ownerDocument;
  const box = make(doc, "p", "class-export", { "data-testid": "class-export" },
    `${classWord(D, "export")} `);
  for (const kind of ["csv", "json"]) {
    const a = make(doc, "a", "", { href: `/class/${code}/export.${kind}`,
      download: `attention-lab-class-${code}.${kind}`, "data-format": kind },
    kind.toUpperCase());
    box.append(a, " ");
  }
  return box;
}
