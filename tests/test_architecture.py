"""ARCHITECTURE.md's rooms table is the import rule: every Python file of the repository imports
only its own room and the rooms its row lists (read from the table, so the map and the check
cannot drift apart); the core, the demo model and the class import no UI library; importing the
core loads nothing of the demo model; no module re-exports through a module-level __getattr__."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "ARCHITECTURE.md"
SKIP = {".venv", ".git", "tmp", "test-artifacts", "node_modules", "vendor"}
ROW = re.compile(r"^\| `([^`]+)` \| .* \| ([^|]+) \|$", re.M)
NO_UI = {"streamlit", "plotly", "pandas"}  # what the core, the model and the class never import


def rooms() -> dict[str, set[str]]:
    """Room (a folder "ui/" or a file "app.py") → the rooms it may import, from the table."""
    table = MAP.read_text(encoding="utf-8").split("## The rooms", 1)[1].split("\n## ", 1)[0]
    found = {room: set(re.findall(r"`([^`]+)`", allowed)) for room, allowed in ROW.findall(table)}
    assert len(found) >= 10, "ARCHITECTURE.md's rooms table was not found"
    return found


def room_of(relative: str, known: dict[str, set[str]]) -> str | None:
    """The most specific room holding a path ("ui/lesson/deck.py" → "ui/lesson/")."""
    holding = [r for r in known if relative == r or (r.endswith("/") and relative.startswith(r))]
    return max(holding, key=len, default=None)


@cache
def sources() -> tuple[Path, ...]:
    """Every Python file of the repository (vendored, generated and hidden folders left out)."""
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIP and not d.startswith("."))
        found += [Path(folder, f) for f in sorted(files) if f.endswith(".py")]
    return tuple(found)


@cache
def tree(path: Path) -> ast.Module:
    """A file's syntax tree, parsed once for all the checks."""
    return ast.parse(path.read_text(encoding="utf-8"))


def statements(nodes: list) -> Iterator[ast.AST]:
    """Every statement in nodes and in the bodies nested in them: an import is a statement,
    never inside an expression, so the expressions (most of a tree) are not walked."""
    for node in nodes:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from statements(inner)


def imported(path: Path, code: str | None = None) -> set[str]:
    """The absolute names of every module a file imports (relative imports resolved)."""
    names = set()
    for node in statements((tree(path) if code is None else ast.parse(code)).body):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = path.parent.relative_to(ROOT).parts
                base = ".".join([*package[: len(package) - node.level + 1], base]).strip(".")
                names.update(f"{base}.{alias.name}".strip(".") for alias in node.names)
            names.add(base)
    return names


@cache
def as_path(module: str) -> str:
    """A module's name as a path in the repository ("ui.lesson.deck" → its file)."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        stem = "/".join(parts[:end])
        if (ROOT / f"{stem}.py").is_file():
            return f"{stem}.py"
        if (ROOT / stem / "__init__.py").is_file():
            return f"{stem}/__init__.py"
    return ""


def test_the_table_names_every_room_of_the_repository():
    known = rooms()
    for room in known:
        assert (ROOT / room).exists(), f"ARCHITECTURE.md names a room that is not there: {room}"
    homeless = [str(p.relative_to(ROOT)) for p in sources()
                if room_of(str(p.relative_to(ROOT)), known) is None]  # fmt: skip
    assert not homeless, f"files in no room of ARCHITECTURE.md: {homeless}"


def test_every_file_imports_only_the_rooms_its_row_allows():
    known = rooms()
    broken = []
    for path in sources():
        relative = str(path.relative_to(ROOT))
        own = room_of(relative, known)
        if known[own] >= set(known) - {own}:  # a room that may import every room (the tests)
            continue
        for module in sorted(imported(path)):
            target = room_of(as_path(module), known) if as_path(module) else None
            if target is not None and target != own and target not in known[own]:
                broken.append(f"{relative} ({own}) imports {module} ({target})")
    assert not broken, "\n".join(broken)


def test_the_core_the_model_and_the_class_import_no_ui_library():
    for room in ("attention_core", "demo_model", "classroom"):
        for path in sorted((ROOT / room).rglob("*.py")):
            used = {m.split(".")[0] for m in imported(path)} & NO_UI
            assert not used, f"{path.relative_to(ROOT)} imports {sorted(used)}"


@pytest.mark.parametrize(
    ("source", "room", "module"),
    [
        ("attention_core/attention.py", "attention_core/", "demo_model.reading"),
        ("classroom/store.py", "classroom/", "ui.text"),
        ("ui/state.py", "ui/", "ui.lesson.data"),
        ("demo_model/train.py", "demo_model/", "pages.main"),
    ],
)
def test_the_check_sees_a_planted_import(source, room, module):
    """The rule read from the table refuses the imports it is there to refuse."""
    known = rooms()
    assert room_of(source, known) == room
    target = room_of(as_path(module), known)
    assert target is not None and target != room and target not in known[room], module


def test_relative_imports_are_resolved():
    """`from . import deck` inside ui/lesson/ names ui.lesson.deck, not a module "deck"."""
    path = ROOT / "ui" / "lesson" / "dom.py"  # where the code would stand; never read
    code = "from . import deck\nfrom ..text import t\n"
    assert {"ui.lesson.deck", "ui.text"} <= imported(path, code)
    assert room_of(as_path("ui.lesson.deck"), rooms()) == "ui/lesson/"


def test_importing_the_core_loads_nothing_of_the_demo_model():
    """A fresh interpreter: the package, the pipeline, the experiments and the analyses load,
    and no demo_model module (nor jieba, which tokenize() loads on first use) comes with them."""
    code = (
        "import sys, attention_core, attention_core.pipeline, attention_core.experiments, "
        "attention_core.analysis, attention_core.fast, attention_core.tiled; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('demo_model', 'jieba')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)  # fmt: skip
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_no_module_defines_a_module_level_getattr():
    """A module __getattr__ forwards names that go-to-definition cannot follow."""
    files = [p for p in sources() if p.relative_to(ROOT).parts[0] != "tests"]
    assert len(files) > 50
    for path in files:
        defs = (ast.FunctionDef, ast.AsyncFunctionDef)
        names = {n.name for n in tree(path).body if isinstance(n, defs)}
        assert "__getattr__" not in names and "__dir__" not in names, path.relative_to(ROOT)
