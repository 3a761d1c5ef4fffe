"""Command line: python -m attention_core "句子" — tokens, tags and where the focus token looks.

The command line is an app of the core, like the Streamlit one: it passes the trained demo model
(demo_model.DEMO) to the pipeline, the one place in attention_core/ that names it.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from dataclasses import dataclass

import numpy as np

from attention_core.pipeline import (
    DEFAULT_SENTENCE,
    MAX_D_MODEL,
    Lab,
    LabSettings,
    compute,
)
from demo_model import DEMO

TRAINED_FIXES = ("heads", "d_model", "seed", "char", "positions")  # the trained model's own


@dataclass(frozen=True)
class Run:
    """One invocation: the pipeline's Lab and the focus token whose weights are shown."""

    lab: Lab  # tokens, X, W, every step of attention and the record of what was used
    focus: int  # index of the focus token


def _int_at_least(least: int, what: str):
    """An argparse type: an integer ≥ least, else a one-line reason (exit status 2)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"expected {what}, got {value}")
        return value

    return parse


_positive_int = _int_at_least(1, "a positive integer")
_seed = _int_at_least(0, "a non-negative integer")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m attention_core",
        description="Self-attention on one sentence: jieba tokens, then each head's weights.",
    )
    p.add_argument(
        "text", nargs="?", default=DEFAULT_SENTENCE, help="the sentence (default %(default)s)"
    )
    p.add_argument("--heads", type=_positive_int, help=f"heads h (default {LabSettings.heads})")
    p.add_argument("--d-model", type=_positive_int,
                   help=f"width (default {LabSettings.d_model}, max {MAX_D_MODEL})")  # fmt: skip
    p.add_argument("--no-scale", action="store_true", help="leave out the 1/√d_k scaling")
    p.add_argument("--causal", action="store_true",
                   help="each token sees only earlier ones (trained: a what-if)")  # fmt: skip
    p.add_argument("--positions", action="store_true", help="add sinusoidal positions to X")
    p.add_argument("--char", action="store_true", help="one token per character, not jieba words")
    p.add_argument("--seed", type=_seed,
                   help="seed of the random W_Q, W_K, W_V, W_O (default 0); token vectors "
                   "depend only on the token, as in the app")  # fmt: skip
    p.add_argument("--focus", help="token whose weights to show (default: the trained "
                   f"model's {'/'.join(DEMO.focus_words)}, else the last word)")  # fmt: skip
    p.add_argument("--weights", choices=("random", "trained"), default="random",
                   help="random projections, or the trained demo model (its own d_model, "
                   "heads, words and positions)")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    return p


def settings_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> LabSettings:
    """The pipeline's settings from the arguments (LabSettings' defaults for sizes and seed not
    given); a bad combination exits 2 with the reason."""
    sizes = {"d_model": args.d_model, "heads": args.heads, "seed": args.seed}
    try:
        return LabSettings(
            sentence=args.text,
            mode="char" if args.char else "word",
            scale=not args.no_scale,
            causal=args.causal,
            pos=args.positions,
            weights=args.weights,
            **{k: v for k, v in sizes.items() if v is not None},
        )
    except (ValueError, TypeError) as err:
        parser.error(str(err))


def ignored_flags(args: argparse.Namespace) -> list[str]:
    """Flags given with --weights trained that the trained model overrides (the app greys them)."""
    if args.weights != "trained":
        return []
    given = [n for n in TRAINED_FIXES if getattr(args, n) not in (None, False)]
    return [f"--{n.replace('_', '-')}" for n in given]


def compute_run(settings: LabSettings, focus: str | None = None) -> Run:
    """The pipeline's Lab and the focus token; a focus missing from the sentence is an error."""
    lab = compute(settings, DEMO)
    if focus is not None and focus not in lab.texts:
        raise ValueError(
            f"focus token {focus!r} is not in the sentence; tokens: {' '.join(lab.texts)}"
        )
    return Run(lab, lab.focus(focus))


