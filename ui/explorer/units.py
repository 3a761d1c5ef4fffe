"""The browser code's units: a package's registry (registry.js), what each file takes and gives,
the check that a file takes only what files before it give, and the bundle built from them.

Components v2 runs a component's JS as one inline ES module (from a Blob URL, where relative
`import`s cannot resolve), so the files are joined here, at build time, without node. Each
package (ui/explorer, ui/lesson) declares one registry object in its registry.js: every field
listed once, under the file that gives it, in bundle order. A file is a unit: it starts, after
its header, with what it takes (`const { a, b } = VIEW;`, the analogue of `import { a, b } from
"./x.js"`) and ends with what it gives (`return { c, d };`, the analogue of `export`); the
builder wraps it as `Object.assign(VIEW, (() => { … })());`. The registry is sealed, so a field
nobody declared cannot be added in the browser either.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

BUILDER = "builder"  # the registry's section of fields the bundle builder gives (from Python)
_REGISTRY = re.compile(r"^const (\w+) = Object\.seal\(\{\n(.*?)^\}\);", re.M | re.S)
_SECTION = re.compile(r"^\s*// ([\w.]+)")
_FIELD = re.compile(r"\b(\w+): null\b")
_HEADER = re.compile(r"\s*(?:/\*.*?\*/\s*|//[^\n]*\n\s*)*", re.S)  # a file's leading comments
_TAKE = re.compile(r"const \{([^}]*)\} = (\w+);\s*")
_GIVE = re.compile(r"^return \{([^}]*)\};\s*\Z", re.M)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")


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
        if head := _SECTION.match(line):
            current = sections.setdefault(head.group(1), [])
        elif names := _FIELD.findall(line):
            if current is None:
                raise ValueError(f"{path}: fields before the first section: {names}")
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


def _check_file(name: str, src: str, known: dict[str, set[str]], declared: tuple[str, ...]):
    """Problems of one file: takes of undeclared or not yet given fields, takes it never uses,
    the registry reached outside the takes, gives other than its registry section."""
    problems = []
    if not src.startswith("/*"):
        problems.append(f"{name} does not start with a header comment saying what it is for")
    taken, start = takes(src)
    body = src[start:]
    for registry, names in taken:
        for n in names:
            if registry not in known:
                problems.append(f"{name} takes {n} from {registry}, which is no registry before it")
            elif n not in known[registry]:
                problems.append(f"{name} takes {n}, which no file before it gives to {registry}")
            elif not re.search(rf"(?<![\w$.]){re.escape(n)}(?![\w$])", body):
                problems.append(f"{name} takes {n} and never uses it")
    if reach := re.search(rf"\b({'|'.join(known)})\b", body):
        problems.append(f"{name} names the registry {reach.group(1)} outside its takes")
    given = gives(src)
    if given is None:
        problems.append(f"{name} does not end with `return {{ … }};` (what it gives)")
    elif sorted(given) != sorted(declared):
        problems.append(f"{name} gives {sorted(given)}; its section says {sorted(declared)}")
    return problems


def problems(packages: list[Package]) -> list[str]:
    """Everything wrong with a bundle of these packages, in order; [] when it is sound."""
    out: list[str] = []
    known: dict[str, set[str]] = {}  # registry → fields given so far
    owner: dict[str, str] = {}  # field → "REGISTRY.section": no name is given twice
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
            out += _check_file(p.prefix + name, src, known, reg.sections[name])
            known[reg.name] |= set(reg.sections[name])
    return out


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
