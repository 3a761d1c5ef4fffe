"""ui/routing.py's patch of Streamlit's private PagesManager: still needed, and in one place.

These fail when Streamlit changes the legacy pages/-folder path the patch works around; then
check tests/test_browser_main.py's fresh-server test without the patch and drop it if it passes.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def pages_manager():
    """Streamlit's PagesManager with its class-wide flag put back afterwards."""
    from streamlit.runtime.pages_manager import PagesManager

    saved = PagesManager.uses_pages_directory
    yield PagesManager
    PagesManager.uses_pages_directory = saved


def test_a_fresh_server_still_takes_the_legacy_path_for_our_pages_folder(pages_manager):
    """What ensure_router works around: next to pages/, a first session turns the legacy mode
    on, and the script runner then runs a sub-page link as a bare script (_mpa_v1)."""
    from streamlit.runtime.scriptrunner import script_runner

    pages_manager.uses_pages_directory = None  # as in a new server process
    pages_manager(str(ROOT / "app.py"))
    assert pages_manager.uses_pages_directory is True
    runner = inspect.getsource(script_runner.ScriptRunner)
    assert "PagesManager.uses_pages_directory" in runner and "_mpa_v1(" in runner
    assert callable(script_runner._mpa_v1)


def test_st_navigation_is_what_turns_the_legacy_path_off():
    from streamlit.commands import navigation

    source = inspect.getsource(navigation.navigation)
    assert re.search(r"PagesManager\.uses_pages_directory\s*=\s*False", source)


def calls(path: Path, name: str) -> int:
    """How many times the file's code calls `name` (a bare name or an attribute)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sum(
        isinstance(node, ast.Call)
        and (getattr(node.func, "id", None) == name or getattr(node.func, "attr", None) == name)
        for node in ast.walk(tree)
    )


def test_the_patch_is_called_from_the_router_and_the_one_page_opening():
    users = sorted(
        str(path.relative_to(ROOT))
        for path in [ROOT / "app.py", *ROOT.glob("ui/**/*.py"), *ROOT.glob("pages/*.py")]
        if calls(path, "ensure_router")
    )
    assert users == ["app.py", "pages/lesson.py", "ui/widgets.py"]
    assert calls(ROOT / "ui" / "widgets.py", "ensure_router") == 1


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "pages").glob("*.py")))
def test_every_page_opens_through_the_router(page):
    """A bare first run of a page executes only that page: it must open with the router."""
    path = ROOT / "pages" / page
    assert calls(path, "open_page") + calls(path, "ensure_router") >= 1, page
