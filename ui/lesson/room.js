/* The room the deck is shown in: a phone or a projector, its type size (from the palette), the
   figure's box, the maps' fonts, and the pen a scene paints with. */

import { fontSizes } from "../explorer/layout.js";
import { penStart } from "./pen.js";

const PHONE_W = 640; // narrower: one column, figure first, the page scrolls

/** The room decides the type: the palette's base (20 px at a projector's 1024 × 768), its big
    size on a big screen. */
export function roomOf(D) {
  const win = D.els.root.ownerDocument.defaultView;
  const w = Math.floor(D.els.root.clientWidth) || win.innerWidth;
  const h = win.innerHeight;
  const phone = w < PHONE_W;
  const type = D.header.colours.lesson.type;
  const big = !phone && w >= type.big_screen[0] && h >= type.big_screen[1];
  return { w, h, phone, base: big ? type.big : type.base };
}

/** The figure's box in css px. On a phone: the height the scene asks for (its `phone`, × the
    width), or else the rest of the screen once everything else of the step is laid out (the
    title, the caption, the controls, the quiz, the takeaway and the step bar): a step fits
    one screen with its figure and its control. */
export function figureBox(D) {
  const fig = D.els.scene.querySelector(".figure");
  const room = roomOf(D);
  const w = Math.floor(fig.clientWidth);
  if (!room.phone) return { w, h: Math.floor(fig.clientHeight) };
  const phone = D.scenes[D.at]?.phone; // a scene's height on a phone, × its width
  const tall = typeof phone === "function" ? phone(D.step) : phone;
  if (tall) return { w, h: Math.round(Math.max(PHONE_MIN_H, w * tall)) };
  return { w, h: Math.max(PHONE_MIN_H, Math.floor(room.h - phoneRest(D, fig))) };
}

const PHONE_MIN_H = 220; // css px: a figure on a phone is never shorter (the page scrolls)

/** On a phone, the height everything but the figure takes on the screen: above it (from the
    page's top, however far it is scrolled) and below it in the scene (whose bottom padding
    leaves the room of the fixed step bar). */
function phoneRest(D, fig) {
  const f = fig.getBoundingClientRect();
  const scene = D.els.scene.getBoundingClientRect();
  let scrolled = 0; // how far the page's scrolling boxes are scrolled, across the shadow root
  for (let node = D.els.root; node; node = node.parentElement || node.getRootNode().host) {
    scrolled += node.scrollTop || 0;
  }
  return f.top + scrolled + (scene.bottom - f.bottom) + 4;
}

/** The maps' type in this room: the palette's "room" row (the attention view's, in the lesson)
    at the room's base size. */
export function fontsOf(D) {
  const room = roomOf(D);
  const colours = D.header.colours;
  return fontSizes(colours, true, room.w, room.base / colours.lesson.type.base, "room");
}

/** What every scene's paint starts with: the deck, the figure's box (W × H), the label size and
    a pen on `canvas` cleared to it. */
export function scenePen(S, canvas) {
  const D = S.D;
  const { w: W, h: H } = S.box;
  return { D, W, H, base: fontsOf(D).label, pen: penStart(canvas, W, H, D.theme) };
}
