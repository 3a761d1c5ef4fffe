"""demo_model.data.evalset: the human-written sets (the development set data/eval_set.txt, the
former test set data/eval_test.txt and the blind sets data/eval_blind.txt, data/eval_round4.txt
and data/eval_round5.txt): they load, their labels align with jieba, they are kept apart from
each other and from the corpus, and the shipped model meets the issue's floors on them."""

import itertools
import re

import pytest

from demo_model import train
from demo_model.data import corpus, corpus_words, evalset
from demo_model.demo import describe_heads, load_demo_history, load_demo_model
from demo_model.metrics import best_heads
from demo_model.reading import ANSWER, read_token
from demo_model.relations import LINKS

# The issue's floors (pronoun 90%, verb 85%, modifier 95%), verbs raised to what the model
# before the gender feature measured (86.5%), as round 2 asked; round 3 asks them of every set.
HUMAN_FLOOR = {"pronoun_antecedent": 0.90, "verb_subject": 0.865, "modifier_noun": 0.95}
ISSUE_SENTENCES = (
    "老师走进教室，他开始讲课。",
    "奶奶坐在院子里，她在晒太阳。",
    "老师把作业还给了小王，因为他上周生病了。",
)

# Every test here reads, tokenizes or evaluates whole evaluation sets (about 11 s of CPU in all):
# checks of the data files, which `make test` runs and `make check` leaves out.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sentences() -> list:
    return evalset.load()


@pytest.fixture(scope="module")
def sets() -> dict:
    """set name -> its loaded sentences: loaded (tokenized by jieba) once for the tests that
    only read them; test_every_label_aligns_with_jiebas_tokens loads each itself."""
    return {name: evalset.load(path) for name, path in evalset.ALL_SETS.items()}


@pytest.mark.parametrize("name", evalset.ALL_SETS)
def test_every_label_aligns_with_jiebas_tokens(name):
    """load() raises on any label whose words are not tokens or whose query asks no such
    question; check() lists none."""
    path = evalset.ALL_SETS[name]
    assert evalset.check(path)[1] == []
    loaded = evalset.load(path)
    assert len(loaded) == len(evalset.parse(path))
    assert all(s.items for s in loaded)


# Labels per relation: the development set has 60 of each, the test set 60 pronoun labels
# and 30 of each other relation (issue 21, second round), the blind sets 60, 40 and 40 (third,
# fourth and fifth).
AT_LEAST = {
    "dev": dict.fromkeys(LINKS, 60),
    "test": {"pronoun_antecedent": 60, "verb_subject": 30, "modifier_noun": 30},
    "blind": {"pronoun_antecedent": 60, "verb_subject": 40, "modifier_noun": 40},
    "round4": {"pronoun_antecedent": 60, "verb_subject": 40, "modifier_noun": 40},
    "round5": {"pronoun_antecedent": 60, "verb_subject": 40, "modifier_noun": 40},
}


@pytest.mark.parametrize("name", evalset.ALL_SETS)
def test_enough_labels_per_relation(name, sets):
    loaded = sets[name]
    for rel in LINKS:
        found = sum(i.relation == rel for s in loaded for i in s.items)
        assert found >= AT_LEAST[name][rel], (rel, found)


@pytest.mark.parametrize("pair", list(itertools.combinations(evalset.ALL_SETS, 2)))
def test_no_two_sets_share_a_sentence(pair, sets):
    one, other = ({s.text for s in sets[n]} for n in pair)
    assert not one & other, sorted(one & other)


def test_the_issues_sentences_are_in_the_set(sentences):
    texts = {s.text for s in sentences}
    assert set(ISSUE_SENTENCES) <= texts


