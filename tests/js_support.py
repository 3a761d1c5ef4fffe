"""The browser code's JavaScript tools for tests: node, with esbuild and acorn as
tools/js/package-lock.json pins them (installed by `make check` / `make test`: npm ci).

`run_node(script, *args)` runs one of tools/js's scripts; `evaluate(code)` bundles `code` (an
ES module that imports the repository's modules by their path from its root and prints) for
node with the pinned esbuild and returns what it printed. Without node or the installed tools
the test skips, naming the install command (a failure under CI=true: tests/conftest.py)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.browser_support import REPO_ROOT, skip_missing

JS_DIR = REPO_ROOT / "tools" / "js"
ESBUILD = JS_DIR / "node_modules" / ".bin" / "esbuild"
HINT = "run `make check` (npm ci in tools/js), with node and npm installed (`make test` as root)"


def node() -> str:
    """The node executable, with tools/js's packages installed; else the test skips."""
    found = shutil.which("node")
    if found is None:
        skip_missing("node is not installed", HINT)
    if not (ESBUILD.exists() and (JS_DIR / "node_modules" / "acorn").exists()):
        skip_missing("tools/js/node_modules is not installed", HINT)
    return found


def run_node(script: str, *args: str, cwd: Path = REPO_ROOT) -> str:
    """What tools/js/`script` prints for `args` (it must exit 0)."""
    done = subprocess.run(
        [node(), str(JS_DIR / script), *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def evaluate(code: str) -> str:
    """Bundle `code` (imports resolved from the repository's root) with the pinned esbuild for
    node, run it, and return what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.mjs"
        node()
        flags = ("--bundle", "--format=esm", "--platform=node", "--loader:.css=text")
        build = [str(ESBUILD), *flags, "--log-level=warning", f"--outfile={out}"]
        done = subprocess.run(build, cwd=REPO_ROOT, input=code, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        ran = subprocess.run([node(), str(out)], capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0, ran.stderr
        return ran.stdout
