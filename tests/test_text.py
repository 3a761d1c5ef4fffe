"""ui/text.py: every string exists in both languages with the same {placeholders}."""

from __future__ import annotations

from string import Formatter

import pytest

from ui.text import LANGS, TEXT


def fields(template: str) -> set[str]:
    """The names of a format string's {placeholders} ("{acc:.0%}" → "acc")."""
    return {
        name.split(".")[0].split("[")[0] for _, name, _, _ in Formatter().parse(template) if name
    }


def test_fields_reads_names_formats_and_escapes():
    assert fields("{head}：{q} → {k}：{w}") == {"head", "q", "k", "w"}
    assert fields("{rel} · {acc:.0%}") == {"rel", "acc"}
    assert fields("{{literal}} and {x!r}") == {"x"}


@pytest.mark.parametrize("key", sorted(TEXT))
def test_every_language_has_the_same_placeholders(key):
    entry = TEXT[key]
    want = fields(entry["zh"])
    for lang in LANGS:
        assert fields(entry[lang]) == want, (key, lang, entry[lang])
