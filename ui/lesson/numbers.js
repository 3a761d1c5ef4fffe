/* Which numbers a scene uses, from the arrays Python sent (by digest): the user's sentence or
   the example, an array by name, the focus token, what the scores are divided by, a head's
   weights (softmax.js, cached per setting). Nothing here computes attention but the softmax the
   view is tested with. */

import { attentionWeights } from "../explorer/softmax.js";

/** The user's sentence, or the example while a scene it cannot show runs on it. */
export function setFor(D, k) {
  const sets = D.header.sets;
  return D.example[k] && sets.example ? sets.example : sets.user;
}

export function arr(D, name) {
  return D.arrays.get(name);
}

/** Index of the focus token in a part: the scene's focus (S.local.focus, a token's text), else
    the part's default. */
export function focusIn(S, part) {
  const i = part.tokens.findIndex((t) => t.t === S.local.focus);
  return i >= 0 ? i : part.focus;
}

/** What the scores are divided by in every scene but §5's τ: √d_k, or 1 with the scene's
    scaling off (S.local.scale). */
export function divisorOf(S, part) {
  return S.local.scale ? Math.sqrt(part.d_k) : 1;
}

/** One head's weights, softmax(scores/τ) with the mask (softmax.js), cached per setting. */
export function weightsOf(D, part, head, tau, causal, name = "scores") {
  const key = `${D.header.digest}|${part.prefix}${name}|${head}|${tau}|${causal}`;
  let w = D.cache.get(key);
  if (!w) {
    const n = part.n;
    w = attentionWeights(
      arr(D, part.prefix + name),
      head * n * n,
      n,
      tau,
      causal,
      new Float64Array(n * n),
    );
    if (D.cache.size > 64) D.cache.clear();
    D.cache.set(key, w);
  }
  return w;
}
