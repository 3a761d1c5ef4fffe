"""python -m attention_core through a subprocess: output, --json, and exit codes 0/1/2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from attention_core.__main__ import display_width
from attention_core.__main__ import main as cli_main
from demo_model import load_demo_model
from ui.settings import DEFAULT_SENTENCE

SLOW = pytest.mark.slow  # a fresh interpreter per test: `make test`, not `make check`


EXAMPLE = "小明把书放在了桌子上，然后他走了。"


def cli(*args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "attention_core", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@SLOW
def test_default_run_prints_tokens_and_an_aligned_focus_table():
    r = cli(EXAMPLE, "--heads", "4", "--d-model", "64")
    assert r.returncode == 0 and not r.stderr
    assert "小明/nr" in r.stdout and "他/r" in r.stdout and "focus: 他" in r.stdout
    rows = [line for line in r.stdout.splitlines() if line.startswith((" ", "  #"))]
    assert len(rows) == 14  # header + 13 tokens
    widths = {display_width(line.rstrip("*")) for line in rows[1:]}
    assert max(widths) - min(widths) <= 1  # aligned even with 2-column CJK characters


@SLOW
def test_json_holds_the_whole_result():
    r = cli(EXAMPLE, "--heads", "2", "--d-model", "8", "--no-scale", "--causal", "--json")
    assert r.returncode == 0
    data = json.loads(r.stdout)
    assert len(data["tokens"]) == 13 and data["settings"]["heads"] == 2
    assert data["settings"]["scale"] is False and data["scaled"] == data["scores"]
    assert len(data["weights"]) == 2 and len(data["weights"][0]) == 13
    assert data["focus"]["text"] == "他" and data["weights"][0][0][1] == 0  # causal


@SLOW
def test_char_mode_and_focus():
    r = cli(EXAMPLE, "--char", "--focus", "明", "--positions", "--seed", "3", "--json")
    data = json.loads(r.stdout)
    assert len(data["tokens"]) == 17 and data["focus"] == {"index": 1, "text": "明"}


@SLOW
def test_default_focus_is_the_last_word_when_there_is_no_他():
    data = json.loads(cli("我打你。", "--json").stdout)
    assert data["focus"]["text"] == "你"


@SLOW
@pytest.mark.parametrize(
    "args",
    [["--heads", "3"], ["--heads", "0"], ["--d-model", "x"], ["--d-model", "99999"],
     ["--seed", "-1"], ["--bogus"], ["--weights", "other"]],
)  # fmt: skip
def test_bad_arguments_exit_2_with_a_reason(args):
    r = cli(EXAMPLE, *args)
    assert r.returncode == 2
    assert "error:" in r.stderr and "Traceback" not in r.stderr


@SLOW
@pytest.mark.parametrize(
    ("args", "needle"), [(["   "], "empty"), ([EXAMPLE, "--focus", "她"], "小明 把")]
)
def test_bad_text_exits_1_with_the_library_message(args, needle):
    r = cli(*args)
    assert r.returncode == 1
    assert needle in r.stderr and "Traceback" not in r.stderr and r.stderr.count("\n") == 1


@SLOW
def test_trained_weights_take_the_causal_what_if_and_name_the_flags_they_ignore():
    r = cli(EXAMPLE, "--weights", "trained", "--causal", "--json")
    assert r.returncode == 0 and not r.stderr
    data = json.loads(r.stdout)
    assert data["settings"]["source"] == "trained" and data["settings"]["causal_what_if"] is True
    w = data["weights"]  # (h, n, n): the model's scores, future keys masked
    assert all(w[h][i][j] == 0 for h in range(len(w)) for i in range(13) for j in range(i + 1, 13))
    r = cli(EXAMPLE, "--weights", "trained", "--char", "--heads", "2", "--json")
    assert r.returncode == 0 and "ignored --heads, --char" in r.stderr
    data = json.loads(r.stdout)
    assert data["settings"]["mode"] == "word" and len(data["tokens"]) == 13  # its own words


@SLOW
@pytest.mark.parametrize(
    ("args", "needle"),
    [(["--d-model", "4104", "--heads", "8"], "4096"), (["--d-model", "20", "--heads", "3"], "20")],
)
def test_the_d_model_guard_refuses_before_allocating(args, needle):
    """4104 is divisible by 8 but over the limit: four 4104² float64 weights would be 514 MiB."""
    r = cli(EXAMPLE, *args)
    assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr


def test_cli_trained_run_reports_its_own_positions_and_no_seed(capsys):
    assert cli_main([DEFAULT_SENTENCE, "--weights", "trained", "--json"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["source"] == "trained"
    assert settings["pos"] is True and settings["seed"] is None
    assert settings["causal"] is False and settings["step"] == load_demo_model().step
    assert cli_main([DEFAULT_SENTENCE, "--weights", "trained", "--seed", "3", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["settings"]["seed"] is None  # the app greys the seed out: ignored
    assert "ignored --seed" in err
