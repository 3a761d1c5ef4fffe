"""ui/text: every string in both languages with the same {placeholders}, every key used and
written out where it is used, every notice rendered in both languages; a language that lacks a
string shows it in English, and a third language is its text files and one entry."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from string import Formatter
from types import MappingProxyType, SimpleNamespace

import pytest
import streamlit

from attention_core import pipeline
from attention_core.tokenize import MAX_CHARS
from demo_model import DemoWeights
from tests.app_support import open_app
from ui import links, state, text
from ui.figures.base import plotly_config
from ui.text import LANGS, SECTIONS, TEXT, Language, t
from ui.text.load import TextError, load

ROOT = Path(__file__).resolve().parents[2]
# Where keys are used: the app's Python and JavaScript (the tables themselves are data files).
SOURCES = ("app.py", "pages/**/*.py", "ui/**/*.py", "ui/**/*.js", "assets/*.js")
VIEW_JS = "ui/explorer/*.js"  # the view reads its table without the prefix: T.live, text.summary


def fields(template: str) -> set[str]:
    """The names of a format string's {placeholders} ("{acc:.0%}" → "acc")."""
    return {
        name.split(".")[0].split("[")[0] for _, name, _, _ in Formatter().parse(template) if name
    }


def test_fields_reads_names_formats_and_escapes():
    assert fields("{head}：{q} → {k}：{w}") == {"head", "q", "k", "w"}
    assert fields("{rel} · {acc:.0%}") == {"rel", "acc"}
    assert fields("{{literal}} and {x!r}") == {"x"}


@pytest.mark.parametrize("key", sorted(TEXT))
def test_every_language_has_the_same_placeholders(key):
    entry = TEXT[key]
    want = fields(entry["en"])
    for lang, written in entry.items():
        assert fields(written) == want, (key, lang, written)


# ---- the loader's rules -------------------------------------------------------------------------


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, body in files.items():
        (folder / name).write_text(body, encoding="utf-8")
    return folder


PAGE_TOML = '["p.title"]\nzh = "标题 {n}"\nen = "Title {n}"\n\n["p.ok"]\nzh = "好"\nen = "OK"\n'
PAGE_ZH = "# 编者注：不显示\n\n<!-- p.intro -->\n第一段 `<!-- p.x -->` 不是标记。\n\n第二段。\n"
PAGE_EN = "<!-- p.intro -->\nFirst paragraph.\n\nSecond.\n\n<!-- p.more -->\nMore, {n}.\n"


def test_the_loader_reads_tables_and_prose_per_area(tmp_path):
    zh = PAGE_ZH + "\n<!-- p.more -->\n更多，{n}。\n"
    write(tmp_path, {"p.toml": PAGE_TOML, "p.zh.md": zh, "p.en.md": PAGE_EN})
    text, sections = load(tmp_path, LANGS)
    assert sections == {"p": ("p.title", "p.ok", "p.intro", "p.more")}
    assert dict(text["p.title"]) == {"zh": "标题 {n}", "en": "Title {n}"}
    assert text["p.intro"]["zh"] == "第一段 `<!-- p.x -->` 不是标记。\n\n第二段。"
    assert text["p.intro"]["en"] == "First paragraph.\n\nSecond."
    with pytest.raises(TypeError):
        text["p.ok"]["zh"] = "坏"  # shared by every session: read-only


def prose(zh: str, en: str) -> dict[str, str]:
    return {"p.zh.md": zh, "p.en.md": en}


