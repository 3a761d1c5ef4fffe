/* The deck's words: a key of the text tables Python sent (header.text, in the UI language),
   filled with values; a scene's title. */

import { fmt } from "../explorer/a11y.js";
import { setFor } from "./numbers.js";

export function tx(D, key, values) {
  const s = D.header.text[key];
  if (s === undefined) return key;
  return values ? fmt(s, values) : s;
}

/** Scene k's title: a key of its text table, or a function of a context that has (at least)
    D, k, scene and set (titles are read for every scene, the strip's and the overview's). */
export function sceneTitle(D, k) {
  const scene = D.scenes[k];
  if (!scene) return "";
  if (typeof scene.title !== "function") return tx(D, scene.title);
  return scene.title({ D, k, scene, set: setFor(D, k) });
}
