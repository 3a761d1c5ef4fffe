"""The token axes of the maps: labels across, upright or turned, English glosses, every label
that fits, and the margins they need (text_px estimates, no second layout pass in plotly)."""

from __future__ import annotations

import re

from ui.figures.base import esc, text_px
from ui.gloss import short_gloss

# Chinese labels (CJK, full-width punctuation, "…"), as ui/explorer/layout.js's WIDE
CJK = re.compile(r"^[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f\u2080-\u2089\u2026]+$")
ZWSP = "\u200b"  # token_labels' mark of a repeated token (same glyphs, its own category)


def axis(labels: list[str], size: int, colour: str, title: str, ticks: dict) -> dict:
    """A category axis of unique labels in order (tokens, dimensions), drawn as `ticks` says."""
    text = {"size": size, "color": colour}
    return {
        "type": "category",
        "categoryorder": "array",
        "categoryarray": labels,
        "automargin": False,  # margins come from margins(): no second layout pass in plotly
        "showgrid": False,
        **ticks,
        "tickfont": text,
        "title": {"text": esc(title), "font": text, "standoff": 6},
    }


def stands_upright(labels: list[str]) -> bool:
    """True when every label is Chinese (CJK, full-width punctuation, "…"): labels that do not
    fit across then stand upright, one character under another, as the main page's view draws
    them (ui/explorer/layout.js isUpright), rather than turned on their side."""
    return all(CJK.match(label.replace(ZWSP, "")) for label in labels)


def _glossed(label: str, word: str | None, size: int, *, below: bool) -> str:
    """A tick label with its English gloss in smaller type, below it or after it."""
    if not word:
        return label
    return f'{label}{"<br>" if below else " "}<span style="font-size:{size}px">{esc(word)}</span>'


def ticks(labels: list[str], glosses: list, every: int, way: str, size: int) -> dict:
    """Tick values and texts of every `every`-th label: "across" (gloss on a second line),
    "stacked" (characters one under another) or "turned" (-90°); `size`: the gloss's type."""
    shown = range(0, len(labels), every)
    if way == "stacked":
        text = ["<br>".join(labels[k].replace(ZWSP, "")) for k in shown]
    else:
        text = [_glossed(labels[k], glosses[k], size, below=way == "across") for k in shown]
    angle = -90 if way == "turned" else 0
    return {
        "tickmode": "array",
        "tickvals": [labels[k] for k in shown],
        "ticktext": text,
        "tickangle": angle,
    }


def margins(rows: list[str], cols: list[str], size: int, way: str, spec: dict) -> dict:
    """Left/bottom margins that fit the tick labels, their glosses and the axis titles
    (text_px estimates).

    Fixed margins instead of plotly's automargin, which lays every map out twice (measure the
    labels, grow the margins, draw again): −19 % renderer CPU per click at 13 tokens, −39 % at
    64 (BENCHMARKS.md).
    """
    widest = lambda labels: max((text_px(x, size) for x in labels), default=size)  # noqa: E731
    x_title = int(1.5 * size) + 4 if spec["titles"][0] else 0
    small = gloss_px(size)
    if way == "stacked":
        bottom = int(max(len(c.replace(ZWSP, "")) for c in cols) * 1.25 * size) + 12
    elif way == "turned":
        bottom = widest(cols) + 22
    else:  # across, a second line where a gloss is shown
        bottom = size + 12 + (int(1.3 * small) if any(spec["glosses"][1]) else 0)
    return {"l": left_margin(rows, size, spec), "b": bottom + x_title}


def left_margin(rows: list[str], size: int, spec: dict) -> int:
    """Pixels left of a map for its row labels (with their glosses) and the y axis title."""
    small, row_gloss = gloss_px(size), spec["glosses"][0]
    left = max(
        text_px(r, size) + (text_px(" " + g, small) if g else 0)
        for r, g in zip(rows, row_gloss, strict=True)
    )
    return int(1.1 * left) + 22 + (int(1.5 * size) + 4 if spec["titles"][1] else 0)


def glosses(texts: list[str], lang: str) -> list[str | None]:
    """Each token's short English gloss for its axis label (all None in Chinese)."""
    return [short_gloss(x, lang) for x in texts]


def gloss_px(size: int) -> int:
    """The type size of a gloss beside or under a tick label of size `size`."""
    return max(9, round(0.8 * size))


def every_nth(count: int, label_px: float, room: float) -> int:
    """Every how many-th of `count` labels to draw so that each has `label_px` in `room` px:
    1, 2, 4, 8 … (dimension 0, 8, 16 … rather than 0, 9, 18 …)."""
    need = count * label_px / max(room, 1)
    return next(k for k in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512) if k >= need or k == 512)


def x_labels(cols: list[str], size: int, spec: dict) -> tuple[str, list, int]:
    """How the column labels are drawn: (way, their glosses, every how many-th is drawn).

    Across when they all fit (or spec["upright"] says so), with their glosses on a second line
    when those fit too; else Chinese labels stand upright and others turn -90°."""
    room, small = spec["room"], gloss_px(size)
    glossed = (spec.get("glosses") or (None, [None] * len(cols)))[1]
    none = [None] * len(cols)
    label_px = max(text_px(c, size) for c in cols) + size / 2
    if spec["upright"] or len(cols) * label_px <= room:
        every = every_nth(len(cols), label_px, room)
        gloss_px_ = max(text_px(g or "", small) for g in glossed) + size / 2
        fits = any(glossed) and every_nth(len(cols), max(label_px, gloss_px_), room) == every
        return "across", glossed if fits else none, every
    way = "stacked" if stands_upright(cols) else "turned"
    return way, none, every_nth(len(cols), size + 4, room)