@pytest.mark.parametrize(
    ("files", "said"),
    [
        ({"p.toml": '["p.a"]\nzh = "甲"\n'}, "lacks ['en']"),  # English: the fallback
        ({"p.toml": '["p.a"]\nzh = "甲"\nen = "A"\nxx = "A"\n'}, "may hold only"),
        ({"p.toml": '["p.a"]\nzh = "甲"\nen = " "\n'}, "has no en text"),
        ({"p.toml": '["p.a"]\nzh = "{n} 个"\nen = "{m} of them"\n'}, "different placeholders"),
        ({"p.toml": '["p.a"]\nzh = "{n 个"\nen = "{n} of them"\n'}, "not a valid template"),
        ({"p.toml": PAGE_TOML, "q.toml": '["p.ok"]\nzh = "好"\nen = "OK"\n'}, "defined twice"),
        ({"p.toml": PAGE_TOML + PAGE_TOML}, "p.toml"),  # twice in one file: tomllib's error
        ({"p.toml": PAGE_TOML, **prose("<!-- p.ok -->\n好", "<!-- p.ok -->\nOK")}, "defined twice"),
        ({"p.zh.md": PAGE_ZH}, "lacks ['en']"),
        ({"p.toml": PAGE_TOML, "p.zh.toml": '"p.ok" = "好"\n'}, "defined twice in ['zh']"),
        ({"p.toml": PAGE_TOML, "p.zh.toml": '[p]\nok = "好"\n'}, 'write each entry as "p.…"'),
        ({"p.zh.toml": '"p.new" = "新"\n'}, "lacks ['en']"),
        (prose("<!-- p.a -->\n甲\n<!-- p.a -->\n乙", "<!-- p.a -->\nA"), "written twice"),
        (prose("<!-- p.a -->\n\n<!-- p.b -->\n乙", "<!-- p.a -->\nA\n<!-- p.b -->\nB"), "no zh"),
        ({"p.xx.md": "<!-- p.a -->\nA\n"}, "<area>.<lang>.md, lang in"),
        ({"p.xx.toml": '"p.a" = "A"\n'}, "<area>.<lang>.md, lang in"),
        ({"notes.md": "# notes\n"}, "<area>.<lang>.md, lang in"),
    ],
)
def test_the_loader_refuses_a_broken_table(tmp_path, files, said):
    write(tmp_path, files)
    with pytest.raises(TextError, match=re.escape(said)):
        load(tmp_path, LANGS)


def test_a_missing_translation_shows_in_english(tmp_path, monkeypatch):
    """Text a language lacks (p.more has no Chinese here) loads, and t() gives its English;
    a translation may also sit in a file of its own (p.zh.toml)."""
    files = {"p.toml": '["p.title"]\nen = "Title {n}"\n', "p.zh.toml": '"p.title" = "标题 {n}"\n'}
    write(tmp_path, files | prose(PAGE_ZH, PAGE_EN))
    table, sections = load(tmp_path, LANGS)
    assert sections == {"p": ("p.title", "p.intro", "p.more")}
    assert dict(table["p.more"]) == {"en": "More, {n}."}
    monkeypatch.setattr(text, "TEXT", table)
    assert t("p.more", "zh", n=2) == "More, 2."  # no Chinese: English
    assert t("p.title", "zh", n=2) == "标题 2" and t("p.title", "en", n=2) == "Title 2"
    assert t("p.title", "xx", n=2) == "Title 2"  # a language the app does not know: English


def test_the_app_reads_its_tables_by_key():
    assert sum(len(keys) for keys in SECTIONS.values()) == len(TEXT)  # one area per key
    assert "cost.intro" in SECTIONS["cost"] and "lesson.s1.notes" in SECTIONS["lesson_s01"]
    prose = (ROOT / "ui" / "text" / "cost.en.md").read_text(encoding="utf-8")
    assert t("cost.intro", "en") in prose and t("cost.intro", "zh") != t("cost.intro", "en")
    assert t("side.trained_fixed", "en", d=64, h=4) == (
        "The trained model fixes d_model = 64 and h = 4; those controls are ignored."
    )
    with pytest.raises(KeyError):
        t("steps.no_such_key", "en")


# ---- every key used, and written out where it is used -----------------------------------------


def source_files(*patterns: str) -> list[Path]:
    """The files written by hand (not the text tables, not the JS bundles built from the rest)."""
    files = {p for pattern in patterns for p in ROOT.glob(pattern)}
    return sorted(
        p
        for p in files
        if not p.relative_to(ROOT).as_posix().startswith("ui/text/")
        and "dist" not in p.relative_to(ROOT).parts
    )


def literal_strings() -> set[str]:
    """Every quoted key-like string in the app's source ('steps.intro', "lesson.k.next")."""
    found: set[str] = set()
    for path in source_files(*SOURCES):
        found |= set(re.findall(r"[\"'`]([A-Za-z0-9_.]+)[\"'`]", path.read_text(encoding="utf-8")))
    return found


def view_names() -> set[str]:
    """The names the view reads from its table (T.live, text.summary, header.text.head)."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in source_files(VIEW_JS))
    return set(re.findall(r"\b(?:T|text)\.(\w+)", code))


def frontend_bundle() -> str:
    """Streamlit's front end with plotly in it: the English that chrome.toml translates."""
    static = Path(streamlit.__file__).resolve().parent / "static"
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in static.rglob("*.js"))


