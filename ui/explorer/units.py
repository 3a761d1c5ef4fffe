"""The browser code's units: a package's registry (registry.js), what each file takes and gives,
the check that a file takes only what files before it give, and the bundle built from them.

Components v2 runs a component's JS as one inline ES module (from a Blob URL, where relative
`import`s cannot resolve), so the files are joined here, at build time, without node. Each
package (ui/explorer, ui/lesson) declares one registry object in its registry.js: every field
listed once, under the file that gives it, in bundle order. A file is a unit: it starts, after
its header, with what it takes (`const { a, b } = VIEW;`, the analogue of `import { a, b } from
"./x.js"`) and ends with what it gives (`return { c, d };`, the analogue of `export`); the
builder wraps it as `Object.assign(VIEW, (() => { … })());`. The registry is sealed, so a field
nobody declared cannot be added in the browser either. Besides the lists, the check reads a
file's code only for the identifiers it names (comments, strings and regular expressions left
out): a registry's field named without being taken is an error here, not a ReferenceError in a
branch no test runs; so no file calls its own names by a registry field's name.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

BUILDER = "builder"  # the registry's section of fields the bundle builder gives (from Python)
_REGISTRY = re.compile(r"^const (\w+) = Object\.seal\(\{\n(.*?)^\}\);", re.M | re.S)
_SECTION = re.compile(r"^\s*// ([\w./*?]+)")  # a file name, in a folder of the package or not
_FIELD = re.compile(r"\b(\w+): null\b")
_HEADER = re.compile(r"\s*(?:/\*.*?\*/\s*|//[^\n]*\n\s*)*", re.S)  # a file's leading comments
_TAKE = re.compile(r"const \{([^}]*)\} = (\w+);\s*")
_GIVE = re.compile(r"^return \{([^}]*)\};\s*\Z", re.M)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
# What is not code, left to right: comments, strings, template literals (whose ${…} are code),
# regular expressions after a character that ends no value.
_NOT_CODE = re.compile(
    r"/\*.*?\*/|//[^\n]*|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`"
    r"|(?<=[(,=:\[!&|?{};])\s*/(?![*/])(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[a-z]*",
    re.S,
)
_INTERPOLATED = re.compile(r"\$\{((?:[^{}]|\{[^{}]*\})*)\}")  # a template's ${…}, one level of {}
# A name: not a property (after one "."; after a spread's "..." it is a name), nor an object key.
_WORD = re.compile(r"(?<![\w$])(?<!(?<!\.\.)\.)([A-Za-z_$][\w$]*)(?![\w$])(?!\s*:)")


@dataclass(frozen=True)
class Registry:
    """One package's registry: its object's name and, per section (the builder, then each file
    in bundle order), the fields it gives."""

    name: str  # the object's name in the bundle: VIEW, LESSON
    path: Path  # its registry.js
    sections: dict[str, tuple[str, ...]]  # section ("builder" or a file name) → fields

    @property
    def files(self) -> tuple[str, ...]:
        """The package's files, in bundle order."""
        return tuple(s for s in self.sections if s != BUILDER)


@dataclass(frozen=True)
class Package:
    """What a bundle takes from one package: its registry, the files left out (the view's
    Streamlit glue in the lesson), the builder's values and the prefix of its files' names."""

    registry: Registry
    prefix: str  # "explorer/": how the bundle names the package's files
    given: dict[str, object] = field(default_factory=dict)  # the builder section's values
    skip: tuple[str, ...] = ()


