"""The lesson's scenes as their own files declare them (ui/lesson/scenes.py): numbered in the
order of ui/lesson/scenes/*.js's names, each with the facts of its text table's [scene]; a scene
put between two others is numbered between them, and a table that breaks the rule says so."""

from __future__ import annotations

import pytest

from ui.lesson import data, scenes
from ui.text import SECTIONS


def test_the_lessons_scenes_and_what_each_needs():
    """Numbered 1, 2, … in their files' name order; a few scenes' facts as the article has them
    (another scene, inserted anywhere, changes none of this)."""
    ids = [scene.id for scene in scenes.SCENES]
    assert ids == sorted(ids) and [s.number for s in scenes.SCENES] == list(range(1, len(ids) + 1))
    need = {scene.id: set(scene.needs) for scene in scenes.SCENES}
    assert need["s01"] == {"sentence", "two_tokens", "trained", "pronoun"}
    assert need["s06"] == {"sentence", "two_tokens", "trained"} and need["s05"] == {
        "sentence",
        "two_tokens",
    }
    assert need["s07"] == need["s08"] == set()  # the cost and the order: no sentence of yours
    number = {scene.id: scene.number for scene in scenes.SCENES}
    assert (number["s01"], number["s06"]) == data.TRAINED_SCENES and len(ids) == data.SCENES
    assert set(data.NEEDS_TWO) == {number[i] for i in ids if "two_tokens" in need[i]}


def test_the_facts_are_no_text():
    """The text loader leaves a scene's [scene] out: no key "scene", no "needs" among its words."""
    assert all("scene" not in SECTIONS[s.words] for s in scenes.SCENES)
    assert not any(key.endswith("needs") for s in scenes.SCENES for key in SECTIONS[s.words])


def scratch(tmp_path, tables: dict[str, str]):
    """Scene files and text tables in tmp_path: name → the table's [scene] body (None: none)."""
    (tmp_path / "scenes").mkdir()
    for name, facts in tables.items():
        (tmp_path / "scenes" / f"{name}.js").write_text("", encoding="utf-8")
        if facts is not None:
            text = f'[scene]\n{facts}\n\n["lesson.x.title"]\nen = "x"\n'
            (tmp_path / f"lesson_{name}.toml").write_text(text, encoding="utf-8")
    return scenes.read_scenes(tmp_path / "scenes", tmp_path)


def test_a_scene_between_two_others_takes_its_place_by_name(tmp_path):
    found = scratch(
        tmp_path, {"s05": "needs = []", "s04": "needs = []", "s04b": 'needs = ["trained"]'}
    )
    assert [(s.id, s.number) for s in found] == [("s04", 1), ("s04b", 2), ("s05", 3)]
    assert found[1].needs == {"trained"} and found[1].words == "lesson_s04b"


@pytest.mark.parametrize(
    ("facts", "says"),
    [
        (None, "has no text table lesson_s01.toml"),
        ('title = "x"', "write the scene's facts as [scene] needs"),
        ('needs = ["three_tokens"]', "not ['three_tokens']"),
        ("needs = []\nnumber = 4", "not ['number']"),
    ],
)
def test_a_table_without_its_facts_says_what_is_wrong(tmp_path, facts, says):
    with pytest.raises(ValueError, match=says.replace("[", r"\[").replace("]", r"\]")):
        scratch(tmp_path, {"s01": facts})
