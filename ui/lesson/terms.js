/* Terms and the glossary. A caption marks a term as [[slug]] or [[slug|the words shown]] (slugs:
   ui/text/glossary.toml); richText turns it into a focusable lesson-term button that opens the
   term's definition in a popover (tap, click, Enter; Esc or a second press closes it), with the
   example on screen when the scene gives its values. The glossary page (lesson-glossary) lists
   every term: G, the frame's button, or "?" on a touch screen. */

import { button, make } from "./elements.js";
import { tx } from "./text.js";

const TERM = /\[\[([a-z][a-z0-9_]*)(?:\|([^\]]+))?\]\]/g;

/** The glossary as Python sent it: slug → {term, def, example}. */
function glossaryOf(D) {
  return new Map(D.header.glossary.map(([slug, term, def, example]) => [slug, { term, def, example }]));
}

/** Text with [[term]] markup as nodes: plain text, and a lesson-term button per marked term
    (an unknown slug is left as its words). */
export function richText(D, text) {
  const doc = D.els.root.ownerDocument;
  const known = glossaryOf(D);
  const out = [];
  let at = 0;
  for (const m of text.matchAll(TERM)) {
    if (m.index > at) out.push(doc.createTextNode(text.slice(at, m.index)));
    const entry = known.get(m[1]);
    const words = m[2] || (entry ? entry.term : m[1]);
    out.push(entry ? termButton(D, m[1], words) : doc.createTextNode(words));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(doc.createTextNode(text.slice(at)));
  return out;
}

/** The text a reader sees of marked-up text (the terms' words, no brackets). */
export function plainText(D, text) {
  const known = glossaryOf(D);
  return text.replace(TERM, (_, slug, words) => words || known.get(slug)?.term || slug);
}

function termButton(D, slug, words) {
  const doc = D.els.root.ownerDocument;
  const b = button(doc, "term", "lesson-term", words, () => toggleTerm(D, b), {
    "data-term": slug,
    "aria-haspopup": "dialog",
    "aria-expanded": "false",
  });
  return b;
}

/** Values of a term's example: the sentence's sizes, then what the scene on screen gives. */
function exampleValues(D, slug) {
  const S = D.ctx;
  const part = S && (S.part || S.tpart);
  const base = part
    ? { dk: part.d_k, d: part.d_model, h: part.h, n: part.n, root: Math.sqrt(part.d_k).toFixed(2) }
    : {};
  const mine = S && S.scene.terms ? S.scene.terms(S)[slug] || {} : {};
  return { ...base, ...mine };
}

/** A term's example filled in, or "" while a value it needs is missing. */
function exampleText(D, slug, entry) {
  if (!entry.example) return "";
  const values = exampleValues(D, slug);
  const names = [...entry.example.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (!names.every((k) => values[k] !== undefined && values[k] !== null)) return "";
  return entry.example.replace(/\{(\w+)\}/g, (_, k) => String(values[k]));
}

/** Open (or close, when it is open for this button) the popover of the term `b` names, beside
    it; the focus goes into it and comes back to the term when it closes. */
function toggleTerm(D, b) {
  const pop = D.els.termPop;
  const open = !pop.hidden && pop.dataset.term === b.dataset.term && D.termFrom === b;
  closeTerm(D, false);
  if (open) return b.focus();
  const entry = glossaryOf(D).get(b.dataset.term);
  const doc = D.els.root.ownerDocument;
  const title = make(doc, "h3", "", { id: "lesson-term-title" }, entry.term);
  const body = [title, make(doc, "p", "", {}, entry.def)];
  const example = exampleText(D, b.dataset.term, entry);
  if (example) body.push(make(doc, "p", "example", {}, example));
  const close = button(doc, "", "", tx(D, "lesson.close"), () => closeTerm(D, true));
  pop.replaceChildren(...body, close);
  pop.dataset.term = b.dataset.term;
  pop.hidden = false;
  placePop(D, pop, b);
  b.setAttribute("aria-expanded", "true");
  D.termFrom = b;
  close.focus({ preventScroll: true });
}

/** Put the popover under its term (above it when there is no room below), inside the deck. */
function placePop(D, pop, b) {
  const root = D.els.root.getBoundingClientRect();
  const at = b.getBoundingClientRect();
  const w = Math.min(pop.offsetWidth, root.width - 16);
  const left = Math.min(Math.max(8, at.left - root.left), root.width - w - 8);
  const below = at.bottom - root.top + 6;
  const room = D.els.root.ownerDocument.defaultView.innerHeight - at.bottom;
  const top = room > pop.offsetHeight + 12 ? below : Math.max(8, at.top - root.top - pop.offsetHeight - 6);
  pop.style.left = `${Math.round(left)}px`;
  pop.style.top = `${Math.round(top)}px`;
}

/** Close the term's popover (if open); `back`: the focus returns to the term. Whether it was. */
export function closeTerm(D, back) {
  const pop = D.els.termPop;
  if (pop.hidden) return false;
  pop.hidden = true;
  const from = D.termFrom;
  D.termFrom = null;
  if (from) {
    from.setAttribute("aria-expanded", "false");
    if (back && from.isConnected) from.focus({ preventScroll: true });
  }
  return true;
}

/** The glossary page: every term, its definition and its example here. */
function fillGlossary(D) {
  const doc = D.els.root.ownerDocument;
  const box = D.els.glossary;
  const title = make(doc, "h3", "", { id: "lesson-glossary-title" }, tx(D, "lesson.glossary"));
  const list = make(doc, "dl");
  for (const [slug, entry] of glossaryOf(D)) {
    const example = exampleText(D, slug, entry);
    const dd = make(doc, "dd", "", {}, entry.def);
    if (example) dd.append(" ", make(doc, "span", "example", {}, example));
    list.append(make(doc, "dt", "", { "data-term": slug }, entry.term), dd);
  }
  const close = button(doc, "", "", tx(D, "lesson.close"), () => toggleGlossary(D, false));
  box.setAttribute("aria-labelledby", "lesson-glossary-title");
  box.replaceChildren(title, list, close);
}

export function toggleGlossary(D, show = D.els.glossary.hidden) {
  D.els.glossary.hidden = !show;
  if (!show) return;
  closeTerm(D, false);
  fillGlossary(D);
  D.els.glossary.scrollTop = 0;
  D.els.glossary.querySelector("button").focus({ preventScroll: true });
}