@cache
def read_registry(path: Path) -> Registry:
    """The registry declared in `path` (a registry.js)."""
    found = _REGISTRY.search(path.read_text(encoding="utf-8"))
    if not found:
        raise ValueError(f"{path}: no `const NAME = Object.seal({{ … }});` block")
    sections: dict[str, list[str]] = {}
    current = None
    for line in found.group(2).splitlines():
        if (head := _SECTION.match(line)) and any(c in head.group(1) for c in "*?"):
            # a pattern (scenes/s??.js): its files in name order, each giving nothing by name
            for each in sorted(path.parent.glob(head.group(1))):
                sections.setdefault(each.relative_to(path.parent).as_posix(), [])
            current = None
        elif head := _SECTION.match(line):
            current = sections.setdefault(head.group(1), [])
        elif names := _FIELD.findall(line):
            if current is None:
                raise ValueError(f"{path}: fields outside a file's section: {names}")
            current.extend(names)
    return Registry(found.group(1), path, {k: tuple(v) for k, v in sections.items()})


def _names(listed: str) -> tuple[str, ...]:
    names = tuple(s.strip() for s in listed.split(",") if s.strip())
    bad = [s for s in names if not _NAME.fullmatch(s)]
    if bad:
        raise ValueError(f"not plain names (no renaming, no defaults): {bad}")
    return names


def takes(src: str) -> tuple[list[tuple[str, tuple[str, ...]]], int]:
    """What a file takes, as [(registry, names)], from the statements after its header; and
    where its code starts after them."""
    at = _HEADER.match(src).end()
    out = []
    while m := _TAKE.match(src, at):
        out.append((m.group(2), _names(m.group(1))))
        at = m.end()
    return out, at


def gives(src: str) -> tuple[str, ...] | None:
    """What a file gives: the names of its last statement `return { … };` (None: it has none)."""
    found = _GIVE.search(src)
    return _names(found.group(1)) if found else None


def _code_only(src: str) -> str:
    """src with its comments, strings and regular expressions blanked; of a template literal
    only the code in its ${…} is kept."""

    def blank(m: re.Match) -> str:
        if not m.group().startswith("`"):
            return " "
        return " ".join(_code_only(inner) for inner in _INTERPOLATED.findall(m.group())) or " "

    return _NOT_CODE.sub(blank, src)


def _words(src: str) -> set[str]:
    """The identifiers a file's code names (no comment, string or regular expression, no
    object key, no property after a "."): the names it may take or give."""
    return {m.group(1) for m in _WORD.finditer(_code_only(src))}


def _check_takes(name: str, src: str, known: dict[str, set[str]], declared: set[str]):
    """Problems of a file's takes and its other names: a take of a field no file above gives, a
    take it never uses, a name of a registry (a file's give) it neither takes nor gives, the
    registry itself named outside the takes."""
    out = []
    taken, start = takes(src)
    words = _words(src[start:])
    mine = {n for _, names in taken for n in names} | set(gives(src) or ())
    for registry, names in taken:
        for n in names:
            if registry not in known:
                out.append(f"{name} takes {n} from {registry}, which is no registry before it")
            elif n not in known[registry]:
                out.append(f"{name} takes {n}, which no file before it gives to {registry}")
            elif n not in words:
                out.append(f"{name} takes {n} and never uses it")
    for n in sorted((words & declared) - mine):
        out.append(f"{name} names {n}, a registry's field, without taking it (take it, or name "
                   "its own otherwise)")  # fmt: skip
    for n in sorted(words & set(known)):
        out.append(f"{name} names the registry {n} outside its takes")
    return out


def _check_file(name: str, src: str, known: dict[str, set[str]], section, declared: set[str]):
    """Problems of one file: its header, its takes and names (_check_takes), its gives against
    its registry section."""
    out = []
    if not src.startswith("/*"):
        out.append(f"{name} does not start with a header comment saying what it is for")
    out += _check_takes(name, src, known, declared)
    given = gives(src)
    if given is None:
        out.append(f"{name} does not end with `return {{ … }};` (what it gives)")
    elif sorted(given) != sorted(section):
        out.append(f"{name} gives {sorted(given)}; its section says {sorted(section)}")
    return out


_TOP = re.compile(r"^(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)", re.M)


