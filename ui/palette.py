"""The one palette: ramps, head colours, font sizes, the ink-on-colour rule, label clipping."""

from __future__ import annotations

import numpy as np

# ---- ramps -----------------------------------------------------------------------------------

VIRIDIS = (
    "#440154",
    "#482878",
    "#3e4989",
    "#31688e",
    "#26828e",
    "#1f9e89",
    "#35b779",
    "#6ece58",
    "#b5de2b",
    "#fde725",
)
# Viridis (colour-blind-safe) with a square-root ramp: the many small weights (≈ 1/n) stay
# distinguishable while the colour bar still reads 0–100 %.
WEIGHT_SCALE = [[(k / (len(VIRIDIS) - 1)) ** 2, c] for k, c in enumerate(VIRIDIS)]
# Diverging for scores and matrices: ColorBrewer RdBu reversed (colour-blind-safe), written out
# (what plotly expands "RdBu_r" to) so cell text can pick its colour against it.
RDBU_R = (
    "#053061",
    "#2166ac",
    "#4393c3",
    "#92c5de",
    "#d1e5f0",
    "#f7f7f7",
    "#fddbc7",
    "#f4a582",
    "#d6604d",
    "#b2182b",
    "#67001f",
)
SIGNED_SCALE = [[k / (len(RDBU_R) - 1), c] for k, c in enumerate(RDBU_R)]

# ---- head colours ----------------------------------------------------------------------------

# Sixteen heads, sixteen colours: Okabe–Ito's seven first, then Paul Tol's, chosen greedily so
# that every pair stays ≥ 13 CIELAB ΔE apart for normal vision and for simulated protanopia,
# deuteranopia and tritanopia (tests/ui/test_a11y_frame.py checks it); the first eight are dark
# enough for lines on white, the light ones come last.
HEAD_COLOURS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#000000",
    "#332288",
    "#AA3377",
    "#999933",
    "#663333",
    "#99DDFF",
    "#666633",
    "#FFAABB",
    "#994F00",
    "#EEDD88",
)

# ---- ink: text and marks on colour and on paper ------------------------------------------------

BLACK, WHITE = "#000", "#fff"
# Black text on a colour whose WCAG relative luminance is above this, white below: the point
# where both contrast equally, (L + 0.05) / 0.05 = 1.05 / (L + 0.05), so L = √(1.05·0.05) − 0.05.
INK_LUMINANCE = (1.05 * 0.05) ** 0.5 - 0.05
SRGB_KNEE = 0.04045  # sRGB → linear: c/12.92 below, ((c + 0.055)/1.055)^2.4 above (IEC 61966-2-1)
INK = {
    "text": "#111111",  # labels and titles on white
    "text_classroom": "#000000",
    "masked": "#ececec",  # a masked (causal) cell, under its hatching
    "hatch": "#8a8a8a",
    "grid": "rgba(255,255,255,0.9)",  # lines between cells
    "rule": "#c8c8c8",  # gridlines of the focus bars
    "frame": "#444444",  # the colour bars' outline
    "bar_edge": "#222222",  # outline of a focus bar
    "mark_outer": BLACK,  # the focus row, hovered cell and cursor: black outside, white inside
    "mark_inner": WHITE,
    "paper": WHITE,  # the exported PNG's background
}

# ---- type ------------------------------------------------------------------------------------

FONT_STACK = (
    '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif'
)
# px per use: axis labels (label, shrinking to min when cells are small), titles, cell numbers.
FONTS = {
    "normal": {"label": 14, "min": 9, "title": 16, "cell": 12},
    "phone": {"label": 13, "min": 9, "title": 15, "cell": 11},
    "classroom": {"label": 24, "min": 16, "title": 26, "cell": 20},  # read from the back
    "export": {"label": 22, "min": 12, "title": 26, "cell": 18},  # the 1920-px PNG
}
# The plotly figures' sizes (tick labels, titles, cell numbers) in each mode.
PLOTLY_FONTS = {
    False: {"base": 12, "title": 14, "cell": 11},
    True: {"base": 24, "title": 26, "cell": 20},
}
CELL_FONT_MIN = 9  # below this a number in a cell is unreadable: numbers are left out instead

# ---- labels ----------------------------------------------------------------------------------

LABEL_CHARS = 8  # longer token texts are cut with "…" on axes
MAX_CELL_NUMBERS = 24  # plotly maps: above this many tokens, numbers in cells are too crowded


def clip_label(text: str, max_chars: int = LABEL_CHARS) -> str:
    """A token text cut to max_chars characters, the last one "…" when it was longer."""
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"


# ---- colour arithmetic: the one place a cell's colour and its number's colour are decided -----


