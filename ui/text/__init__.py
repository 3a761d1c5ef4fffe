"""Every user-visible string of Attention Lab, in Chinese (default) and English: `t(key, lang)`."""

from __future__ import annotations

from pathlib import Path

from ui.text.load import load

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"

# One table per area in this folder (steps.toml; its prose in steps.zh.md and steps.en.md),
# read and checked once at import (ui/text/load.py): a language missing, a key defined twice or
# placeholders that differ between languages raise TextError before any page runs.
TEXT, SECTIONS = load(Path(__file__).resolve().parent, LANGS)  # key → {lang: text}; area → keys


def t(key: str, lang: str = DEFAULT_LANG, **fmt: object) -> str:
    """The string `key` in `lang` (zh when `lang` is unknown), formatted with `fmt`.

    A missing key raises KeyError, so tests catch a page asking for a string nobody wrote.
    """
    entry = TEXT[key]
    text = entry.get(lang) or entry[DEFAULT_LANG]
    return text.format(**fmt) if fmt else text


_MD_SPECIAL = set("\\`*_{}[]()<>#+-.!|~$:=&^\"'")


def md_escape(text: str) -> str:
    """User text → Markdown that shows it literally (no links, images, LaTeX, emphasis, icons)."""
    text = " ".join(str(text).split())  # no newlines: a chip or a label is one line
    return "".join("\\" + c if c in _MD_SPECIAL else c for c in text)
