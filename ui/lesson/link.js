/* The lesson's link: ?at=N&step=K in the address bar, read when the deck starts (linkStep) and
   written after every place change (history.replaceState: no rerun; every other parameter as it
   is). The class's room=/join= are class_net.js's. */

import { on } from "./events.js";

/** The link's step= as the stage reads it: "2" (as shown, 1-based) → 1; an id ("reveal") as
    it is; none → 0. */
export function linkStep(raw) {
  if (raw === null || raw === undefined || raw === "") return 0;
  return /^\d+$/.test(raw) ? Number(raw) - 1 : raw;
}

/** ?at=N&step=K in the address bar (K as shown: 1-based), without a rerun; every other
    parameter as it is. */
export function writeLink(D) {
  const win = D.els.root.ownerDocument.defaultView;
  const url = new URL(win.location.href);
  url.searchParams.set("at", String(D.at));
  url.searchParams.set("step", String(D.step + 1));
  if (url.href !== win.location.href) win.history.replaceState(win.history.state, "", url.href);
}

on("placechanged", writeLink);
