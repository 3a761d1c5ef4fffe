"""The lesson's scenes as their own files declare them (ui/lesson/scenes.py): each
ui/lesson/scenes/*.js with the facts of its text table's [scene], its number and its needs; a
scene put between two others takes a number between theirs, and a table that breaks the rule
says so."""

from __future__ import annotations

import pytest

from ui.lesson import data, scenes
from ui.text import SECTIONS


def test_the_lessons_scenes_their_numbers_and_what_each_needs():
    """§1 … §10 as their tables declare them, in the order of their numbers; a few scenes' facts
    as the article has them (another scene, inserted anywhere, changes none of this)."""
    number = {scene.id: scene.number for scene in scenes.SCENES}
    assert {i: number[i] for i in (f"s{k:02d}" for k in range(1, 11))} == {
        f"s{k:02d}": k for k in range(1, 11)
    }
    assert [s.number for s in scenes.SCENES] == sorted(number.values())
    assert number == scenes.NUMBERS and len(number) == data.SCENES
    need = {scene.id: set(scene.needs) for scene in scenes.SCENES}
    assert need["s01"] == {"sentence", "two_tokens", "trained", "pronoun"}
    assert need["s06"] == {"sentence", "two_tokens", "trained"}
    assert need["s05"] == {"sentence", "two_tokens"}
    assert need["s07"] == need["s08"] == set()  # the cost and the order: no sentence of yours
    assert (number["s01"], number["s06"]) == data.TRAINED_SCENES


@pytest.mark.parametrize(
    ("value", "found"), [(5, (5, True)), (5.0, (5, True)), (3.5, (4, False)), (99, (10, False))]
)
def test_a_links_number_is_a_scenes_or_the_nearest(value, found):
    assert scenes.nearest(value) == found


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


def test_a_scene_between_two_others_takes_the_number_between_theirs(tmp_path):
    """§4½ between §4 and §5: its own number, and theirs stay."""
    tables = {"s05": "number = 5", "s04": "number = 4", "s04b": "number = 4.5"}
    found = scratch(tmp_path, {k: v + '\nneeds = ["trained"]' for k, v in tables.items()})
    assert [(s.id, s.number) for s in found] == [("s04", 4), ("s04b", 4.5), ("s05", 5)]
    assert found[1].needs == {"trained"} and found[1].words == "lesson_s04b"


@pytest.mark.parametrize(
    ("facts", "says"),
    [
        (None, "has no text table lesson_s01.toml"),
        ("number = 1", "write the scene's facts as [scene] needs"),
        ("needs = []", "number = a positive number"),
        ('number = "1"\nneeds = []', "number = a positive number"),
        ('number = 1\nneeds = ["three_tokens"]', "not ['three_tokens']"),
        ("number = 1\nneeds = []\nkey = 4", "not ['key']"),
    ],
)
def test_a_table_without_its_facts_says_what_is_wrong(tmp_path, facts, says):
    with pytest.raises(ValueError, match=says.replace("[", r"\[").replace("]", r"\]")):
        scratch(tmp_path, {"s01": facts})


def test_two_scenes_with_one_number_are_refused(tmp_path):
    with pytest.raises(ValueError, match="two scenes have the number"):
        scratch(tmp_path, {"s01": "number = 1\nneeds = []", "s02": "number = 1.0\nneeds = []"})
