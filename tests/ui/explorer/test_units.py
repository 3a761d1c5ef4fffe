"""The browser code's bundles (ui/explorer/units.py): the attention view's (ui/explorer) and the
lesson's (the view's files without their Streamlit glue, then ui/lesson's). Each file takes only
what files before it give, names no registry field it did not take, and gives exactly what its
registry section declares; the view's leaf files (arithmetic, colour, layout, text
alternatives, payloads) take only from leaves and touch no page, clock or global state. The
same structure in Chromium: tests/browser/test_view_js.py."""

from __future__ import annotations

import re
import shutil

import pytest

from ui import explorer
from ui.explorer import HERE, LEAVES, units
from ui.lesson import deck

BUNDLES = {"explorer": lambda: [explorer.package()], "lesson": deck.packages}
# Words a leaf may not name: the page, the clock, timers, storage, the network.
IMPURE = (
    "document", "window", "globalThis", "navigator", "location", "localStorage", "fetch",
    "setTimeout", "setInterval", "requestAnimationFrame", "addEventListener", "Date",
    "performance", "Math.random", "ResizeObserver", "IntersectionObserver", "console",
)  # fmt: skip
COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


@pytest.mark.parametrize("which", BUNDLES)
def test_every_file_takes_only_what_files_before_it_give(which):
    """The build-time check finds nothing: takes given above, gives as declared, no name
    declared twice, the registry named only in takes, a header on every file."""
    assert units.problems(BUNDLES[which]()) == []


@pytest.mark.parametrize("which", BUNDLES)
def test_the_bundle_holds_its_registries_then_every_file_in_order(which):
    text = explorer.bundle() if which == "explorer" else deck.bundle()
    names = [
        f"{p.prefix}{name}"
        for p in BUNDLES[which]()
        for name in (p.registry.path.name, *p.registry.files)
        if name not in p.skip
    ]
    at = [text.index(f"// ---- {name}\n") for name in names]
    assert at == sorted(at)
    assert text.endswith("export default function () {}\n")


def test_the_lesson_mounts_the_view_from_its_own_files():
    """The lesson's bundle holds the view's files as they are (never a copy), all but the glue
    that makes the view a Streamlit component of its own."""
    named = dict(deck.named_files())
    for name in explorer.VIEW_FILES:
        assert named[f"explorer/{name}"] == HERE / name
    assert "explorer/streamlit.js" not in named
    assert f"explorer/{explorer.GLUE}" not in deck.bundle()
    assert not [n for n in named if n.startswith("lesson/") and "map" in n]  # no second renderer


def test_a_file_reads_as_its_takes_its_code_and_its_gives():
    src = "/* What it is for. */\n\nconst { a, b } = VIEW;\nconst { c } = LESSON;\n\nf(a);\n"
    src += "return { f, g };\n"
    taken, start = units.takes(src)
    assert taken == [("VIEW", ("a", "b")), ("LESSON", ("c",))]
    assert src[start:].startswith("f(a);")
    assert units.gives(src) == ("f", "g")
    assert units.gives("function f() { return { a }; }\n") is None  # a function's, not the file's


def test_the_check_reads_code_not_comments_strings_or_regular_expressions():
    src = (
        'const a = `x ${b("c", d)} y`; // e\n/* f */ g(/h\\/i/u.test(j)); k.l; ({ m: n });\n'
        "const o = 'p' + \"q\";"
    )
    assert units._words(src) == {"const", "a", "b", "d", "g", "j", "k", "n", "o"}


@pytest.mark.parametrize("name", LEAVES)
def test_leaf_files_take_only_from_leaves_and_are_pure(name):
    src = (HERE / name).read_text(encoding="utf-8")
    taken, _ = units.takes(src)
    leaves = {n for leaf in LEAVES for n in explorer.REGISTRY.sections[leaf]}
    assert all(n in leaves for _, names in taken for n in names), taken
    code = COMMENTS.sub("", src)
    found = [w for w in IMPURE if re.search(rf"(?<![\w$.]){re.escape(w)}(?![\w$])", code)]
    assert not found, found
    assert not re.search(r"^(let|var)\s", code, re.M), "no module-level mutable state"


# ---- the check itself, on a copy of the view's files --------------------------------------------


@pytest.fixture
def view_copy(tmp_path):
    """A copy of ui/explorer's JS in tmp_path: (write(name, text), problems())."""
    for path in HERE.glob("*.js"):
        shutil.copy(path, tmp_path / path.name)

    def write(name, change):
        path = tmp_path / name
        path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")

    def problems():
        units.read_registry.cache_clear()
        try:
            reg = units.read_registry(tmp_path / "registry.js")
            return units.problems([units.Package(reg, "", {"STYLESHEET": "", "HTML_LANG": {}})])
        finally:
            units.read_registry.cache_clear()

    return write, problems


def test_a_file_that_takes_from_a_later_file_is_caught(view_copy):
    write, problems = view_copy
    assert problems() == []
    write("softmax.js", lambda s: s.replace("*/\n", "*/\n\nconst { createView } = VIEW;\n", 1))
    assert problems() == ["softmax.js takes createView, which no file before it gives to VIEW"]


