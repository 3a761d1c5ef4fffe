"""Mutation testing (mutmut) of the core, the demo model's training parts, the share-link parser
and the export helpers.

One target at a time in a scratch copy, each mutant against that target's fast tests (those
marked slow are left out: each mutant runs them again).
Run: make mutate [MUTATE="attention pipeline"] [JOBS=1]  (or .venv/bin/python tools/mutate.py …;
--again reruns only the survivors of the last run after tests were added)
Prints a Markdown table of scores and the surviving mutants per target (TESTING.md quotes them);
nothing is asserted. Work happens in tmp/mutate/<target>/; results stay there (`mutmut show`).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "tmp" / "mutate"  # /tmp/ of the repository: ignored by git
MUTMUT = Path(sys.executable).with_name("mutmut")


@dataclass(frozen=True)
class Target:
    """One file to mutate, the functions that count (None: all), and the tests run per mutant."""

    path: str  # file mutated
    tests: tuple[str, ...]  # test files run against each mutant (fast ones only)
    functions: tuple[str, ...] | None = None  # only these functions' mutants are scored
    slow: bool = False  # also run the tests marked slow (the tokenizer's dictionary snapshot)


CORE_TESTS = ("tests/core/test_attention.py", "tests/core/test_fast.py")
TARGETS = {
    "attention": Target("attention_core/attention.py", CORE_TESTS),
    "fast": Target("attention_core/fast.py", ("tests/core/test_fast.py",)),
    "tiled": Target("attention_core/tiled.py", ("tests/core/test_tiled.py",)),
    "embed": Target("attention_core/embed.py", ("tests/core/test_embed.py",)),
    "analysis": Target("attention_core/analysis.py", ("tests/core/test_analysis.py",)),
    "tokenize": Target("attention_core/tokenize.py", ("tests/core/test_tokenize.py",), slow=True),
    "pipeline": Target(
        "attention_core/pipeline.py",
        ("tests/core/test_pipeline.py", "tests/core/test_pipeline_trained.py"),
    ),
    "batch": Target("demo_model/batch.py", ("tests/model/test_batch.py",)),
    "optim": Target("demo_model/optim.py", ("tests/model/test_optim.py",)),
    "metrics": Target("demo_model/metrics.py", ("tests/model/test_metrics.py",)),
    "links": Target("ui/links.py", ("tests/ui/test_links.py",)),
    "settings": Target(
        "ui/settings.py", ("tests/ui/test_links.py",), ("head_options", "nearest_heads")
    ),
    "export": Target(
        "ui/state.py", ("tests/ui/test_state.py",), ("weights_csv", "all_npz", "weights_at")
    ),
}
COPY = ("attention_core", "demo_model", "ui", "assets", "tests", "deploy", "bench",
        "pyproject.toml", "app.py", "pages")  # fmt: skip
STATUS = re.compile(r"^\s*(\S+__mutmut_\d+): (.+)$")


def prepare(name: str, target: Target) -> Path:
    """A fresh scratch copy of the repository with a setup.cfg that mutates `target` only."""
    work = WORK / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for item in COPY:
        src = ROOT / item
        if src.is_dir():
            shutil.copytree(src, work / item, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, work / item)
    tests = "\n    ".join(target.tests)
    not_slow = "    -m\n    not slow\n"  # pytest arguments, one per line
    (work / "setup.cfg").write_text(
        "[mutmut]\n"
        "source_paths =\n    attention_core\n    demo_model\n    ui\n"
        f"only_mutate =\n    {target.path}\n"
        f"pytest_add_cli_args_test_selection =\n    {tests}\n"
        "pytest_add_cli_args =\n    -p\n    no:cacheprovider\n"
        f"{'' if target.slow else not_slow}"
        "timeout_multiplier = 3\ntimeout_constant = 10\n"
        "also_copy =\n    assets\n    app.py\n    pages\n    deploy\n    bench\n",
        encoding="utf-8",
    )
    return work


def counts(work: Path, target: Target) -> tuple[dict[str, int], list[str]]:
    """Mutants per status for the target's functions, and the names of the survivors."""
    out = subprocess.run([str(MUTMUT), "results", "--all", "true"], cwd=work, text=True,
                         capture_output=True, check=True).stdout  # fmt: skip
    tally: dict[str, int] = {}
    survivors = []
    for line in out.splitlines():
        m = STATUS.match(line)
        if not m:
            continue
        mutant, status = m.groups()
        base = mutant.split("__mutmut_")[0].rsplit(".", 1)[-1]  # x_func or xǁClassǁmethod
        func = base.split("ǁ")[-1] if "ǁ" in base else base.removeprefix("x_")
        if target.functions is not None and func not in target.functions:
            continue
        tally[status] = tally.get(status, 0) + 1
        if status == "survived":
            survivors.append(mutant)
    return tally, survivors


def recheck(work: Path, target: Target) -> list[str]:
    """The current tests copied over the scratch copy's; the survivors' names, run again."""
    for where in (work / "tests", work / "mutants" / "tests"):
        shutil.rmtree(where, ignore_errors=True)
        shutil.copytree(ROOT / "tests", where, ignore=shutil.ignore_patterns("__pycache__"))
    return counts(work, target)[1]


def run(name: str, jobs: int, again: bool = False) -> dict:
    """Mutate one target (again: only rerun its survivors against the current tests)."""
    target, work = TARGETS[name], WORK / name
    names = recheck(work, target) if again and work.exists() else []
    if not names:
        work = prepare(name, target)
    print(f"== {name}: mutating {target.path} against {' '.join(target.tests)}"
          f"{f' (again: {len(names)} survivors)' if names else ''}", flush=True)  # fmt: skip
    subprocess.run([str(MUTMUT), "run", "--max-children", str(jobs), *names], cwd=work,
                   check=False, stdout=subprocess.DEVNULL)  # fmt: skip
    tally, survivors = counts(work, target)
    killed = tally.get("killed", 0) + tally.get("timeout", 0)
    scored = killed + tally.get("survived", 0)
    score = killed / scored if scored else float("nan")
    return {"target": name, "file": target.path, "tally": tally, "score": score,
            "survivors": survivors}  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help=f"any of {', '.join(TARGETS)} (default all)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (2 cores shared)")
    parser.add_argument("--again", action="store_true",
                        help="rerun the last run's survivors with the current tests")  # fmt: skip
    args = parser.parse_args(argv)
    unknown = [name for name in args.targets if name not in TARGETS]
    if unknown:
        parser.error(f"unknown targets {unknown}; choose from {list(TARGETS)}")
    rows = [run(name, args.jobs, args.again) for name in args.targets or TARGETS]
    print("\n| target | file | killed | survived | no tests | score |")
    print("|---|---|---:|---:|---:|---:|")
    for r in rows:
        t = r["tally"]
        killed = t.get("killed", 0) + t.get("timeout", 0)
        print(f"| {r['target']} | {r['file']} | {killed} | {t.get('survived', 0)} | "
              f"{t.get('no tests', 0)} | {r['score']:.1%} |")  # fmt: skip
    for r in rows:
        if r["survivors"]:
            print(f"\nsurvivors of {r['target']}: " + ", ".join(r["survivors"]))
    (WORK / "last.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
