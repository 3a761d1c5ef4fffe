"""§7's numbers without a browser: the measured block's one fit (ui/lesson/measure.py cost_block)
against an independent numpy computation: the points are each length's fastest round, the slope
is fitted on n ≥ 256 only (where the n² work dominates), its spread leaves one round out, the
dashed line's ends lie on that fit, each doubling's factor is the points' ratio; and the words the
scene says with it (the doublings beside the average, what the spread is of) in zh and en."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from ui.lesson import measure
from ui.text import t

NS = list(measure.COST_NS)


def independent_fit(ns, ys, start=256):
    x = np.log([n for n in ns if n >= start])
    y = np.log([v for n, v in zip(ns, ys, strict=True) if n >= start])
    slope, icpt = np.polyfit(x, y, 1)
    return slope, icpt, x


def test_the_block_is_one_fit_of_its_own_points_over_the_lengths_where_n2_dominates(monkeypatch):
    """A made-up set of rounds (fixed costs at n = 128, one bad round): the block's points, fit,
    range, spread and line ends are what numpy says of the same rounds."""
    rng = np.random.default_rng(7)
    n = np.array(NS, dtype=float)
    clean = 0.08e-3 + 2e-9 * n**2.1  # seconds: a fixed cost, then about n^2.1
    times = clean * (1 + 0.05 * rng.random((measure.COST_ROUNDS, len(NS))))
    times[2] *= 3.0  # a round the machine was busy for
    monkeypatch.setattr(measure, "cost_times", lambda ns, rounds, clock: times.copy())
    calls = iter(range(1, 100))  # made-up peaks that grow with n (3 runs per n)
    monkeypatch.setattr(measure.ex, "peak_bytes", lambda run: 2**20 * next(calls) ** 2)
    b = measure.cost_block()
    best = times.min(axis=0) * 1e3
    np.testing.assert_allclose(b["ms"], best)
    assert b["fit"] == [256, NS[-1]] and b["rounds"] == measure.COST_ROUNDS
    slope, icpt, x = independent_fit(NS, best)
    assert b["slope_t"] == pytest.approx(slope, abs=1e-9)
    np.testing.assert_allclose(b["fit_ms"], np.exp(icpt + slope * x[[0, -1]]), rtol=1e-9)
    loo = [
        independent_fit(NS, np.delete(times, r, axis=0).min(axis=0))[0]
        for r in range(measure.COST_ROUNDS)
    ]
    assert b["slope_t_spread"] == pytest.approx([min(loo), max(loo)], abs=1e-9)
    assert (
        b["slope_t_spread"][0] <= b["slope_t"] + 1e-9
        and b["slope_t"] <= b["slope_t_spread"][1] + 1e-9
    )
    m_slope = independent_fit(NS, b["mib"])[0]
    assert b["slope_m"] == pytest.approx(m_slope, abs=1e-9)
    all_points = np.polyfit(np.log(n), np.log(best), 1)[0]
    assert abs(all_points - slope) > 0.05  # n = 128 (fixed costs) would bend the fit: left out
    kept = [v for m, v in zip(NS, best, strict=True) if m >= 256]  # each n is twice the last
    np.testing.assert_allclose(b["doublings_t"], [y / x for x, y in pairwise(kept)], rtol=1e-9)


def test_the_doublings_show_the_bend_that_one_slope_averages(monkeypatch):
    """Times that grow faster at large n (×3.67, ×4.40, ×5.47 per doubling, as audit 4 measured):
    the fit says one ×2^slope ≈ ×4.4 for all; the block carries each doubling, and the takeaway
    and the readout show them."""
    steps = [3.67, 4.40, 5.47]
    secs = np.cumprod([1e-3, 1.0, *steps])  # n = 128 … 2048
    times = np.tile(secs, (measure.COST_ROUNDS, 1))
    monkeypatch.setattr(measure, "cost_times", lambda ns, rounds, clock: times.copy())
    monkeypatch.setattr(measure.ex, "peak_bytes", lambda run: 2**20)  # memory is not the point
    b = measure.cost_block()
    np.testing.assert_allclose(b["doublings_t"], steps, rtol=1e-9)
    assert f"{2 ** b['slope_t']:.1f}" == "4.4"
    fields = {
        "from": 256,
        "to": 2048,
        "s": "2.14",
        "lo": "2.14",
        "hi": "2.14",
        "t": "4.4",
        "sm": "1.97",
        "m": "3.9",
        "rounds": 7,
        "steps": "×3.7 → ×4.4 → ×5.5",
    }
    for lang in ("zh", "en"):
        for key in ("lesson.s7.take", "lesson.s7.fit"):  # (the verdict: the average, "below")
            assert "×3.7 → ×4.4 → ×5.5" in t(key, lang, **fields), (key, lang)


def test_a_real_measurement_is_warm_repeated_and_consistent():
    ns = [128, 256, 512, 1024]  # a tenth of the page's work (up to 2048, 7 rounds): the same path
    b = measure.cost_block(ns, rounds=3)
    assert len(b["ms_rounds"]) == 3 and all(len(r) == len(ns) for r in b["ms_rounds"])
    np.testing.assert_allclose(b["ms"], np.min(b["ms_rounds"], axis=0))
    slope = independent_fit(ns, b["ms"])[0]
    assert b["slope_t"] == pytest.approx(slope, abs=1e-9)
    # memory is counted, not timed: 3 float32 n × n arrays, so its slope is 2 within a few %
    assert b["slope_m"] == pytest.approx(2, abs=0.1)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_fit_words_name_the_range_the_slope_and_what_its_spread_is_of(lang):
    """The leave-one-round-out range is timing noise, not the curve's bend: the words say so."""
    fields = {
        "from": 256,
        "to": 2048,
        "s": "2.13",
        "lo": "2.07",
        "hi": "2.20",
        "t": "4.4",
        "sm": "1.97",
        "m": "3.9",
        "rounds": 7,
        "steps": "×3.7 → ×4.4 → ×5.5",
    }
    said = t("lesson.s7.fit", lang, **fields)
    assert all(v in said for v in ("2.13", "2.07", "2.20", "4.4", "3.9", "7"))
    assert ("计时噪声" if lang == "zh" else "timing noise") in said
    take = t("lesson.s7.take", lang, **fields)
    assert "256" in take and "2048" in take  # the range: the takeaway's and the chart's legend
    assert "×3.6" not in take and "×3.8" not in take


