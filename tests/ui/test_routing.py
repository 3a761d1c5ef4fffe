"""ui/routing.py's patch of Streamlit's private PagesManager: checked on this Streamlit, still
needed, and in one place.

These fail on a Streamlit the patch was not checked on, and when Streamlit changes the legacy
pages/-folder path the patch works around; then check tests/browser/test_main.py's fresh-server
test without the patch and drop it if it passes.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest
import streamlit

import app
from ui.routing import CHECKED_ON

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pages_manager():
    """Streamlit's PagesManager with its class-wide flag put back afterwards."""
    from streamlit.runtime.pages_manager import PagesManager

    saved = PagesManager.uses_pages_directory
    yield PagesManager
    PagesManager.uses_pages_directory = saved


def test_the_patch_was_checked_on_this_streamlit():
    """The patch leans on Streamlit's private PagesManager: a new release is read again first."""
    assert streamlit.__version__ in CHECKED_ON, (
        f"ui/routing.py patches Streamlit's private PagesManager and was checked on Streamlit "
        f"{', '.join(CHECKED_ON)}, not on {streamlit.__version__}. Check it on this one: read "
        "streamlit/runtime/pages_manager.py (uses_pages_directory) and scriptrunner's _mpa_v1, "
        "then run this file and tests/browser/test_main.py::"
        "test_fresh_server_opens_a_sub_page_link_through_the_router with ensure_router's patch "
        "left out. If that browser test passes without it, delete the patch; if it needs it, "
        "add the version to ui.routing.CHECKED_ON."
    )


def test_the_pinned_version_is_the_one_installed_by_make_run():
    pins = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    pinned = re.search(r"^streamlit==(\S+)$", pins, re.M)
    assert pinned and pinned[1] in CHECKED_ON, "requirements.txt pins a Streamlit not checked"


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
    assert users == ["app.py", "pages/lesson.py", "ui/routing.py", "ui/widgets.py"]
    assert calls(ROOT / "ui" / "widgets.py", "ensure_router") == 1


@pytest.mark.parametrize("page", [f"{stem}.py" for stem, *_ in app.PAGES])
def test_every_page_opens_through_the_router(page):
    """A bare first run of a page executes only that page: it must open with the router."""
    path = ROOT / "pages" / page
    assert calls(path, "open_page") + calls(path, "ensure_router") >= 1, page


@pytest.mark.parametrize("page", app.MOVED)
def test_a_folded_page_opens_its_scene_through_the_router(page):
    """/steps (say) on a fresh server runs bare: open_scene goes through the router first."""
    assert calls(ROOT / "pages" / f"{page}.py", "open_scene") == 1


def test_every_file_in_pages_is_a_page_of_the_router():
    """pages/ holds the pages app.PAGES lists and the folded ones (app.MOVED), nothing else."""
    listed = [s for s, *_ in app.PAGES] + list(app.MOVED)
    assert sorted(p.stem for p in (ROOT / "pages").glob("*.py")) == sorted(listed)
