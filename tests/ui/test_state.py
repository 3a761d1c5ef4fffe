"""The export helpers without Streamlit: one head's CSV, every matrix in an NPZ, the τ weights."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from attention_core import LabSettings, compute
from tests.reference import causal_allowed, loop_softmax
from ui.state import all_npz, lab_at, qk_key, weights_at, weights_csv


@pytest.mark.parametrize(
    ("token", "cell"),
    [
        ("=cmd", "'=cmd"),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("他", "他"),
        ("a=b", "a=b"),  # only a leading character starts a formula
        ("'", "'"),
        ("X1", "X1"),
        ("1+1", "1+1"),
    ],
)
def test_csv_defuses_cells_a_spreadsheet_would_run(token, cell):
    rows = list(csv.reader(io.StringIO(weights_csv(np.eye(2), [token, "x"]), newline="")))
    assert rows[0] == ["query \\ key", cell, "x"]
    assert rows[1][0] == cell and rows[2][0] == "x"


def test_csv_holds_the_weights_to_six_places_row_by_row():
    w = np.array([[0.5, 0.25, 0.25], [1 / 3, 2 / 3, 0.0], [0.0, 0.0, 1.0]])
    text = weights_csv(w, ["小明", "，", "他"])
    assert text.splitlines() == [
        "query \\ key,小明,，,他",
        "小明,0.500000,0.250000,0.250000",
        "，,0.333333,0.666667,0.000000",
        "他,0.000000,0.000000,1.000000",
    ]
    with pytest.raises(ValueError):
        weights_csv(w, ["a", "b"])  # one name per row, or nothing


@pytest.fixture(scope="module")
def lab():
    return compute(LabSettings("我打你。", d_model=16, heads=2, causal=True, seed=4))


def test_npz_holds_every_matrix_and_the_record(lab):
    with np.load(io.BytesIO(all_npz(lab))) as z:
        saved = {k: z[k] for k in z.files}
    res = lab.result
    want = {"x": lab.x} | {k: getattr(res, k) for k in ("q", "k", "v", "concat", "output")}
    want |= {k: getattr(res.heads, k) for k in ("scores", "scaled", "weights")}
    assert set(saved) == {*want, "tokens", "record"}
    for name, array in want.items():
        np.testing.assert_array_equal(saved[name], array, err_msg=name)
    assert saved["tokens"].tolist() == ["我", "打", "你", "。"]
    record = json.loads(str(saved["record"]))
    assert record == {
        "source": "random",
        "scale": True,
        "causal": True,
        "causal_what_if": False,
        "pos": False,
        "mode": "word",
        "seed": 4,
        "step": None,
        "d_model": 16,
        "heads": 2,
        "d_k": 8,
    }


@pytest.mark.parametrize("causal", [False, True])
def test_npz_with_a_temperature_adds_the_weights_the_view_shows(lab, causal):
    with np.load(io.BytesIO(all_npz(lab, 5.0, causal))) as z:
        assert float(z["tau"]) == 5.0
        shown = z["weights_tau"]
    scores = lab.result.heads.scores  # (h, n, n)
    allowed = causal_allowed(4)
    for h, i in np.ndindex(2, 4):
        want = loop_softmax(scores[h, i] / 5.0, allowed[i] if causal else None)
        np.testing.assert_allclose(shown[h, i], want, rtol=1e-12)


def test_weights_at_without_a_temperature_is_the_cores(lab):
    assert weights_at(lab, None, True) is lab.result.heads.weights
    assert weights_at(lab, None, False) is lab.result.heads.weights
    np.testing.assert_allclose(
        weights_at(lab, 2.0, False)[1, 0],
        loop_softmax(lab.result.heads.scores[1, 0] / 2.0),
        rtol=1e-12,
    )


def test_npz_with_a_temperature_and_no_mask_by_default(lab):
    with np.load(io.BytesIO(all_npz(lab, 2.0))) as z:
        shown = z["weights_tau"]
    want = loop_softmax(lab.result.heads.scores[0, 0] / 2.0)  # query 0 sees every key
    np.testing.assert_allclose(shown[0, 0], want, rtol=1e-12)


@pytest.mark.parametrize("weights", ["random", "trained"])
def test_q_and_k_do_not_depend_on_scale_or_the_mask_so_one_key_serves_all_four(weights):
    key = ("小明把书放在了桌子上，然后他走了。", "word", 32, 4, False, True, True, 3, weights)
    assert qk_key(key) == (*key[:4], True, False, *key[6:])
    labs = [
        lab_at((*key[:4], scale, causal, *key[6:]))
        for scale in (False, True)
        for causal in (False, True)
    ]
    for lab in labs[1:]:
        np.testing.assert_array_equal(lab.result.q, labs[0].result.q)
        np.testing.assert_array_equal(lab.result.k, labs[0].result.k)
    assert len({lab.record.scale for lab in labs}) == 2  # the four Labs do differ elsewhere