CHOICES = ("lesson.s7.c_x2", "lesson.s7.c_x4", "lesson.s7.c_x8")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_13_the_question_step_states_no_times_before_its_answer(lang):
    """Issue 39 item 13: the question "double n: how many times the time?" was asked beside a
    caption "格子变成 4 倍" / "cells ×4" and a takeaway "格子 ×4" (and a big "×4" drawn between
    the grids, which the browser's rules walk reads off the canvas). The spoiler check finds a
    number of times however it is written; the words the step shows now say none."""
    from tests.lesson_support import answer_spoilers, tells

    choices = [[t(key, lang), ""] for key in CHOICES]
    old = {
        "zh": [
            "注意力给每一对词算一个分数：n 个词就是 n × n 格；n 翻一倍，格子变成 4 倍。",
            "分数表有 n² 格：n 翻倍，格子 ×4；KV 缓存让每个新词只算一行。",
            "×4",
        ],
        "en": [
            "Attention scores every pair: n words make n × n cells; double n, cells ×4.",
            "double n and the cells four times",
            "4× the cells",
        ],
    }[lang]
    for said in old:
        assert answer_spoilers(choices, [said]), said
    shown = [t(f"lesson.s7.{key}", lang) for key in ("cap.cells", "take_wait", "question")]
    shown.append(t("lesson.s7.cells", lang, n=13, cells="169"))
    assert not answer_spoilers(choices, shown), answer_spoilers(choices, shown)
    # ×4 is not ×4.4 nor ×40; 4 倍 is not 14 倍
    (four,) = tells(t("lesson.s7.c_x4", lang))
    assert not any(four.search(s) for s in ("×4.4", "×40", "14 倍", "n = 4"))
