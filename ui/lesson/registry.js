/* The lesson deck's registry: every name one of its files gives another, declared once, under the
   file that gives it, in the order the files run; the view's files (ui/explorer/registry.js,
   VIEW) run before them, and a deck file takes from either: `const { fmt } = VIEW;` and
   `const { make, tx } = LESSON;` at its top, `return { … };` last, exactly as the view's
   registry describes. ui/explorer/units.py builds the bundle from this list and checks it.

   To add a scene (§11, say): write scenes_<topic>.js, taking what it draws with (the pen, the
   widgets, sceneView …) and giving `scene11` (title, steps, take, mount, and a quiz if it asks);
   add its section below, before run.js; list it in run.js's SCENES, and in ui/lesson/data.py.
   Another part of the deck (the class's follow, say) is a file here too; the state it keeps is a
   field of the deck's record D, written where D is made (run.js newDeck), never added elsewhere:
   D, its settings and its frame are sealed. */

const LESSON = Object.seal({
  // builder: the deck's stylesheet and its key map (ui/lesson/deck.py KEY_MAP)
  LESSON_CSS: null, KEY_MAP: null,
  // pen.js: the lesson's figures on canvas, every word through the pen
  penArrow: null, penCells: null, penDone: null, penFont: null, penInkOn: null, penLine: null,
  penMap: null, penMeasure: null, penOutline: null, penStart: null, penText: null, penTry: null,
  penWrap: null, rampRgb: null,
  // arith.js: a row of weights times V, keys ranked (pure)
  mixRows: null, rankRow: null,
  // deck.js: what every part reads from the deck's record: words, numbers, room, clock
  animate: null, arr: null, button: null, deepActive: null, divisorOf: null, figureBox: null,
  focusIn: null, fontsOf: null, labelChars: null, labelsOf: null, lookOfDeck: null, make: null,
  needOf: null, roomOf: null, scenePen: null, sceneTitle: null, sendState: null, setFor: null,
  SIDE_FRACTION: null, speak: null, stopAnimation: null, tx: null, weightsOf: null,
  // frame.js: the frame: strip, tools, notices, sentence box, notes, key list, black screen
  applySentence: null, closeOverlays: null, deckSkeleton: null, fillNotes: null, frameTexts: null,
  showNotices: null, toggleEditor: null, toggleFull: null, toggleHelp: null, toggleNotes: null,
  togglePause: null,
  // stage.js: the scene on screen, its steps, its quiz and its layout
  drawScene: null, goScene: null, layoutDeck: null, renderScene: null, scheduleLayout: null,
  stepBack: null, stepNext: null,
  // keys.js: the keyboard, bound from KEY_MAP
  bindKeys: null,
  // widgets.js: the controls a scene puts beside its figure
  askBlock: null, changeShared: null, fillSide: null, headPicker: null, pctText: null,
  quoteTok: null, wButton: null, wReadout: null, wSlider: null, wSwitch: null, wTokens: null,
  // views.js: the attention view in a scene
  NO_JOB: null, sceneView: null, viewHeader: null,
  // chart.js: line charts on the pen
  decadeTicks: null, drawChart: null, logAxis: null,
  // scenes_words.js: §1 whom 他 means; helpers every scene uses
  headWeights: null, scene1: null, sceneCanvas: null, stepTexts: null,
  // scenes_library.js: §2 the library lookup, §3 one word's three faces
  s2Head: null, scene2: null, scene3: null,
  // scenes_formula.js: §4 the formula step by step
  scene4: null,
  // scenes_scaling.js: §5 why √d_k
  scene5: null,
  // scenes_heads.js: §6 heads, §8 order, §9 the causal mask
  scene6: null, scene8: null, scene9: null,
  // scenes_cost.js: §7 cost, §10 parallel and learned
  scene7: null, scene10: null,
  // run.js: the deck's record and its life in Streamlit (gives nothing)
});
