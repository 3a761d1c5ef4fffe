"""§10's numbers against the shipped model's file, read here with numpy alone: the learning curve
is the pronoun head's hit rate on the generated held-out split at every measured step, and the
human-written test sentences' count beside it is 308 of 347 labels (SCENES.md's naming)."""

from __future__ import annotations

import numpy as np

from demo_model.model import DEMO_PATH
from pages import lesson as page
from ui.settings import DEFAULTS

PRONOUN = 0  # the relations' order in the file's "relations" entry, checked below


def test_s10s_curve_and_count_are_the_files_own_numbers():
    z = np.load(DEMO_PATH)
    assert z["relations"].tolist()[PRONOUN] == "pronoun_antecedent"
    res, _ = page.sentence_set(page.lesson_settings(DEFAULTS), "e.")
    part = res["trained"]
    head = part["quiz"]["head"]
    curve = part["curve"]
    np.testing.assert_array_equal(curve["steps"], z["eval_steps"])
    np.testing.assert_allclose(curve["hits"], z["eval_relations"][:, head, PRONOUN, 0])
    first, last = curve["hits"][0], curve["hits"][-1]
    assert (round(first * 100), round(last * 100)) == (
        3,
        95,
    )  # the "3% → 95%" on generated held-out
    job = part["jobs"][head]
    labels = int(z["human_counts"][PRONOUN])
    hits = round(float(z["human_relations"][-1, head, PRONOUN, 0]) * labels)
    assert (job["relation"], job["hits"], job["total"]) == ("pronoun_antecedent", hits, labels)
    assert (hits, labels, f"{hits / labels:.1%}") == (308, 347, "88.8%")
