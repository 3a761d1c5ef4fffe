/* The attention view's registry: every name one of its files gives another, declared once, under
   the file that gives it, in the order the files run. ui/explorer/units.py builds the bundle from
   this list (the lesson's bundle takes the view's files from it too).

   Each file is a unit, as an ES module would be (components v2 runs the bundle from a Blob URL,
   where relative imports cannot resolve):
     - its header comment says what it is for;
     - then what it takes, the analogue of `import { fmt, pct } from "./a11y.js"`:
         const { fmt, pct } = VIEW;
       only names that files above it give;
     - then its own code (its other names stay its own);
     - last, what it gives, the analogue of `export`: `return { summaryText, tableRows };`,
       exactly the names its section below lists (`return {};` when it gives none).
   To add a file: write it so and add its section below, after every file it takes from. The
   builder refuses a bundle where a file takes a name no file above it gives, gives other names
   than its section lists, or names VIEW anywhere but in its takes; VIEW is sealed, so no name
   declared nowhere can be added in the browser either. No file adds a field to another's record:
   a record's fields are all written where it is made. */

const VIEW = Object.seal({
  // builder: the view's stylesheet (explorer.css) and each language's <html lang> (ui.text
  //   LANGUAGES: header.lang → "zh-CN"), given by ui/explorer/__init__.py
  HTML_LANG: null, STYLESHEET: null,
  // softmax.js: ÷τ, the causal mask and the row softmax; a row's entropy and top share (pure)
  attentionWeights: null, rowSpread: null, rowStats: null,
  // colour.js: the palette's ramps, a map's cells on them, the ink on a colour (pure)
  headColour: null, hexRgb: null, inkOn: null, paintRamp: null, RAMP_SIZE: null, rampCss: null,
  rampIndex: null, scoreCells: null, weightCells: null,
  // layout.js: how many maps per row and how big, in the room (pure)
  boxesMeet: null, FIGURE_PAD: null, fitGrid: null, fontSizes: null, GAP: null, isUpright: null,
  keyLabels: null, labelDepth: null, labelIndices: null, labelWidth: null, mapGeometry: null, viewLayout: null,
  // a11y.js: text alternatives and the story, and whether a row is decided (pure)
  argmaxRow: null, captionsOf: null, clipLabel: null, cursorLine: null, decidedRow: null,
  distinctNames: null, fmt: null, glossed: null, pct: null, storyOf: null, summaryText: null,
  tableRows: null, tauText: null, tipOf: null,
  // payload.js: the binary payloads Python sends (pure)
  floatsOf: null, readPayload: null,
  // draw.js: maps, colour bars and focus bars on canvas
  axisLabels: null, cellLines: null, cellNumberPx: null, cellNumbers: null, drawBars: null,
  drawColourBar: null, drawMap: null, gridLines: null, hatchFuture: null, labelLayer: null,
  marks: null, outline: null, paintGrid: null, publishText: null, sizeCanvas: null,
  // input.js: where a pointer or a key lands; the listener registry
  barAt: null, cellAt: null, cursorAfter: null, listen: null, radioAfter: null, releasedTau: null,
  rowLabelAt: null, sliderFromTau: null, tauFromSlider: null, unlistenAll: null,
  // export.js: the PNG at projector width
  exportCanvas: null,
  // dom.js: the view's elements
  el: null, fillLegend: null, fillTable: null, mapItem: null, placeWords: null, skeleton: null,
  skipLinkEl: null, tokenButton: null, writeWords: null,
  // cell.js: the raw scores from Q and K; one cell taken apart into its query and key
  buildCell: null, cellBreakdown: null, cellSay: null, fillCell: null, qkScores: null,
  renderCell: null,
  // qk.js: the query–key map: queries and keys in one plane per head
  buildQk: null, drawQkHead: null, qkPlane: null, renderQk: null,
  // paint.js: the steps of one commit, as functions of the view's record
  applyWords: null, computeRef: null, computeWeights: null, describeView: null,
  drawLabelLayers: null, relayoutView: null, renderBars: null, renderControls: null,
  renderGrid: null, renderPanels: null, renderStory: null, renderTip: null, snapshotOf: null,
  tipText: null, viewHeadName: null,
  // handlers.js: the view's event handlers
  bindView: null,
  // view.js: createView, the view as one closure
  createView: null,
  // streamlit.js: the view as a Streamlit component (gives nothing; the lesson leaves it out)
});
