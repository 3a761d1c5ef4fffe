"""The two rooms: attention_core's maths imports nothing of demo_model (only the command line,
attention_core/__main__.py, hands the demo model to the pipeline), and no module of the repository
re-exports names through a module-level __getattr__."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "attention_core"
APP_OF_THE_CORE = {"__main__.py"}  # the command line: an app, like the Streamlit one
SOURCES = ("attention_core", "demo_model", "ui", "pages", "bench", "tools", "deploy")


def _imported(path: Path) -> set[str]:
    """Every module a file imports (absolute names; relative imports resolved to its package)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = path.parent.relative_to(ROOT).parts
                base = ".".join([*package[: len(package) - node.level + 1], base]).strip(".")
            found.add(base)
    return found


def test_no_module_of_the_core_imports_the_demo_model():
    for path in sorted(CORE.glob("*.py")):
        if path.name in APP_OF_THE_CORE:
            continue
        leaks = {m for m in _imported(path) if m.split(".")[0] == "demo_model"}
        assert not leaks, f"{path.relative_to(ROOT)} imports {sorted(leaks)}"


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


def test_the_demo_model_imports_the_core_and_nothing_of_the_app():
    for path in sorted((ROOT / "demo_model").rglob("*.py")):
        rooms = {m.split(".")[0] for m in _imported(path)}
        assert not rooms & {"ui", "pages", "app", "streamlit"}, path.relative_to(ROOT)


def test_no_module_defines_a_module_level_getattr():
    """A module __getattr__ forwards names that go-to-definition cannot follow."""
    files = [p for room in SOURCES for p in sorted((ROOT / room).rglob("*.py"))]
    files.append(ROOT / "app.py")
    assert len(files) > 50
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defs = (ast.FunctionDef, ast.AsyncFunctionDef)
        names = {n.name for n in tree.body if isinstance(n, defs)}
        assert "__getattr__" not in names and "__dir__" not in names, path.relative_to(ROOT)
