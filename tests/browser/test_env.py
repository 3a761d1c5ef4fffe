"""The test machine itself: Chromium, a CJK font that really renders, and the Streamlit fixtures."""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import Page, expect

from tests.browser_support import cjk_fonts, skip_missing

pytestmark = pytest.mark.browser

# Draw each character alone on a canvas with the page's sans-serif font; report its advance
# width (in em), how many pixels it inked, and a hash of those pixels.
GLYPH_PROBE_JS = """
(chars) => chars.map((ch) => {
  const size = 48, canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const g = canvas.getContext('2d');
  g.font = size + 'px sans-serif';
  g.textBaseline = 'top';
  g.fillText(ch, 4, 4);
  const alpha = g.getImageData(0, 0, 64, 64).data.filter((_, i) => i % 4 === 3);
  let ink = 0, hash = 0;
  for (const a of alpha) { if (a > 0) ink++; hash = (hash * 31 + a) >>> 0; }
  return {ch, width: g.measureText(ch).width / size, ink, hash};
})
"""
CHINESE = ["注", "意", "力"]
MISSING_GLYPH = "\u0378"  # unassigned code point: every font draws its "tofu" box for it


def test_cjk_font_installed() -> None:
    if not cjk_fonts():
        skip_missing("no CJK font (`fc-list :lang=zh` is empty): Chinese would render as boxes")


def test_chromium_renders_chinese_glyphs(page: Page) -> None:
    if not cjk_fonts():
        skip_missing("no CJK font (`fc-list :lang=zh` is empty)")
    page.set_content("<!doctype html><meta charset=utf-8><body></body>")
    *glyphs, tofu = page.evaluate(GLYPH_PROBE_JS, [*CHINESE, MISSING_GLYPH])
    for glyph in glyphs:
        assert glyph["ink"] > 0, f"{glyph['ch']} drew nothing"
        assert glyph["hash"] != tofu["hash"], f"{glyph['ch']} renders as a missing-glyph box"
        assert 0.9 <= glyph["width"] <= 1.1, f"{glyph['ch']} is not full-width: {glyph}"
    assert len({glyph["hash"] for glyph in glyphs}) == len(CHINESE), "glyphs look alike"


def test_streamlit_factory_serves_a_script(streamlit_factory, tmp_path, page: Page) -> None:
    script = tmp_path / "hello_app.py"
    script.write_text('import streamlit as st\n\nst.title("注意力实验室")\n', encoding="utf-8")
    server = streamlit_factory(script)
    with urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=5) as response:
        assert response.read().strip() == b"ok"
    page.goto(server.url)
    expect(page.get_by_role("heading", name="注意力实验室")).to_be_visible(timeout=30_000)


def test_app_serves_health(streamlit_server: str) -> None:
    with urllib.request.urlopen(f"{streamlit_server}/_stcore/health", timeout=5) as response:
        assert response.read().strip() == b"ok"
