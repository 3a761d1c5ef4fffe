/* What a teacher expects of a deck besides its scenes: the overview of every scene with its
   title (O, Esc when nothing else is open, the phone's §k/n button), reachable by keys and
   read by screen readers; and the printed handout: one page per scene with its figure (the
   canvases as pictures) and its takeaway, built here and laid out by lesson_phone.css's print
   rules (the browser's print, or a PDF). */

import { button, make } from "./elements.js";
import { sceneTitle, tx } from "./text.js";
import { takeText } from "./quiz.js";
import { toggleReview, wrongOnes } from "./progress.js";
import { goScene, renderScene } from "./stage.js";
import { askBlock } from "./widgets.js";
import { sceneNumbers } from "./order.js";

/** Show or hide the overview; shown, the focus is on the scene on screen. */
export function toggleOverview(D, show = D.els.overview.hidden) {
  D.els.overview.hidden = !show;
  if (!show) return;
  fillOverview(D);
  D.els.overview.querySelector('[aria-current="true"]')?.focus({ preventScroll: true });
}

/** The overview's list: a button per scene (its number and title); the review (questions
    answered wrong), printing the handout. */
function fillOverview(D) {
  const doc = D.els.root.ownerDocument;
  const box = D.els.overview;
  const title = make(doc, "h3", "", { id: "lesson-overview-title" }, tx(D, "lesson.overview"));
  const list = make(doc, "ol", "scenes");
  for (const k of sceneNumbers(D)) {
    const name = tx(D, "lesson.scene", { k, title: sceneTitle(D, k) });
    const b = button(doc, "", "", name, () => {
      toggleOverview(D, false);
      goScene(D, k, 0);
    }, { "data-at": String(k) });
    if (k === D.at) b.setAttribute("aria-current", "true");
    const li = make(doc, "li");
    li.append(b);
    list.append(li);
  }
  const close = button(doc, "", "", tx(D, "lesson.close"), () => toggleOverview(D, false));
  const print = button(doc, "", "lesson-print", tx(D, "lesson.print"), () => printHandout(D));
  const row = make(doc, "p", "buttons");
  row.append(print, " ", close);
  const wrong = wrongOnes(D).length;
  // the review first, under the title: on a phone the list runs below the dialog's edge
  const review = wrong ? [make(doc, "p", "buttons")] : [];
  if (wrong) review[0].append(reviewButton(D, wrong));
  box.setAttribute("aria-labelledby", "lesson-overview-title");
  box.replaceChildren(title, ...review, list, row);
}

/** The way to the review from the overview: "复习（2 道题）". */
function reviewButton(D, count) {
  const doc = D.els.root.ownerDocument;
  return button(doc, "", "lesson-review-open", tx(D, "lesson.review_open", { n: count }), () => {
    toggleOverview(D, false);
    toggleReview(D, true, (at, id) => goScene(D, at, id));
  });
}

/** ↑ ↓ (and ← →) move along the overview's buttons; true when the key was one of them. */
export function overviewKey(D, key, node) {
  const moves = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
  if (!(key in moves)) return false;
  const buttons = [...D.els.overview.querySelectorAll("button")];
  const at = buttons.indexOf(node);
  const next = buttons[(at + moves[key] + buttons.length) % buttons.length];
  next?.focus({ preventScroll: true });
  return true;
}

// ---- the handout --------------------------------------------------------------------------------

const FRAMES = 2; // animation frames to wait for a scene's views to draw

function frames(win, n) {
  return new Promise((done) => {
    const tick = (k) => (k <= 0 ? done() : win.requestAnimationFrame(() => tick(k - 1)));
    tick(n);
  });
}

/** The handout: every scene at its last step (every answer revealed, the takeaway shown), its
    title, its figure as pictures and its takeaway, one page each; then the scene on screen
    again. data-handout on the deck: "building", then "ready". */
async function buildHandout(D) {
  const root = D.els.root;
  const win = root.ownerDocument.defaultView;
  root.dataset.handout = "building";
  await measured(D, win);
  const [at, step] = [D.at, D.step];
  const pages = [];
  for (const k of sceneNumbers(D)) {
    D.at = k;
    renderScene(D, "last", false);
    await frames(win, FRAMES);
    pages.push(handoutPage(D, k));
  }
  D.at = at;
  renderScene(D, step, false);
  D.els.handout.replaceChildren(...pages);
  root.dataset.handout = "ready";
}

/** Ask for the measurements some last steps show (§7's), and wait a while for them. */
async function measured(D, win) {
  for (const name of ["cost", "variance"]) askBlock(D, name);
  for (let t = 0; t < 600 && !(D.header.blocks.cost && D.header.blocks.variance); t++) {
    await new Promise((done) => win.setTimeout(done, 100));
  }
  delete D.els.scene.dataset.waiting;
  // for tests: the measurements the handout has (one that never came leaves its figure empty)
  D.els.root.dataset.measured = ["cost", "variance"].filter((n) => D.header.blocks[n]).join(" ");
}

/** One page of the handout: the scene's title, its figure's canvases as images, its takeaway. */
function handoutPage(D, k) {
  const doc = D.els.root.ownerDocument;
  const page = make(doc, "section", "page", { "data-at": String(k) });
  page.append(make(doc, "h2", "", {}, tx(D, "lesson.scene", { k, title: sceneTitle(D, k) })));
  const fig = make(doc, "div", "page-figure");
  for (const c of D.els.scene.querySelectorAll(".figure canvas")) {
    if (!c.width || !c.height || c.closest("[hidden]")) continue;
    const img = make(doc, "img", "", { alt: c.getAttribute("aria-label") || "" });
    img.src = c.toDataURL("image/png");
    fig.append(img);
  }
  const code = D.els.scene.querySelector(".figure pre");
  if (code) fig.prepend(code.cloneNode(true));
  page.append(fig);
  const take = D.ctx ? takeText(D.ctx, D.step) : "";
  if (take) page.append(make(doc, "p", "page-take", {}, take));
  return page;
}

/** The browser's print without the handout built (Ctrl+P): the scene on screen, as it is. */
export function handoutNow(D) {
  if (!D.els.handout.childElementCount) D.els.handout.replaceChildren(handoutPage(D, D.at));
}

/** Build the handout, then open the browser's print dialog (print to PDF for a file). */
async function printHandout(D) {
  toggleOverview(D, false);
  await buildHandout(D);
  D.els.root.ownerDocument.defaultView.print();
}
