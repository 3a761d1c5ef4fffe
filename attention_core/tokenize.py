"""Sentence → tokens: jieba words with POS tags, or single characters, with offsets and limits."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import tempfile
import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MAX_CHARS = 2000  # characters of input kept; the rest is cut and reported
MAX_TOKENS = 128  # tokens kept after segmentation; the rest are cut and reported
MODES = ("word", "char")
CHUNK = 64  # characters handed to jieba at a time (cut after punctuation when possible)
UNKNOWN_HAN_LIMIT = 8  # more Han characters unknown to jieba's POS model → plain dictionary cut
USER_DICT = Path(__file__).resolve().parent.parent / "assets" / "userdict.txt"
SNAPSHOT_FORMAT = 1  # bump when the snapshot's fields change

_INVISIBLE = {"Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn", "Cs"}  # nothing to see in a token
_lock = threading.Lock()


class EmptyInputError(ValueError):
    """The text holds nothing to tokenize (empty, whitespace or invisible characters only)."""


@dataclass(frozen=True)
class Token:
    """One token: its text, jieba POS tag, and [start, end) character offsets in the input."""

    text: str
    tag: str
    start: int
    end: int


class Tokenized(list):
    """A list of Token that also says how much input was cut to respect the limits (the
    pipeline turns the counts into its notices)."""

    def __init__(self, tokens=(), *, chars_cut: int = 0, tokens_cut: int = 0, mode: str = "word"):
        super().__init__(tokens)
        self.chars_cut = chars_cut  # characters dropped past MAX_CHARS
        self.tokens_cut = tokens_cut  # tokens dropped past MAX_TOKENS
        self.mode = mode

    @property
    def texts(self) -> list[str]:
        return [t.text for t in self]


def pos_tokenizer(user_dict: str | None = str(USER_DICT)):
    """One jieba POS tokenizer per dictionary, built once per process even when many threads ask."""
    with _lock:  # lru_cache alone lets every waiting thread build its own copy
        return _build_pos_tokenizer(user_dict)


@functools.lru_cache(maxsize=4)
def _build_pos_tokenizer(user_dict: str | None):
    """Build a quiet jieba POS tokenizer with its cache in tmp; call through pos_tokenizer."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    base = jieba.Tokenizer()
    base.tmp_dir = os.path.join(tempfile.gettempdir(), "attention_lab_jieba")
    os.makedirs(base.tmp_dir, exist_ok=True)
    user_dict = user_dict if user_dict and os.path.exists(user_dict) else None
    snapshot = _snapshot_path(base.tmp_dir, user_dict)
    if not _restore(base, snapshot):
        from jieba import finalseg

        base.initialize()
        before = set(finalseg.Force_Split_Words)
        if user_dict:
            base.load_userdict(user_dict)
        _save(base, snapshot, sorted(finalseg.Force_Split_Words - before))
    pos = _shared_tags_class()(base)
    pos.makesure_userdict_loaded()
    return pos


def _snapshot_path(tmp_dir: str, user_dict: str | None) -> str:
    """Where the prefix dictionary with the user dictionary added is kept, named after what
    built it (snapshot format, jieba's version and dict.txt, the user dictionary's bytes)."""
    import jieba

    digest = hashlib.blake2b(f"{SNAPSHOT_FORMAT}|{jieba.__version__}".encode(), digest_size=8)
    main_dict = os.path.join(os.path.dirname(jieba.__file__), "dict.txt")
    info = os.stat(main_dict)  # 5 MB: its size and time stand for its bytes
    digest.update(f"|{main_dict}|{info.st_size}|{info.st_mtime_ns}|".encode())
    if user_dict:
        digest.update(Path(user_dict).read_bytes())
    return os.path.join(tmp_dir, f"prefix-{digest.hexdigest()}.json")


