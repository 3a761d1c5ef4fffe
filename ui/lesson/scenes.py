"""The lesson's scenes as their own files declare them: one per ui/lesson/scenes/sNN.js, each with
the facts of its text table's [scene] (ui/text/lesson_sNN.toml): its number (§5: the strip's
label, the link's at=5, the key 5; 0 is §10's key; a scene between §4 and §5 is 4.5, and the
others keep theirs) and what its figure needs. The lesson runs in the order of the numbers, which
the deck gets in its header (NUMBERS), and the lab page that goes further (LABS: "try it in the
lab" from the scene, "in the lesson" from the page). Nothing else lists them."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEXT = HERE.parent / "text"
# What a scene's figure may need, and the text key that says a sentence cannot give it.
NEEDS = {
    "sentence": "lesson.need.empty",  # the user's sentence (else the scene shows without one)
    "two_tokens": "lesson.need.two",  # at least two tokens to compare
    "trained": "lesson.need.trained",  # the trained model: the scene always shows it
    "pronoun": "lesson.need.pronoun",  # a pronoun the trained model reads (§1's question)
}


@dataclass(frozen=True)
class Scene:
    """One scene: its file's name, its number in the lesson and what its figure needs."""

    id: str  # "s05": scenes/s05.js, its words ui/text/lesson_s05.toml
    number: int | float  # §number, the link's at=, its key (a digit; 0 for 10): 5, or 4.5
    needs: frozenset[str]  # of NEEDS
    lab: str | None = None  # the lab page that goes further (pages/<lab>.py), linked both ways

    @property
    def words(self) -> str:
        """Its text table's area (ui/text/lesson_s05.toml: "lesson_s05")."""
        return f"lesson_{self.id}"


def read_scenes(folder: Path = HERE / "scenes", text: Path = TEXT) -> tuple[Scene, ...]:
    """Every scene file in `folder` with the facts of its text table, in the order of their
    numbers."""
    out = []
    for path in sorted(folder.glob("*.js")):
        table = text / f"lesson_{path.stem}.toml"
        if not table.exists():
            raise ValueError(f"{path.name} has no text table {table.name} (its words and facts)")
        facts = tomllib.loads(table.read_text(encoding="utf-8")).get("scene")
        if not isinstance(facts, dict) or not isinstance(facts.get("needs"), list):
            raise ValueError(f"{table.name}: write the scene's facts as [scene] needs = [...]")
        number = facts.get("number")
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not number > 0:
            raise ValueError(f"{table.name}: [scene] number = a positive number (5, or 4.5)")
        unknown = set(facts["needs"]) - set(NEEDS)
        lab, extra = facts.get("lab"), set(facts) - {"number", "needs", "lab"}  # lab: optional
        if unknown or extra or not isinstance(lab, str | None):
            raise ValueError(
                f"{table.name}: [scene] holds number, needs = [...] of {sorted(NEEDS)} and a lab "
                f'page = "name", not {sorted(unknown) or sorted(extra) or [lab]}'
            )
        out.append(Scene(path.stem, number, frozenset(facts["needs"]), lab))
    twice = {s.number for s in out if [t.number for t in out].count(s.number) > 1}
    if twice:
        raise ValueError(f"two scenes have the number {sorted(twice)}: each its own")
    return tuple(sorted(out, key=lambda s: s.number))


SCENES = read_scenes()
NUMBERS = {scene.id: scene.number for scene in SCENES}  # the deck's header.numbers
LABS = {str(scene.number): scene.lab for scene in SCENES if scene.lab}  # the deck's header.labs


def nearest(value: float) -> tuple[int | float, bool]:
    """(scene number, exact) for a number from a link: a scene's own, else the nearest (a whole
    number rounded first, 3.5 → 4), within the first and the last."""
    numbers = [scene.number for scene in SCENES]
    if value in numbers:
        return numbers[numbers.index(value)], True
    whole = min(max(round(value), numbers[0]), numbers[-1])
    return (whole if whole in numbers else min(numbers, key=lambda n: abs(n - value))), False
