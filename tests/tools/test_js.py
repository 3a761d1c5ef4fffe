"""The browser code's build (tools/js): the committed bundles (ui/explorer/dist/view.js,
ui/lesson/dist/deck.js) are what the sources build, byte for byte, with the pinned esbuild;
every source file is in a bundle; and tools/js/check.mjs (acorn) finds no name imported and
unused, no export nobody imports, no leaf that is not pure, no circle of imports, and finds each
of them when one is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser_support import REPO_ROOT
from tests.js_support import run_node

VIEW, DECK = "ui/explorer/dist/view.js", "ui/lesson/dist/deck.js"
# Names only a test imports (tests/ui/lesson/test_deck.py; tests/browser/test_view_js.py).
USED_BY_TESTS = ("ui/lesson/keys.js:ACTIONS", "ui/explorer/a11y.js:decidedRow")


def sources(*suffixes: str) -> list[str]:
    """The browser code's source files (not the bundles), from the repository's root."""
    found = [
        p.relative_to(REPO_ROOT).as_posix()
        for folder in ("ui/explorer", "ui/lesson")
        for p in (REPO_ROOT / folder).rglob("*")
        if p.suffix in suffixes and "dist" not in p.relative_to(REPO_ROOT).parts
    ]
    return sorted(found)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict[str, list[str]]]:
    """The bundles built again into a temporary folder, and each one's source files."""
    out = tmp_path_factory.mktemp("js")
    return out, json.loads(run_node("build.mjs", "--out", str(out), "--inputs"))


def test_the_committed_bundles_are_what_the_sources_build(built):
    """`make js` was run after the last change of a JS or CSS file (else: run it, commit). The
    same bytes as a build made earlier, elsewhere: the build is reproducible, too."""
    out, inputs = built
    assert sorted(inputs) == [VIEW, DECK]
    for bundle in inputs:
        fresh = (out / bundle).read_bytes()
        assert (REPO_ROOT / bundle).read_bytes() == fresh, f"{bundle} is stale: run `make js`"
        assert fresh.startswith(b"// GENERATED from ")


def test_every_source_file_is_in_a_bundle_and_the_view_is_the_decks(built):
    """Nothing dead: each JS and CSS file of ui/explorer and ui/lesson is reached from an entry.
    The deck mounts the view from the view's own modules (never a copy), all but its Streamlit
    glue; the view's bundle holds nothing of the deck."""
    _, inputs = built
    assert set(sources(".js", ".css")) - set(inputs[VIEW]) - set(inputs[DECK]) == set()
    view = set(inputs[VIEW])
    assert view - set(inputs[DECK]) == {"ui/explorer/streamlit.js"}
    assert all(f.startswith("ui/explorer/") for f in view)


def test_no_module_imports_a_name_it_does_not_use_or_exports_one_nobody_imports():
    args = [arg for name in USED_BY_TESTS for arg in ("--used", name)]
    assert json.loads(run_node("check.mjs", *args, *sources(".js"))) == []


def test_the_leaves_are_marked():
    """The view's pure leaves (arithmetic, colour, layout, text alternatives, payloads) and the
    deck's arithmetic say so, so check.mjs holds them to it."""
    leaves = ("softmax", "colour", "layout", "a11y", "payload")
    for path in [f"ui/explorer/{name}.js" for name in leaves] + ["ui/lesson/arith.js"]:
        lines = (REPO_ROOT / path).read_text(encoding="utf-8").splitlines()
        assert any(line.startswith("// leaf:") for line in lines), path


def test_the_check_finds_what_it_is_for(tmp_path):
    """An unused import, an export no file imports, a leaf importing a file that is not one, a
    leaf naming the page or the dice, two files importing each other: each is a line."""
    files = {
        "a.js": "// leaf: pure\nexport function f(x) { return x + 1; }\n",
        "b.js": "export const g = 2;\nexport const dead = 3;\n",
        "c.js": 'import { f } from "./a.js";\nimport { g } from "./b.js";\nf(1);\n',
        "d.js": "// leaf: pure\n"
        'import { g } from "./b.js";\n'
        "export const h = () => document.title + g + Math.random() + ({ window: 1 }).window;\n",
        "e.js": 'import { h } from "./d.js";\nimport { k } from "./f.js";\nh(k);\n'
        "export const m = 1;\n",
        "f.js": 'import { m } from "./e.js";\nexport const k = m;\n',
    }
    for name, code in files.items():
        (tmp_path / name).write_text(code, encoding="utf-8")
    found = json.loads(run_node("check.mjs", *(str(tmp_path / n) for n in files)))
    at = f"{tmp_path}/"
    assert sorted(p.replace(at, "") for p in found) == sorted(
        [
            "c.js imports g and never uses it",
            "b.js exports dead, which no file imports",
            "d.js is a leaf and imports ./b.js, which is not",
            "d.js is a leaf and names document",
            "d.js is a leaf and names Math.random",
            "an import circle: e.js → f.js → e.js",
        ]
    )
