/* The presenter view, as reveal.js's speaker view: the teacher's second window
   (/lesson?presenter=1, opened by S or the notes button of the projector). Beside the deck (live,
   driven by the same keys) a panel shows this scene's notes, the next step's name and caption,
   the time since the lesson (or the class) started, the class's tally when there is a class,
   and the keys. The notes come only in this window's payload (pages/lesson.py gets_notes): the
   projector and a phone never receive them. The two windows move together through channel.js;
   the tally comes from the projector ("class" messages) and the buttons send "action"s back; a
   sentence typed on the projector reaches the presenter through the projector's link. */

import { button, make } from "./elements.js";
import { sceneTitle, tx } from "./text.js";
import { elapsedText, fillClass, fillKey, tickQuestion } from "./presenter_class.js";
import { setFor } from "./numbers.js";
import { freshLocal } from "./kit.js";
import { plainText } from "./terms.js";
import { onMessage, openChannel, post } from "./channel.js";
import { applySentence } from "./frame.js";
import { on } from "./events.js";
import { sceneBeside } from "./order.js";
import { sceneText } from "./stage.js";

// Static markup of the clock's buttons (no text from anyone): pause, go on, from zero.
const ICON = (path) => '<svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18" ' +
  `fill="currentColor">${path}</svg>`;
const PAUSE_ICON = ICON('<rect x="5" y="4" width="5" height="16"/><rect x="14" y="4" width="5" height="16"/>');
const PLAY_ICON = ICON('<path d="M6 4l14 8-14 8z"/>');
const RESET_ICON = ICON('<path d="M12 4a8 8 0 1 1-8 8h3a5 5 0 1 0 5-5v3L7 5.5 12 1z"/>');
const CLASS_HOURS = 12; // a class's start older than this is not the start of this lesson
const PANEL_SHARE = 0.42; // of the window's width: the panel; the deck keeps the rest

/** The presenter window opens from the projector (S, the notes button): this page's link with
    presenter=1, in its own window (reveal.js's speaker view). False in the presenter itself. */
export function openPresenter(D) {
  if (!D.header || D.header.window !== "deck") return false;
  const win = D.host.ownerDocument.defaultView;
  const url = new URL(win.location.href);
  url.searchParams.set("presenter", "1");
  // The window by its name: an open presenter is brought forward as it is (its clock runs on);
  // a new one starts blank and loads the link.
  const opened = win.open("", "attention-lab-presenter", "popup,width=1280,height=800");
  if (!opened) return true; // a blocked popup: the browser says so itself
  let blank = true;
  try {
    blank = opened.location.href === "about:blank";
  } catch {
    blank = true; // not readable: load it
  }
  if (blank) opened.location.replace(url.href);
  opened.focus?.();
  return true;
}

/** The panel, built once when the header says this is the presenter window. */
export function buildPresenter(D) {
  if (D.pres || D.header.window !== "presenter") return;
  const doc = D.host.ownerDocument;
  const root = D.els.root;
  root.classList.add("presenting");
  root.style.setProperty("--pres-w", `${Math.round(PANEL_SHARE * 100)}vw`);
  const panel = make(doc, "aside", "presenter", { "data-testid": "presenter" });
  const section = (cls, testid, attrs) => make(doc, "section", cls, { "data-testid": testid, ...attrs });
  const clock = section("p-clock", "presenter-clock");
  const time = make(doc, "span", "p-time", { role: "timer", "data-testid": "presenter-time" });
  const wall = make(doc, "span", "p-wall", { "data-testid": "presenter-wall" });
  const pause = button(doc, "", "presenter-pause", "", () => pauseClock(D));
  const reset = button(doc, "", "presenter-reset", "", () => resetClock(D));
  clock.append(time, pause, reset, wall);
  const now = section("p-now", "presenter-now");
  const next = section("p-next", "presenter-next");
  // it scrolls: Tab reaches it (the deck's keys still turn the page)
  const notes = section("p-notes", "presenter-notes", { tabindex: "0", role: "region" });
  const tally = section("p-class", "presenter-tally", { hidden: "" });
  const key = section("p-key", "class-key", { hidden: "" }); // the answer key, from the question's asking
  const keys = make(doc, "details", "p-keys", { "data-testid": "presenter-keys" });
  panel.append(clock, now, next, tally, key, notes, keys);
  root.append(panel);
  D.pres = Object.seal({ panel, clock, time, wall, pause, reset, now, next, notes, tally, key,
    keys, endAsked: 0 });
  D.clock.start = Date.now();
  D.clock.timer = doc.defaultView.setInterval(() => {
    tickClock(D);
    followSentence(D);
  }, 1000);
  onMessage(D, "class", (msg) => {
    if (!msg.state || typeof msg.state !== "object") return;
    D.classState = msg.state;
    startFromClass(D);
    fillClass(D);
  });
}

