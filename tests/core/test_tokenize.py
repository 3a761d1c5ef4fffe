"""jieba tokens of the example sentence, character mode, offsets, limits and input errors."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from attention_core import MAX_CHARS, MAX_TOKENS, EmptyInputError, Token, tokenize
from attention_core.tokenize import is_punctuation

EXAMPLE = "小明把书放在了桌子上，然后他走了。"


def test_example_gives_13_jieba_tokens_with_tags():
    tokens = tokenize(EXAMPLE)
    assert [t.text for t in tokens] == [
        "小明", "把", "书", "放在", "了", "桌子", "上", "，", "然后", "他", "走", "了", "。",
    ]  # fmt: skip
    tags = {t.text: t.tag for t in tokens}
    assert tags["小明"] == "nr" and tags["他"] == "r" and tags["，"] == "x"
    assert tokens.chars_cut == 0 and tokens.tokens_cut == 0


@pytest.mark.parametrize("mode", ["word", "char"])
def test_offsets_point_into_the_input(mode):
    text = " 小明 把书放在了桌子上，\n然后他走了。"
    tokens = tokenize(text, mode=mode)
    assert all(isinstance(t, Token) and text[t.start : t.end] == t.text for t in tokens)
    assert all(t.text.strip() for t in tokens)  # whitespace dropped


def test_char_mode_gives_one_token_per_visible_character():
    tokens = tokenize(EXAMPLE, mode="char")
    assert [t.text for t in tokens] == list(EXAMPLE)
    assert tokens[0].tag == tokens[1].tag == "nr"  # 小, 明 keep their word's tag


def test_user_dictionary_names_are_single_nr_words():
    tokens = tokenize("小红和小刚去了学校。")
    assert ("小红", "nr") in [(t.text, t.tag) for t in tokens]


def test_long_input_is_cut_and_says_so():
    tokens = tokenize("我" * (MAX_CHARS + 50))
    assert tokens.chars_cut == 50 and len(tokens) == MAX_TOKENS
    assert tokens.tokens_cut == MAX_CHARS - MAX_TOKENS


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "\u200b\u200b"])
def test_empty_input_raises_empty_input_error(text):
    with pytest.raises(EmptyInputError, match="empty"):
        tokenize(text)
    assert issubclass(EmptyInputError, ValueError)


@pytest.mark.parametrize("text", [None, 3, b"bytes", ["小明"]])
def test_non_string_input_raises_type_error(text):
    with pytest.raises(TypeError, match="must be a str"):
        tokenize(text)


def test_unknown_mode_is_a_value_error():
    with pytest.raises(ValueError, match="mode"):
        tokenize(EXAMPLE, mode="sentence")


def test_traditional_paste_is_cut_with_a_bounded_amount_of_work(monkeypatch):
    """2,000 traditional characters once cost ~12 s of jieba's POS Viterbi on every rerun.

    Counted in jieba calls, not seconds: only the pieces needed for MAX_TOKENS are tagged,
    and pieces full of characters its POS model does not know get the plain dictionary cut.
    """
    tk = sys.modules["attention_core.tokenize"]  # the module; the package re-exports the function

    hmm_chars = []
    real = tk.pos_tokenizer()

    class Spy:
        tokenizer = real.tokenizer

        def cut(self, text, HMM=True):  # jieba's own argument name
            if HMM:
                hmm_chars.append(len(text))
            return real.cut(text, HMM=HMM)

    monkeypatch.setattr(tk, "pos_tokenizer", lambda: Spy())
    tokens = tk.tokenize("龍與鳳飛過臺灣" * 300)
    assert len(tokens) == MAX_TOKENS and tokens.chars_cut == 100
    assert tokens.tokens_cut == MAX_CHARS - MAX_TOKENS  # one word per unknown character
    assert sum(hmm_chars) == 0


def test_pieces_end_after_punctuation_and_offsets_stay_exact():
    text = "小明把书放在了桌子上，然后他走了。" * 10  # 170 characters, longer than a piece
    tokens = tokenize(text)
    assert all(text[t.start : t.end] == t.text for t in tokens)
    assert [t.text for t in tokens[:13]] == [t.text for t in tokens[13:26]]


@pytest.mark.slow  # builds jieba's dictionary from dict.txt
def test_shared_tag_table_gives_jiebas_own_tags_and_leaves_the_default_alone():
    """pos_tokenizer copies the tag table `import jieba.posseg` already read (−0.2 s per
    process); the result must equal a POSTokenizer that reads dict.txt itself."""
    import jieba
    import jieba.posseg

    tk = sys.modules["attention_core.tokenize"]
    ours = tk._build_pos_tokenizer.__wrapped__(str(tk.USER_DICT))  # built here, not cached
    base = jieba.Tokenizer()
    base.tmp_dir = ours.tokenizer.tmp_dir
    base.load_userdict(str(tk.USER_DICT))
    reference = jieba.posseg.POSTokenizer(base)  # reads dict.txt the slow way
    for text in (EXAMPLE, "那天，小红在公园里看见了小刚，她很高兴。", "我打你，你打我。"):
        assert [(p.word, p.flag) for p in ours.cut(text)] == [
            (p.word, p.flag) for p in reference.cut(text)
        ]
    assert ours.word_tag_tab is not jieba.posseg.dt.word_tag_tab
    assert "小红" not in jieba.posseg.dt.word_tag_tab  # our user dictionary stays ours


@pytest.mark.slow  # builds jieba's dictionary from dict.txt
def test_dictionary_snapshot_restores_exactly_what_jieba_builds(tmp_path):
    """The JSON snapshot (faster server starts) holds the same prefix dictionary, total and
    user tags as jieba's own initialize() + load_userdict(), and a broken file is ignored."""
    import jieba

    tk = sys.modules["attention_core.tokenize"]
    user = str(tk.USER_DICT)
    built = jieba.Tokenizer()
    built.tmp_dir = str(tmp_path)
    built.initialize()
    built.load_userdict(user)
    path = tk._snapshot_path(str(tmp_path), user)
    tk._save(built, path, [])
    restored = jieba.Tokenizer()
    assert tk._restore(restored, path)
    assert restored.FREQ == built.FREQ and restored.total == built.total
    assert restored.user_word_tag_tab == built.user_word_tag_tab
    assert restored.user_word_tag_tab.get("小红") == "nr"
    assert list(restored.cut(EXAMPLE)) == list(built.cut(EXAMPLE))

    Path(path).write_text('{"format": 1, "freq": ', encoding="utf-8")  # cut off mid-write
    untouched = jieba.Tokenizer()
    assert not tk._restore(untouched, path) and not untouched.initialized
    assert not tk._restore(untouched, str(tmp_path / "missing.json"))


