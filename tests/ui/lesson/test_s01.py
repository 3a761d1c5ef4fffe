"""§1's numbers and rules without a browser: the pronoun head's counts are labels in human-written
sentences (counted here from the files' raw lines), a one-token sentence is blocked, and 小红 is
read with the one gender rule the learned page uses (and §1 says why it is not ruled out)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from demo_model import describe_heads, load_demo_model
from demo_model.lexicon import gender
from demo_model.reading import AMBIGUOUS, NO_HEAD, STATUSES, read_pronoun
from tests.pages.test_lesson import ok, open_lesson, payload
from ui.lesson import data
from ui.settings import DEFAULTS
from ui.state import lab_for
from ui.text import t

DATA = Path(__file__).resolve().parents[3] / "demo_model" / "data"
SETS = ("eval_set", "eval_test", "eval_blind", "eval_round4", "eval_round5")


def raw_pronoun_labels() -> tuple[int, int, int]:
    """(pronoun labels, sentences with one, labels whose pronoun is 它) from the sets' raw lines:
    "sentence | P 他>小明 | V 走>他" (它#2: the sentence's second 它), no tokenising, no project
    code."""
    labels = sentences = it = 0
    for name in SETS:
        for line in (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or " | " not in line:
                continue
            mine = [p.strip()[2:] for p in line.split(" | ")[1:] if p.strip().startswith("P ")]
            labels += len(mine)
            sentences += bool(mine)
            it += sum(p.split(">")[0].split("#")[0] == "它" for p in mine)  # 它#2: the second 它
    return labels, sentences, it


def test_the_pronoun_heads_counts_are_labels_in_human_written_sentences():
    labels, sentences, it = raw_pronoun_labels()
    assert (labels, sentences, it) == (347, 326, 71)  # issue 31's audit
    assert data.pronoun_sentences() == sentences
    head = next(h for h in describe_heads() if h.relation == "pronoun_antecedent")
    assert (head.hits, head.total) == (308, labels)
    zh = t("lesson.s1.hits", "zh", hits=head.hits, total=head.total, sentences=sentences)
    en = t("lesson.s1.hits", "en", hits=head.hits, total=head.total, sentences=sentences)
    assert "326 句、347 个代词标注中对了 308 个" in zh
    assert "308 of 347 pronoun labels right, in 326 human-written test sentences" in en
    for lang in ("zh", "en"):  # the verdict counts labels too, never "347 sentences"
        why = t("lesson.s1.right", lang, head=2, total=347, hits=308, q="他", w="1%", k="小明")
        assert ("347 个代词标注" if lang == "zh" else "347 pronoun labels") in why
        assert "347 句" not in why and "347 test sentences" not in why
    lab, _ = lab_for(DEFAULTS)
    assert data.pronoun_quiz(lab, partial(t, lang="zh"))["sentences"] == sentences


def raw_labels_per_pronoun() -> dict[str, int]:
    """Pronoun labels per pronoun ("P 它#2>猫": 它), from the sets' raw lines."""
    out: dict[str, int] = {}
    for name in SETS:
        for line in (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or " | " not in line:
                continue
            for part in line.split(" | ")[1:]:
                if part.strip().startswith("P "):
                    word = part.strip()[2:].split(">")[0].split("#")[0]
                    out[word] = out.get(word, 0) + 1
    return out


def test_the_pronoun_heads_job_names_every_pronoun_its_labels_count():
    """Its 347 labels are 161 他, 115 她 and 71 它: "finds whom 他/她 means" left out a fifth of
    them. The job's name, in both languages, names each pronoun that has labels."""
    counts = raw_labels_per_pronoun()
    assert counts == {"他": 161, "她": 115, "它": 71}
    head = next(h for h in describe_heads() if h.relation == "pronoun_antecedent")
    assert head.total == sum(counts.values())
    for lang in ("zh", "en"):
        name, _ = data.job_words(head, partial(t, lang=lang))
        assert all(word in name for word in counts), (lang, name)


@pytest.mark.parametrize("status", [s for s in STATUSES if s != NO_HEAD])
def test_s1_never_says_which_head_finds_pronouns_before_s6_asks_it(monkeypatch, status):
    """§6 asks "which head finds the person 他 means?"; §1 said "head 2 resolves pronouns" at
    its reveal. Whatever the reading (faked here), §1's words name the pronoun head's job, never
    its number; its bars' caption takes no head number either."""
    number = next(h.head for h in describe_heads() if h.relation == "pronoun_antecedent") + 1
    lab, _ = lab_for(DEFAULTS)
    real = data.read_token
    monkeypatch.setattr(data, "read_token", lambda *a, **k: replace(real(*a, **k), status=status))
    for lang, name in (("zh", f"头 {number}"), ("en", f"head {number}")):
        quiz = data.pronoun_quiz(lab, partial(t, lang=lang))
        assert quiz["head"] == number - 1  # the bars are that head's row …
        said = " ".join(c["why"] for c in quiz["choices"]).casefold()
        assert name.casefold() not in said  # … and no word says its number
        for key in ("lesson.s1.bars", "lesson.s1.bars_short"):
            assert "{head}" not in t(key, lang)


def test_a_one_token_sentence_is_blocked_with_a_notice_not_an_empty_question():
    at = open_lesson(s="他", at="1")
    ok(at)
    header, _ = payload(at)
    assert header["sets"]["user"]["needs"]["1"] == "lesson.need.two"


def test_xiaohong_is_read_with_the_learned_pages_gender_rule_and_s1_says_why():
    """The learned page reads 他 with read_pronoun, whose rival rule takes a name's gender from
    lexicon.gender: 小红 has none (红 is in women's names only about twice as often as in men's),
    so both pages find the sentence ambiguous; §1 names 小红 and says its gender is unknown,
    rather than calling it a possible 他 with no reason."""
    sentence = "那天，小红在公园里看见了小刚，他很高兴。"
    lab, _ = lab_for(replace(DEFAULTS, sentence=sentence))
    tags = {tok.text: tok.tag for tok in lab.tokens}
    assert gender("小红", tags["小红"]) == "" and gender("小刚", tags["小刚"]) == "m"
    learned = read_pronoun(
        lab.tokens, lab.result.heads.weights, describe_heads(), load_demo_model().vocab
    )
    for lang in ("zh", "en"):
        quiz = data.pronoun_quiz(lab, partial(t, lang=lang))
        assert quiz["status"] == learned.status == AMBIGUOUS and not quiz["judged"]
        for c in quiz["choices"]:
            assert "小红" in c["why"]
            assert ("是男是女" if lang == "zh" else "a man or a woman") in c["why"]