/** The presenter shows the projector's sentence: the window that opened it (same origin) carries
    it in its link (s=); a new one there is taken here within the clock's second (one rerun of
    this window; none while a change is on its way). */
function followSentence(D) {
  const win = D.host.ownerDocument.defaultView;
  let sentence = null;
  try {
    const opener = win.opener && !win.opener.closed ? win.opener : null;
    sentence = opener ? new URL(opener.location.href).searchParams.get("s") : null;
  } catch {
    sentence = null; // not ours to read (another origin): this window keeps its own
  }
  if (!sentence || sentence === D.header.settings.sentence) return;
  if (D.els.root.dataset.synced !== "1") return;
  applySentence(D, sentence);
}

/** Fill the panel for where the deck is (after every place change, and new words). */
export function fillPresenter(D) {
  if (!D.pres) return;
  const { pres } = D;
  const doc = D.host.ownerDocument;
  pres.panel.lang = D.els.root.lang;
  pres.panel.setAttribute("aria-label", tx(D, "presenter.title"));
  pres.pause.setAttribute("aria-pressed", String(!!D.clock.paused));
  tickClock(D);
  const here = placeText(D, D.at, D.step);
  pres.now.replaceChildren(make(doc, "h3", "", {}, tx(D, "presenter.now")), make(doc, "p", "", {}, here));
  const [k, i] = nextPlace(D);
  const next = [make(doc, "h3", "", {}, tx(D, "presenter.next"))];
  if (k === null) next.push(make(doc, "p", "", {}, tx(D, "presenter.last")));
  else {
    next.push(make(doc, "p", "p-label", {}, placeText(D, k, i)));
    const caption = stepText(D, k, i, "caption");
    if (caption) next.push(make(doc, "p", "p-cap", {}, plainText(D, caption)));
  }
  pres.next.replaceChildren(...next);
  fillNotesOf(D);
  fillKeys(D);
  fillKey(D);
  fillClass(D);
}

on("placechanged", fillPresenter);

/** The step after the one on screen: [scene, step], or [null, null] after the last. */
function nextPlace(D) {
  const steps = D.scenes[D.at]?.steps || [];
  if (D.ctx && D.step < steps.length - 1) return [D.at, D.step + 1];
  const after = sceneBeside(D, D.at, 1);
  if (after !== null) return [after, 0];
  return [null, null];
}

/** "§5 Why √d_k · step 2/4: the variance" for scene k's step i. */
function placeText(D, k, i) {
  const steps = D.scenes[k]?.steps || [];
  const name = stepText(D, k, i, "label");
  const title = sceneTitle(D, k);
  if (!name) return tx(D, "presenter.scene", { k, title });
  return tx(D, "presenter.at", { k, title, i: i + 1, n: steps.length, name });
}

/** A step's label or caption, as the deck writes it (a key of the scene's table with its words,
    or a function of the scene's context); "" when it cannot be made here. */
function stepText(D, k, i, what) {
  const scene = D.scenes[k];
  const step = scene?.steps[i];
  if (!step) return "";
  const S = k === D.at && D.ctx ? D.ctx : contextOf(D, k, scene);
  try {
    return sceneText(S, step[what]);
  } catch {
    return ""; // a scene whose words need what its mount makes: its title says enough
  }
}

