"""Reads and checks the text tables: <area>.toml, <area>.<lang>.toml and <area>.<lang>.md."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from string import Formatter
from types import MappingProxyType

# One area (a page, the sidebar, the notices …) is a few files named by its stem:
#   scaling.toml      ["scaling.title"] / zh = "…" / en = "…": labels, titles, one-line
#                     templates, the languages side by side
#   scaling.fr.toml   "scaling.title" = "…": one language's entries (a translation kept apart)
#   scaling.zh.md     the area's prose in one language: each entry starts at its key on a line
#   scaling.en.md     of its own, <!-- scaling.intro -->, and runs to the next key or the end of
#                     file; text before the first key is a note for the people who edit the file.
# Every key is written in English (FALLBACK: what a language without that entry shows), at most
# once per language, with the same {placeholders} in every language.
FALLBACK = "en"
# The one table of a side-by-side file that holds no words: a lesson scene's facts ([scene] in
# ui/text/lesson_sNN.toml: what its figure needs), read by ui/lesson/scenes.py; left out here.
FACTS = "scene"
MARKER = re.compile(r"^<!--[ \t]*([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+)[ \t]*-->[ \t]*$", re.M)
FILE_NAME = re.compile(r"^([a-z0-9_]+)(?:\.([a-z]+))?\.(toml|md)$")

Table = dict[str, dict[str, str]]  # key → {lang: text}


class TextError(ValueError):
    """A text file breaks a rule: English missing, a key twice, placeholders that differ."""


def fields(template: str) -> frozenset[str]:
    """The names of a format string's {placeholders} ("{acc:.0%}" → "acc", "{{x}}" → none)."""
    parsed = Formatter().parse(template)
    return frozenset(name.split(".")[0].split("[")[0] for _, name, _, _ in parsed if name)


def read_toml(path: Path, lang: str | None, langs: tuple[str, ...]) -> Table:
    """An area's table (lang None: the languages side by side) or one language's entries."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:  # a key twice in one file lands here too
        raise TextError(f"{path.name}: {err}") from err
    if lang is not None:
        for key, value in doc.items():
            if not isinstance(value, str):  # "scaling.title" unquoted is a nested table
                raise TextError(f'{path.name}: write each entry as "{key}.…" = "{lang} text"')
        return {key: {lang: value} for key, value in doc.items()}
    doc.pop(FACTS, None)
    for key, entry in doc.items():
        if not isinstance(entry, dict) or not set(entry) <= set(langs):
            raise TextError(f"{path.name}: [{key!r}] may hold only {langs}, has {entry!r}")
    return doc


def read_prose(path: Path, lang: str) -> Table:
    """One language's prose of an area: key → {lang: text}."""
    parts = MARKER.split(path.read_text(encoding="utf-8"))  # [preface, key, body, key, body, …]
    table: Table = {}
    for key, body in zip(parts[1::2], parts[2::2], strict=True):
        if key in table:
            raise TextError(f"{path.name}: {key!r} is written twice")
        table[key] = {lang: body.strip()}
    return table


def check(key: str, entry: dict, where: str) -> None:
    """English present, every language non-empty, with the same {placeholders}."""
    if FALLBACK not in entry:
        raise TextError(f"{where}: {key!r} lacks {[FALLBACK]}, every language's fallback")
    for lang, text in entry.items():
        if not isinstance(text, str) or not text.strip():
            raise TextError(f"{where}: {key!r} has no {lang} text")
    try:
        names = {lang: fields(text) for lang, text in entry.items()}
    except ValueError as err:  # an unmatched { or }
        raise TextError(f"{where}: {key!r} is not a valid template: {err}") from err
    if len(set(names.values())) > 1:
        raise TextError(f"{where}: {key!r} has different placeholders per language: {names}")


def areas(folder: Path, langs: tuple[str, ...]) -> dict[str, list[tuple[Path, str | None]]]:
    """Area name → its files with their language (None: side by side), in reading order: the
    area's .toml, then per language of `langs` its .toml and its .md; areas sorted."""
    found: dict[str, list[tuple[Path, str | None]]] = {}
    for path in sorted(folder.iterdir()):
        name = FILE_NAME.match(path.name)
        if path.suffix not in (".toml", ".md"):
            continue
        if not name or name[2] not in (None, *langs) or (name[3] == "md" and not name[2]):
            raise TextError(
                f"{path.name}: text files are <area>.toml, <area>.<lang>.toml or "
                f"<area>.<lang>.md, lang in {langs}"
            )
        found.setdefault(name[1], []).append((path, name[2]))
    order = {None: 0, **{lang: 1 + i for i, lang in enumerate(langs)}}
    for files in found.values():
        files.sort(key=lambda pair: (order[pair[1]], pair[0].suffix == ".md"))
    return dict(sorted(found.items()))


def read_area(files: list[tuple[Path, str | None]], langs: tuple[str, ...]) -> tuple[Table, dict]:
    """An area's entries from all its files, and where each key was first written."""
    table: Table = {}
    where: dict[str, str] = {}
    for path, lang in files:
        part = read_prose(path, lang) if path.suffix == ".md" else read_toml(path, lang, langs)
        for key, entry in part.items():
            twice = set(entry) & set(table.get(key, {}))
            if twice:
                raise TextError(
                    f"{key!r} is defined twice in {sorted(twice)}: in {where[key]} "
                    f"and in {path.name}"
                )
            table.setdefault(key, {}).update(entry)
            where.setdefault(key, path.name)
    return table, where


def load(folder: Path, langs: tuple[str, ...]) -> tuple[MappingProxyType, MappingProxyType]:
    """(TEXT, SECTIONS): key → {lang: text} (the languages it is written in), and area → its
    keys in file order.

    Both read-only: they are shared by every session of the server.
    """
    text: dict[str, MappingProxyType] = {}
    first: dict[str, str] = {}  # key → the file it was first written in
    sections: dict[str, tuple[str, ...]] = {}
    for area, files in areas(folder, langs).items():
        table, where = read_area(files, langs)
        for key, entry in table.items():
            if key in text:
                raise TextError(f"{key!r} is defined twice: in {first[key]} and in {where[key]}")
            check(key, entry, where[key])
            text[key] = MappingProxyType({lang: entry[lang] for lang in langs if lang in entry})
            first[key] = where[key]
        sections[area] = tuple(table)
    return MappingProxyType(text), MappingProxyType(sections)
