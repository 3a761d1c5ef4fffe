/* The lesson deck's registry: every name one of its files gives another, declared once, under the
   file that gives it, in the order the files run; the view's files (ui/explorer/registry.js,
   VIEW) run before them, and a deck file takes from either: `const { fmt } = VIEW;` and
   `const { make, tx } = LESSON;` at its top, `return { … };` last, exactly as the view's
   registry describes. ui/explorer/units.py builds the bundle from this list and checks it.
   Another part of the deck (the class's follow, say) is a file here too; the state it keeps is a
   field of the deck's record D, written where D is made (run.js newDeck), never added elsewhere:
   D, S (a scene's context), S.local and the frame are sealed.

   ---- THE SCENE API (every scenes/sNN.js follows it) -----------------------------------------

   A scene is one file, scenes/sNN.js, that ends with `addScene({ … }); return {};` (kit.js):
   the scenes are numbered in the order of their file names (§1 first). Its words are its
   own text table, ui/text/lesson_sNN.toml (zh and en side by side; keys "lesson.sN.…", written
   out literally where they are used, so a grep finds each). To add §11: write scenes/s11.js and
   ui/text/lesson_s11.toml, and its tests: tests/ui/lesson/test_s11.py for its numbers (beside
   tests/pages/test_lesson.py, the page's); its browser cases in tests/browser/test_lesson_s11.py
   with tests/lesson_support.py's open_lesson, press, where, walk_scene; the rules every
   step meets run by themselves: tests/browser/test_lesson_rules.py, where a rule the scene does
   not meet yet is a line in PHONE_TODO or MAPS_TODO. Nothing else, not even a line here: the
   section `// scenes/s??.js` below stands for every scene file, in the order of its number
   (ui/explorer/units.py lists them; a scene gives nothing by name, it calls addScene), so
   ui/lesson/data.py counts it, pages/lesson.py sends its lesson_sNN.toml table, and the strip,
   the overview and the handout list it. A scene's helper that gives names (cellstep.js) is a
   file of its own, declared above the scenes.

   addScene({
     id: "s05",                   // "sNN", the file's name; a question's id is "s05.ask"
     title: "lesson.s5.title",    // a key, or (S) => text (S has at least D, k, scene, set)
     steps: [                     // what → reaches, in order (reveal.js's fragments)
       { id: "variance",          // ascii slug, unique in the scene: the link's step=variance,
                                  //   the class's follow; keep ids when steps move
         label: "lesson.s5.step0",          // its name beside ◀ ▶ (a key or (S) => text)
         caption: "lesson.s5.cap.variance", // lesson-caption: 1–2 sentences for a student
                                  //   alone, zh + en; terms marked [[softmax]] or
                                  //   [[d_k|d_k 的大小]] (ui/text/glossary.toml keys); never
                                  //   an open question's answer; never the teacher's notes
         set: { causal: true },   // optional: scene-local settings this step sets (below)
       },
       { id: "ask", label: …, caption: …,
         quiz: {                  // optional: this step asks; the NEXT step reveals
           question: (S) => text,
           choices: (S) => [{ id: "sharp", label, right: true | false | null, why }],
                                  //   ids are ascii and stable (the class's server checks
                                  //   them); right null everywhere: no right answer
           words: true,           // optional: the labels are words of the sentence (they are
                                  //   on screen anyway; the spoiler check skips the labels)
           noAnswer: "lesson.quiz.no_answer", // optional: the verdict's head without an answer
         } },
       { id: "reveal", … },
     ],
     words: (S) => ({ q: "他" }),  // optional: values for the {placeholders} of the scene's
                                  //   keys (title, labels, captions)
     terms: (S) => ({ softmax: softmaxExample(S, S.part) }), // optional: values a glossary
                                  //   example needs ("glossary.softmax.example": q, a, b, wa,
                                  //   wb); d_k, d_model, h, n and √d_k come from S.part
     take: (S) => text,           // the takeaway; NO SPOILERS: with a quiz it shows only on
                                  //   steps after every question's reveal (quiz.js takeShown)
     takeBefore: (S) => text,     // optional: the line before that (must state no answer)
     local: { when: "after" },    // optional: the scene's own settings besides kit.js LOCAL
     side: 0.22,                  // optional: the side panel's share of the width
     layout: "stack",             // optional: controls under the figure, not beside it; or
                                  //   (step) => "stack" | "side", per step
     phone: 1.2 | (step) => 1.2,  // optional: the figure's height on a phone, × its width;
                                  //   omit it and the figure fills the screen's rest
     mount: (S) => ({ draw(step, from), destroy() }),
   });

   S, the scene's context (stage.js renderScene, sealed): D (the deck), k (its number), scene,
   steps, local, set (the sentence's numbers: part = set.lab, tpart = set.trained), doc,
   figure (the figure's element), side (its controls' element), quizBox, box ({w, h} css px the
   figure may use: read it after fillSide, which measures it again on a phone).
   draw(step, from): step is the index into steps (compare S.steps[step].id when order may
   change), from the step before (null: drawn fresh; equal: a redraw, e.g. a resize). Call
   fillSide(S, nodes) first (the controls beside the figure), then paint. Animate with
   animate(D, ms, fn) only when from is a neighbour.
   Scene-local settings, S.local: scale (√d_k on), causal, focus (a token's text; null: the
   part's default), head (null: the scene picks, pickHead), tau (null: √d_k), plus the scene's
   own (`local`). Entering a scene resets them; a step's `set` applies on arrival (going back
   undoes it); a control changes one with setLocal(S, { causal: true }) and the scene redraws.
   They never reach Python, another scene or the link (README's "What a lesson link carries").
   Phone (roomOf(D).phone, 390 × 844; D.touch: a touch screen): one column, the caption, the
   figure, the controls and the quiz, the takeaway, and the step bar (◀ ▶) fixed at the
   screen's bottom; a swipe steps. S.box.h is the screen's rest (measured after fillSide) unless
   the scene's `phone` asks for a height; each step must fit one screen with its figure and its
   control (tests/browser/test_lesson_rules.py measures every step: the page scrolls ≤ 10 % of
   the screen, no text box clipped). A comparison is one map with a tap to switch.
   Maps: sceneView (views.js) mounts the attention view; bigMap (views.js) shows one head large
   beside every head small (a tap picks the head: setLocal head); labelsOf(D, part, box) gives
   a map's token labels, with English glosses where they cost no cell size. Every map publishes
   data-cell (its cell side) and data-labelled ("13/13"): at 1024 × 680 and 1024 × 768 the
   example's maps need cells ≥ 20 px, every token labelled, numbers ≥ 20 px.
   Frame (not a scene's): the overview (O, Esc), the glossary (G; "?" on touch), the handout
   (print), progress and the review (progress.js), the link (stage.js writeLink).
   The teacher's windows (not a scene's): S opens the presenter window (presenter.js,
   /lesson?presenter=1: the notes, which no other window receives; the next step; the clock; the
   class's tally); every window but a joined phone's opens channel.js's BroadcastChannel, and
   each scene or step change posts a goto (stage.js writeLink → sharePlace), which the other
   window follows (run.js pairWindows → stage.js goPlace). D's fields for them: winId, channel,
   heard, shared, followed, pres, clock, classState (run.js newDeck). */