/** A scene's context without its figure (its words and labels read D, set and local). */
function contextOf(D, k, scene) {
  const set = setFor(D, k);
  return { D, k, scene, steps: scene.steps, local: freshLocal(scene), set, part: set.lab,
    tpart: set.trained };
}

/** This scene's notes (header.notes: [["p" | "li", text], …] per scene), or why there are none. */
function fillNotesOf(D) {
  const doc = D.host.ownerDocument;
  const body = [make(doc, "h3", "", {}, tx(D, "lesson.notes_title"))];
  const notes = D.header.notes;
  if (!notes) body.push(make(doc, "p", "p-locked", {}, tx(D, "presenter.locked")));
  let list = null;
  for (const [kind, text] of notes?.[String(D.at)] || []) {
    if (kind === "li") {
      if (!list) body.push((list = make(doc, "ul")));
      list.append(make(doc, "li", "", {}, text));
    } else {
      list = null;
      body.push(make(doc, "p", "", {}, text));
    }
  }
  D.pres.notes.setAttribute("aria-label", tx(D, "lesson.notes_title"));
  D.pres.notes.replaceChildren(...body);
}

function fillKeys(D) {
  const doc = D.host.ownerDocument;
  const list = make(doc, "ul");
  for (const line of D.header.keys) list.append(make(doc, "li", "", {}, line));
  const open = D.pres.keys.open;
  D.pres.keys.replaceChildren(make(doc, "summary", "", {}, tx(D, "presenter.keys")), list);
  D.pres.keys.open = open;
}

// ---- the clock: since the presenter opened, or since the class started --------------------------

function tickClock(D) {
  if (!D.pres) return;
  const { clock, pres } = D;
  const now = Date.now();
  const ms = (clock.paused || now) - clock.start;
  pres.time.textContent = elapsedText(ms);
  pres.time.dataset.ms = String(ms);
  pres.time.setAttribute("aria-label", `${tx(D, "presenter.clock")} ${elapsedText(ms)}`);
  const wall = new Date(now);
  pres.wall.textContent = `${wall.getHours()}:${String(wall.getMinutes()).padStart(2, "0")}`;
  pres.wall.title = tx(D, "presenter.wall");
  const paused = !!clock.paused;
  pres.pause.innerHTML = paused ? PLAY_ICON : PAUSE_ICON;
  pres.pause.setAttribute("aria-label", tx(D, paused ? "presenter.resume" : "presenter.pause"));
  pres.pause.title = pres.pause.getAttribute("aria-label");
  pres.reset.innerHTML = RESET_ICON;
  pres.reset.setAttribute("aria-label", tx(D, "presenter.clock_reset"));
  pres.reset.title = pres.reset.getAttribute("aria-label");
  pres.clock.classList.toggle("paused", paused);
  tickQuestion(D);
}

function pauseClock(D) {
  const { clock } = D;
  const now = Date.now();
  if (clock.paused) {
    clock.start += now - clock.paused; // the pause does not count
    clock.paused = 0;
  } else clock.paused = now;
  clock.touched = true;
  tickClock(D);
}

function resetClock(D) {
  const { clock } = D;
  clock.start = Date.now();
  if (clock.paused) clock.paused = clock.start;
  clock.touched = true;
  tickClock(D);
}

/** The first class state sets the clock to the class's start, unless the teacher set it. */
function startFromClass(D) {
  const created = Number(D.classState?.created) * 1000; // seconds since 1970, as the store has it
  const age = Date.now() - created;
  if (D.clock.touched || !(age >= 0 && age < CLASS_HOURS * 3600 * 1000)) return;
  D.clock.start = created;
  D.clock.touched = true;
  tickClock(D);
}

/** The deck is gone: stop the clock. */
export function stopPresenter(D) {
  if (D.clock.timer) D.host.ownerDocument.defaultView.clearInterval(D.clock.timer);
  D.clock.timer = 0;
}

/** A window that opens says hello: the projector answers with where it is (channel.js). */
export function greet(D) {
  if (openChannel(D)) post(D, { kind: "hello" });
}
