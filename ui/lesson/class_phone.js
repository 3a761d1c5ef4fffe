/* A phone in a class, as the deck asks about it (class.js keeps the class; D.klass its record):
   does it hold at the class's place (its next step is the teacher's), and does its answer to a
   question go to the class? Questions only: no state of its own, nothing sent. */

/** A phone on the class's place does not step past it (its next step is the teacher's). */
export function classHolds(D) {
  const K = D.klass;
  return !!(K && K.role === "phone" && K.following && K.place && K.status === "joined" &&
    K.place[0] === D.at && K.place[1] === D.step);
}

/** May this phone's answer go to the class (it follows, the question is the class's,
    not revealed)? */
export function classAsks(D, questionId) {
  const K = D.klass;
  return !!(K && K.role === "phone" && K.following && K.status !== "ended" &&
    K.state?.question?.id === questionId);
}
