/* The attention view in a scene: §5, §6, §8 and §9 draw their maps with ui/explorer's
   createView, at the room's type ("room" fonts, scaled to the room's base), without the view's
   own controls (the scene's are beside it), fitted into the scene's figure box. Its header is
   built here from a part (a sentence's tokens and sizes) and the words and palette Python sent
   once (header.view_text, header.colours); its numbers are the part's arrays. bigMap shows one
   head large beside a small overview of every head (readable from the back of a room). */

import { createView } from "../explorer/view.js";
import { penCells, penDone, penHatch, penStart, rampRgb } from "./pen.js";
import { make } from "./elements.js";
import { tx } from "./text.js";
import { focusIn } from "./numbers.js";
import { labelChars, labelsOf } from "./labels.js";
import { roomOf } from "./room.js";
import { setLocal } from "./widgets.js";

export const NO_JOB = { label: "", rel: "", clear: false, relation: "" };

/** The view's header for `part`. o: digest (what the numbers are), box (the map's room, for
    its labels' glosses; default the figure's), h (maps in the array, default the part's), values ("scores": raw Q·Kᵀ the view divides, masks and softmaxes; "weights":
    the weights themselves), jobs (per head: {label} for its caption), state, numbers. */
export function viewHeader(S, part, o) {
  const D = S.D;
  const h = o.h ?? part.h;
  const jobs = o.jobs || Array.from({ length: h }, () => NO_JOB);
  const colours = D.header.colours;
  const header = {
    v: 1, digest: `${D.header.digest}|${o.digest}`, scores: true, n: part.n, h, d_k: part.d_k,
    tokens: part.tokens, jobs, source: part.source, lang: D.header.lang,
    html_lang: D.header.html_lang, classroom: true,
    numbers: !!o.numbers, shared: true, state: { scale: true, causal: false, tau: null, head: 0,
      focus: focusIn(S, part), ...o.state }, ack: 0, decided: D.header.decided,
    text: D.header.view_text, // the deck's font (Latin first in English), labels cut for length
    palette: { ...colours, font_stack: D.theme.stack, label_chars: labelChars(part.n) },
    options: null, values: o.values || "scores", labels: labelsOf(D, part, o.box || S.box),
  };
  const wording = [D.header.lang, ...jobs.map((j) => j.label), ...header.labels].join("|");
  return { ...header, wording };
}

/** A view in `host` showing `heads` (indices into the array it will get), the focus row of
    `part`; a click on a row makes that word the lesson's focus. Call .show(header, array). */
export function sceneView(S, host, part, heads) {
  const D = S.D;
  const room = roomOf(D);
  const view = createView(host, {
    heads, controls: [], parts: [], fonts: "room", fontScale: room.base / D.header.colours.lesson.type.base,
    onChange: (s) => {
      const tok = part.tokens[s.focus];
      if (tok && tok.t !== S.local.focus) setLocal(S, { focus: tok.t });
    },
  });
  return {
    view,
    show(header, values) {
      view.update(header, values);
      view.setState(header.state);
    },
    fit: (w, h) => view.setBox(w, h),
    destroy: () => view.destroy(),
  };
}

// ---- one head large, every head small ------------------------------------------------------------

const THUMB_MAX = 140; // css px: an overview map's side at most
const THUMB_MIN = 44;
const PHONE_MAP_MIN = 260; // css px: a phone's map at least this tall, or the overview gives way

/** One head's map large (the attention view) beside a small overview of every head (buttons
    with a thumbnail each; pressing one picks that head): cells ≥ 20 px for the example sentence
    at 1024 × 680. Call .show(o, box): o = { head, values (h × n × n), kind ("scores": raw Q·Kᵀ
    the view divides and masks; "weights"), digest, jobs (per head: {label}), state (the view's:
    scale, causal), weights(k) (head k's n × n weights for its thumbnail), onPick(k) }. */
