"""The lesson's scenes as their own files declare them: one per ui/lesson/scenes/sNN.js, numbered
in the order of the files' names (as the deck's bundle imports them), each with the facts of its
text table's [scene] (ui/text/lesson_sNN.toml): what its figure needs. Nothing else lists them."""

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
    number: int  # §number, the link's at=: its place in the files' name order, from 1
    needs: frozenset[str]  # of NEEDS

    @property
    def words(self) -> str:
        """Its text table's area (ui/text/lesson_s05.toml: "lesson_s05")."""
        return f"lesson_{self.id}"


def read_scenes(folder: Path = HERE / "scenes", text: Path = TEXT) -> tuple[Scene, ...]:
    """Every scene file in `folder`, in name order, with the facts of its text table."""
    out = []
    for number, path in enumerate(sorted(folder.glob("*.js")), start=1):
        table = text / f"lesson_{path.stem}.toml"
        if not table.exists():
            raise ValueError(f"{path.name} has no text table {table.name} (its words and facts)")
        facts = tomllib.loads(table.read_text(encoding="utf-8")).get("scene")
        if not isinstance(facts, dict) or not isinstance(facts.get("needs"), list):
            raise ValueError(f"{table.name}: write the scene's facts as [scene] needs = [...]")
        unknown = set(facts["needs"]) - set(NEEDS)
        if unknown or set(facts) != {"needs"}:
            raise ValueError(
                f"{table.name}: [scene] holds needs = [...] of {sorted(NEEDS)}, "
                f"not {sorted(unknown) or sorted(set(facts) - {'needs'})}"
            )
        out.append(Scene(path.stem, number, frozenset(facts["needs"])))
    return tuple(out)


SCENES = read_scenes()
