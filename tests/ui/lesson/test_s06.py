"""§6's numbers without a browser: each head shown on a word its job is about, which of two heads
with one job the app reads, the question's answer (the pronoun head) from the measurements, and
counts that say labels, not sentences (issues 31 and 34)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from demo_model import describe_heads
from ui.lesson import data
from ui.settings import DEFAULTS
from ui.state import lab_for
from ui.text import t

SAY = {lang: (lambda key, _l=lang, **f: t(key, _l, **f)) for lang in ("zh", "en")}


def trained(sentence: str):
    lab, _ = lab_for(replace(DEFAULTS, sentence=sentence, weights="trained"))
    assert lab is not None and lab.source == "trained"
    return lab


def info_of(sentence: str, lang: str = "zh") -> dict:
    return data.trained_part(trained(sentence), "t.", "他", sentence, SAY[lang], lang)[0]


@pytest.mark.parametrize(
    ("sentence", "words"),
    [
        # per head, the word its job asks about: modifier, pronoun, verb, modifier (None: no word)
        (
            "小明把书放在了桌子上，然后他走了。",
            {"pronoun_antecedent": "他", "verb_subject": "放在"},
        ),
        ("我喜欢红色的苹果。", {"verb_subject": "喜欢", "modifier_noun": "红色"}),
    ],
)
def test_each_head_is_shown_on_a_word_its_job_is_about(sentence, words):
    info = info_of(sentence)
    texts = [tok["t"] for tok in info["tokens"]]
    for job, q in zip(info["jobs"], info["queries"], strict=True):
        want = words.get(job["relation"])
        assert (texts[q] if q is not None else None) == want, (job["relation"], q)


def test_of_two_heads_with_one_job_the_app_reads_the_more_accurate_on_held_out_sentences():
    heads = describe_heads()
    jobs = data.head_jobs(None, SAY["en"])
    by_job: dict[str, list[int]] = {}
    for h in heads:
        by_job.setdefault(h.relation, []).append(h.head)
    twins = [ks for ks in by_job.values() if len(ks) > 1]
    assert twins, "the trained model has two heads with one job (heads 1 and 4)"
    for ks in twins:
        acc = {k: heads[k].heldout_hits / heads[k].heldout_total for k in ks}
        best = max(acc, key=acc.get)
        assert [k for k in ks if jobs[k]["read"]] == [best]
        assert jobs[best]["heldout_hits"] == heads[best].heldout_hits
    assert sum(j["read"] for j in jobs) == len(by_job)  # one read head per job


def test_the_question_s_answer_is_the_pronoun_head_and_its_row_finds_the_person():
    """The right choice is the head measured to resolve 他 (describe_heads); its 他 row, by an
    independent softmax of the raw scores ÷ √d_k, puts most weight on 小明."""
    info = info_of(DEFAULTS.sentence)
    pronoun = next(h.head for h in describe_heads() if h.relation == "pronoun_antecedent")
    assert info["quiz"]["head"] == pronoun and info["quiz"]["status"] == "answer"
    lab = trained(DEFAULTS.sentence)
    s = lab.result.heads.scores[pronoun] / np.sqrt(lab.d_k)  # (n, n)
    i = lab.texts.index("他")
    row = np.exp(s[i] - s[i].max())
    row /= row.sum()
    assert lab.texts[int(np.argmax(row))] == "小明" and row.max() > 0.9
    assert info["queries"][pronoun] == i


def test_a_sentence_without_a_pronoun_has_no_answer():
    info = info_of("我喜欢红色的苹果。")
    assert info["quiz"] is None


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_counts_say_labels_in_human_written_test_sentences(lang):
    label = next(
        j["label"] for j in data.head_jobs(None, SAY[lang]) if j["relation"] == "pronoun_antecedent"
    )
    if lang == "zh":
        assert "347 个标注对 308 个" in label and "人写的测试句" in label
        assert "个测试句对" not in label
    else:
        assert "308 of 347 labels" in label and "human-written test sentences" in label
