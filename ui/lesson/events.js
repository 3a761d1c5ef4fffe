/* The deck's events, as reveal.js dispatches `slidechanged`: the stage says that something
   happened (emit(D, "placechanged")) and every part that must know says, once, at its own
   module's top, what it does then (on("placechanged", (D) => …)): the link (link.js), the
   progress (progress.js), the teacher's other window (channel.js), the presenter (presenter.js)
   and the class (class_follow.js). No part calls another's listener.

   "placechanged": the deck is at a new place or its place shows something new: a scene entered
   or built again (new numbers or words from Python), a step taken, a scene's own setting changed
   (what a question lists may follow it). A redraw of the same (a resize, a phone's own answer
   shown) is none. Listeners run in the order their modules ran, each a function of the deck. */

// Event → its listeners, added as the modules run (the bundle loads once per page).
const LISTENERS = Object.freeze({ placechanged: [] });

/** Call fn(D) whenever a deck emits `event`. */
export function on(event, fn) {
  LISTENERS[event].push(fn);
}

/** Tell every listener of `event` that it happened on deck D. */
export function emit(D, event) {
  for (const fn of LISTENERS[event]) fn(D);
}