def test_every_key_is_used_somewhere():
    """A key counts as used where the app's source names it in quotes; the view's table where
    ui/explorer/*.js reads it by name; chrome.toml where Streamlit's own front end shows it;
    glossary.toml where the lesson's glossary page lists it (tests/pages/test_lesson.py); the
    class's error words where classroom/errors.py has the code (tests/classroom/test_errors.py)."""
    literal, view = literal_strings(), view_names()
    unused = [
        f"{key} ({area})"
        for area, keys in SECTIONS.items()
        for key in keys
        if key not in literal
        and not (area == "explorer" and key.removeprefix("explorer.") in view)
        and area not in ("chrome", "glossary")  # sent whole: Streamlit's own, the lesson's terms
        and not (area.startswith("lesson_s") and key.endswith(".notes"))  # words.note_keys()
        and not key.startswith("classroom.error.")  # class_text.ERROR_KEYS: one per error code
    ]
    print("unused:", *unused, sep="\n  ")
    assert not unused, "keys no source uses (delete them, or write each out where it is used)"


def test_the_whole_tables_the_browser_reads_are_sent_whole():
    """explorer.toml and chrome.toml go to the browser as a whole; chrome's English is the
    front end's own, so a translation never outlives the label it translates."""
    assert 'SECTIONS["explorer"]' in (ROOT / "ui" / "explorer" / "__init__.py").read_text()
    assert 'SECTIONS["chrome"]' in (ROOT / "app.py").read_text()
    bundle = frontend_bundle()
    gone = [k for k in SECTIONS["chrome"] if t(k, "en").split("{")[0].strip() not in bundle]
    assert not gone, f"Streamlit's front end no longer shows these: {gone}"


KEY_PREFIXES = "|".join(sorted({key.split(".")[0] for key in TEXT}))
COMPUTED = re.compile(  # f"steps.say{i}", `lesson.k.${k}`, "steps.say" + str(i)
    rf"""\bf["']((?:{KEY_PREFIXES})\.[\w.]*)\{{|`((?:{KEY_PREFIXES})\.[\w.]*)\$\{{"""
    rf"""|["']((?:{KEY_PREFIXES})\.[\w.]*)["']\s*\+"""
)


def test_keys_are_written_out_where_they_are_used():
    """No key is built from pieces: a grep for a key finds every use."""
    sites = []
    for path in source_files(*SOURCES):
        name = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if COMPUTED.search(line):
                sites.append(f"{name}:{number}: {line.strip()}")
    print("computed keys:", *sites, sep="\n  ")
    assert not sites


# ---- every notice, in both languages ----------------------------------------------------------


def link_notices() -> list[state.Notice]:
    """What the share-link parser says about bad parameters (ui/links.py)."""
    bad = {"d": ["70"], "h": ["x", "2"], "seed": ["-5"], "w": ["trained"], "zz": ["1"]}
    _, said = links.parse_query(bad, trained_ok=False)
    _, more = links.parse_query({"d": ["48"], "h": ["5"]}, trained_ok=True)
    return said + more


def lab_notices(monkeypatch) -> list[state.Notice]:
    """What the pipeline and the app's cache over it say (ui/state.py's notice keys)."""
    said = []
    for sentence in ("字" * (MAX_CHARS + 5), "。，！？"):  # cut twice; only punctuation
        lab = pipeline.compute(pipeline.LabSettings(sentence))
        said += state.notices_of(lab)

    missing = DemoWeights(Path("/nonexistent/demo_model.npz"))  # weights that cannot be read
    said += state.notices_of(
        pipeline.compute(pipeline.LabSettings("他走了", weights="trained"), missing)
    )
    fields_ = dict(mode="word", scale=True, causal=False, pos=False, seed=0, weights="random")
    for sentence, d, h in (("  ", 64, 4), ("他", 10, 3)):  # empty; h does not divide d
        said += state.lab_for(SimpleNamespace(sentence=sentence, d_model=d, heads=h, **fields_))[1]
    return said


# Notices a page says itself, with the values its call passes.
PAGE_NOTICES = [("info", "notice.focus_missing", {"focus": "猫", "used": "他"})]  # pages/main.py


