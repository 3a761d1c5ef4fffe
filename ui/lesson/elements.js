/* The page's elements, as every part of the deck makes them: an element with its class and
   attributes, a button, the element with the focus (inside shadow roots too), a line said in a
   live region. */

export function make(doc, name, cls, attrs, text) {
  const e = doc.createElement(name);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A <button> of class `cls` whose click calls `onClick`; `attrs` beside its type and test id
    (none when `testid` is ""). */
export function button(doc, cls, testid, label, onClick, attrs) {
  const b = make(doc, "button", cls, { type: "button", ...(testid && { "data-testid": testid }), ...attrs }, label);
  b.addEventListener("click", onClick);
  return b;
}

/** Say `message` in a live region (emptied first, so the same words are said again). */
export function speak(live, message) {
  if (live.textContent === message) live.textContent = "";
  live.textContent = message;
}

/** The element with the focus, inside shadow roots too. */
export function deepActive(doc) {
  let a = doc.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a;
}
