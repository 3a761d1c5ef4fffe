"""Hostile input to `python -m attention_core`: one-line error and exit 1, never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from attention_core import MAX_CHARS, MAX_TOKENS
from attention_core.__main__ import main
from tests.browser_support import REPO_ROOT
from tests.pages.test_main_fuzz import sentences

pytestmark = pytest.mark.slow  # a subprocess per case, and hypothesis: `make test`, not check
SMALL = ["--d-model", "8", "--heads", "2"]  # the input path is what is fuzzed, not the maths


def cli(*argv: str | bytes, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the real command line; argv may hold raw bytes (undecodable on purpose)."""
    return subprocess.run(
        [sys.executable, "-m", "attention_core", *argv],
        capture_output=True,
        cwd=REPO_ROOT,
        env={**os.environ, **(env or {})},
        timeout=120,
        check=False,
    )


def assert_clean(result: subprocess.CompletedProcess, codes: tuple[int, ...] = (0, 1)) -> str:
    """Exit code allowed, no traceback; a failure says `error:` in one line. Returns stderr."""
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err[-2000:]
    assert result.returncode in codes, (result.returncode, err[-500:])
    if result.returncode == 1:
        assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


INVISIBLE = {"Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn", "Cs"}  # categories with nothing to see


def refused(text: str) -> bool:
    """Written from the rule, not the tokenizer: nothing visible means nothing to tokenize."""
    return not any(unicodedata.category(c) not in INVISIBLE for c in text)


def cut_expected(text: str, mode: str, n_tokens: int) -> bool | None:
    """Must the CLI say it cut the input? True past MAX_CHARS characters; False when fewer
    visible characters than MAX_TOKENS remain (never more words than characters); in char mode
    exactly when more than MAX_TOKENS are visible; None (either) for word mode in between,
    except that a cut leaves exactly MAX_TOKENS tokens."""
    if len(text) > MAX_CHARS:
        return True
    visible = sum(unicodedata.category(c) not in INVISIBLE for c in text)
    if visible <= MAX_TOKENS:
        return False
    if mode == "char":
        return True
    return None if n_tokens == MAX_TOKENS else False


def said_cut(notices: list[dict]) -> bool:
    return any(n["code"] in ("chars_cut", "tokens_cut") for n in notices)


CURATED = [
    "",
    "   \t\n",
    "\u3000\u200b\ufeff",
    "，。！？",
    "👨‍👩‍👧‍👦🏳️‍🌈",
    "\x1b[31m红\x1b[0m\x07",
    "مرحبا بالعالم",
    "\u202e他打我",
    "他們說這個問題很難解決。",
    "attention is all you need",
    "<script>window.__pwned=1</script>",
    "<img src=x onerror=alert(1)>",
    "$$\\frac{a}{b}$$ **粗** [x](javascript:alert(1))",
    "-5",
    "小明" * 6000,
]


@pytest.mark.parametrize("text", CURATED, ids=range(len(CURATED)))
def test_curated_sentences_through_the_real_command(text: str):
    result = cli("--json", "--", text)
    assert_clean(result)
    assert result.returncode == (1 if refused(text) else 0)
    if result.returncode == 0:
        data = json.loads(result.stdout)
        want = cut_expected(text, "word", len(data["tokens"]))
        assert want is None or said_cut(data["notices"]) == want, "cut input must be noticed"


@pytest.mark.parametrize(
    "argv",
    [
        ["--heads", "0"],
        ["--heads", "-3"],
        ["--heads", "abc"],
        ["--d-model", "99999999999999999999"],
        ["--d-model", "10", "--heads", "3"],
        ["--seed", "-1"],
        ["--weights", "magic"],
        ["他", "--focus", "<script>"],
        ["他", "--focus", ""],
        ["他", "--unknown-flag"],
    ],
    ids=lambda a: " ".join(a),
)
def test_bad_arguments_are_refused_clearly(argv: list[str]):
    result = cli(*argv)
    err = assert_clean(result, codes=(1, 2))
    assert "error" in err.lower()


def test_undecodable_bytes_in_argv():
    result = cli(b"\xff\xfe")
    assert_clean(result)
    assert result.returncode == 1
    assert_clean(cli(b"\xe4\xbb\x96\xff"))  # 他 followed by a stray byte


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_terminal_that_cannot_show_chinese_gets_no_traceback(encoding: str):
    """A console without CJK (Windows cp1252, LANG=C pipes): no UnicodeEncodeError traceback."""
    result = cli("小明把书放在了桌子上，然后他走了。", env={"PYTHONIOENCODING": encoding})
    assert_clean(result)


def run_main(argv: list[str], capsys) -> tuple[int, str, str]:
    """main(argv) in-process: (exit code, stdout, stderr); argparse's SystemExit becomes a code."""
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=sentences(), char=st.booleans(), as_json=st.booleans())
@example(text="\x00他\x00", char=False, as_json=False)
@example(text="\ud800他", char=False, as_json=True)
@example(text="a" * 10_001, char=True, as_json=True)
def test_main_in_process_on_generated_sentences(capsys, text: str, char: bool, as_json: bool):
    argv = [*SMALL, *(["--char"] if char else []), *(["--json"] if as_json else []), "--", text]
    code, out, err = run_main(argv, capsys)
    assert "Traceback" not in err
    if refused(text):
        assert code == 1 and err.startswith("error: ") and err.count("\n") == 1, (code, err)
        return
    assert code == 0, (code, err)
    if as_json:
        data = json.loads(out)
        cut, n_tokens = said_cut(data["notices"]), len(data["tokens"])
    else:
        cut = "dropped)" in out  # the cut notes end "(N dropped)"
        n_tokens = int(re.match(r"tokens \((\d+),", out).group(1))
    want = cut_expected(text, "char" if char else "word", n_tokens)
    assert want is None or cut == want, (cut, want)
