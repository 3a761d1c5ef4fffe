/* The keyboard, as reveal.js has it: the key map (which keys do what) is written once, in
   ui/lesson/deck.py KEY_MAP, which also writes the key list (?) from it and sends it in the
   header (header.key_map: [[action, [key, …]], …]); here each of its actions is bound. Never while the user types in a box or moves a slider, never with Ctrl, Alt or Meta
   held (the browser's own shortcuts stay); Space and Enter press a focused button. On a touch
   screen a swipe left or right steps, as → and ← do. */

import { deepActive } from "./elements.js";
import { toggleGlossary } from "./terms.js";
import { closeOverlays, toggleEditor, toggleFull, toggleHelp, togglePause } from "./frame.js";
import { openPresenter } from "./presenter.js";
import { goScene, stepBack, stepNext } from "./stage.js";
import { overviewKey, toggleOverview } from "./overview.js";
import { classAction, toggleJoin } from "./class.js";
import { sceneNumbers } from "./order.js";

// What each action of the key map does (false: the deck did not use the key).
export const ACTIONS = {
  next: stepNext, // (D): one hop from the key to the step (ARCHITECTURE.md counts them)
  prev: stepBack,
  first: (D) => goScene(D, sceneNumbers(D)[0], 0),
  last: (D) => goScene(D, sceneNumbers(D).at(-1), 0),
  jump: (D, key) => goScene(D, key === "0" ? 10 : Number(key), 0), // the scene numbered so
  presenter: (D) => openPresenter(D), // the presenter window (its notes): not in itself
  full: (D) => toggleFull(D),
  black: (D) => togglePause(D, true),
  glossary: (D) => toggleGlossary(D),
  overview: (D) => toggleOverview(D),
  help: (D) => (D.touch ? toggleGlossary(D) : toggleHelp(D)),
  close: (D) => closeOverlays(D) || toggleOverview(D, true), // nothing open: the overview
  // the live class (class.js): the teacher's; without a class the keys are not the deck's
  class_join: (D) => toggleJoin(D),
  class_tally: (D) => classAction(D, "tally"),
  class_reveal: (D) => classAction(D, "reveal"),
  class_reset: (D) => classAction(D, "reset"),
  class_summary: (D) => classAction(D, "summary"), // after the end: the summary (class_end.js)
  class_end: (D) => classAction(D, "end"),
};

const OWN_KEYS = /^(textarea|select)$/i; // elements that use the keys themselves

const PRESSED_BY_SPACE = new Set(["checkbox", "radio", "button", "submit", "reset"]);

const OWN_ROLES = new Set([
  "slider",
  "textbox",
  "combobox",
  "spinbutton",
  "listbox",
  "menu",
  "option",
  "menuitem",
]);

/** True when the focused element wants the keys for itself: a text box, a select, a slider
    (a switch or a button only wants Space and Enter, see pressable). */
function typing(node) {
  if (!node) return false;
  if (OWN_KEYS.test(node.tagName) || node.isContentEditable) return true;
  if (/^input$/i.test(node.tagName) && !PRESSED_BY_SPACE.has(node.type)) return true;
  const role = node.getAttribute?.("role");
  return !!role && OWN_ROLES.has(role);
}

/** Space and Enter press a focused button, link or switch; the other keys still turn the page. */
function pressable(node) {
  if (!node) return false;
  return (
    /^(button|a|summary)$/i.test(node.tagName) ||
    (/^input$/i.test(node.tagName) && PRESSED_BY_SPACE.has(node.type))
  );
}

/** A control clicked with the mouse gives the keyboard back to the deck (a presenter clicks a
    word, then presses → for the next step); a control reached with Tab keeps it. */
function releaseAfterPointer(D) {
  D.els.root.addEventListener("pointerup", (ev) => {
    const node = ev.target.closest?.("button, input[type=checkbox], input[type=range], canvas[data-head]");
    if (!node || node.closest(".editor")) return;
    setTimeout(() => {
      if (deepActive(D.host.ownerDocument) === node) node.blur();
    }, 0);
  });
}

/** Bind the keyboard; returns what unbinds it. */
export function bindKeys(D) {
  const doc = D.host.ownerDocument;
  const onKey = (ev) => {
    if (!D.header || !D.els.root.isConnected || ev.defaultPrevented) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const node = deepActive(doc);
    if (typing(node)) {
      if (ev.key === "Escape" && !D.els.editor.hidden) toggleEditor(D, false);
      return;
    }
    if (!D.els.black.hidden) {
      ev.preventDefault();
      togglePause(D, false);
      return;
    }
    if (handle(D, ev, node)) ev.preventDefault();
  };
  doc.addEventListener("keydown", onKey);
  releaseAfterPointer(D);
  bindSwipe(D);
  return () => doc.removeEventListener("keydown", onKey);
}

/** A key as the key map names it: "Space" (with Shift: "Shift+Space"), a letter in capitals
    (either case), else KeyboardEvent.key. */
function keyName(ev) {
  if (ev.key === " ") return ev.shiftKey ? "Shift+Space" : "Space";
  return ev.key.length === 1 ? ev.key.toUpperCase() : ev.key;
}

/** One key; true when the deck used it. In the overview the arrows move along its scenes. */
function handle(D, ev, node) {
  const name = keyName(ev);
  if (name.endsWith("Space") && pressable(node)) return false; // it presses the focused button
  if (!D.els.overview.hidden && overviewKey(D, ev.key, node)) return true;
  const action = D.header.key_map.find(([, keys]) => keys.includes(name))?.[0];
  if (!action) return false;
  if (!ACTIONS[action]) throw new Error(`no key action ${action}`);
  if (!D.els.overview.hidden && action !== "close" && action !== "overview") toggleOverview(D, false);
  return ACTIONS[action](D, ev.key) !== false;
}

const SWIPE_PX = 50; // a swipe: this far sideways, mostly sideways, within SWIPE_MS
const SWIPE_MS = 800;

/** A finger swiping left steps on, right steps back (not on a slider, a box or an overlay). */
function bindSwipe(D) {
  let start = null;
  const root = D.els.root;
  root.addEventListener("touchstart", (ev) => {
    const t = ev.changedTouches[0];
    const own = ev.target.closest?.("input, select, textarea, .editor, .help, .term-pop, pre");
    start = ev.touches.length === 1 && !own ? { x: t.clientX, y: t.clientY, at: ev.timeStamp } : null;
  }, { passive: true });
  root.addEventListener("touchend", (ev) => {
    if (!start || !D.header) return;
    const t = ev.changedTouches[0];
    const [dx, dy] = [t.clientX - start.x, t.clientY - start.y];
    const quick = ev.timeStamp - start.at < SWIPE_MS;
    start = null;
    if (!quick || Math.abs(dx) < SWIPE_PX || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
    if (dx < 0) stepNext(D);
    else stepBack(D);
  });
}
