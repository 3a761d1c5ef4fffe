"""The figure kit in Chromium: legends sit below the axis titles and ticks stay apart."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.browser_support import LOAD_MS
from ui import figures
from ui.figures.base import NARROW_PX, plotly_config

BOXES = """() => {
  const box = e => e.getBoundingClientRect();
  const svg = box(document.querySelector('.main-svg'));
  const title = box(document.querySelector('.g-xtitle text'));
  const legend = box(document.querySelector('.legend'));
  const ticks = [...document.querySelectorAll('.xtick text')].map(box);
  return {svg: [svg.top, svg.bottom], title: [title.top, title.bottom],
          legend: [legend.top, legend.bottom], ticks: ticks.map(b => [b.left, b.right])};
}"""


def kit_charts(classroom: bool):
    """The charts the audit saw overlapping: a fit (∝ n^1.99), the KV chart (t), a d_k sweep."""
    ns, ts, dk = (
        [64, 128, 256, 512, 1024, 2048],
        [16, 32, 64, 128, 256],
        [4, 8, 16, 32, 64, 128, 256, 512, 1024],
    )
    yield figures.loglog_fit(ns, {"普通注意力": np.square(ns), "分块注意力": np.array(ns)},
                             {"普通注意力": 1.99, "分块注意力": 1.0}, title="时间（对数坐标）",
                             y_title="毫秒", classroom=classroom, across=2)  # fmt: skip
    yield figures.loglog_fit(ts, {"① 整层重算": np.power(ts, 3.0), "② 只重算 K、V": np.square(ts),
                                  "③ KV 缓存": np.array(ts, float)}, {"① 整层重算": 2.9,
                             "② 只重算 K、V": 2.0, "③ KV 缓存": 1.1}, title="生成 t 个词的总时间",
                             x_title="t", y_title="毫秒", classroom=classroom)  # fmt: skip
    yield figures.sweep_lines(dk, {"var(q·k)": dk, "var(q·k/√d_k)": [1.0] * 9, "var = d_k": dk},
                              title="实测方差 vs d_k", x_title="d_k", y_title="var(q·k)",
                              dashed=("var = d_k",), log_y=True, classroom=classroom,
                              across=2)  # fmt: skip


@pytest.mark.browser
@pytest.mark.parametrize("classroom", [False, True])
def test_23_legends_sit_below_axis_titles_and_ticks_stay_apart(page, classroom):
    """Item 23: at the narrowest width a chart gets and at a desktop half page, the legend lies
    wholly below the x-axis title and inside the figure, and no two x tick labels touch."""
    for fig in kit_charts(classroom):
        for width in (NARROW_PX, 460, 920):
            html = fig.to_html(include_plotlyjs=True, full_html=True,
                               config=plotly_config("zh"), default_width=f"{width}px")  # fmt: skip
            page.set_viewport_size({"width": width + 20, "height": 1000})
            page.set_content(html)
            page.wait_for_selector(".legend", timeout=LOAD_MS)
            box = page.evaluate(BOXES)
            where = (classroom, width, fig.layout.title.text)
            assert box["title"][1] <= box["legend"][0] + 1, where
            assert box["legend"][1] <= box["svg"][1] + 1, where
            edges = sorted(box["ticks"])
            assert all(a[1] <= b[0] for a, b in itertools.pairwise(edges)), where
