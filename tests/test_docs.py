"""The map of the house names only what is there: every file or folder ARCHITECTURE.md names
exists, and nothing in the repository cites a design document other than that map."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from demo_model import load_demo_model

ROOT = Path(__file__).resolve().parents[1]


MAP = ROOT / "ARCHITECTURE.md"


PATHLIKE = re.compile(r"^[\w.-]+(?:/[\w.-]+)*/?$")


FILE = re.compile(r"\.(py|md|toml|js|css|txt|json|template)$")


def tracked() -> list[str]:
    """The repository's files (git's list: what a newcomer's clone holds)."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def named(text: str) -> set[str]:
    """What a markdown text names as a file or a folder: link targets, words in `code` that are
    a path ("ui/", "app.py") and, in a fenced block, words with a "/"; patterns ("<name>.py",
    "sNN.js", ".en.md") are left out."""
    fenced = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.M | re.S)
    links = set(re.findall(r"\]\(([^)#\s]+)\)", prose))
    words = {w for span in re.findall(r"`([^`]+)`", prose) for w in span.split()}
    words |= {w for block in fenced for w in re.findall(r"[\w./-]+", block) if "/" in w}
    paths = {w.rstrip(",.:;") if not w.endswith("/") else w for w in words
             if "/" in w or FILE.search(w)}  # fmt: skip
    return {
        p for p in links | paths
        if PATHLIKE.match(p) and not p.startswith(".") and "NN" not in p and "://" not in p
    }  # fmt: skip


def test_every_file_the_map_names_exists():
    files = tracked()
    names = {Path(f).name for f in files}
    missing = []
    for name in sorted(named(MAP.read_text(encoding="utf-8"))):
        # a bare file name stands in a sentence that says where: it exists somewhere
        ok = (ROOT / name).exists() if "/" in name else name in names
        if not ok:
            missing.append(name)
    assert not missing, f"ARCHITECTURE.md names what is not there: {missing}"


def test_the_check_reads_the_names_it_should():
    found = named("see `ui/links.py` `PARAMS`, [x](README.md), `<name>.zh.md`/`.en.md`, `s`")
    assert found == {"ui/links.py", "README.md"}
    assert "ui/lesson/scenes/sNN.js" not in named("`ui/lesson/scenes/sNN.js`")
    assert len(named(MAP.read_text(encoding="utf-8"))) >= 30  # the map is read, not skipped


def test_no_file_cites_a_design_document_but_the_map():
    pattern = re.compile(r"DESIGN\.md|design doc", re.I)
    citing = [
        f for f in tracked()
        if Path(f).suffix in {".py", ".md", ".js", ".toml", ".css", ".txt", ""}
        and (ROOT / f).is_file() and f != "tests/test_docs.py"
        and pattern.search((ROOT / f).read_text(encoding="utf-8", errors="replace"))
    ]  # fmt: skip
    assert not citing, f"cite ARCHITECTURE.md instead: {citing}"


def layout_paths(readme: str) -> list[str]:
    """The files and folders the README's layout block names, as repository paths."""
    block = readme.split("## Layout", 1)[1].split("```")[1]
    paths, top = [], ""
    for line in block.splitlines():
        if len(line) - len(line.lstrip()) > 6:  # a description's second line
            continue
        field = re.split(r"\s{2,}", line.strip())[0] if line.strip() else ""
        names = re.findall(r"[\w.]+(?:\.py|/)|\.streamlit/config\.toml", field)
        if not line.startswith(" ") and names:
            top = names[0] if names[0].endswith("/") else ""
            paths.append(names[0])
        elif names:
            paths += [top + n for n in names]
    return paths


def test_17_readme_names_the_shipped_model_and_the_files_that_exist():
    """Item 17: the trained model's width as shipped; every path of the layout exists, and it
    lists the core's modules and the ui packages (text/, figures/) that do."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    cfg = load_demo_model().config
    assert f"d_model {cfg.d_model}, {cfg.num_heads} heads" in readme
    paths = layout_paths(readme)
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, missing
    core = {f"attention_core/{p.name}" for p in (ROOT / "attention_core").glob("*.py")}
    assert core - {"attention_core/__init__.py"} <= set(paths)
    assert {"ui/text/", "ui/figures/", "ui/state.py", "ui/widgets.py"} <= set(paths)
    assert "ui/teach.py" not in readme and "text.py" not in readme.split("## Layout")[1]
