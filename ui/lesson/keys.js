/* The keyboard, as reveal.js has it: → Space PageDown N next, ← PageUp Backspace P back (a
   presenter remote sends the page keys), Home / End, 1–9 and 0 jump, S notes, F full screen,
   B or . pause, ? the key list, Esc closes. Never while the user types in a box or moves a
   slider, never with Ctrl, Alt or Meta held (the browser's own shortcuts stay). */

const NEXT_KEYS = new Set(["ArrowRight", "ArrowDown", "PageDown", "n", "N"]);

const PREV_KEYS = new Set(["ArrowLeft", "ArrowUp", "PageUp", "Backspace", "p", "P"]);

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
function typing(el) {
  if (!el) return false;
  if (OWN_KEYS.test(el.tagName) || el.isContentEditable) return true;
  if (/^input$/i.test(el.tagName) && !PRESSED_BY_SPACE.has(el.type)) return true;
  const role = el.getAttribute?.("role");
  return !!role && OWN_ROLES.has(role);
}

/** Space and Enter press a focused button, link or switch; the other keys still turn the page. */
function pressable(el) {
  if (!el) return false;
  return (
    /^(button|a|summary)$/i.test(el.tagName) ||
    (/^input$/i.test(el.tagName) && PRESSED_BY_SPACE.has(el.type))
  );
}

/** A control clicked with the mouse gives the keyboard back to the deck (a presenter clicks a
    word, then presses → for the next step); a control reached with Tab keeps it. */
function releaseAfterPointer(D) {
  D.els.root.addEventListener("pointerup", (ev) => {
    const el = ev.target.closest?.("button, input[type=checkbox], input[type=range], canvas[data-head]");
    if (!el || el.closest(".editor")) return;
    setTimeout(() => {
      if (deepActive(D.host.ownerDocument) === el) el.blur();
    }, 0);
  });
}

function bindKeys(D) {
  const doc = D.host.ownerDocument;
  const onKey = (ev) => {
    if (!D.header || !D.els.root.isConnected || ev.defaultPrevented) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const el = deepActive(doc);
    if (typing(el)) {
      if (ev.key === "Escape" && !D.els.editor.hidden) toggleEditor(D, false);
      return;
    }
    if (!D.els.black.hidden) {
      ev.preventDefault();
      togglePause(D, false);
      return;
    }
    if (handle(D, ev, el)) ev.preventDefault();
  };
  doc.addEventListener("keydown", onKey);
  releaseAfterPointer(D);
  D.unbindKeys = () => doc.removeEventListener("keydown", onKey);
}

/** One key; true when the deck used it. */
function handle(D, ev, el) {
  const key = ev.key;
  if (key === " " || key === "Enter") {
    if (pressable(el) || key === "Enter") return false;
    if (ev.shiftKey) stepBack(D);
    else stepNext(D);
    return true;
  }
  if (NEXT_KEYS.has(key)) stepNext(D);
  else if (PREV_KEYS.has(key)) stepBack(D);
  else if (key === "Home") goScene(D, 1, 0);
  else if (key === "End") goScene(D, D.header.scenes, 0);
  else if (/^[0-9]$/.test(key)) goScene(D, key === "0" ? 10 : Number(key), 0);
  else if (key === "s" || key === "S") toggleNotes(D);
  else if (key === "f" || key === "F") toggleFull(D);
  else if (key === "b" || key === "B" || key === ".") togglePause(D, true);
  else if (key === "?") toggleHelp(D);
  else if (key === "Escape") return closeOverlays(D);
  else return false;
  return true;
}