def _restore(base, path: str) -> bool:
    """Fill a jieba Tokenizer from a snapshot; False (and nothing changed) when there is none.

    JSON, not jieba's own marshal cache: 0.34 s to load here against 0.6 s for the same
    dictionary, on every server start (BENCHMARKS.md, cold start); and unlike pickle, a file
    someone else put in the shared temp folder cannot run code.
    """
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        freq, total, tags = data["freq"], int(data["total"]), dict(data["user_tags"])
        forced = list(data["force_split"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if not isinstance(freq, dict) or data.get("format") != SNAPSHOT_FORMAT:
        return False
    from jieba import finalseg

    base.FREQ, base.total, base.user_word_tag_tab = freq, total, tags
    for word in forced:  # what load_userdict does for a word given frequency 0
        finalseg.add_force_split(word)
    base.initialized = True
    return True


def _save(base, path: str, forced: list[str]) -> None:
    """Write the snapshot atomically; a read-only temp folder only costs the next start time."""
    data = {
        "format": SNAPSHOT_FORMAT,
        "freq": base.FREQ,
        "total": base.total,
        "user_tags": base.user_word_tag_tab,
        "force_split": forced,
    }
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        logging.getLogger(__name__).warning("could not write the jieba snapshot %s", path)
        if tmp and os.path.exists(tmp):
            os.unlink(tmp)


def _shared_tags_class():
    """A jieba POSTokenizer that copies the word → tag table `import jieba.posseg` already read
    (the same default dict.txt) instead of reading the 5 MB file again (~0.3 s per process)."""
    import jieba
    import jieba.posseg

    class SharedTagsPOSTokenizer(jieba.posseg.POSTokenizer):
        def __init__(self, tokenizer):
            default = getattr(jieba.posseg, "dt", None)
            tags = getattr(default, "word_tag_tab", None)
            if tokenizer.dictionary != jieba.DEFAULT_DICT or not tags:
                super().__init__(tokenizer)  # another dictionary, or jieba changed: read it
                return
            self.tokenizer = tokenizer
            self.word_tag_tab = dict(tags)  # a copy: our user dictionary must not leak into it

    return SharedTagsPOSTokenizer


def is_punctuation(text: str) -> bool:
    """Only punctuation, symbols, spaces or controls (jieba tags "x" cover emoji, Arabic and
    rare Han too); an emoji is a symbol that says something, so it is not punctuation."""
    return all(unicodedata.category(c)[0] in "PSZC" and unicodedata.category(c) != "So"
               for c in text)  # fmt: skip


def _visible(word: str) -> bool:
    return any(unicodedata.category(c) not in _INVISIBLE for c in word)


def _chunks(text: str) -> Iterator[tuple[int, str]]:
    """(offset, piece) of at most CHUNK characters, cut after punctuation or space when possible.

    jieba's POS model finds new words with a Viterbi pass over each run of Han characters;
    bounded pieces keep that pass short and let segmentation stop once enough tokens are in.
    """
    start = 0
    while start < len(text):
        end = min(start + CHUNK, len(text))
        if end < len(text):
            breaks = [i for i in range(end - 1, start, -1) if _is_break(text[i])]
            end = breaks[0] + 1 if breaks else end
        yield start, text[start:end]
        start = end


def _is_break(c: str) -> bool:
    return c.isspace() or unicodedata.category(c)[0] in "PZ"


def _needs_plain_cut(piece: str) -> bool:
    """True when many Han characters are unknown to jieba's POS model (traditional text, rare
    characters): its Viterbi then weighs every tag for each one, ~6 ms a character."""
    from jieba.posseg import char_state_tab_P

    unknown = sum(1 for c in piece if "\u4e00" <= c <= "\u9fff" and c not in char_state_tab_P)
    return unknown > UNKNOWN_HAN_LIMIT


def _segment(text: str, enough: int) -> tuple[list[Token], int]:
    """jieba words with tags and offsets, invisible tokens dropped, piece by piece until at
    least `enough` visible characters or words are in; returns them and where it stopped."""
    tokens: list[Token] = []
    stop = 0
    for offset, piece in _chunks(text):
        pos = 0
        for pair in pos_tokenizer().cut(piece, HMM=not _needs_plain_cut(piece)):
            word, tag = pair.word, pair.flag
            start = piece.find(word, pos)
            start = pos if start < 0 else start
            pos = start + len(word)
            if _visible(word):
                tokens.append(Token(word, tag, offset + start, offset + pos))
        stop = offset + len(piece)
        if len(tokens) >= enough:
            break
    return tokens, stop


def _count_rest(text: str, mode: str) -> int:
    """Visible tokens in text not segmented with tags: exact for characters; for words,
    jieba's dictionary cut without its HMM (fast), so it may differ from a full cut by a few."""
    if mode == "char":
        return sum(1 for c in text if _visible(c))
    return sum(1 for w in pos_tokenizer().tokenizer.cut(text, HMM=False) if _visible(w))


def _split_chars(words: list[Token]) -> list[Token]:
    """One token per visible character, each tagged with its word's tag."""
    return [
        Token(c, w.tag, w.start + i, w.start + i + 1)
        for w in words
        for i, c in enumerate(w.text)
        if _visible(c)
    ]


def tokenize(text: str, mode: str = "word") -> Tokenized:
    """Split `text` into jieba words (mode="word") or characters (mode="char").

    Input past MAX_CHARS and tokens past MAX_TOKENS are cut; the result's `chars_cut`
    and `tokens_cut` say how much. Raises EmptyInputError when nothing visible remains.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if not text.strip() or not _visible(text):
        raise EmptyInputError(
            "the text is empty: type a sentence with at least one visible character"
        )
    chars_cut = max(0, len(text) - MAX_CHARS)
    kept = text[:MAX_CHARS]
    words, stop = _segment(kept, enough=MAX_TOKENS + 1)
    tokens = _split_chars(words) if mode == "char" else words
    if not tokens:
        raise EmptyInputError("the text has no visible characters to tokenize")
    tokens_cut = max(0, len(tokens) - MAX_TOKENS) + _count_rest(kept[stop:], mode)
    return Tokenized(tokens[:MAX_TOKENS], chars_cut=chars_cut, tokens_cut=tokens_cut, mode=mode)
