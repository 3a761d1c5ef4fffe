"""Reads and checks the text tables: <area>.toml (zh and en side by side), <area>.<lang>.md."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from string import Formatter
from types import MappingProxyType

# One area (a page, the sidebar, the notices …) is up to three files named by its stem:
#   steps.toml      ["steps.title"] / zh = "…" / en = "…": labels, titles, one-line templates
#   steps.zh.md     the area's prose in one language: each entry starts at its key on a line of
#   steps.en.md     its own, <!-- steps.intro -->, and runs to the next key or the end of file;
#                   text before the first key is a note for the people who edit the file.
# Every key is written once, in every language, with the same {placeholders} in each.
MARKER = re.compile(r"^<!--[ \t]*([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+)[ \t]*-->[ \t]*$", re.M)
PROSE_NAME = re.compile(r"^([a-z0-9_]+)\.([a-z]+)\.md$")


class TextError(ValueError):
    """A text file breaks a rule: a language missing, a key twice, placeholders that differ."""


def fields(template: str) -> frozenset[str]:
    """The names of a format string's {placeholders} ("{acc:.0%}" → "acc", "{{x}}" → none)."""
    parsed = Formatter().parse(template)
    return frozenset(name.split(".")[0].split("[")[0] for _, name, _, _ in parsed if name)


def read_toml(path: Path, langs: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """An area's table: key → {lang: text}, each entry holding exactly the languages `langs`."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:  # a key twice in one file lands here too
        raise TextError(f"{path.name}: {err}") from err
    for key, entry in doc.items():
        if not isinstance(entry, dict) or set(entry) != set(langs):
            raise TextError(f"{path.name}: [{key!r}] needs exactly {langs}, has {entry!r}")
    return doc


def read_prose(area: str, paths: dict[str, Path], langs: tuple[str, ...]) -> dict[str, dict]:
    """An area's prose from one Markdown file per language: key → {lang: text}."""
    if set(paths) != set(langs):
        raise TextError(f"{area}: prose needs one file per language {langs}, found {sorted(paths)}")
    table: dict[str, dict[str, str]] = {}
    for lang in langs:
        text = paths[lang].read_text(encoding="utf-8")
        parts = MARKER.split(text)  # [preface, key, body, key, body, …]
        for key, body in zip(parts[1::2], parts[2::2], strict=True):
            if lang in table.setdefault(key, {}):
                raise TextError(f"{paths[lang].name}: {key!r} is written twice")
            table[key][lang] = body.strip()
    for key, entry in table.items():
        if set(entry) != set(langs):
            missing = sorted(set(langs) - set(entry))
            raise TextError(f"{area}: prose {key!r} lacks {missing} ({area}.<lang>.md)")
    return table


def check(key: str, entry: dict, where: str) -> None:
    """Every language non-empty, with the same {placeholders}."""
    for lang, text in entry.items():
        if not isinstance(text, str) or not text.strip():
            raise TextError(f"{where}: {key!r} has no {lang} text")
    try:
        names = {lang: fields(text) for lang, text in entry.items()}
    except ValueError as err:  # an unmatched { or }
        raise TextError(f"{where}: {key!r} is not a valid template: {err}") from err
    if len(set(names.values())) > 1:
        raise TextError(f"{where}: {key!r} has different placeholders per language: {names}")


def areas(folder: Path, langs: tuple[str, ...]) -> dict[str, list[Path]]:
    """Area name → its files (the .toml first, then the .md per language), areas sorted."""
    found: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("*.toml")):
        found.setdefault(path.stem, []).append(path)
    for path in sorted(folder.glob("*.md")):
        name = PROSE_NAME.match(path.name)
        if not name or name[2] not in langs:
            raise TextError(f"{path.name}: prose files are named <area>.<lang>.md, lang in {langs}")
        found.setdefault(name[1], []).append(path)
    return dict(sorted(found.items()))


def load(folder: Path, langs: tuple[str, ...]) -> tuple[MappingProxyType, MappingProxyType]:
    """(TEXT, SECTIONS): key → {lang: text}, and area → its keys in file order.

    Both read-only: they are shared by every session of the server.
    """
    text: dict[str, MappingProxyType] = {}
    where: dict[str, str] = {}
    sections: dict[str, tuple[str, ...]] = {}
    for area, paths in areas(folder, langs).items():
        tables = [(p.name, read_toml(p, langs)) for p in paths if p.suffix == ".toml"]
        prose = {p.name.split(".")[1]: p for p in paths if p.suffix == ".md"}
        if prose:
            tables.append((f"{area}.<lang>.md", read_prose(area, prose, langs)))
        keys: list[str] = []
        for name, table in tables:
            for key, entry in table.items():
                if key in text:
                    raise TextError(f"{key!r} is defined twice: in {where[key]} and in {name}")
                check(key, entry, name)
                text[key] = MappingProxyType({lang: entry[lang] for lang in langs})
                where[key] = name
                keys.append(key)
        sections[area] = tuple(keys)
    return MappingProxyType(text), MappingProxyType(sections)
