"""The sidebar in Chromium: classroom mode collapses it whenever it is switched on."""

from __future__ import annotations

import pytest

from tests import browser_support as waits
from tests.browser_support import LOAD_MS
from ui.text import t

SIDEBAR = "[data-testid='stSidebar']"

COLLAPSED = f"document.querySelector(\"{SIDEBAR}\").getAttribute('data-collapsed') === 'true'"


@pytest.mark.browser
def test_13_classroom_mode_collapses_the_sidebar_whenever_switched_on(page, streamlit_server):
    """Item 13: the help promises 收起侧栏; switching classroom mode on collapses the sidebar,
    again after a person has opened it by hand (Streamlit then keeps their choice)."""
    assert "收起侧栏" in t("side.classroom_help")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{streamlit_server}/order?w=random&pos=1")
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_text("课堂投影模式").wait_for(timeout=LOAD_MS)
    # the order page owns positions: checked from the link, and no second switch in the sidebar
    assert page.locator(".st-key-pos input").is_checked()
    assert sidebar.locator(".st-key-pos").count() == 0
    assert sidebar.get_by_text(t("order.side_owned")).count() == 1
    for _ in range(2):
        sidebar.get_by_text("课堂投影模式").click()
        page.wait_for_url("**class=1**", timeout=LOAD_MS)
        page.wait_for_function(COLLAPSED, timeout=LOAD_MS)
        page.locator("[data-testid='stExpandSidebarButton']").click()
        page.wait_for_function(f"!({COLLAPSED})", timeout=LOAD_MS)
        sidebar.get_by_text("课堂投影模式").click()  # off again: the sidebar stays open
        page.wait_for_url("**class=0**", timeout=LOAD_MS)
        waits.wait_settled(page)
        assert page.evaluate(COLLAPSED) is False