def test_dictionary_snapshot_is_named_after_the_user_dictionary(tmp_path):
    tk = sys.modules["attention_core.tokenize"]
    one, two = tmp_path / "a.txt", tmp_path / "b.txt"
    one.write_text("小红 5 nr\n", encoding="utf-8")
    two.write_text("小红 5 nr\n小刚 5 nr\n", encoding="utf-8")
    names = {tk._snapshot_path(str(tmp_path), str(p)) for p in (one, two)}
    assert len(names) == 2 and tk._snapshot_path(str(tmp_path), None) not in names


@pytest.mark.parametrize(
    ("text", "punct"),
    [("，", True), ("。", True), ("...", True), ("+", True), ("—", True), ("\u3000", True),
     ("他", False), ("a", False), ("1", False), ("🍎", False), ("，他", False), ("©", False)],
)  # fmt: skip
def test_is_punctuation_by_unicode_category(text, punct):
    """Punctuation, maths/currency/modifier symbols, spaces, controls; an emoji or © (So, "other
    symbol") says something, so it is not punctuation."""
    assert is_punctuation(text) is punct


def test_tokens_and_offsets_of_a_sentence_counted_by_hand():
    tokens = tokenize("我打你，你打我。")
    assert [(t.text, t.start, t.end) for t in tokens] == [
        ("我", 0, 1), ("打", 1, 2), ("你", 2, 3), ("，", 3, 4),
        ("你", 4, 5), ("打", 5, 6), ("我", 6, 7), ("。", 7, 8),
    ]  # fmt: skip
    assert (tokens.chars_cut, tokens.tokens_cut, tokens.mode) == (0, 0, "word")


def test_both_cuts_are_counted():
    tokens = tokenize("我" * (MAX_CHARS + 1), mode="char")
    assert (tokens.chars_cut, tokens.tokens_cut) == (1, MAX_CHARS - MAX_TOKENS)
    full = tokenize("我" * MAX_TOKENS, mode="char")
    assert (full.chars_cut, full.tokens_cut) == (0, 0)
    cut = tokenize("我" * (MAX_TOKENS + 3), mode="char")
    assert cut.tokens_cut == 3 and cut.chars_cut == 0


# ---- mutation-testing round: pieces, breaks, unknown characters, counts, messages

