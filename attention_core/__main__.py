"""Command line: python -m attention_core "句子" — tokens, tags and where the focus token looks."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import unicodedata
from dataclasses import dataclass

import numpy as np

from attention_core.attention import causal_mask, init_params, multi_head_attention
from attention_core.embed import build_inputs
from attention_core.tokenize import tokenize

EXAMPLE = "小明把书放在了桌子上，然后他走了。"
DEFAULT_HEADS, DEFAULT_D_MODEL = 4, 64
DEFAULT_FOCUS = "他"
MAX_D_MODEL = 4096  # four (d_model, d_model) float64 weights: 512 MiB at this width


@dataclass(frozen=True)
class Run:
    """Everything one invocation computed: tokens, settings and the attention result."""

    tokens: list  # Tokenized: Token(text, tag, start, end) with chars_cut / tokens_cut
    settings: dict
    attention: object  # MultiHeadResult
    focus: int  # index of the focus token
    x: np.ndarray  # (n, d_model) the input X the attention read


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
    p.add_argument("text", nargs="?", default=EXAMPLE, help=f"the sentence (default {EXAMPLE})")
    p.add_argument("--heads", type=_positive_int, help=f"heads h (default {DEFAULT_HEADS})")
    p.add_argument("--d-model", type=_positive_int, help=f"width (default {DEFAULT_D_MODEL})")
    p.add_argument("--no-scale", action="store_true", help="leave out the 1/√d_k scaling")
    p.add_argument("--causal", action="store_true", help="each token sees only earlier ones")
    p.add_argument("--positions", action="store_true", help="add sinusoidal positions to X")
    p.add_argument("--char", action="store_true", help="one token per character, not jieba words")
    p.add_argument("--seed", type=_seed,
                   help="seed of the random W_Q, W_K, W_V, W_O (default 0); token vectors "
                   "depend only on the token, as in the app")  # fmt: skip
    p.add_argument("--focus", help=f"token whose weights to show (default {DEFAULT_FOCUS})")
    p.add_argument("--weights", choices=("random", "trained"), default="random",
                   help="random projections, or the trained demo model")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    return p


def _check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Reject combinations argparse cannot see (exit status 2, one-line reason)."""
    if args.weights == "trained":
        given = [n for n in ("heads", "d_model", "seed") if getattr(args, n) is not None]
        given += [n for n in ("char", "causal", "positions") if getattr(args, n)]
        explicit = [f"--{n.replace('_', '-')}" for n in given]
        if explicit:
            parser.error(f"--weights trained fixes its own settings; drop {', '.join(explicit)}")
        if not _has_trained_model():
            parser.error("--weights trained needs attention_core.model.load_demo_model (missing)")
        return
    args.seed = 0 if args.seed is None else args.seed
    args.heads = args.heads or DEFAULT_HEADS
    args.d_model = args.d_model or DEFAULT_D_MODEL
    if args.d_model > MAX_D_MODEL:
        parser.error(f"--d-model {args.d_model} is too large; use at most {MAX_D_MODEL}")
    if args.d_model % args.heads:
        parser.error(f"--d-model {args.d_model} is not divisible by --heads {args.heads}")


def _has_trained_model() -> bool:
    try:
        return hasattr(importlib.import_module("attention_core.model"), "load_demo_model")
    except ImportError:
        return False


def _is_punct(token) -> bool:
    return token.tag == "x" and all(unicodedata.category(c)[0] in "PSZ" for c in token.text)


def _find_focus(tokens: list, focus: str | None) -> int:
    """Index of the first token equal to `focus`; default 他, else the last word token."""
    texts = [t.text for t in tokens]
    if focus is None:
        if DEFAULT_FOCUS in texts:
            return texts.index(DEFAULT_FOCUS)
        words = [i for i, t in enumerate(tokens) if not _is_punct(t)]
        return words[-1] if words else len(tokens) - 1
    if focus not in texts:
        raise ValueError(f"focus token {focus!r} is not in the sentence; tokens: {' '.join(texts)}")
    return texts.index(focus)


def _run_random(args: argparse.Namespace) -> tuple[list, np.ndarray, object, dict]:
    """The app's random lab: token vectors fixed per token, the seed draws W_Q … W_O only."""
    tokens = tokenize(args.text, mode="char" if args.char else "word")
    x = build_inputs(tokens, args.d_model, positions=args.positions)  # (n, d_model)
    params = init_params(args.d_model, args.heads, seed=args.seed)
    mask = causal_mask(len(tokens)) if args.causal else None
    used = {"causal": args.causal, "positions": args.positions,
            "mode": "char" if args.char else "word", "seed": args.seed}  # fmt: skip
    return tokens, x, multi_head_attention(x, params, scale=not args.no_scale, mask=mask), used


