"""AppTest checks of the learned-attention page: every checkpoint renders, 他 → 小明 at the end."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core.model import load_demo_history
from ui.text import t

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
TIMEOUT = 120  # seconds: a shared 2-core machine; never a timing assertion
STEPS = [int(s) for s in load_demo_history().steps]
HEADS = load_demo_history().config.num_heads
EXAMPLE = "小明把书放在了桌子上，然后他走了。"


def open_page(**state) -> AppTest:
    """The app through its router, switched to pages/learned.py, with session values set."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    return at.switch_page("pages/learned.py").run()


def charts(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def heatmap_z(spec: dict) -> np.ndarray:
    z = spec["data"][0]["z"]
    if isinstance(z, dict) and "bdata" in z:
        flat = np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"])
        return flat.reshape([int(s) for s in str(z["shape"]).split(",")]).astype(float)
    return np.asarray(z, dtype=float)


def head_maps(at: AppTest) -> list[np.ndarray]:
    return [heatmap_z(c) for c in charts(at) if c["data"][0]["type"] == "heatmap"]


@pytest.fixture(scope="module")
def page() -> AppTest:
    at = open_page(sentence=EXAMPLE)
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("step", STEPS)
def test_page_renders_at_every_checkpoint(page, step):
    page.select_slider(key="learned_step").set_value(step).run()
    assert not page.exception, [e.value for e in page.exception]
    assert page.title[0].value == t("learned.title")
    assert len(head_maps(page)) == HEADS
    assert len(charts(page)) == HEADS + 2  # heads, loss curve, held-out figures
    assert page.subheader[0].value == t("learned.heads", step=step)


def test_final_step_shows_he_looking_at_xiaoming(page):
    page.select_slider(key="learned_step").set_value(STEPS[-1]).run()
    he, xiaoming = 9, 0  # 小明 把 书 放在 了 桌子 上 ， 然后 他 …
    assert max(m[he, xiaoming] for m in head_maps(page)) > 50  # percent
    page.select_slider(key="learned_step").set_value(0).run()
    assert max(m[he, xiaoming] for m in head_maps(page)) < 30


def test_scaling_switch_and_play_button(page):
    page.toggle(key="learned_scale").set_value(False).run()
    assert not page.exception, [e.value for e in page.exception]
    assert any("√d_k" in c.value for c in page.caption)
    page.button(key="learned_play").click().run()
    assert not page.exception, [e.value for e in page.exception]
    assert page.select_slider(key="learned_step").value == STEPS[-1]
    assert len(head_maps(page)) == HEADS


def test_english_and_head_descriptions():
    at = open_page(lang="en")
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == t("learned.title", "en")
    words = " ".join(m.value for m in at.markdown)
    assert t("learned.rel.pronoun_antecedent", "en") in words


def test_bad_sentence_gives_a_notice():
    at = open_page(sentence="   ")
    assert not at.exception, [e.value for e in at.exception]