TK = sys.modules["attention_core.tokenize"]


def test_pieces_end_after_the_last_break_before_chunk_characters():
    text = "我" * 50 + "，" + "我" * 50 + "。" + "我" * 10  # 112 characters
    assert list(TK._chunks(text)) == [(0, text[:51]), (51, text[51:])]
    plain = "我" * 150  # no break: cut at CHUNK
    assert [(o, len(p)) for o, p in TK._chunks(plain)] == [(0, 64), (64, 64), (128, 22)]
    exact = "我" * 30 + "，" + "我" * 33  # exactly CHUNK long: one piece, no search
    assert list(TK._chunks(exact)) == [(0, exact)]
    first = "，" + "我" * 70  # a break at the piece's first character does not count
    assert [(o, len(p)) for o, p in TK._chunks(first)] == [(0, 64), (64, 7)]
    spaced = "我" * 40 + " " + "我" * 40
    assert [(o, len(p)) for o, p in TK._chunks(spaced)] == [(0, 41), (41, 40)]
    near = "我" * 61 + "，" + "我" * 10  # the break nearest the end wins
    assert [(o, len(p)) for o, p in TK._chunks(near)] == [(0, 62), (62, 10)]
    two = "我" * 20 + "，" + "我" * 20 + "，" + "我" * 30
    assert [(o, len(p)) for o, p in TK._chunks(two)] == [(0, 42), (42, 30)]


@pytest.mark.parametrize(
    ("c", "brk"), [("，", True), ("。", True), (" ", True), ("\u3000", True), ("\n", True),
                   ("我", False), ("a", False), ("1", False), ("+", False)],
)  # fmt: skip
def test_breaks_are_spaces_and_punctuation(c, brk):
    assert TK._is_break(c) is brk


def test_plain_cut_when_more_than_the_limit_of_han_characters_are_unknown():
    from jieba.posseg import char_state_tab_P

    unknown = [chr(c) for c in range(0x4E00, 0xA000) if chr(c) not in char_state_tab_P]
    limit = TK.UNKNOWN_HAN_LIMIT
    assert not TK._needs_plain_cut("".join(unknown[:limit]) + "我们")
    assert TK._needs_plain_cut("".join(unknown[: limit + 1]))
    assert TK._needs_plain_cut("\u9fff" * (limit + 1))  # the range's last character counts
    assert not TK._needs_plain_cut("a" * 20 + "🍎" * 5)  # only Han characters count


def test_words_jieba_finds_only_with_its_hmm_are_kept():
    """Names missing from the dictionary come from jieba's HMM (off only for unknown text)."""
    assert "王晓燕" in tokenize("王晓燕去了学校").texts
    assert "阿丽娅" in tokenize("他们叫我阿丽娅").texts


def test_characters_cut_are_counted_one_by_one():
    """400 characters, 200 words: segmenting stops after enough words, the rest is counted as
    characters in char mode (as words it would be half as many)."""
    tokens = tokenize("小明" * 200, mode="char")
    assert len(tokens) == MAX_TOKENS and tokens.tokens_cut == 400 - MAX_TOKENS
    assert tokens.mode == "char"


def test_the_user_dictionary_is_used():
    """那本 is one word only through assets/userdict.txt (jieba alone cuts 那 / 本)."""
    assert tokenize("那本书很好。").texts[0] == "那本"


def test_a_break_at_or_after_the_chunk_end_is_not_used():
    at_end = "我" * 64 + "，" + "我" * 10  # the break would make a 65-character piece
    assert [(o, len(p)) for o, p in TK._chunks(at_end)] == [(0, 64), (64, 11)]
    last = "我" * 30 + "，" + "我" * 32 + "，" + "我" * 10  # a break as the piece's last character
    assert [(o, len(p)) for o, p in TK._chunks(last)] == [(0, 64), (64, 10)]