def _declares(src: str, n: str) -> bool:
    """True when src declares n itself: a function, a variable, a parameter or a destructured
    name (a loose reading: enough to tell a file's own local from another file's private)."""
    decl = rf"(?:\b(?:function|const|let|var|class)\s+|[(,{{\[]\s*|\.\.\.){re.escape(n)}\b"
    return bool(re.search(decl, _code_only(src))) or bool(
        re.search(rf"\b{re.escape(n)}\s*=>", _code_only(src))
    )


def _privates_used(sources: dict[str, str], gives_of: dict[str, set[str]]) -> list[str]:
    """A file naming another file's top-level name that that file keeps to itself: in one
    bundle of units it is a ReferenceError at run time (the view's placeWords was one)."""
    private = {}
    for name, src in sources.items():
        for n in _TOP.findall(_code_only(src)):
            if n not in gives_of[name]:
                private.setdefault(n, name)
    out = []
    for name, src in sources.items():
        _, start = takes(src)
        for n in sorted(_words(src[start:]) & set(private)):
            if private[n] != name and not _declares(src[start:], n):
                out.append(f"{name} names {n}, which {private[n]} declares but does not give")
    return out


def problems(packages: list[Package]) -> list[str]:
    """Everything wrong with a bundle of these packages, in order; [] when it is sound."""
    out: list[str] = []
    known: dict[str, set[str]] = {}  # registry → fields given so far
    owner: dict[str, str] = {}  # field → "REGISTRY.section": no name is given twice
    sources: dict[str, str] = {}  # file → its source, for the names no file may borrow
    gives_of: dict[str, set[str]] = {}
    for p in packages:
        reg = p.registry
        for section, names in reg.sections.items():
            for n in names:
                if n in owner:
                    out.append(f"{n} is declared under {owner[n]} and {reg.name}.{section}")
                owner[n] = f"{reg.name}.{section}"
        builder = reg.sections.get(BUILDER, ())
        if sorted(builder) != sorted(p.given):
            out.append(f"{reg.name}: the builder gives {sorted(p.given)}, not {sorted(builder)}")
        known[reg.name] = set(p.given)
        for name in reg.files:
            if name in p.skip:
                continue
            path = reg.path.parent / name
            if not path.exists():
                out.append(f"{reg.name} lists {name}, which is not in {reg.path.parent}")
                continue
            src = path.read_text(encoding="utf-8")
            out += _check_file(p.prefix + name, src, known, reg.sections[name], set(owner))
            known[reg.name] |= set(reg.sections[name])
            sources[p.prefix + name] = src
            gives_of[p.prefix + name] = set(gives(src) or ())
    return out + _privates_used(sources, gives_of)


def code(src: str) -> str:
    """A file's code without its header comment (what it is for: for readers of the source)."""
    return src[_HEADER.match(src).end() :]


def wrap(registry: str, name: str, src: str) -> str:
    """One file as a unit of the bundle: run once, in order, its gives assigned to the registry."""
    return f"// ---- {name}\nObject.assign({registry}, (() => {{\n{code(src)}}})());\n"


def bundle(packages: list[Package]) -> str:
    """One ES module of the packages' files: per package its registry, the builder's values,
    then each file wrapped (their header comments left out: they are for readers of the
    source); raises ValueError when a file takes or gives what it may not."""
    found = problems(packages)
    if found:
        raise ValueError("the browser code's units do not fit together:\n  " + "\n  ".join(found))
    parts = []
    for p in packages:
        reg = p.registry
        parts.append(
            f"// ---- {p.prefix}{reg.path.name}\n{code(reg.path.read_text(encoding='utf-8'))}"
        )
        if p.given:
            values = ", ".join(f"{k}: {json.dumps(v)}" for k, v in p.given.items())
            parts.append(f"Object.assign({reg.name}, {{ {values} }});\n")
        for name in reg.files:
            if name not in p.skip:
                src = (reg.path.parent / name).read_text(encoding="utf-8")
                parts.append(wrap(reg.name, p.prefix + name, src))
    return "".join(parts) + "export default function () {}\n"