export function bigMap(S, host, part) {
  const doc = S.doc;
  const wrap = make(doc, "div", "bigmap");
  const main = make(doc, "div", "bigmap-main");
  const over = make(doc, "div", "overview", { role: "group", "data-testid": "lesson-heads" });
  wrap.append(main, over);
  host.append(wrap);
  const big = { view: null, head: -1 }; // the large map: the view of one head (made again for another)
  const thumbs = [];
  return {
    show(o, box) {
      const phone = roomOf(S.D).phone;
      const t = thumbSide(S, part.h, box, phone);
      // A phone whose step leaves the map less than PHONE_MAP_MIN under the overview (a long
      // caption or verdict) shows the map alone: the steps and the quiz pick the head there.
      const alone = phone && box.h - t.height - 12 < PHONE_MAP_MIN;
      if (alone) Object.assign(t, { height: -12 });
      wrap.classList.toggle("under", phone);
      over.hidden = alone;
      over.style.setProperty("--thumb-cols", String(t.cols));
      over.setAttribute("aria-label", tx(S.D, "lesson.heads_overview"));
      if (!alone) drawThumbs(S, over, thumbs, part, o, t);
      if (big.head !== o.head) {
        big.view?.destroy();
        main.replaceChildren();
        [big.view, big.head] = [sceneView(S, main, part, [o.head]), o.head];
      }
      const aside = phone ? 0 : t.width + 16;
      const room = { w: box.w - aside, h: phone ? box.h - t.height - 12 : box.h };
      const header = viewHeader(S, part, { digest: o.digest, jobs: o.jobs, values: o.kind,
        state: { ...o.state, head: o.head }, numbers: o.numbers, box: room });
      big.view.fit(room.w, room.h);
      big.view.show(header, o.values);
    },
    destroy: () => big.view?.destroy(),
  };
}

/** The overview's thumbnail side and its box: a column (two for many heads) beside the map, or
    a row under it on a phone. */
function thumbSide(S, h, box, phone) {
  const label = Math.ceil(S.D.header.colours.lesson.type.base * 1.6); // a button's line of text
  if (phone) {
    const side = Math.max(THUMB_MIN, Math.min(72, Math.floor((box.w - 8 * (h - 1)) / h) - 20));
    return { side, cols: h, width: box.w, height: side + label + 16 };
  }
  const cols = h <= 4 ? 1 : 2;
  const rows = Math.ceil(h / cols);
  const fit = Math.floor((box.h - (rows - 1) * 8) / rows) - label - 16;
  const side = Math.max(THUMB_MIN, Math.min(THUMB_MAX, fit, Math.floor(box.w * 0.16)));
  return { side, cols, width: cols * (side + 16) + (cols - 1) * 8, height: box.h };
}

/** The overview's buttons, one per head, each a thumbnail of its weights and its name; the
    shown head pressed. */
function drawThumbs(S, over, thumbs, part, o, t) {
  const D = S.D;
  const n = part.n;
  while (thumbs.length < part.h) {
    const k = thumbs.length;
    const b = make(S.doc, "button", "thumb", { type: "button", "data-key": `head-${k}` });
    const canvas = make(S.doc, "canvas", "", { "aria-hidden": "true" });
    const name = make(S.doc, "span");
    b.append(canvas, name);
    b.addEventListener("click", () => thumbs[k].pick());
    over.append(b);
    thumbs.push({ b, canvas, name, pick: null });
  }
  thumbs.forEach((th, k) => {
    th.pick = () => o.onPick(k);
    th.name.textContent = tx(D, "lesson.head", { i: k + 1 });
    th.b.setAttribute("aria-pressed", String(k === o.head));
    const w = o.weights(k);
    const pen = penStart(th.canvas, t.side, t.side, D.theme);
    const masked = o.state.causal ? (i, j) => j > i : () => false;
    penCells(pen, 0, 0, t.side, t.side, n, n, (i, j) =>
      masked(i, j) ? null : rampRgb(D.luts.weight, w[i * n + j], 0, 1),
    );
    if (o.state.causal) penHatch(pen, { left: 0, top: 0, cell: t.side / n, n, side: t.side });
    penDone(pen);
  });
}