const LESSON = Object.seal({
  // builder: the deck's stylesheet and its key map (ui/lesson/deck.py KEY_MAP)
  LESSON_CSS: null, KEY_MAP: null,
  // pen.js: the lesson's figures on canvas, every word through the pen
  penArrow: null, penCells: null, penDone: null, penFont: null, penHatch: null, penInkOn: null,
  penLine: null, penMap: null, penMeasure: null, penOutline: null, penStart: null, penText: null,
  penTry: null, penWrap: null, rampRgb: null,
  // arith.js: a row of weights times V, keys ranked (pure)
  mixRows: null, rankRow: null,
  // deck.js: what every part reads from the deck's record: words, numbers, room, clock
  animate: null, arr: null, button: null, deepActive: null, divisorOf: null, figureBox: null,
  focusIn: null, fontsOf: null, labelChars: null, labelsOf: null, lookOfDeck: null, make: null,
  needOf: null, roomOf: null, scenePen: null, sceneTitle: null, sendState: null, setFor: null,
  SIDE_FRACTION: null, speak: null, stopAnimation: null, tx: null, weightsOf: null,
  // kit.js: the scene kit: addScene, the scenes' own settings, helpers every scene uses
  addScene: null, freshLocal: null, headWeights: null, pickHead: null, sceneCanvas: null,
  sceneList: null, softmaxExample: null,
  // terms.js: [[term]] markup in captions, a term's popover, the glossary page
  closeTerm: null, plainText: null, richText: null, toggleGlossary: null, toggleTerm: null,
  // channel.js: the teacher's windows as one deck (BroadcastChannel "attention-lab-deck"):
  //   openChannel(D) once the header is in (none for a joined phone); post(D, {kind, …});
  //   onMessage(D, kind, fn); messages: goto {scene, step} (ids), hello, class {state},
  //   action {do: reveal | tally_show | tally_hide | reset | end}; the file's header has them all
  closeChannel: null, followingPlace: null, onMessage: null, openChannel: null, placeOf: null,
  post: null, sharePlace: null,
  // frame.js: the frame: strip, tools, notices, sentence box, key list, black screen
  applySentence: null, closeOverlays: null, deckSkeleton: null, frameTexts: null,
  showNotices: null, toggleEditor: null, toggleFull: null, toggleHelp: null,
  togglePause: null, whereText: null,
  // quiz.js: predict, then reveal; answers by question id; the takeaway after the reveal
  keepAnswer: null, quizId: null, quizOf: null, renderQuiz: null, sayVerdict: null,
  takeShown: null, takeText: null,
  // progress.js: a student's progress in localStorage: the last place, the review
  lastPlace: null, markAnswer: null, saveProgress: null, toggleReview: null, wrongOnes: null,
  // presenter.js: the presenter window (S): notes, the next step, the clock, the class's tally
  buildPresenter: null, fillPresenter: null, greet: null, openPresenter: null,
  stopPresenter: null,
  // stage.js: the scene on screen, its steps, the link, its layout
  drawScene: null, goPlace: null, goScene: null, goStep: null, layoutDeck: null, renderScene: null,
  scheduleLayout: null, stepBack: null, stepNext: null, writeLink: null,
  // widgets.js: the controls a scene puts beside its figure; setLocal
  askBlock: null, fillSide: null, headPicker: null, pctText: null, quoteTok: null, setLocal: null,
  wButton: null, wReadout: null, wSlider: null, wSwitch: null, wTokenSelect: null, wTokens: null,
  // overview.js: every scene's title (O, Esc); the printed handout, a page per scene
  buildHandout: null, handoutNow: null, overviewKey: null, printHandout: null,
  toggleOverview: null,
  // class_panel.js: the live class on screen: its bar, the join panel (code, QR), the tally
  classError: null, classNodes: null, classNodesOf: null, classPaint: null, classTexts: null,
  classWord: null, paintBar: null, paintJoin: null, paintTally: null,
  // class_net.js: the class's routes called, a phone's token, the deck's place as the class's
  classCall: null, classErrorOf: null, classPlaceOf: null, classUrl: null, phoneToken: null,
  placeBody: null, writeClassLink: null,
  // class_follow.js: the class's state on this deck: taken, followed, the teacher's place posted,
  //   a phone's answer sent, the presenter told
  classAnswer: null, classAsks: null, classHolds: null, classMoved: null, followAgain: null,
  goToClass: null, takeState: null, tellPresenter: null, useSetup: null,
  // class.js: the live class (classroom/README.md): make, lead, join, follow, answer, presenter
  classAction: null, classHeader: null, startClassroom: null, stopClassroom: null,
  toggleJoin: null,
  // keys.js: the keyboard and a finger's swipe, bound from KEY_MAP
  bindKeys: null,
  // views.js: the attention view in a scene; one head large beside every head small
  bigMap: null, NO_JOB: null, sceneView: null, viewHeader: null,
  // chart.js: line charts on the pen
  decadeTicks: null, drawChart: null, logAxis: null,
  // cellstep.js: §4's step "cell": one score taken apart (the view's cell.js breakdown)
  asideFigure: null, CELL_STEP: null, cellStep: null,
  // expstep.js: §4's step "exp" (③′): softmax opened up on the focus row, a table of its numbers
  EXP_STEP: null, paintExp: null,
  // mixstep.js: §4's step ④: A · V beside the weights, the focus row of O (on a phone: a column)
  paintMix: null, paintMixPhone: null, roomBesideV: null,
  // whystep.js: §5's steps "why" (var(q·k) ≈ d_k) and "grad" (a saturated row stops learning)
  paintGrad: null, paintWhy: null, varianceOr: null,
  // rnnchain.js: §1's step "rnn": an RNN's chain beside attention's one hop (across, or down)
  chainAcross: null, chainDown: null, chainHops: null,
  // qkstep.js: §6's steps "qk" and "qk0": one head's queries and keys in one plane (qk.js)
  QK_STEPS: null, qkStep: null,
  // scenes/s??.js: the scenes §1 … §10, each a file in the order of its number, found by
  //   ui/explorer/units.py (s01.js §1 whom 他 means, s04.js §4 the formula step by step, …)
  // run.js: the deck's record and its life in Streamlit (gives nothing)
});