def test_a_snapshot_that_cannot_be_written_is_logged_and_leaves_no_file(tmp_path, caplog):
    class Base:
        FREQ, total, user_word_tag_tab = {"我": 1}, 1, {}

    missing = tmp_path / "no" / "such" / "dir" / "prefix.json"
    with caplog.at_level("WARNING", logger="attention_core.tokenize"):
        TK._save(Base(), str(missing), [])
    assert caplog.messages == [f"could not write the jieba snapshot {missing}"]
    assert caplog.records[0].name == "attention_core.tokenize"
    taken = tmp_path / "taken"
    (taken / "prefix.json").mkdir(parents=True)  # os.replace fails after the temp file is written
    TK._save(Base(), str(taken / "prefix.json"), [])
    assert [p.name for p in taken.iterdir()] == ["prefix.json"]  # the temp file was removed
    readonly = tmp_path / "ok"
    readonly.mkdir()
    TK._save(Base(), str(readonly / "prefix.json"), ["我们"])
    data = json.loads((readonly / "prefix.json").read_text(encoding="utf-8"))
    assert data == {"format": 1, "freq": {"我": 1}, "total": 1, "user_tags": {},
                    "force_split": ["我们"]}  # fmt: skip
    assert [p.name for p in readonly.iterdir()] == ["prefix.json"]  # no temp file left


def test_an_empty_tokenized_list_says_nothing_was_cut():
    empty = TK.Tokenized()
    assert (empty.chars_cut, empty.tokens_cut, empty.mode, list(empty)) == (0, 0, "word", [])


def test_messages_say_what_was_wrong():
    with pytest.raises(TypeError, match=r"^text must be a str, got int$"):
        tokenize(3)
    with pytest.raises(EmptyInputError, match=r"^the text is empty: type a sentence with at "
                       r"least one visible character$"):  # fmt: skip
        tokenize(" ")


def test_the_snapshot_is_named_after_the_format_jieba_and_dict_txt(tmp_path, monkeypatch):
    name = TK._snapshot_path(str(tmp_path), None)
    assert os.path.dirname(name) == str(tmp_path)
    assert re.fullmatch(r"prefix-[0-9a-f]{16}\.json", os.path.basename(name))
    monkeypatch.setattr(TK, "SNAPSHOT_FORMAT", TK.SNAPSHOT_FORMAT + 1)
    assert TK._snapshot_path(str(tmp_path), None) != name  # a new format: a new file
    stats = []
    real = os.stat
    monkeypatch.setattr(os, "stat", lambda p, *a, **kw: stats.append(p) or real(p, *a, **kw))
    TK._snapshot_path(str(tmp_path), None)
    assert [os.path.basename(p) for p in stats] == ["dict.txt"]


def test_a_snapshot_of_another_format_or_shape_is_not_restored(tmp_path):
    import jieba

    path = tmp_path / "s.json"
    word = "龘" + chr(0x4E00 + os.getpid() % 20000)  # new to this process's jieba
    good = {"format": TK.SNAPSHOT_FORMAT, "freq": {word: 1}, "total": 1, "user_tags": {},
            "force_split": [word]}  # fmt: skip
    for bad in ({**good, "format": TK.SNAPSHOT_FORMAT + 1}, {**good, "freq": [[word, 1]]}):
        path.write_text(json.dumps(bad), encoding="utf-8")
        base = jieba.Tokenizer()
        assert not TK._restore(base, str(path)) and not base.initialized
    path.write_text(json.dumps(good), encoding="utf-8")
    base = jieba.Tokenizer()
    assert TK._restore(base, str(path)) and base.initialized is True
    assert {word: 1} == base.FREQ and base.total == 1
    from jieba import finalseg

    assert word in finalseg.Force_Split_Words


def test_the_default_dictionarys_tags_are_shared_not_read_again(monkeypatch, tmp_path):
    """Shared when the tokenizer uses jieba's own dict.txt; any other dictionary is read."""
    import jieba
    import jieba.posseg

    reads = []
    real = jieba.posseg.POSTokenizer.load_word_tag
    monkeypatch.setattr(jieba.posseg.POSTokenizer, "load_word_tag",
                        lambda self, f: reads.append(f) or real(self, f))  # fmt: skip
    cls = TK._shared_tags_class()
    base = jieba.Tokenizer()
    shared = cls(base)
    assert reads == [] and shared.tokenizer is base
    assert shared.word_tag_tab == jieba.posseg.dt.word_tag_tab
    assert shared.word_tag_tab is not jieba.posseg.dt.word_tag_tab
    other = tmp_path / "dict.txt"
    other.write_text("小明 5 nr\n书 5 n\n", encoding="utf-8")
    own = jieba.Tokenizer(str(other))
    read = cls(own)
    assert len(reads) == 1 and read.tokenizer is own
    assert read.word_tag_tab == {"小明": "nr", "书": "n"}


def test_a_text_visible_only_past_the_character_limit_has_nothing_to_tokenize():
    with pytest.raises(EmptyInputError, match=r"^the text has no visible characters to tokenize$"):
        tokenize(" " * MAX_CHARS + "他")
