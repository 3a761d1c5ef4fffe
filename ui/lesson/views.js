/* The attention view in a scene: §5, §6, §8 and §9 draw their maps with ui/explorer's
   createView, at the room's type ("room" fonts, scaled to the room's base), without the view's
   own controls (the scene's are beside it), fitted into the scene's figure box. Its header is
   built here from a part (a sentence's tokens and sizes) and the words and palette Python sent
   once (header.view_text, header.colours); its numbers are the part's arrays. */

const { createView } = VIEW;
const { focusIn, labelChars, roomOf, setLocal } = LESSON;

const NO_JOB = { label: "", rel: "", clear: false, relation: "" };

/** The view's header for `part`. o: digest (what the numbers are), h (maps in the array, default
    the part's), values ("scores": raw Q·Kᵀ the view divides, masks and softmaxes; "weights":
    the weights themselves), jobs (per head: {label} for its caption), state, numbers. */
function viewHeader(S, part, o) {
  const D = S.D;
  const h = o.h ?? part.h;
  const jobs = o.jobs || Array.from({ length: h }, () => NO_JOB);
  const colours = D.header.colours;
  const header = {
    v: 1, digest: `${D.header.digest}|${o.digest}`, scores: true, n: part.n, h, d_k: part.d_k,
    tokens: part.tokens, jobs, source: part.source, lang: D.header.lang, classroom: true,
    numbers: !!o.numbers, shared: true, state: { scale: true, causal: false, tau: null, head: 0,
      focus: focusIn(S, part), ...o.state }, ack: 0, decided: D.header.decided,
    text: D.header.view_text, // the deck's font (Latin first in English), labels cut for length
    palette: { ...colours, font_stack: D.theme.stack, label_chars: labelChars(part.n) },
    options: null, values: o.values || "scores",
  };
  return { ...header, wording: `${D.header.lang}|${jobs.map((j) => j.label).join("|")}` };
}

/** A view in `host` showing `heads` (indices into the array it will get), the focus row of
    `part`; a click on a row makes that word the lesson's focus. Call .show(header, array). */
function sceneView(S, host, part, heads) {
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

return { NO_JOB, sceneView, viewHeader };
