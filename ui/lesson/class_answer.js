/* A phone's answer to the class's question (classroom/README.md "HTTP API"): kept as its own,
   sent one request at a time, retried with the same token; what the server says is painted in
   the class's bar. */

import { classCall, classErrorOf, phoneToken } from "./class_net.js";
import { classPaint } from "./class_panel.js";
import { classAsks } from "./class_phone.js";

const ANSWER_TRIES = 5;

/** A phone's answer: kept, sent; one request at a time, so a change of mind never
    overtakes the answer it replaces (the latest is sent last). */
export async function classAnswer(D, questionId, choice) {
  const K = D.klass;
  if (!classAsks(D, questionId) || K.state.revealed) return;
  K.mine[questionId] = choice; // shown at once: the deck redraws its question (stage.js)
  const body = { token: K.token, question: questionId, choice };
  if (K.outbox) {
    K.outbox = body; // sent when the one in flight is answered
    return;
  }
  K.outbox = body;
  while (K.outbox) {
    const next = K.outbox;
    await sendAnswer(D, next);
    if (K.outbox === next) K.outbox = null;
  }
}

/** POST one answer, retried with the same token (nginx does not retry a POST; the server
    counts a retry once); a token the server no longer knows: joined again first. */
async function sendAnswer(D, body) {
  const K = D.klass;
  for (let i = 0; i < ANSWER_TRIES; i++) {
    const res = await classCall(D, "POST", `/class/${K.code}/answer`, body);
    if (res.status === 200) {
      K.error = "";
      return classPaint(D);
    }
    if (res.body?.error === "bad_token" && i < ANSWER_TRIES - 1) {
      // the token is no longer the class's (its store restarted): join again, then resend
      const joined = await classCall(D, "POST", `/class/${K.code}/join`, { phone: phoneToken(D) });
      if (joined.status === 200) K.token = body.token = joined.body.token;
      continue;
    }
    if (res.status !== 0 && res.status !== 503 && res.status !== 429) {
      K.error = classErrorOf(res);
      return classPaint(D);
    }
    await new Promise((ok) => setTimeout(ok, Math.max(res.retryAfter * 1000, 500 * 2 ** i)));
  }
  K.error = "store_unavailable";
  classPaint(D);
}
