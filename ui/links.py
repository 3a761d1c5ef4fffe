"""Share links: the address bar's query parameters ⇄ the Settings fields, bad values noticed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ui import text
from ui.settings import (
    D_MODEL_MAX,
    D_MODEL_MIN,
    D_MODEL_STEP,
    DEFAULTS,
    MAX_HEADS,
    SEED_MAX,
    Settings,
    nearest_heads,
)

if TYPE_CHECKING:
    from ui.state import Notice

MAX_URL_SENTENCE = 2000  # characters of the sentence written into the address bar
FOCUS_MAX = 100  # characters of the focus token kept from a link
_TRUE, _FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no")


def _short(value: str, limit: int = 40) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _bad(name: str, value: str, used: object) -> Notice:
    return ("warning", "notice.param_bad", {"name": name, "value": _short(value), "used": used})


def _clamped(name: str, value: str, used: object) -> Notice:
    return ("warning", "notice.param_clamped", {"name": name, "value": _short(value), "used": used})


# ---- the rules that read a parameter: (its name, the text in the link, the field's default,
# the rule's own arguments) → (the value, or None to leave the field unset; a notice or None)


def _parse_int(name: str, raw: str, default: int, lo: int, hi: int) -> tuple[int, Notice | None]:
    """An integer clamped to lo…hi; a non-number falls back to `default` with a notice."""
    try:
        value = int(raw.strip())
    except ValueError:
        return default, _bad(name, raw, default)
    used = min(max(value, lo), hi)
    return used, None if used == value else _clamped(name, raw, used)


def _parse_d_model(name: str, raw: str, default: int) -> tuple[int, Notice | None]:
    """d_model clamped to its range, then to the nearest multiple of D_MODEL_STEP (the slider's
    values); each change noticed with its own reason."""
    value, note = _parse_int(name, raw, default, D_MODEL_MIN, D_MODEL_MAX)
    stepped = max(D_MODEL_MIN, D_MODEL_STEP * round(value / D_MODEL_STEP))
    if note is None and stepped != value:
        fmt = {"name": name, "value": _short(raw), "step": D_MODEL_STEP, "used": stepped}
        note = ("warning", "notice.param_stepped", fmt)
    return stepped, note


def _parse_text(name: str, raw: str, default: str, limit: int | None = None) -> tuple[str, None]:
    """Free text, kept as written (its first `limit` characters)."""
    return raw[:limit], None


def _parse_flag(name: str, raw: str, default: bool) -> tuple[bool | None, Notice | None]:
    """1/0, true/false, on/off, yes/no in any case; anything else keeps the default, noticed."""
    word = raw.strip().lower()
    if word not in _TRUE + _FALSE:
        return None, _bad(name, raw, int(default))
    return word in _TRUE, None


def _parse_choice(
    name: str, raw: str, default: str, *allowed: str
) -> tuple[str | None, Notice | None]:
    """One word of `allowed`, in any case; anything else keeps the default, noticed."""
    word = raw.strip().lower()
    return (word, None) if word in allowed else (None, _bad(name, raw, default))


def _parse_lang(name: str, raw: str, default: str) -> tuple[str | None, Notice | None]:
    """A code of the UI languages as they are when the link is read (ui.text.LANGUAGES)."""
    return _parse_choice(name, raw, default, *text.LANGUAGES)


# ---- when a link carries a setting


def _always(settings: Settings) -> bool:
    return True


def _shared_differs(settings: Settings) -> bool:
    return settings.shared_scale != DEFAULTS.shared_scale


def _numbers_differ(settings: Settings) -> bool:
    return settings.numbers != DEFAULTS.numbers and not settings.classroom  # class=1 implies it


@dataclass(frozen=True)
class Param:
    """One link parameter: the Settings field it sets, the rule that reads it, when links carry
    it. Without a field it is a page's own (the page reads it): links keep it, unparsed."""

    field: str | None = None
    read: Callable[..., tuple] | None = None  # one of the _parse_… rules above
    args: tuple = ()  # the rule's own arguments after the default: bounds, choices, a length
    written: Callable[[Settings], bool] = _always  # carried by links made from these settings
    cut: int | None = None  # characters of the value written into a link


