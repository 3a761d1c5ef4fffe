"""The attention view's bundle (ui/explorer) and the lesson's (ui/lesson, which mounts the view
with createView: the view's files, read from ui/explorer, then its own): each file names only
files before it, no two define the same name, and the view's leaf files (arithmetic, colour,
layout, text alternatives, payloads) touch no page, clock or global state."""

from __future__ import annotations

import functools
import re

import pytest

from ui import explorer
from ui.explorer import HERE, JS_FILES, LEAVES, bundle
from ui.lesson import deck

IDENT = re.compile(r"[A-Za-z_$][\w$]*")
# Words a leaf may not name: the page, the clock, timers, storage, the network.
IMPURE = {
    "document", "window", "globalThis", "navigator", "location", "localStorage", "fetch",
    "setTimeout", "setInterval", "requestAnimationFrame", "addEventListener", "Date",
    "performance", "Math.random", "ResizeObserver", "IntersectionObserver", "console",
}  # fmt: skip
REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}
KEYWORDS_BEFORE_REGEX = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete"}


def _string_end(src: str, i: int, quote: str) -> int:
    """Index after the string literal that starts at src[i] (a quote)."""
    i += 1
    while src[i] != quote:
        i += 2 if src[i] == "\\" else 1
    return i + 1


def _template(src: str, i: int, out: list[str]) -> int:
    """Skip a template literal at src[i] ("`"), lexing the code inside its ${…} into out."""
    i += 1
    while src[i] != "`":
        if src[i] == "\\":
            i += 2
        elif src.startswith("${", i):
            i = _code(src, i + 2, out, closing="}")
        else:
            i += 1
    return i + 1


def _code(src: str, i: int, out: list[str], closing: str | None = None) -> int:
    """Tokens of JS code from src[i] into out (identifiers, "." and other single characters),
    comments, strings and regular expressions left out; stops after `closing` at depth 0."""
    depth = 0
    while i < len(src):
        c = src[i]
        if src.startswith("//", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
        elif src.startswith("/*", i):
            i = src.index("*/", i) + 2
        elif c in "'\"":
            i = _string_end(src, i, c)
        elif c == "`":
            i = _template(src, i, out)
        elif c == "/" and (out[-1] if out else "") in REGEX_BEFORE | KEYWORDS_BEFORE_REGEX:
            i += 1  # a regular expression literal: skip to its closing slash (and flags)
            while src[i] != "/":
                i += 2 if src[i] == "\\" else 1
            i = IDENT.match(src, i + 1).end() if IDENT.match(src, i + 1) else i + 1
        elif IDENT.match(src, i) and not (i and (src[i - 1].isalnum() or src[i - 1] in "_$")):
            word = IDENT.match(src, i).group()
            out.append(word)
            i += len(word)
        elif c.isspace():
            i += 1
        else:
            if c == "{":
                depth += 1
            elif c == "}":
                if closing and depth == 0:
                    return i + 1
                depth -= 1
            out.append(c)
            i += 1
    return i


@functools.cache  # the order test lexes every later file once per file: ~50× the same texts
def tokens(src: str) -> tuple[str, ...]:
    out: list[str] = []
    _code(src, 0, out)
    return tuple(out)


def top_level(src: str) -> set[str]:
    """Names a file defines at its top level: function, const, let, class declarations."""
    names, depth = set(), 0
    toks = tokens(src)
    for k, tok in enumerate(toks):
        if tok in "{([":
            depth += 1
        elif tok in "})]":
            depth -= 1
        elif depth == 0 and tok in ("function", "const", "let", "class") and k + 1 < len(toks):
            names.add(toks[k + 1])
    return names


def used(src: str) -> set[str]:
    """Identifiers a file names that are not properties (after ".") or object keys."""
    toks = tokens(src)
    return {
        tok for k, tok in enumerate(toks) if IDENT.fullmatch(tok) and (k == 0 or toks[k - 1] != ".")
    }


def sources(which: str = "explorer") -> dict[str, str]:
    """name → source of every file of a bundle, in bundle order."""
    if which == "explorer":
        return {name: (HERE / name).read_text(encoding="utf-8") for name in JS_FILES}
    return {name: path.read_text(encoding="utf-8") for name, path in deck.named_files()}


BUNDLES = {"explorer": len(JS_FILES), "lesson": len(deck.named_files())}
POSITIONS = [(which, i) for which, count in BUNDLES.items() for i in range(count)]


def test_the_lexer_sees_code_not_strings_comments_or_regexes():
    src = "const a = `x ${b + c} y`; // d\n/* e */ f('g', \"h\", /i\\/j/u.test(k)); l.m;"
    assert used(src) == {"const", "a", "b", "c", "f", "k", "l"}
    assert top_level("function p() { const q = 1; }\nconst r = 2;\nlet s;") == {"p", "r", "s"}


@pytest.mark.parametrize("which", BUNDLES)
def test_the_bundle_holds_every_file_in_order(which):
    text = bundle() if which == "explorer" else deck.bundle()
    at = [text.index(f"// ---- {name}\n") for name in sources(which)]
    assert at == sorted(at)


def test_the_lesson_mounts_the_view_from_its_own_files():
    """The lesson's bundle holds the view's files as they are (never a copy), all but the glue
    that makes the view a Streamlit component of its own."""
    named = dict(deck.named_files())
    for name in explorer.VIEW_FILES:
        assert named[f"explorer/{name}"] == HERE / name
    assert "explorer/streamlit.js" not in named
    assert not [n for n in named if n.startswith("lesson/") and "map" in n]  # no second renderer


@pytest.mark.parametrize(("which", "index"), POSITIONS)
def test_each_file_names_only_files_before_it(which, index):
    files = sources(which)
    names = list(files)
    mine = names[index]
    later = {n: top_level(files[n]) for n in names[index + 1 :]}
    own = top_level(files[mine])
    ahead = {
        word: where
        for where, defined in later.items()
        for word in (used(files[mine]) & defined) - own
    }
    assert not ahead, f"{mine} names what later files define: {ahead}"


@pytest.mark.parametrize("which", BUNDLES)
def test_no_two_files_define_the_same_name(which):
    seen: dict[str, str] = {}
    for name, src in sources(which).items():
        for word in top_level(src):
            assert word not in seen, f"{word} is defined in {seen.get(word)} and {name}"
            seen[word] = name


@pytest.mark.parametrize("name", LEAVES)
def test_leaf_files_are_pure(name):
    src = (HERE / name).read_text(encoding="utf-8")
    words = used(src)
    calls = set(re.findall(r"\b\w+\.\w+", " ".join(tokens(src)).replace(" . ", ".")))
    assert not (words | calls) & IMPURE, (words | calls) & IMPURE
    assert not re.search(r"^(let|var)\s", src, re.M), "no module-level mutable state"


def test_a_file_that_calls_ahead_is_caught(monkeypatch):
    """The check itself: softmax.js calling a view.js function must fail it."""
    real = sources()
    bad = dict(real, **{"softmax.js": real["softmax.js"] + "\nfunction f() { createView(); }\n"})
    monkeypatch.setattr(f"{__name__}.sources", lambda which="explorer": bad)
    with pytest.raises(AssertionError, match="createView"):
        test_each_file_names_only_files_before_it("explorer", 0)