def channels(colour: str) -> tuple[float, float, float]:
    """ "#rrggbb" or "rgb(r,g,b)" → (r, g, b) in 0…255."""
    if colour.startswith("#"):
        return tuple(float(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    r, g, b = (float(v) for v in colour[colour.index("(") + 1 : -1].split(",")[:3])
    return r, g, b


def scale_colours(z: np.ndarray, zmin: float, zmax: float, scale: list) -> np.ndarray:
    """The RGB (…, 3) painted for values z on `scale` between zmin and zmax.

    Linear in RGB between the stops, clamped (as plotly.js and ui/explorer/colour.js do).
    """
    stops = np.array([zmin + p * (zmax - zmin) for p, _ in scale])
    rgb = np.array([channels(c) for _, c in scale])  # (stops, 3)
    flat = np.clip(np.asarray(z, dtype=float).ravel(), stops[0], stops[-1])
    out = np.stack([np.interp(flat, stops, rgb[:, k]) for k in range(3)], axis=-1)
    return out.reshape(*np.shape(z), 3)


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of sRGB colours (…, 3) in 0…255."""
    c = np.asarray(rgb, dtype=float) / 255
    linear = np.where(c <= SRGB_KNEE, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def text_on(rgb: np.ndarray) -> np.ndarray:
    """Black or white per colour (…, 3): black above INK_LUMINANCE (always ≥ 4.58 : 1)."""
    return np.where(luminance(rgb) > INK_LUMINANCE, BLACK, WHITE)


def for_view(classroom: bool) -> dict:
    """What the attention view (ui/explorer) draws with, sent in its header: JS writes no colour,
    size or rule of its own."""
    return {
        "weight": [[float(p), c] for p, c in WEIGHT_SCALE],
        "signed": [[float(p), c] for p, c in SIGNED_SCALE],
        "heads": list(HEAD_COLOURS),
        "ink": {**INK, "text": INK["text_classroom" if classroom else "text"]},
        "on_colour": {"threshold": INK_LUMINANCE, "knee": SRGB_KNEE, "dark": BLACK, "light": WHITE},
        "fonts": FONTS,
        "font_stack": FONT_STACK,
        "cell_min": CELL_FONT_MIN,
        "label_chars": LABEL_CHARS,
    }


# ---- the lesson (ui/lesson): its ink on paper, its type for a room ---------------------------

# Words and marks of the lesson's own figures (cards, chains, charts) and of its frame (the deck
# sets them as CSS variables), each ≥ 4.5 : 1 on white where it carries words.
LESSON_INK = {
    "text": "#111111",  # words on white, 18.9 : 1
    "muted": "#3d4350",  # axes, titles of a part, the step's name: 9.9 : 1
    "accent": "#1f5fbf",  # the app's primary colour: the current scene, attention's bars, 6.1 : 1
    "warm": "#b3361b",  # the pronoun, the answer, the ×4: 6.1 : 1
    "line": "#8d93a0",  # marks without words (3.1 : 1): guessed links, idle arrows, var = d_k
    "rule": "#e2e5ea",  # chart gridlines
    "edge": "#aab0bb",  # a card's border
    "track": "#dfe3ea",  # the empty part of a share bar
    "paper": "#ffffff",  # a card, an RNN state not yet reached
    "paper_me": "#fff3ef",  # the query's own card
    "paper_masked": "#eceef2",  # a card the causal mask hides
    "squares": ["#c6d6f0", "#e2eaf8"],  # §7's n × n cells, two light shades of the accent
    # The frame's surfaces (lesson.css reads every string here as var(--name), _ as -).
    "on_accent": "#ffffff",  # words on the accent (the current scene, a primary button)
    "black": "#000000",  # the black screen (B)
    "idle_text": "#4a4f5c",  # a disabled button's words, 7.9 : 1 on idle_paper
    "idle_paper": "#f3f4f6",
    "pressed": "#e8eefb",  # a tool that is on (notes, key list)
    "panel": "#f0f2f6",  # the sentence box's strip, a verdict not yet given
    "field_edge": "#5c6070",  # the sentence box's border (3 : 1 and more for a control)
    "notice": "#fff4d6",  # a notice, the note that a scene runs on the example
    "notice_edge": "#8a6100",  # its edge, a scene that cannot run, the teacher's notes
    "notes": "#fffbe8",  # the teacher's notes
    "need": "#fffaf0",  # a scene this sentence cannot show
    "right_edge": "#1d6b2f",  # a right answer: edge, paper, words (12.6 : 1)
    "right_paper": "#e3f4e6",
    "right_text": "#0f3d1b",
    "wrong_paper": "#fbe7e2",  # a wrong answer (its edge is warm): paper, words (11.6 : 1)
    "wrong_text": "#6b1d0c",
    "code_paper": "#f6f8fa",  # §9's listing
    "code_hot": "#fde9b8",  # the line the step runs
}
# The lesson's type: every word at `base` px on a projector's 1024 × 768 (20 px reads from the
# back row of a classroom), `big` on a screen of at least big_screen (w, h); numbers in cells
# never under cell_min; §9's code on a phone (where it wraps) at phone_code.
LESSON_TYPE = {"base": 20, "big": 24, "big_screen": [1500, 950], "cell_min": 16, "phone_code": 16}
# The attention view's type inside the lesson (createView's fonts "room"), scaled by base / 20:
# labels never shrink below the room's base; numbers in cells from cell down to cell_min.
FONTS_ROOM = {"label": 20, "min": 20, "title": 24, "cell": 20, "cell_min": 16}
MONO_STACK = '"Noto Sans Mono CJK SC", "DejaVu Sans Mono", Menlo, Consolas, monospace'
# English: Latin glyphs first, so “ ” and ' are not full width; the CJK stack after them.
LATIN_STACK = '"Segoe UI", Roboto, "Helvetica Neue", Arial, "DejaVu Sans", ' + FONT_STACK


def for_lesson() -> dict:
    """What the lesson draws with, sent in its header: the view's palette at the room's size
    (its maps are the attention view), and the lesson's own ink, type and font stacks."""
    view = for_view(classroom=True)
    return {
        **view,
        "fonts": {**FONTS, "room": FONTS_ROOM},
        "lesson": {
            "ink": LESSON_INK,
            "type": LESSON_TYPE,
            "mono": MONO_STACK,
            "latin": LATIN_STACK,
        },
    }