PAGE = Param()  # a parameter the page that uses it reads (the link keeps it, no notice)
# Every parameter a link may hold, in the order links write them (DESIGN.md "Share links"). A new
# one is one entry here: a Settings field and its rule, or PAGE and the page's own reading.
PARAMS = {
    "s": Param("sentence", _parse_text, cut=MAX_URL_SENTENCE),
    "d": Param("d_model", _parse_d_model),
    "h": Param("heads", _parse_int, (1, MAX_HEADS)),
    "scale": Param("scale", _parse_flag),
    "causal": Param("causal", _parse_flag),
    "pos": Param("pos", _parse_flag),
    "seed": Param("seed", _parse_int, (0, SEED_MAX)),
    "w": Param("weights", _parse_choice, ("random", "trained")),
    "focus": Param("focus", _parse_text, (FOCUS_MAX,)),
    "mode": Param("mode", _parse_choice, ("word", "char")),
    "lang": Param("lang", _parse_lang),
    "class": Param("classroom", _parse_flag),
    # The display switches go into links only when they differ from the defaults (shared=0,
    # nums=1): the link holds what the screen shows, and a default link stays short.
    "shared": Param("shared_scale", _parse_flag, written=_shared_differs),
    "nums": Param("numbers", _parse_flag, written=_numbers_differ),
    "head": PAGE,  # the main page's inspected head, 1-based (pages/main.py)
    "tau": PAGE,  # the attention view's temperature τ (pages/main.py)
    "nth": PAGE,  # which occurrence of the focus token the view looks from: 2 = the second 了
    "at": PAGE,  # the lesson's scene (pages/lesson.py; the deck writes it, no rerun)
    "step": PAGE,  # the lesson's step in its scene, 1-based as shown, or its id (the deck's)
    "presenter": PAGE,  # 1: the lesson's presenter window, the teacher's notes (pages/lesson.py)
    "room": PAGE,  # the class a teacher leads (classroom/; the secret is a cookie, never here)
    "join": PAGE,  # the class a phone joined: such a browser never gets the teacher's notes
}
QUERY_KEYS = tuple(name for name, param in PARAMS.items() if param.field)  # the settings'
# What a lesson link carries besides its scene and step (README "What a lesson link carries"):
# the sentence and the language always; the settings that make the sentence's numbers when they
# differ from the defaults. √d_k, the mask, τ, the focus and a head are each scene's own what-ifs.
LESSON_ALWAYS = ("s", "lang")
LESSON_MODEL = ("w", "d", "h", "seed", "pos", "mode")


def _parse_one(name: str, raw: str, found: dict) -> Notice | None:
    """Parse one known parameter into `found` (settings field → value); return its notice."""
    param = PARAMS[name]
    value, note = param.read(name, raw, getattr(DEFAULTS, param.field), *param.args)
    if value is not None:
        found[param.field] = value
    return note


def parse_query(params: dict[str, list[str]], *, trained_ok: bool) -> tuple[dict, list[Notice]]:
    """Query parameters (name → all its values) → settings fields to apply, and notices.

    Out-of-range numbers are clamped, unparseable values ignored, repeats use the first value,
    unknown names are listed; never raises.
    """
    found: dict = {}
    notes: list[Notice] = []
    unknown = [n for n in params if n not in PARAMS]
    for name in QUERY_KEYS:
        values = params.get(name) or []
        if not values:
            continue
        if len(values) > 1:
            notes.append(("warning", "notice.param_repeated", {"name": name}))
        note = _parse_one(name, str(values[0]), found)
        if note:
            notes.append(note)
    d_model = found.get("d_model", DEFAULTS.d_model)
    heads = found.get("heads", DEFAULTS.heads)
    if d_model % heads:
        used = nearest_heads(d_model, heads)
        notes.append(("warning", "notice.heads_adjusted", {"h": heads, "d": d_model, "used": used}))
        found["heads"] = used
    if found.get("weights") == "trained" and not trained_ok:
        found["weights"] = "random"
        notes.append(("warning", "side.weights_unavailable", {}))
    if unknown:
        names = ", ".join(_short(n, 20) for n in unknown[:8])
        notes.append(("info", "notice.param_unknown", {"names": names}))
    return found, notes


def _written(value: object, cut: int | None) -> str:
    """A setting as a link writes it: 1/0 for a switch, digits, the text (cut to `cut`)."""
    if isinstance(value, bool):
        return str(int(value))
    return str(value)[:cut]


def to_query(settings: Settings) -> dict[str, str]:
    """Settings → the share-link parameters named in DESIGN.md."""
    return {
        name: _written(getattr(settings, param.field), param.cut)
        for name, param in PARAMS.items()
        if param.field and param.written(settings)
    }


def lesson_query(settings: Settings) -> dict[str, str]:
    """Settings → what a lesson link carries (LESSON_ALWAYS, and LESSON_MODEL off default)."""

    def differs(name: str) -> bool:
        field = PARAMS[name].field
        return getattr(settings, field) != getattr(DEFAULTS, field)

    full = to_query(settings)
    keep = [*LESSON_ALWAYS, *(name for name in LESSON_MODEL if differs(name))]
    return {name: full[name] for name in keep if name in full}
