"""The words and code the lesson's deck shows (no st.*): the strings of its text tables, the
glossary, §4's numpy lines, §9's listing, and the teacher's notes, which pages/lesson.py sends
to the presenter window alone (each scene's "lesson.sN.notes", in its own ui/text/lesson_sNN.toml).
"""

from __future__ import annotations

import inspect
from functools import cache

from ui.lesson import scenes, skeleton
from ui.text import SECTIONS, t

# Strings of other pages the deck shows as they are (map axes, summaries, job names).
SHARED_KEYS = (
    "main.query_axis",
    "main.key_axis",
    "gloss.none",
    "explorer.summary",
    "explorer.summary_row",
    "explorer.sep",
    "explorer.colour_weight",
    "explorer.colour_score",
)


def scene_areas() -> tuple[str, ...]:
    """Each scene's text table, in lesson order: lesson_sNN (ui/text/lesson_sNN.toml) for
    scenes/sNN.js."""
    return tuple(scene.words for scene in scenes.SCENES)


@cache
def note_keys() -> tuple[str | None, ...]:
    """The key of each scene's teacher's notes, in lesson order: the one ending in ".notes" of
    its own text table (ui/text/lesson_sNN.toml for scenes/sNN.js), or None."""
    return tuple(
        next((k for k in SECTIONS[area] if k.endswith(".notes")), None) for area in scene_areas()
    )


@cache
def notes(lang: str) -> dict[str, list[list[str]]]:
    """Teacher's notes per scene number ("1" … "10"): [["p" | "li", text], …]: a "- " line is a
    question for the class or a thing to do, any other line what to say."""
    out: dict[str, list[list[str]]] = {}
    for scene, key in zip(scenes.SCENES, note_keys(), strict=True):
        lines = [ln.strip() for ln in (t(key, lang) if key else "").splitlines() if ln.strip()]
        said = [["li", ln[2:]] if ln.startswith("- ") else ["p", ln] for ln in lines]
        out[str(scene.number)] = said
    return out


@cache
def listing() -> list[str]:
    """§9's code: the skeleton's real source (inspect), its docstrings left out."""
    lines = []
    for fn in (skeleton.attention, skeleton.causal_mask):
        src = inspect.getsource(fn).splitlines()
        lines += [ln for ln in src if not ln.strip().startswith('"""')] + [""]
    return lines[:-1]


def numpy_lines(scale: bool, causal: bool) -> list[str]:
    """§4: the numpy line of each step, as computed in the settings in force."""
    scaled = "S = S / np.sqrt(d_k)" if scale else "S = S  # no ÷√d_k"
    soft = "A = softmax(np.where(mask, S, -np.inf))" if causal else "A = softmax(S, axis=-1)"
    return ["S = Q @ K.swapaxes(-1, -2)", scaled, soft, "O = A @ V"]


def deck_areas() -> tuple[str, ...]:
    """The text tables the deck shows: lesson.toml, each scene's lesson_sNN.toml (but its
    teacher's notes, which go to the teacher alone: strings) and the presenter view's words."""
    return ("lesson", *scene_areas(), "presenter")


def strings(lang: str) -> dict[str, str]:
    """Every string the deck shows, keyed as in the text tables (grep finds each use)."""
    words = (k for area in deck_areas() for k in SECTIONS[area] if k not in note_keys())
    keys = (*words, *SHARED_KEYS)
    return {key: t(key, lang) for key in keys}


@cache
def glossary(lang: str) -> list[list[str]]:
    """The glossary (ui/text/glossary.toml), whole, in its order: [slug, term, definition,
    example template or ""] per term (the deck fills an example's values, terms.js)."""
    entries: dict[str, dict[str, str]] = {}
    for key in SECTIONS["glossary"]:
        slug, _, kind = key.removeprefix("glossary.").partition(".")
        entries.setdefault(slug, {})[kind or "def"] = t(key, lang)
    return [[slug, e["term"], e["def"], e.get("example", "")] for slug, e in entries.items()]
