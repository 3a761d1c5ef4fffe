/* A map's token labels in the lesson: cut for length, and in English, where there is room,
   each row's gloss beside its token. */

import { clipLabel, distinctNames } from "../explorer/a11y.js";
import { fontsOf } from "./room.js";
import { mapGeometry } from "../explorer/layout.js";

/** Characters of a token a map's label keeps: whole words for a short sentence; for a long one
    (every few rows labelled, upright labels as deep as they are long) fewer, the text
    alternative whole. */
export function labelChars(n) {
  return n > 32 ? 2 : n > 16 ? 4 : 6;
}

const GLOSS_ROOM = 0.9; // a gloss may cost a map this share of its cells' size, or keep them ≥ base

/** A token's gloss beside its row label: short ("Xiaoming", "walk"), or a function word's role
    whole ("(object marker)", cut it says nothing); null when none is known. */
function mapGloss(tok) {
  const g = tok.gloss || tok.under; // §8's pair sends only the short one
  if (!g) return null;
  return g.startsWith("(") ? g : tok.under || g.split(/ \/ | \(/)[0];
}

/** Token labels of the lesson's maps (its own and its views'), cut as labelChars says. In
    English, where there is room, each row label carries its token's gloss ("小明 Xiaoming",
    "把 (object marker)") while the column labels under the map stay the tokens alone
    (labels.columns, layout.js keyLabels): the rows have the room a gloss takes, the columns stand
    upright. Room: in `box` ({w, h}, the map's, if known) the glossed labels keep every token
    labelled and cells at least GLOSS_ROOM of the plain ones' size, or at least the room's base
    type (20 px on a projector: read from the back row). */
export function labelsOf(D, part, box = null) {
  const names = distinctNames(part.tokens.map((t) => t.t));
  const plain = part.tokens.map((t, i) => clipLabel(t.t, names[i], labelChars(part.n)));
  if (D.header.lang !== "en" || !box) return plain;
  const withGloss = plain.map((label, i) => {
    const g = mapGloss(part.tokens[i]);
    return g ? `${label} ${g}` : label;
  });
  withGloss.columns = plain;
  const fonts = fontsOf(D);
  const ctx = D.theme.scratch.getContext("2d");
  const [a, b] = [plain, withGloss].map((labels) => mapGeometry(ctx, labels, box.w, box.h, fonts));
  const enough = Math.min(GLOSS_ROOM * a.cell, D.header.colours.lesson.type.base);
  return b.step === 1 && b.cell >= enough ? withGloss : plain;
}