def test_a_name_used_without_being_taken_is_caught(view_copy):
    """A forgotten take (the bundle would throw a ReferenceError only when that line runs), and
    a file calling ahead to a later file's name."""
    write, problems = view_copy
    write("paint.js", lambda s: s.replace("const { argmaxRow, ", "const { ", 1))
    write("softmax.js", lambda s: s.replace("return { ", "createView();\nreturn { "))
    found = problems()
    assert any(p.startswith("paint.js names argmaxRow, a registry's field") for p in found)
    assert any(p.startswith("softmax.js names createView") for p in found)


def test_a_name_another_file_keeps_to_itself_is_caught(view_copy):
    """The main page's placeWords was declared in dom.js and called from paint.js without being
    given or taken: no registry field, so only a ReferenceError in Chromium told (merge of two
    branches, one written before the units)."""
    write, problems = view_copy
    write("dom.js", lambda s: s.replace("  placeWords,\n", "", 1))
    write("registry.js", lambda s: s.replace("placeWords: null, ", "", 1))
    write("paint.js", lambda s: s.replace(" placeWords,", "", 1))
    assert problems() == ["paint.js names placeWords, which dom.js declares but does not give"]


def test_a_field_given_but_not_declared_or_declared_but_not_given_is_caught(view_copy):
    write, problems = view_copy
    write("softmax.js", lambda s: s.replace("return { ", "return { extra, "))
    assert any("softmax.js gives" in p and "extra" in p for p in problems())
    write("softmax.js", lambda s: s.replace("return { extra, attentionWeights, ", "return { "))
    assert any("softmax.js gives" in p for p in problems())


def test_the_registry_named_in_a_files_code_is_caught(view_copy):
    write, problems = view_copy
    write("a11y.js", lambda s: s + "\nVIEW.extra = 1;\n")
    found = problems()
    assert any("names the registry VIEW" in p for p in found)
    assert any("does not end with `return" in p for p in found)  # its gives are no longer last


def test_an_unused_take_and_a_missing_header_are_caught(view_copy):
    write, problems = view_copy
    write("draw.js", lambda s: s.replace("const { ", "const { pct, ", 1))
    write("input.js", lambda s: re.sub(r"\A/\*.*?\*/\n", "", s, flags=re.S))
    found = problems()
    assert any("draw.js takes pct and never uses it" in p for p in found)
    assert any("input.js does not start with a header" in p for p in found)


def test_a_bundle_that_does_not_fit_is_not_built(view_copy, tmp_path):
    write, _ = view_copy
    write("softmax.js", lambda s: s.replace("*/\n", "*/\n\nconst { createView } = VIEW;\n", 1))
    reg = units.read_registry.__wrapped__(tmp_path / "registry.js")
    with pytest.raises(ValueError, match="takes createView"):
        units.bundle([units.Package(reg, "", {"STYLESHEET": "", "HTML_LANG": {}})])


def test_a_pattern_section_lists_its_files_in_name_order(tmp_path):
    """`// scenes/s??.js` stands for every scene file, in the order of its name, each giving
    nothing: an 11th scene is its file alone, no line in the registry; a helper beside the
    scenes (s04_parts.js) is no scene and is not listed by the pattern."""
    (tmp_path / "scenes").mkdir()
    for name in ("s10.js", "s02.js", "s01.js", "s04_parts.js"):
        (tmp_path / "scenes" / name).write_text("/* x */\nreturn {};\n", encoding="utf-8")
    (tmp_path / "registry.js").write_text(
        "const LESSON = Object.seal({\n  // a.js: one\n  one: null,\n"
        "  // scenes/s??.js: the scenes\n  // run.js: last\n});\n",
        encoding="utf-8",
    )
    reg = units.read_registry.__wrapped__(tmp_path / "registry.js")
    assert reg.files == ("a.js", "scenes/s01.js", "scenes/s02.js", "scenes/s10.js", "run.js")
    assert reg.sections["scenes/s01.js"] == () and reg.sections["a.js"] == ("one",)


def test_the_decks_scenes_are_the_scene_files():
    """The deck's registry lists every ui/lesson/scenes/sNN.js by itself, in order."""
    from ui.lesson import deck

    scenes = [f for f in deck.REGISTRY.files if f.startswith("scenes/")]
    on_disk = sorted(p.name for p in (deck.HERE / "scenes").glob("s[0-9][0-9].js"))
    assert scenes == [f"scenes/{n}" for n in on_disk] and len(scenes) >= 10


def test_the_view_is_given_each_languages_html_lang_from_the_language_table(monkeypatch):
    """VIEW.HTML_LANG is ui.text.LANGUAGES's html per code, read when the bundle is built: a
    third language's <html lang> reaches dom.js and frame.js with no JS change."""
    from types import MappingProxyType

    from ui import text

    fr = text.Language("Français", "fr-FR")
    monkeypatch.setattr(text, "LANGUAGES", MappingProxyType({**text.LANGUAGES, "fr": fr}))
    given = explorer.package().given["HTML_LANG"]
    assert given == {"zh": "zh-CN", "en": "en", "fr": "fr-FR"}
    assert all("HTML_LANG[header.lang]" in (HERE.parent / f).read_text(encoding="utf-8")
               for f in ("explorer/dom.js", "lesson/frame.js"))  # fmt: skip