def test_every_notice_renders_in_both_languages(monkeypatch):
    said = link_notices() + lab_notices(monkeypatch) + PAGE_NOTICES
    keys = {key for _, key, _ in said}
    wanted = {k for k in TEXT if k.startswith("notice.")} | {
        key for _, key in state.NOTICE_KEYS.values()
    }
    assert keys >= wanted, f"no producer said: {sorted(wanted - keys)}"
    for _, key, values in said:
        for lang in LANGS:
            line = t(key, lang, **values)  # a placeholder the producer does not fill: KeyError
            for name in fields(TEXT[key].get(lang, TEXT[key]["en"])):
                assert str(values[name]) in line, (key, lang, name, line)


# ---- every page in both languages ---------------------------------------------------------------

# page → (its title's key, a paragraph it shows on first load, from the page's Markdown)
PAGE_WORDS = {
    "main": ("main.title", "main.intro"),
    "lesson": (
        "lesson.nav",
        None,
    ),  # the deck's words ride in its payload (tests/pages/test_lesson.py)
    "scaling": ("scaling.title", "scaling.intro"),
    "cost": ("cost.title", "cost.intro"),
    "order": ("order.title", "order.intro"),
    "learned": ("learned.title", "learned.intro"),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", PAGE_WORDS)
def test_every_page_renders_in_both_languages(page, lang):
    at = open_app(page, lang=lang)
    assert not at.exception, [e.value for e in at.exception]
    title, prose = PAGE_WORDS[page]
    assert at.title[0].value == t(title, lang)
    shown = " ".join(e.value for kind in ("markdown", "caption", "info") for e in at.get(kind))
    assert prose is None or t(prose, lang).split("{")[0] in shown


# ---- a third language ---------------------------------------------------------------------------

# Esperanto, translated in part: the main page's title and intro, the sidebar's first heading.
THIRD = {
    "main.eo.toml": '"main.title" = "Atenta Laboratorio"\n',
    "main.eo.md": "Noto por tradukistoj.\n\n<!-- main.intro -->\nTajpu frazon.\n",
    "sidebar.eo.toml": '"side.controls" = "Agordoj de la modelo"\n',
}


def test_a_third_language_is_its_text_files_and_one_entry(tmp_path, monkeypatch):
    """What ARCHITECTURE.md says a new language takes: its text files beside the others and one
    entry in ui.text.LANGUAGES. The link's lang=, the sidebar's picker and <html lang> follow;
    what the files do not translate shows in English."""
    folder = shutil.copytree(
        ROOT / "ui" / "text",
        tmp_path / "text",
        ignore=shutil.ignore_patterns("*.py", "__pycache__"),
    )
    write(folder, THIRD)
    languages = {**text.LANGUAGES, "eo": Language("Esperanto", "eo")}
    monkeypatch.setattr(text, "LANGUAGES", MappingProxyType(languages))
    monkeypatch.setattr(text, "TEXT", load(folder, tuple(languages))[0])
    at = open_app("main", query={"lang": "eo"})
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Atenta Laboratorio"
    assert "Tajpu frazon." in [e.value for e in at.caption]
    assert t("side.controls", "eo") in [e.value for e in at.sidebar.header]
    picker = at.sidebar.radio(key="lang")
    assert picker.value == "eo" and "Esperanto" in picker.options
    assert t("main.sentence", "en") == at.text_area(key="sentence").label  # English, untranslated
    frame = next(e.proto.body for e in at.get("html") if 'id="al-frame"' in e.proto.body)
    assert 'data-lang="eo"' in frame
    assert plotly_config("eo")["locale"] == "en-US"  # plotly.js's own strings: English too


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_query_key_views_words_are_plain(lang):
    """Issue 39 item 18: the main page's query–key view said "第一主成分", "纵轴保留 key 其余散布的
    36%" and "分数 ÷ |q|" to a novice; it says what §6's caption says, in plain words: further
    right a higher score, up only spreads the keys apart (its numbers stay in the point's words)."""
    keys = ("qk_about", "qk_caption", "qk_key", "qk_key_masked", "qk_axis_x", "qk_axis_y")
    said = " ".join(t(f"explorer.{k}", lang) for k in keys)
    for jargon in ("主成分", "principal", "散布", "spread in", "÷ |q|", "projection", "投影"):
        assert jargon not in said, jargon
    assert t("explorer.qk_axis_x", lang) == {"zh": "越右分数越高 →", "en": "higher score →"}[lang]
