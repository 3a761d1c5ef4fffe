"""Issue 31 item 11 in Chromium: in English, the lesson's maps of the example sentence carry each
token's gloss ("小明 Xiaoming", "把 (object marker)") beside its row label, at 1024 × 768, with
cells ≥ 20 px and every token labelled (checked in test_lesson.py's walk: `Glosses`); the column
labels under a map stay the tokens alone.

Each map canvas publishes its row labels as drawn (data-rows, draw.js publishText); a label's
gloss is checked against ui/gloss.py's, not against the deck's own table.
"""

from __future__ import annotations

import json

import pytest

from tests.lesson_support import DECK, open_lesson
from ui.gloss import SUBSCRIPTS, gloss

pytestmark = pytest.mark.browser

MAP_SCENES = (4, 5, 6, 8, 9, 10)

# Steps whose map has no room for glosses beside its rows at 1024 × 768 (measured: with them its
# cells would fall under 20 px), so they show the tokens alone. The test fails when one of them
# gains its glosses (delete it here) or another step loses them.
NO_ROOM = {
    (4, "mix"): "A beside V and O: the rows' room is ~330 px",
    (4, "play"): "the play rests on ④'s picture, A beside V and O (as 'mix')",
    (10, "parallel"): "beside the RNN's chain: the map's room is ~410 px wide",
    (9, "code"): "beside the code at 1024 px (issue 39 item 23): the map's room is ~390 px wide",
}

ROWS = f"""() => [...{DECK}.querySelectorAll('canvas[data-cell]')]
  .filter((c) => c.getClientRects().length && !c.closest('[hidden], .overview, .handout'))
  .map((c) => c.dataset.rows || '[]')"""


def gloss_problems(rows: list[str | None]) -> list[str]:
    """What is wrong with one map's row labels: a token unlabelled, or a known gloss missing or
    not the token's (a label reads "name gloss", the gloss a leading part of ui/gloss.py's)."""
    out = []
    for k, label in enumerate(rows):
        if label is None:
            out.append(f"row {k + 1} unlabelled")
            continue
        name, _, said = label.partition(" ")
        want = gloss(name.rstrip(SUBSCRIPTS))
        if want is None:
            continue
        if not said or not want.startswith(said.rstrip("…")):
            out.append(f"{label!r}: not glossed as {want!r}")
    return out


def test_gloss_problems_reads_a_label_as_its_gloss_and_finds_a_missing_one():
    glossed = ["小明 Xiaoming", "把 (object marker)", "走 walk", "了₂ (aspect particle)"]
    assert gloss_problems(glossed) == []
    assert gloss_problems(["我 I", "打 hit", "你 you"]) == []
    assert gloss_problems(["小明", None, "他 she"]) == [
        "'小明': not glossed as 'Xiaoming (name)'",
        "row 2 unlabelled",
        "'他 she': not glossed as 'he'",
    ]


class Glosses:
    """In test_lesson.py's English walk at 1024 × 768 (the one walk of those steps, issue 40):
    each map's rows glossed (gloss_problems) at every step of MAP_SCENES, a map seen in each,
    and the steps left bare exactly NO_ROOM's. Its cells and labels: map_problems, in that walk."""

    def __init__(self) -> None:
        self.maps: set[int] = set()
        self.bare: set[tuple[int, str]] = set()

    def step(self, page, scene: int, sid: str) -> list[str]:
        if scene not in MAP_SCENES:
            return []
        found = []
        for k, rows in enumerate(json.loads(r) for r in page.evaluate(ROWS)):
            self.maps.add(scene)
            missing = gloss_problems(rows)
            if (scene, sid) in NO_ROOM and missing:
                self.bare.add((scene, sid))
            else:
                found += [f"{sid} map {k + 1}: {p}" for p in missing]
        return found

    def problems(self) -> list[str]:
        out = [f"§{k} showed no map" for k in MAP_SCENES if k not in self.maps]
        if self.bare != set(NO_ROOM):
            bare, room = sorted(self.bare), sorted(NO_ROOM)
            out.append(f"steps without glosses {bare}, not NO_ROOM's {room}")
        return out


def test_in_chinese_the_rows_are_the_tokens_alone(page, streamlit_server):
    open_lesson(page, streamlit_server, "?at=8&step=reveal&lang=zh", (1024, 768))
    shown = [json.loads(r) for r in page.evaluate(ROWS)]
    assert shown == [["我", "打", "你"], ["你", "打", "我"]]