def display_width(text: str) -> int:
    """Terminal columns of `text`: wide and full-width (CJK) characters take two, marks none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def format_table(run: Run) -> str:
    """One row per key token: its weight from the focus token in each head; * marks each max."""
    w = run.lab.result.heads.weights[..., run.focus, :]  # (h, n)
    h = w.shape[0]
    tokens = run.lab.tokens
    tw = max(display_width("token"), *(display_width(t.text) for t in tokens))
    head = [f"head {i + 1}" for i in range(h)]
    lines = [f"{'#':>3}  {_pad('token', tw)}  {'tag':<4}  " + "  ".join(f"{c:>8}" for c in head)]
    best = np.argmax(w, axis=-1)  # (h,)
    for j, tok in enumerate(tokens):
        cells = [f"{w[i, j]:.4f}" + ("*" if best[i] == j else " ") for i in range(h)]
        row = f"{j:>3}  {_pad(tok.text, tw)}  {tok.tag:<4}  " + "  ".join(f"{c:>8}" for c in cells)
        lines.append(row.rstrip())
    return "\n".join(lines)


def format_text(run: Run) -> str:
    r, tokens = run.lab.record, run.lab.tokens
    listed = " ".join(f"{t.text}/{t.tag}" for t in tokens)
    scaling = "scaled by 1/√d_k" if r.scale else "not scaled"
    causal = " causal (a what-if: trained without a mask)" if r.causal_what_if else " causal"
    lines = [f"tokens ({len(tokens)}, {r.mode} mode): {listed}"]
    lines += [f"note: {n.text()}" for n in run.lab.notices]
    if r.source == "trained":
        source = f"weights=trained (step {r.step}; its own positions, no seed)"
    else:
        source = f"weights=random seed={r.seed}{' +positions' if r.pos else ''}"
    lines += [
        f"settings: d_model={r.d_model} heads={r.heads} d_k={r.d_k} {scaling}"
        f"{causal if r.causal else ''} {source}",
        f"focus: {tokens[run.focus].text} (#{run.focus}) — its attention weights per head",
        format_table(run),
    ]
    return "\n".join(lines)


def _arr(a: np.ndarray) -> list:
    return np.round(np.asarray(a, dtype=float), 6).tolist()


def to_json(run: Run) -> dict:
    """The whole result: tokens, notices, the record, focus, X and every step per head."""
    lab = run.lab
    att = lab.result
    notes = [{"code": n.code, **n.values, "text": n.text()} for n in lab.notices]
    return {
        "tokens": [
            {"text": t.text, "tag": t.tag, "start": t.start, "end": t.end} for t in lab.tokens
        ],
        "notices": notes,
        "notice": "; ".join(n["text"] for n in notes) or None,
        "settings": lab.record.as_dict(),  # what the numbers were computed with
        "focus": {"index": run.focus, "text": lab.tokens[run.focus].text},
        "focus_weights": _arr(att.heads.weights[..., run.focus, :]),  # (h, n)
        "x": _arr(lab.x),  # (n, d_model) the input X
        "scores": _arr(att.heads.scores),  # (h, n, n) raw q·kᵀ
        "scaled": _arr(att.heads.scaled),  # (h, n, n) after 1/√d_k (= scores if not scaled)
        "weights": _arr(att.heads.weights),  # (h, n, n)
        "output": _arr(att.output),  # (n, d_model)
    }


def _can_print(text: str) -> bool:
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a console without CJK shows escapes, not a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        run = compute_run(settings_of(parser, args), args.focus)
    except (ValueError, TypeError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if ignored_flags(args) and run.lab.source == "trained":
        print(f"note: --weights trained has its own d_model, heads, words and positions; "
              f"ignored {', '.join(ignored_flags(args))}", file=sys.stderr)  # fmt: skip
    text = json.dumps(to_json(run), ensure_ascii=False) if args.json else format_text(run)
    if args.json and not _can_print(text):
        text = json.dumps(to_json(run))  # \uXXXX escapes: still valid JSON on an ASCII console
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: not an error of ours
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
