"""demo_model.features: what the model knows of a token — its tag, neighbours, clause, meaning
classes, characters, gender, and the fixed word and position blocks — against hand-made cases."""

import numpy as np
import pytest

from attention_core.embed import sinusoidal_positions, token_vector
from attention_core.tokenize import tokenize
from demo_model.features import (
    CLAUSES,
    NAME_CLASS,
    NEIGHBOURS,
    TAGS,
    ModelConfig,
    Vocab,
    build_vocab,
    clause_ids,
    entries,
    fixed_features,
    gender_ids,
    model_tag,
    neighbour_ids,
    position_features,
    tag_ids,
    word_classes,
    word_vectors,
)
from tests.model.support import SMALL, toks


def test_a_words_class_rows_share_each_sense_over_its_levels():
    """妈妈 has two senses (Ah04B, An07C): each weighs ½, spread over the levels that have a row
    (A, Ah, Ah04, Ah04B; A, An, An07, An07C); a word with no row gets {0: 1}."""
    vocab = Vocab(("-", "A", "Ah", "Ah04B", "An07"), ("-", "妈"))
    assert vocab.class_entries("妈妈") == {1: 1.0, 2: 0.5, 3: 0.5, 4: 0.5}
    assert vocab.class_entries("桌子") == {0: 1.0} and not vocab.knows_class("桌子")
    assert vocab.char_entries("妈妈") == {1: 1.0} and vocab.char_entries("妈他") == {1: 0.5, 0: 0.5}
    assert vocab.unknown_chars("妈他") == ("他",)


def test_the_vocabulary_has_a_row_per_level_of_every_class_and_character_seen():
    vocab = build_vocab(["猫", "妈妈"])
    assert vocab.classes[0] == "-" and vocab.chars == ("-", "妈", "猫")
    levels = {"B", "Bi", "Bi08", "Bi08A", "A", "Ah", "Ah04", "Ah04B", "An", "An07", "An07C"}
    assert set(vocab.classes[1:]) == levels | {NAME_CLASS[:n] for n in (1, 2, 4, 5)}
    assert list(vocab.classes[1:]) == sorted(vocab.classes[1:])


def test_padded_entries_keep_each_tokens_rows_and_weights():
    vocab = Vocab(("-",), ("-", "小", "明"))
    ids, w = entries(toks(("小明", "nr"), ("他", "r")), vocab, "chars")  # (n, K)
    assert ids.tolist() == [[1, 2], [0, 0]] and w.tolist() == [[0.5, 0.5], [1.0, 0.0]]


def test_a_tokens_neighbours_are_their_tags_or_the_function_word_itself():
    tokens = toks(("小明", "nr"), ("的", "uj"), ("书", "n"))
    before, after = neighbour_ids(tokens)
    edge = len(NEIGHBOURS) - 1  # "^"
    assert before.tolist() == [edge, TAGS.index("nr"), NEIGHBOURS.index("的")]
    assert after.tolist() == [NEIGHBOURS.index("的"), TAGS.index("n"), edge]
    assert tag_ids(toks(("書", "zz"))).tolist() == [0]  # an unknown tag shares "unk"


def test_genders_index_none_male_female():
    tokens = toks(("他", "r"), ("她", "r"), ("桌子", "n"), ("李娜", "nr"))
    assert gender_ids(tokens).tolist() == [1, 2, 0, 2]


def test_the_fixed_blocks_are_hashed_word_vectors_and_scaled_positions():
    """Word block: the core's token_vector / √d_word (norm 1 on average), in columns [0, d_word);
    position block: sinusoids of rows of norm ≈ 1 times pos_scale, in the next d_pos columns."""
    tokens = toks(("小明", "nr"), ("走", "v"), ("了", "ul"))
    words = word_vectors(tokens, SMALL)  # (n, d_model)
    d_w, d_p = SMALL.d_word, SMALL.d_pos
    for row, tok in zip(words, tokens, strict=True):
        np.testing.assert_allclose(row[:d_w], token_vector(tok.text, d_w) / np.sqrt(d_w))
    assert not words[:, d_w:].any()
    pos = position_features(3, SMALL)
    expected = SMALL.pos_scale * sinusoidal_positions(3, d_p) / np.sqrt(d_p / 2)
    np.testing.assert_allclose(pos[:, d_w : d_w + d_p], expected)
    assert not pos[:, :d_w].any() and not pos[:, d_w + d_p :].any()
    np.testing.assert_allclose(fixed_features(tokens, SMALL), words + pos)


def test_model_configs_are_validated():
    with pytest.raises(ValueError, match="divisible"):
        ModelConfig(d_model=30, num_heads=4)
    with pytest.raises(ValueError, match="d_word"):
        ModelConfig(d_model=16, num_heads=4, d_word=12, d_pos=8)
    with pytest.raises(ValueError, match="d_embed"):
        ModelConfig(d_embed=0)
    with pytest.raises(ValueError, match="pos_scale"):
        ModelConfig(pos_scale=float("nan"))


def test_clause_numbers_count_the_clause_ends_before_a_token():
    """The comma ending a clause belongs to it; the next token starts the next clause; a
    sixth clause and later share the last row."""
    tokens = tokenize("老师走进教室，他开始讲课。", mode="word")
    assert [t.text for t in tokens] == ["老师", "走进", "教室", "，", "他", "开始", "讲课", "。"]
    assert clause_ids(tokens).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    many = tokenize("甲，乙，丙，丁，戊，己，庚，辛。", mode="word")
    assert clause_ids(many).tolist()[-3:] == [CLAUSES - 1] * 3
    assert clause_ids([]).tolist() == []


def test_names_are_people_and_common_words_tagged_nr_are_nouns():
    """A name gets Cilin's class 人, not its last character's (梅 a plum tree); a common word
    jieba tags nr (熊猫) is seen as n; the shown tag is jieba's."""
    for text in ("韩梅梅说", "小王说", "老林说"):
        name = tokenize(text)[0]
        assert word_classes(name.text, name.tag) == (NAME_CLASS,), text
    assert word_classes("梅") and word_classes("韩梅梅") != ("Aa01A",)
    panda = tokenize("熊猫吃竹子")[0]
    assert panda.tag == "nr" and model_tag(panda) == "n"
    assert model_tag(tokenize("李娜说")[0]) == "nr"


@pytest.mark.parametrize(
    ("sentence", "word", "jieba", "seen"),
    [
        ("妈妈和哥哥回家了。", "哥哥", "ns", "n"),  # a kin word jieba guesses is a place
        ("门口站着一个警察。", "警察", "v", "n"),  # Cilin files 警察 only under 人
        ("警察检查了他的驾照。", "驾照", "v", "n"),  # … and 驾照 only under 物
        ("他去了北京。", "北京", "ns", "ns"),  # a real place stays one
        ("她很安静。", "安静", "nr", "a"),  # an adjective jieba takes for a name
        ("他开始讲课。", "开始", "v", "v"),
    ],
)
def test_the_model_sees_n_where_jiebas_guess_contradicts_cilin(sentence, word, jieba, seen):
    token = next(t for t in tokenize(sentence) if t.text == word)
    assert (token.tag, model_tag(token)) == (jieba, seen)
