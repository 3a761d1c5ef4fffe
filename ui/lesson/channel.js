/* The teacher's windows as one deck: a BroadcastChannel between the projector and the presenter
   window (same browser, same origin), whichever one is driven, with or without a class.

   The channel is "attention-lab-deck"; its messages are a fixed contract (the class's deck side
   uses them too), each an object with `kind` and `from` (the sending window's id, D.winId):
     {kind: "goto", scene: "s05", step: "ask", from}  either window, on every place change
                                                      (sharePlace; ids, never numbers)
     {kind: "hello", from}                            a window that opens asks; the projector
                                                      answers with a goto (and the class's code
                                                      with a class message)
     {kind: "class", state, from}                     projector → presenter: the class's state
                                                      as classroom/README.md has it, its tally in
                                                      state.tally ({question, counts, total})
     {kind: "action", do, from}                       presenter → projector; do: "reveal",
                                                      "tally_show", "tally_hide", "reset", "end"
   A window never hears itself (BroadcastChannel skips the sender; `from` is checked as well). A
   goto that a window follows is marked as its shared place before it moves, so the move sends
   nothing back: two windows never echo. A browser that joined a class (header.window "joined")
   opens no channel: it follows the class, not a teacher's windows in the same browser.

   Use: openChannel(D) once the header is in; onMessage(D, "class", (msg) => …) to listen;
   post(D, {kind: "action", do: "reveal"}) to send; closeChannel(D) when the deck goes. */

import { on } from "./events.js";

const CHANNEL = "attention-lab-deck";
const KINDS = new Set(["goto", "hello", "class", "action"]);

/** Open the deck's channel (once); null where there is none (a joined phone, an old browser). */
export function openChannel(D) {
  if (D.channel || D.header?.window === "joined") return D.channel;
  const win = D.host.ownerDocument.defaultView;
  if (typeof win.BroadcastChannel !== "function") return null;
  D.channel = new win.BroadcastChannel(CHANNEL);
  D.channel.onmessage = (ev) => hear(D, ev.data);
  return D.channel;
}

export function closeChannel(D) {
  D.channel?.close();
  D.channel = null;
}

/** Send msg ({kind, …}) to the teacher's other windows, signed with this window's id; false
    when there is no channel. */
export function post(D, msg) {
  if (!D.channel || !KINDS.has(msg.kind)) return false;
  D.channel.postMessage({ ...msg, from: D.winId });
  return true;
}

/** Call fn(msg) for every message of `kind` another window sends; returns what stops it. */
export function onMessage(D, kind, fn) {
  const list = D.heard.get(kind) || [];
  list.push(fn);
  D.heard.set(kind, list);
  return () => D.heard.set(kind, (D.heard.get(kind) || []).filter((f) => f !== fn));
}

function hear(D, msg) {
  if (!msg || typeof msg !== "object" || !KINDS.has(msg.kind) || msg.from === D.winId) return;
  for (const fn of D.heard.get(msg.kind) || []) fn(msg);
}

/** Where the deck is, by ids: {scene: "s05", step: "ask"} (step "" where a scene shows no step:
    a sentence it cannot use). */
export function placeOf(D) {
  const scene = D.scenes[D.at]?.id || "";
  const step = D.ctx?.steps[D.step]?.id || "";
  return { scene, step };
}

/** After every place change: tell the other windows where this one is, when that changed. True
    when the place is new to this window (moved by its own hand or by a goto it followed). */
function sharePlace(D) {
  const place = placeOf(D);
  const key = `${place.scene}|${place.step}`;
  if (key === D.shared) return false;
  const heard = key === D.followed; // the place a goto just brought: nothing to send back
  D.shared = key;
  D.followed = "";
  if (!heard) post(D, { kind: "goto", ...place });
  return true;
}

on("placechanged", sharePlace);

/** A goto is about to be followed: its place is not sent back when the deck arrives. */
export function followingPlace(D, msg) {
  D.followed = `${msg.scene}|${msg.step}`;
}