def _run_trained(args: argparse.Namespace) -> tuple[list, np.ndarray, object, dict]:
    """The demo model: jieba words, its own positions inside X, no mask, no seed."""
    from attention_core.model import load_demo_model

    model = load_demo_model()
    run = model.run(args.text, scale=not args.no_scale)
    used = {"causal": False, "positions": True, "mode": "word", "seed": None, "step": model.step}
    return run.tokens, run.x, run.attention, used


def compute(args: argparse.Namespace) -> Run:
    """Tokenize, embed and attend as the arguments say; library errors propagate."""
    run = _run_trained if args.weights == "trained" else _run_random
    tokens, x, att, used = run(args)
    h, d_model = att.q.shape[-3], att.output.shape[-1]
    settings = {"heads": h, "d_model": d_model, "d_k": d_model // h, "scale": not args.no_scale,
                **used, "weights": args.weights}  # fmt: skip
    return Run(tokens, settings, att, _find_focus(tokens, args.focus), x)


def display_width(text: str) -> int:
    """Terminal columns of `text`: wide and full-width (CJK) characters take two, marks none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def _pad(text: str, width: int, *, right: bool = False) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def format_table(run: Run) -> str:
    """One row per key token: its weight from the focus token in each head; * marks each max."""
    w = run.attention.heads.weights[..., run.focus, :]  # (h, n)
    h = w.shape[0]
    texts = [t.text for t in run.tokens]
    tw = max(display_width("token"), *map(display_width, texts))
    head = [f"head {i + 1}" for i in range(h)]
    lines = [f"{'#':>3}  {_pad('token', tw)}  {'tag':<4}  " + "  ".join(f"{c:>8}" for c in head)]
    best = np.argmax(w, axis=-1)  # (h,)
    for j, tok in enumerate(run.tokens):
        cells = [f"{w[i, j]:.4f}" + ("*" if best[i] == j else " ") for i in range(h)]
        row = f"{j:>3}  {_pad(tok.text, tw)}  {tok.tag:<4}  " + "  ".join(f"{c:>8}" for c in cells)
        lines.append(row.rstrip())
    return "\n".join(lines)


def format_text(run: Run) -> str:
    s = run.settings
    tokens = " ".join(f"{t.text}/{t.tag}" for t in run.tokens)
    scaling = "scaled by 1/√d_k" if s["scale"] else "not scaled"
    lines = [f"tokens ({len(run.tokens)}, {s['mode']} mode): {tokens}"]
    notice = _notice(run.tokens)
    if notice:
        lines.append(f"note: {notice}")
    if s["weights"] == "trained":
        source = f"weights=trained (step {s['step']}; its own positions, no seed)"
    else:
        source = f"weights=random seed={s['seed']}{' +positions' if s['positions'] else ''}"
    lines += [
        f"settings: d_model={s['d_model']} heads={s['heads']} d_k={s['d_k']} {scaling}"
        f"{' causal' if s['causal'] else ''} {source}",
        f"focus: {run.tokens[run.focus].text} (#{run.focus}) — its attention weights per head",
        format_table(run),
    ]
    return "\n".join(lines)


def _arr(a: np.ndarray) -> list:
    return np.round(np.asarray(a, dtype=float), 6).tolist()


def _notice(tokens) -> str | None:
    """What tokenize cut to respect its limits, or None."""
    return tokens.notice() if hasattr(tokens, "notice") else None


def to_json(run: Run) -> dict:
    """The whole result: tokens, settings, focus, per-head scores, scaled scores and weights."""
    att = run.attention
    return {
        "tokens": [
            {"text": t.text, "tag": t.tag, "start": t.start, "end": t.end} for t in run.tokens
        ],
        "notice": _notice(run.tokens),
        "settings": run.settings,
        "focus": {"index": run.focus, "text": run.tokens[run.focus].text},
        "focus_weights": _arr(att.heads.weights[..., run.focus, :]),  # (h, n)
        "x": _arr(run.x),  # (n, d_model) the input X
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
    _check_args(parser, args)
    try:
        run = compute(args)
    except (ValueError, TypeError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
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