def test_a_label_that_jieba_splits_is_reported(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(
        "# a header\n小明把书放在了桌子上。 | V 放在了>小明\n他走了。 | M 他>走\n",
        encoding="utf-8",
    )
    with pytest.raises(evalset.EvalSetError) as err:
        evalset.load(path)
    assert "'放在了' is not a token" in str(err.value)
    assert "'他' does not ask modifier_noun" in str(err.value)
    path.write_text("小明走了。 | V 走<小明\n", encoding="utf-8")
    with pytest.raises(evalset.EvalSetError, match="cannot read the labels"):
        evalset.parse(path)


def test_occurrence_numbers_pick_the_nth_token(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("小明笑了，小红也笑了。 | V 笑#2>小红 | V 笑>小明\n", encoding="utf-8")
    (s,) = evalset.load(path)
    texts = [t.text for t in s.tokens]
    (second, first) = s.items
    assert texts[second.target] == "小红" and second.query > first.query


def _labelled_words(sentences) -> set:
    """The labelled words of the set that are not pronouns (tag r: 他, 我, 这里, 谁 …)."""
    out = set()
    for s in sentences:
        for item in s.items:
            for k in (item.query, item.target):
                if s.tokens[k].tag != "r":
                    out.add(s.tokens[k].text)
    return out


@pytest.fixture(scope="module")
def training_words() -> tuple[set, set]:
    """(every token of the training sentences, every word of the lists the corpus draws from):
    the training corpus is built (jieba, ~7 s) once for every set, not once per set."""
    config = train.TrainConfig()
    seen = {t.text for e in corpus.build("train", config.n_train, config.seed) for t in e.tokens}
    lists = corpus_words._hand_words() | set(corpus.vocabulary())
    for pools in corpus_words.lexicon_pools().values():
        lists |= set(pools["train"]) | set(pools["heldout"])
    return seen, lists


@pytest.mark.parametrize("name", evalset.ALL_SETS)
def test_no_labelled_word_of_the_set_occurs_in_the_training_corpus(name, sets, training_words):
    """Kept out of the corpus: no labelled noun, name, verb or adjective of any set is a
    token of the training sentences, nor a word of any list the corpus draws from."""
    words = _labelled_words(sets[name])
    seen, lists = training_words
    assert words, name  # a set whose words were lost would pass vacuously
    assert not words & seen, sorted(words & seen)
    assert not words & lists, sorted(words & lists)


# ---- the shipped model on the set ---------------------------------------------------------------

# What the shipped model measures over every human-written set, as stored with its weights
# and shown by the app's captions (MODEL.md: 88.8%, 92.9%, 95.1%): a regression floor.
SHIPPED_FLOOR = {"pronoun_antecedent": 0.88, "verb_subject": 0.92, "modifier_noun": 0.95}
# Where that pooled figure is below the issue's floor: relation -> what it measures.
POOLED_SHORT = {"pronoun_antecedent": "308 / 347 = 88.8% over the five sets (MODEL.md)"}


def _best() -> dict:
    """relation -> (best head, its argmax hit rate) over every human-written set (the stored
    figures), final step."""
    return dict(zip(LINKS, best_heads(load_demo_history().human[-1]), strict=True))


def test_each_relation_is_done_by_a_different_head():
    assert len({head for head, _ in _best().values()}) == len(LINKS), _best()


@pytest.mark.parametrize("relation", LINKS)
def test_the_shipped_model_keeps_its_measured_numbers(relation):
    assert _best()[relation][1] >= SHIPPED_FLOOR[relation]


@pytest.mark.parametrize("relation", LINKS)
def test_the_issues_floor_over_every_human_written_set(relation, request):
    """Argmax of the best head's row over all five sets pooled (what the captions count):
    pronoun ≥ 90%, verb ≥ 86.5%, modifier ≥ 95%; strict xfail with the measured figure where
    it falls short."""
    if relation in POOLED_SHORT:
        request.applymarker(pytest.mark.xfail(strict=True, reason=POOLED_SHORT[relation]))
    assert _best()[relation][1] >= HUMAN_FLOOR[relation]


@pytest.fixture(scope="module")
def scores() -> dict:
    """set name -> relation -> evalset.Score of the shipped model, read as the app reads."""
    return {
        name: {s.relation: s for s in evalset.measure(path)}
        for name, path in evalset.ALL_SETS.items()
    }


# Where the shipped model is below a floor on a set: (set, relation) -> what it measures.
SHORT = {
    ("test", "pronoun_antecedent"): "67 / 76 = 88.2% on the former test set (MODEL.md)",
    ("blind", "pronoun_antecedent"): "53 / 63 = 84.1% on the round-3 blind set (MODEL.md)",
    ("round4", "pronoun_antecedent"): "55 / 64 = 85.9% on the round-4 blind set (MODEL.md)",
    ("round4", "modifier_noun"): "38 / 41 = 92.7% on the round-4 blind set (MODEL.md)",
    ("round5", "modifier_noun"): "45 / 48 = 93.8% on the round-5 blind set (MODEL.md)",
}


@pytest.mark.parametrize("name", list(evalset.ALL_SETS))
@pytest.mark.parametrize("relation", LINKS)
def test_the_issues_floor_on_each_set(scores, name, relation, request):
    """The head the app reads (best on the held-out split), on each set alone: the same
    floors; strict xfail with the measured figure where it falls short."""
    if (name, relation) in SHORT:
        request.applymarker(pytest.mark.xfail(strict=True, reason=SHORT[name, relation]))
    s = scores[name][relation]
    assert s.hits >= HUMAN_FLOOR[relation] * s.total, (s.hits, s.total)


@pytest.mark.parametrize("name", list(evalset.ALL_SETS))
def test_no_miss_is_presented_as_a_pronouns_answer(scores, name):
    """On every human-written set, every 他/她/它 reading presented as the answer is right:
    misses are held back (undecided, implausible, ambiguous, looking ahead)."""
    s = scores[name]["pronoun_antecedent"]
    assert s.presented_right == s.presented and s.held_back == s.total - s.hits, s


# Where a verb or modifier miss is still presented as the answer: (set, relation) -> which.
PRESENTED_WRONG = {
    ("test", "verb_subject"): "王阿姨…去接孙子: 接 → 王 (jieba cuts 王 / 阿姨; MODEL.md)",
    ("round4", "modifier_noun"): "one of 39 presented modifier readings (MODEL.md)",
}


@pytest.mark.parametrize("name", list(evalset.ALL_SETS))
@pytest.mark.parametrize("relation", ["verb_subject", "modifier_noun"])
def test_no_miss_is_presented_as_a_verbs_or_modifiers_answer(scores, name, relation, request):
    """The same for verbs and modifiers (reading.plausible: an earlier verb's object, a noun
    past the one a modifier's phrase ends on); strict xfail where one is still presented."""
    if (name, relation) in PRESENTED_WRONG:
        request.applymarker(pytest.mark.xfail(strict=True, reason=PRESENTED_WRONG[name, relation]))
    s = scores[name][relation]
    assert s.presented_right == s.presented, s


def test_the_stored_human_figures_are_the_sets_own():
    """describe_heads()' counts are every set's: as many rows as labels per relation."""
    every = evalset.load_all()
    counts = {rel: sum(i.relation == rel for s in every for i in s.items) for rel in LINKS}
    for head in describe_heads():
        if head.relation in LINKS:
            assert head.total == counts[head.relation]


def _readings(sentences, relation: str):
    """(sentence, item, reading) for every label of a relation, read with the shipped model."""
    m, heads = load_demo_model(), describe_heads()
    for s in sentences:
        weights = None
        for item in (i for i in s.items if i.relation == relation):
            if weights is None:
                weights = m.run(s.text).attention.heads.weights
            reading = read_token(s.tokens, item.query, weights, heads, m.vocab, relation=relation)
            yield s, item, reading


@pytest.mark.parametrize("relation", LINKS)
def test_what_is_presented_as_an_answer_is_right_nine_times_in_ten(sentences, relation):
    """Of the readings whose status is "answer" (the head decided, every word known), at
    least 90% name the labelled target; most misses are held back as undecided."""
    answered = right = misses = held_back = 0
    for _, item, reading in _readings(sentences, relation):
        hit = reading.keys[0] == item.target
        answered += reading.status == ANSWER
        right += hit and reading.status == ANSWER
        misses += not hit
        held_back += not hit and reading.status != ANSWER
    assert right >= 0.9 * answered, (right, answered)
    assert held_back >= 0.5 * misses, (held_back, misses)


def test_the_issues_teacher_sentence_resolves_he_to_the_teacher():
    """老师走进教室，他开始讲课: the pronoun head decides 他 → 老师 and the reading presents it as
    the answer (the issue's first complaint: 他 → 开始, 92.6%)."""
    m = load_demo_model()
    run = m.run(ISSUE_SENTENCES[0])
    texts = run.tokens.texts
    reading = read_token(
        run.tokens, texts.index("他"), run.attention.heads.weights, describe_heads(), m.vocab
    )
    assert reading.status == ANSWER and texts[reading.answer] == "老师", reading


def test_a_pronoun_miss_from_the_issue_is_not_presented_as_the_answer():
    """老师把作业还给了小王，因为他上周生病了: the head leans to 老师, not 小王, and the reading
    does not present 老师 as whom 他 means: 小王 fits 他 as well (reading.AMBIGUOUS)."""
    m = load_demo_model()
    run = m.run(ISSUE_SENTENCES[2])
    texts = run.tokens.texts
    reading = read_token(
        run.tokens, texts.index("他"), run.attention.heads.weights, describe_heads(), m.vocab
    )
    assert texts[reading.keys[0]] != "小王" and reading.status != ANSWER
    assert reading.answer is None


# MODEL.md describes each human-written set by its counts; the audit found "41 with a verb label
# (44)" for the blind set, which has 40 such sentences. Every count MODEL.md states of a set is
# read back from the file here (a sentence with two labels of a relation counts once).
RELATION_WORDS = {
    "pronoun": "pronoun_antecedent",
    "verb": "verb_subject",
    "modifier": "modifier_noun",
}


def _described_sets() -> dict[str, str]:
    """Each set's paragraph in MODEL.md (it starts with its bold name and its file's path)."""
    text = (evalset.ALL_SETS["dev"].parents[2] / "MODEL.md").read_text(encoding="utf-8")
    out = {}
    for name, path in evalset.ALL_SETS.items():
        start = text.index(
            f"`demo_model/data/{path.name}`", text.index("## The human-written sets")
        )
        out[name] = " ".join(text[start : text.index("\n\n", start)].split())
    return out


@pytest.mark.parametrize("name", sorted(evalset.ALL_SETS))
def test_model_md_states_each_sets_counts_as_the_file_has_them(name, sets):
    said = _described_sets()[name]
    sentences = sets[name]
    labels = {r: [i for s in sentences for i in s.items if i.relation == r] for r in LINKS}
    labelled = {r: sum(any(i.relation == r for i in s.items) for s in sentences) for r in LINKS}
    checked = 0
    for word, relation in RELATION_WORDS.items():
        for m in re.finditer(
            rf"(\d+) (?:sentences )?with an? {word} label \((\d+)(?: labels)?\)", said
        ):
            assert (int(m[1]), int(m[2])) == (labelled[relation], len(labels[relation])), m[0]
            checked += 1
        for m in re.finditer(rf"(\d+) {word} labels", said):
            assert int(m[1]) == len(labels[relation]), m[0]
            checked += 1
    assert checked == 3, said[:200]  # each relation's count is stated once


def test_model_md_counts_the_pronoun_heads_figure_in_labels_not_sentences():
    """MODEL.md quoted the captions as "308 of 347 sentences people wrote": 347 is the pronoun
    labels, in 326 sentences (a sentence may hold two). Counted here from the files' labels."""
    text = " ".join((evalset.ALL_SETS["dev"].parents[2] / "MODEL.md").read_text("utf-8").split())
    rows = [row for path in evalset.ALL_SETS.values() for row in evalset.parse(path)]
    labels = sum(code == "P" for _, _, found in rows for code, *_ in found)
    sentences = sum(any(code == "P" for code, *_ in found) for _, _, found in rows)
    head = next(h for h in describe_heads() if h.relation == "pronoun_antecedent")
    assert (head.total, labels, sentences) == (347, 347, 326)
    said = re.findall(rf"{head.hits} of {labels} ([\w ]+?),? in (\d+) sentences", text)
    assert said and all(m == ("pronoun labels", str(sentences)) for m in said), said
    assert f"{head.hits} of {labels} sentences" not in text
