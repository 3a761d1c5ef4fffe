"""demo_model.lexicon: Cilin's meaning classes and the genders of words and names, from the two
files in demo_model/data/, against what any reader of Chinese knows and hand-made files."""

import json

import pytest

from attention_core.tokenize import tokenize
from demo_model import lexicon

# Known by any reader of Chinese, not by the code: the gender of person words and names.
GENDERS = {
    "妈妈": "f", "爸爸": "m", "奶奶": "f", "爷爷": "m", "嫂子": "f", "姨父": "m", "小姨": "f",
    "女儿": "f", "儿子": "m", "新娘": "f", "叔叔": "m", "阿姨": "f", "他": "m", "她": "f",
    "老师": "", "医生": "", "司机": "", "孩子": "", "它": "", "桌子": "", "小猫": "",
}  # fmt: skip
NAMES = {"韩梅梅": "f", "李娜": "f", "黄晓东": "m", "张伟": "m", "小王": "", "老张": ""}


def test_a_word_has_the_level_4_classes_cilin_files_it_under():
    assert lexicon.classes("妈妈") == ("Ah04B", "An07C")  # 母, and a second sense
    assert lexicon.classes("猫") == ("Bi08A",) and lexicon.classes("小猫") == ()
    assert lexicon.is_person("妈妈") and not lexicon.is_person("猫")
    assert lexicon.LEXICON_PATH.parent.name == "data" and lexicon.NAMES_PATH.exists()


def test_the_asset_is_extracted_from_the_packages_tree(tmp_path):
    """A two-branch tree by hand: words under their level-4 code, in the tree's order, once."""
    tree = {"A": {"sub": {"h": {"sub": {"04": {"sub": {"B": {"sub": {
        "01=": ["母亲", "妈妈"], "02=": ["妈妈", "娘"]}}}}}}}},
        "B": {"sub": {"i": {"sub": {"08": {"sub": {"A": {"sub": {"01=": ["猫"]}}}}}}}}}  # fmt: skip
    text = lexicon.extract(tree, "abc")
    body = [line for line in text.splitlines() if not line.startswith("#")]
    assert body == ["Ah04B 母亲 妈妈 娘", "Bi08A 猫"] and "sha256 of the json: abc" in text
    path = tmp_path / "classes.txt"
    path.write_text(text, encoding="utf-8")
    assert lexicon.classes("妈妈", path) == ("Ah04B",) and lexicon.classes("狗", path) == ()
    assert json.dumps(lexicon.load(str(path))["猫"]) == '["Bi08A"]'


def test_the_names_asset_keeps_the_totals_and_the_common_characters():
    csv = "char,male,female\n明,900,100\n丽,50,700\n罕,3,4\n"
    lines = lexicon.names_extract(csv, min_count=100).splitlines()
    assert [line for line in lines if not line.startswith("#")] == [
        "- 953 804", "明 900 100", "丽 50 700"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("word", "tag", "kind"),
    [("林明", "nr", "full"), ("小王", "n", "nick"), ("老林", "n", "nick"), ("小明", "nr", "nick"),
     ("小狗", "nr", ""), ("林明", "n", ""), ("妈妈", "n", ""), ("王", "nr", "")],
)  # fmt: skip
def test_a_name_is_a_surname_and_a_given_name_or_xiao_lao_and_a_surname(word, tag, kind):
    """小狗 nr is an animal (Cilin files 狗 under Bi); a word jieba does not tag nr is no full
    name; a single character is none."""
    assert lexicon.name_kind(word, tag) == kind


@pytest.mark.parametrize(("word", "expected"), [*GENDERS.items(), *NAMES.items()])
def test_gender_of_person_words_and_names(word, expected):
    (token,) = tokenize(word)
    assert lexicon.gender(word, token.tag) == expected


def test_a_given_names_gender_is_naive_bayes_over_its_characters():
    """梅梅: the odds of a woman's name, from the asset's own counts by hand."""
    counts = lexicon.name_counts()
    (m_all, f_all), (m, f) = counts["-"], counts["梅"]
    odds = (f_all / m_all) * ((f / f_all) / (m / m_all)) ** 2
    assert odds / (1 + odds) > lexicon.NAME_CONFIDENCE and lexicon.given_name_gender("梅梅") == "f"
    assert lexicon.given_name_gender("") == ""  # no evidence: P(female) is the prior, < 0.8
    assert "ngender 0.1.1" in lexicon.NAMES_PATH.read_text(encoding="utf-8").splitlines()[1]
