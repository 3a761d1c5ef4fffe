/* The deck's frame: the progress strip and tools in the header's row, notices, the sentence box,
   the presenter window's button (S: presenter.js; the notes are never on this screen), the key
   list (?), the glossary (G; "?" on a touch screen), a term's
   popover, the black screen (B), full screen (F). Builders and toggles; run.js wires their
   buttons. */

import { button, deepActive, make, speak } from "./elements.js";
import { sceneTitle, tx } from "./text.js";
import { closeTerm, toggleGlossary } from "./terms.js";
import { sceneNumbers } from "./order.js";

const FULL_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" ' +
  'stroke-width="2.5"><path d="M3 9V3h6M15 3h6v6M21 15v6h-6M9 21H3v-6"/></svg>';

/** The frame, built once per mounted deck: the top bar, notices, the sentence box, the scene,
    the overlays (hidden), the live line and the handout (printed only). */
export function deckSkeleton(host) {
  const doc = host.ownerDocument;
  const root = make(doc, "div", "deck", { "data-testid": "lesson" });
  const bar = topBar(doc);
  const notices = make(doc, "div", "notices", { role: "status", "data-testid": "lesson-notices" });
  const editor = make(doc, "form", "editor", { "data-testid": "lesson-editor", hidden: "" });
  const scene = make(doc, "section", "scene", { "data-testid": "lesson-scene" });
  const boxes = overlays(doc);
  const live = make(doc, "div", "sr-only", { "aria-live": "polite", "data-testid": "lesson-live" });
  const handout = make(doc, "div", "handout", { "aria-hidden": "true", "data-testid": "lesson-handout" });
  root.append(bar.top, notices, editor, scene, ...Object.values(boxes), live, handout);
  host.append(root);
  return Object.seal({
    root, ...bar, notices, editor, scene, ...boxes, live, handout,
    stripButtons: [],
    // the sentence box's controls, built with its first words (buildEditor)
    sentenceLabel: null, sentence: null, apply: null, exampleButton: null, closeEditor: null,
  });
}

/** The top bar: the phone's §k/n (its overview), the strip §1 … §10, the tools. */
function topBar(doc) {
  const top = make(doc, "div", "topbar");
  const where = make(doc, "button", "tool where", { type: "button", "data-testid": "lesson-where" });
  const strip = make(doc, "nav", "strip", { "data-testid": "lesson-strip" });
  const tools = make(doc, "div", "tools");
  const tool = (cls, id) => make(doc, "button", cls, { type: "button", "data-testid": id });
  const edit = tool("tool", "lesson-edit");
  const notes = tool("tool", "lesson-notes-toggle");
  const keys = tool("tool icon", "lesson-keys");
  const full = tool("tool icon", "lesson-full");
  tools.append(edit, notes, keys, full);
  top.append(where, strip, tools);
  return { top, where, strip, tools, edit, notes, keys, full };
}

/** What opens over the scene, each hidden: the key list (?), the glossary (G),
    the overview (O), the review, a term's popover, the black screen (B). */
function overlays(doc) {
  const box = (tag, cls, testid, attrs = {}) => make(doc, tag, cls, { "data-testid": testid, hidden: "", ...attrs });
  const dialog = { role: "dialog" };
  return {
    help: box("div", "help", "lesson-help", dialog),
    glossary: box("div", "help glossary", "lesson-glossary", dialog),
    overview: box("div", "help overview-box", "lesson-overview", dialog),
    review: box("div", "help overview-box", "lesson-review", dialog),
    termPop: box("div", "term-pop", "lesson-term-pop", { ...dialog, "aria-labelledby": "lesson-term-title" }),
    black: box("div", "black", "lesson-black"),
  };
}

export function frameTexts(D) {
  const { els, header } = D;
  const doc = els.root.ownerDocument;
  els.root.lang = header.html_lang; // ui.text.LANGUAGES's html, in the header
  els.strip.setAttribute("aria-label", tx(D, "lesson.strip"));
  if (els.stripButtons.length !== header.scenes) {
    els.stripButtons = [];
    els.strip.replaceChildren();
    for (const k of sceneNumbers(D)) {
      const b = make(doc, "button", "", { type: "button", "data-at": String(k) }, `§${k}`);
      els.stripButtons.push(b);
      els.strip.append(b);
    }
  }
  els.stripButtons.forEach((b) => {
    const k = Number(b.dataset.at);
    b.setAttribute("aria-label", tx(D, "lesson.scene", { k, title: sceneTitle(D, k) }));
    b.title = b.getAttribute("aria-label");
  });
  setLabel(els.edit, "✎", tx(D, "lesson.edit_name")); // the name begins with what it shows (WCAG 2.5.3)
  els.edit.append(" ", make(doc, "span", "word", {}, tx(D, "lesson.edit"))); // a phone: ✎ alone
  whereText(D);
  const notes = `${tx(D, "lesson.notes")} ↗`; // its name begins with what it shows (WCAG 2.5.3)
  setLabel(els.notes, notes, `${notes}: ${tx(D, "presenter.open_name")} (S)`);
  els.notes.hidden = D.header.window !== "deck"; // the presenter's own, a phone's in a class
  setLabel(els.keys, "?", tx(D, D.touch ? "lesson.glossary" : "lesson.keys")); // touch: no keys
  setLabel(els.full, "", `${tx(D, "lesson.full")} (F)`);
  els.full.innerHTML = FULL_ICON; // static markup, no text from anyone
  buildEditor(D);
  buildHelp(D);
  els.black.setAttribute("aria-label", tx(D, "lesson.blackout"));
}

