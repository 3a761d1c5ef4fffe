"""Every user-visible string of Attention Lab, in Chinese (default) and English: `t(key, lang)`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from ui.text.load import FALLBACK, load


@dataclass(frozen=True)
class Language:
    """A UI language: how the picker names it and how the page declares it."""

    name: str  # in the sidebar's language picker, written in that language
    html: str  # <html lang="…"> (BCP 47), for screen readers, fonts and hyphenation


# The UI languages: the link's lang= choices, the sidebar's picker (in this order) and each
# page's <html lang>. A new language is one entry here and its text files in this folder
# (<area>.<code>.toml, <area>.<code>.md); whatever they do not translate shows in English.
# Code that runs per page reads it there (`text.LANGUAGES`), never a copy: a test adds one.
LANGUAGES = MappingProxyType(
    {
        "zh": Language("中文", "zh-CN"),
        "en": Language("English", "en"),
    }
)
LANGS = tuple(LANGUAGES)  # the codes at import: the tables' columns, the tests' parameters
DEFAULT_LANG = "zh"

# One table per area in this folder (scaling.toml; its prose in scaling.zh.md and scaling.en.md),
# read and checked once at import (ui/text/load.py): English missing, a key defined twice or
# placeholders that differ between languages raise TextError before any page runs.
TEXT, SECTIONS = load(Path(__file__).resolve().parent, LANGS)  # key → {lang: text}; area → keys


def t(key: str, lang: str = DEFAULT_LANG, **fmt: object) -> str:
    """The string `key` in `lang` (English where `lang` has no translation of it), formatted
    with `fmt`.

    A missing key raises KeyError, so tests catch a page asking for a string nobody wrote.
    """
    entry = TEXT[key]
    text = entry.get(lang) or entry[FALLBACK]
    return text.format(**fmt) if fmt else text


_MD_SPECIAL = set("\\`*_{}[]()<>#+-.!|~$:=&^\"'")


def md_escape(text: str) -> str:
    """User text → Markdown that shows it literally (no links, images, LaTeX, emphasis, icons)."""
    text = " ".join(str(text).split())  # no newlines: a chip or a label is one line
    return "".join("\\" + c if c in _MD_SPECIAL else c for c in text)
