/* §9 the numpy skeleton (its real source) beside the map it computed, then with the causal mask
   (a step: → shows it; the switch is the scene's own what-if). */

const { addScene, arr, fillSide, make, roomOf, sceneView, setLocal, tx, viewHeader,
  wSwitch } = LESSON;

const S9_MASK = /mask is not None|np\.where\(mask|causal_mask|tril/; // the lines the mask adds

addScene({
  id: "s09",
  layout: "stack",
  title: "lesson.s9.title",
  steps: [
    { id: "code", label: "lesson.s9.step0", caption: "lesson.s9.cap.code", set: { causal: false } },
    { id: "mask", label: "lesson.s9.step_mask", caption: "lesson.s9.cap.mask", set: { causal: true } },
  ],
  take: (S) => tx(S.D, "lesson.s9.take"),
  mount: (S) => {
    const D = S.D;
    const part = S.part;
    const wrap = make(S.doc, "div", "code-wrap");
    const left = make(S.doc, "div");
    const title = make(S.doc, "p", "code-title", {}, tx(D, "lesson.s9.code"));
    const pre = make(S.doc, "pre", "code", { "data-testid": "lesson-code" });
    const codeLines = D.header.code.map((ln) => make(S.doc, "span", "ln", {}, ln || " "));
    pre.append(...codeLines);
    left.append(title, pre);
    const right = make(S.doc, "div", "code-side");
    wrap.append(left, right);
    S.figure.append(wrap);
    const view = sceneView(S, right, part, [0]); // the skeleton ran head 1 (page.skeleton_part)
    return {
      draw() {
        const causal = S.local.causal;
        codeLines.forEach((line, k) =>
          line.classList.toggle("hot", causal && S9_MASK.test(D.header.code[k])),
        );
        const sw = wSwitch(
          S,
          tx(D, "lesson.s9.switch"),
          causal,
          (on) => setLocal(S, { causal: on }),
          "s9-causal",
        );
        fillSide(S, [sw, make(S.doc, "p", "", {}, tx(D, "lesson.s9.batch"))]);
        const phone = roomOf(D).phone;
        const box = phone
          ? { w: S.box.w, h: Math.min(S.box.w, 460) }
          : { w: Math.max(200, S.box.w - left.offsetWidth - 16), h: S.box.h };
        const name = `${part.prefix}sk${causal ? 1 : 0}`; // the skeleton's own output, not the view's
        const jobs = [{ label: tx(D, "lesson.s9.map") }];
        const o = { digest: name, values: "weights", h: 1, jobs, state: { causal } };
        view.fit(box.w, box.h);
        view.show(viewHeader(S, { ...part, h: 1 }, o), arr(D, name));
      },
      destroy: () => view.destroy(),
    };
  },
});

return {};