/** The phone's place in the lesson, "§3 / 10": it opens the overview (the strip is too long). */
export function whereText(D) {
  const { els, header } = D;
  const shown = `§${D.at} / ${header.scenes}`;
  els.where.textContent = shown;
  // The name begins with what the button shows (WCAG 2.5.3), then says what it opens.
  els.where.setAttribute("aria-label", `${shown} · ${tx(D, "lesson.overview")}: ${tx(D,
    "lesson.live", { k: D.at, n: header.scenes, title: sceneTitle(D, D.at) })}`);
}

function setLabel(node, text, name) {
  node.textContent = text;
  node.setAttribute("aria-label", name);
  node.title = name;
}

/** The sentence box, built once: a rerun renames its buttons (a new language) but never takes
    what is being typed out from under the hand. */
function buildEditor(D) {
  const { els } = D;
  const doc = els.root.ownerDocument;
  if (!els.editor.childElementCount) {
    const label = make(doc, "label", "", { for: "lesson-sentence" });
    const input = make(doc, "input", "", {
      id: "lesson-sentence",
      type: "text",
      maxlength: "2000",
      "data-testid": "lesson-sentence",
    });
    const apply = make(doc, "button", "primary", { type: "submit" });
    const example = button(doc, "", "", undefined, () => {
      input.value = D.header.example;
      input.focus();
    });
    const close = button(doc, "", "", undefined, () => toggleEditor(D, false));
    els.editor.append(label, input, apply, example, close);
    Object.assign(els, {
      sentenceLabel: label,
      sentence: input,
      apply,
      exampleButton: example,
      closeEditor: close,
    });
  }
  els.sentenceLabel.textContent = tx(D, "lesson.sentence");
  els.apply.textContent = tx(D, "lesson.apply");
  els.exampleButton.textContent = tx(D, "lesson.example");
  els.closeEditor.textContent = tx(D, "lesson.close");
  const shown = D.header.settings.sentence;
  if (els.sentence.dataset.shown !== shown && deepActive(doc) !== els.sentence) {
    els.sentence.value = shown; // the session's sentence, unless someone is typing
    els.sentence.dataset.shown = shown;
  }
}

export function toggleEditor(D, show = D.els.editor.hidden) {
  D.els.editor.hidden = !show;
  D.els.edit.setAttribute("aria-expanded", String(show));
  if (show) D.els.editor.querySelector("input").focus(); // the scene's box shrinks: it re-lays out
}

export function applySentence(D, text) {
  toggleEditor(D, false);
  if (text === D.header.settings.sentence) return;
  D.example = {};
  sendState(D, { sentence: text });
}

/** The key list (?): a line per action of the key map, as Python wrote it from that map
    (header.keys, ui/lesson/deck.py key_help), and what holds for every key; the way to the
    glossary (G). */
function buildHelp(D) {
  const { els } = D;
  const doc = els.root.ownerDocument;
  const list = make(doc, "ul");
  for (const line of [...D.header.keys, tx(D, "lesson.k.remote")]) {
    list.append(make(doc, "li", "", {}, line));
  }
  const title = make(doc, "h3", "", { id: "lesson-help-title" }, tx(D, "lesson.keys"));
  const terms = button(doc, "", "lesson-glossary-open", `${tx(D, "lesson.glossary")} (G)`, () => {
    toggleHelp(D, false);
    toggleGlossary(D, true);
  });
  const close = button(doc, "", "", tx(D, "lesson.close"), () => toggleHelp(D, false));
  const row = make(doc, "p", "buttons");
  row.append(terms, " ", close);
  els.help.setAttribute("aria-labelledby", "lesson-help-title");
  els.help.replaceChildren(title, list, row);
}

export function toggleHelp(D, show = D.els.help.hidden) {
  D.els.help.hidden = !show;
  if (show) D.els.help.querySelector("button").focus();
}

export function showNotices(D) {
  const { els } = D;
  const doc = els.root.ownerDocument;
  els.notices.replaceChildren(
    ...D.notices.map((text) => {
      const p = make(doc, "p", "notice");
      p.append(make(doc, "span", "", {}, text));
      const close = () => {
        D.notices = D.notices.filter((n) => n !== text);
        showNotices(D);
      };
      p.append(button(doc, "", "", "✕", close, { "aria-label": tx(D, "lesson.close") }));
      return p;
    }),
  );
}

// ---- which numbers a scene uses -----------------------------------------------------------------

export function togglePause(D, on) {
  D.els.black.hidden = !on;
  speak(D.els.live, on ? tx(D, "lesson.blackout") : sceneTitle(D, D.at));
}

/** Full screen for the whole page (Streamlit's header and all), and back. */
export function toggleFull(D) {
  const doc = D.host.ownerDocument;
  if (doc.fullscreenElement) doc.exitFullscreen?.();
  else doc.documentElement.requestFullscreen?.().catch(() => {});
}

/** Esc: a term's popover first (alone), else every overlay; whether anything was open. */
export function closeOverlays(D) {
  if (closeTerm(D, true)) return true;
  const { els } = D;
  const boxes = [els.help, els.editor, els.glossary, els.overview, els.review];
  const open = boxes.some((e) => !e.hidden);
  toggleHelp(D, false);
  toggleEditor(D, false);
  toggleGlossary(D, false);
  els.overview.hidden = true;
  els.review.hidden = true;
  return open;
}

/** Tell Python what only Python can answer (a new sentence): it reruns and sends the numbers.
    Scenes and steps never come here: they are the browser's, written into the link by
    link.js (history.replaceState), so a class of 200 phones costs no rerun per step. */
function sendState(D, extra) {
  D.seq += 1;
  D.pending = D.seq;
  delete D.els.root.dataset.synced; // until a rerun's header acknowledges this change
  D.api?.setStateValue("deck", { seq: D.seq, ...extra });
}
