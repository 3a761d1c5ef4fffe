"""The deck's files: the key map written once (deck.KEY_MAP), sent in the header and bound by
keys.js, listed in both languages and in the README; the JS writes no colour or size of its own,
the CSS reads the palette's inks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.js_support import evaluate
from ui import palette
from ui.lesson import deck
from ui.text import t

ROOT = Path(__file__).resolve().parents[3]
CSS = sorted((ROOT / "ui" / "lesson").glob("*.css"))  # the deck's stylesheets (run.js imports)


# A colour or a size in px written in the lesson's code (its comments left out).
WRITTEN_STYLE = re.compile(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\d\s*px\b")


COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def test_the_lessons_js_writes_no_colour_and_no_font_size_of_its_own():
    """Colours, font stacks and type sizes come from ui/palette.py in the header (for_lesson):
    the deck's JS names none (its CSS reads them as variables the deck sets)."""
    for path in sorted((ROOT / "ui" / "lesson").rglob("*.js")):
        if "dist" in path.parts:  # the bundle: the view's and these files, built
            continue
        code = COMMENTS.sub("", path.read_text(encoding="utf-8"))
        found = WRITTEN_STYLE.findall(code)
        assert not found, (path.name, found)
    css = COMMENTS.sub("", "".join(p.read_text(encoding="utf-8") for p in CSS))
    assert not re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(", css)  # its colours: var(--ink)


def test_every_colour_the_lessons_css_reads_is_an_ink_of_the_palette():
    """lesson*.css's var(--name) colours are LESSON_INK's entries, which the deck sets (themeOf)."""
    css = "".join(path.read_text(encoding="utf-8") for path in CSS)
    props = ("color", "background", "border", "border-color", "border-left", "accent-color")
    read = {
        m.group(2)
        for m in re.finditer(r"([\w-]+):[^;{}]*?var\(--([\w-]+)\)", css)
        if m.group(1) in props
    }
    inks = {k.replace("_", "-") for k, v in palette.LESSON_INK.items() if isinstance(v, str)}
    assert read and read <= inks, read - inks


def test_the_readmes_key_table_is_the_key_map():
    """README's key table is deck.KEY_MAP as the key list writes it, in English, row for row."""
    rows = "\n".join(f"| {keys} | {does} |" for keys, does in deck.key_rows("en"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"|---|---|\n{rows}\n\n" in readme, f"README's key table should read:\n{rows}"


def test_each_key_does_one_thing():
    keys = [key for _, ks, _ in deck.KEY_MAP for key in ks]
    assert len(keys) == len(set(keys))
    assert all(k == k.upper() or len(k) > 1 for k in keys)  # a letter stands for both cases
    assert deck.key_map() == [[action, list(ks)] for action, ks, _ in deck.KEY_MAP]


def test_keys_js_binds_every_action_of_the_key_map():
    """keys.js's ACTIONS, as node runs the module: one per action of the key map, no other."""
    code = 'import { ACTIONS } from "./ui/lesson/keys.js";\n'
    code += "console.log(JSON.stringify(Object.keys(ACTIONS)));\n"
    bound = json.loads(evaluate(code))
    assert sorted(bound) == sorted(action for action, _, _ in deck.KEY_MAP)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_key_list_names_every_key_in_both_languages(lang):
    lines = deck.key_help(lang)
    assert len(lines) == len(deck.KEY_MAP) and all(lines)
    assert deck.key_names(tuple("1234567890"), lang) == "1–9 / 0"
    assert deck.key_names(("Space", "N"), lang) == f"{t('lesson.key.space', lang)} / N"
