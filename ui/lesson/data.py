"""The lesson's numbers: for a sentence and the settings in force, what every scene draws (no st.*).

A "part" is one Lab as the browser reads it: JSON facts (tokens, sizes, jobs, the quiz) and
float32 arrays under a name prefix. The browser redoes only ÷τ, the mask, the softmax and
weights·V on the raw scores (softmax.js, tested against the core in Chromium).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from attention_core import experiments as ex
from attention_core import tokenize
from attention_core.analysis import attention_cost, rnn_states
from demo_model import describe_heads, job_onsets, load_demo_history, load_demo_model
from demo_model.data import evalset
from demo_model.lexicon import gender
from demo_model.metrics import RELATIONS
from demo_model.reading import ANSWER, NO_HEAD, PRONOUNS, best_head, read_token
from demo_model.relations import questions_of
from ui.gloss import gloss, named, short_gloss, tag_name
from ui.lesson import scenes
from ui.readings import TOLD
from ui.settings import head_options
from ui.state import Lab

# The scenes, as their own files declare them (ui/lesson/scenes.py): an 11th scene is its file,
# its text table (its words, its teacher's notes and its facts) and its tests: kit.js says how.
SCENES = len(scenes.SCENES)  # §1 … §10, the link's at=1 … 10
TRAINED_SCENES = tuple(s.number for s in scenes.SCENES if "trained" in s.needs)
PAIR = ("我打你", "你打我")  # §8, as in the article
ORDER_HEAD = 0  # §8: the one head its maps show, titled "head 1" by the view; its numbers are its

Say = Callable[..., str]  # t(key, **fmt) in the UI language


UNDER_CHARS = 8  # a gloss under a token in a row of tokens: "walk", not "walk / leave"


def under_gloss(text: str, lang: str) -> str | None:
    """The gloss under a token in a row of them: short, and none for a function word whose
    gloss would be cut ("(object mar…" says nothing)."""
    word = short_gloss(text, lang, UNDER_CHARS)
    return None if word and word.startswith("(") and word.endswith("…") else word


def tokens_of(lab: Lab, lang: str) -> list[dict]:
    """Each token as the deck shows it: text, POS tag and its name, English gloss (whole; as a
    sentence names the token, “小明 (Xiaoming, name)”, “了₂”; short, under the token in a row)."""
    return [
        {
            "t": tok.text,
            "tag": tok.tag,
            "tag_name": tag_name(tok.tag, lang),
            "gloss": gloss(tok.text),
            "named": named(lab.texts, i, lang),
            "under": under_gloss(tok.text, lang),
        }
        for i, tok in enumerate(lab.tokens)
    ]


def lab_part(lab: Lab, prefix: str, focus: str, lang: str) -> tuple[dict, dict[str, np.ndarray]]:
    """Facts and arrays of one Lab: raw scores per head, Q/K/V, X and W_Q/W_K/W_V."""
    res = lab.result
    info = {
        "prefix": prefix,
        "n": len(lab.tokens),
        "h": lab.heads,
        "d_k": lab.d_k,
        "d_model": lab.d_model,
        "source": lab.source,
        "tokens": tokens_of(lab, lang),
        "focus": lab.focus(focus),
        "spread": qk_spread(lab),
    }
    arrays = {
        f"{prefix}scores": res.heads.scores,  # (h, n, n) raw q·kᵀ
        f"{prefix}q": res.q,  # (h, n, d_k)
        f"{prefix}k": res.k,  # (h, n, d_k)
        f"{prefix}v": res.v,  # (h, n, d_k)
    }
    if lab.x is not None:
        arrays[f"{prefix}x"] = lab.x  # (n, d_model)
        arrays[f"{prefix}rnn"] = rnn_states(lab.x)  # (n, d_model) a plain RNN's running state
    if lab.params is not None:
        for name in ("w_q", "w_k", "w_v"):
            arrays[f"{prefix}{name}"] = getattr(lab.params, name)  # (d_model, d_model)
    return info, arrays


def qk_spread(lab: Lab) -> dict:
    """§5's "why", apart from its condition (entries independent, mean 0, variance 1): the
    variance of this sentence's own q and k entries and raw scores per head; the scores' range."""
    res = lab.result
    h = lab.heads
    scores = res.heads.scores.reshape(h, -1)  # (h, n·n) raw q·k
    return {
        "q": [float(v) for v in res.q.reshape(h, -1).var(axis=1)],  # (h,) over n·d_k entries
        "k": [float(v) for v in res.k.reshape(h, -1).var(axis=1)],  # (h,)
        "s": [float(v) for v in scores.var(axis=1)],  # (h,)
        "range": [float(scores.min()), float(scores.max())],
    }


# A head's measured job in words (its hits on the human-written evaluation set, the counts
# stored with the weights: describe_heads), per relation; a head without a job names the one it
# comes closest to. Keys written out, so a grep finds each use.
JOB_KEYS = {
    "pronoun_antecedent": "lesson.job.pronoun_antecedent",
    "verb_subject": "lesson.job.verb_subject",
    "modifier_noun": "lesson.job.modifier_noun",
    "self": "lesson.job.self",
    "previous": "lesson.job.previous",
}
REL_KEYS = {
    "pronoun_antecedent": "lesson.rel.pronoun_antecedent",
    "verb_subject": "lesson.rel.verb_subject",
    "modifier_noun": "lesson.rel.modifier_noun",
    "self": "lesson.rel.self",
    "previous": "lesson.rel.previous",
}


def job_words(head, say: Say) -> tuple[str, str]:
    """(its job, how well it does it): ("resolves 他/她/它", "hits of total test labels") from a
    HeadSummary and its hits on the human-written set, or ("no clear job", "at best …") for a
    head below the job threshold."""
    if head.relation in JOB_KEYS:
        words = head.relation in ("self", "previous")
        hits = say(
            "lesson.job.hits_words" if words else "lesson.job.hits",
            hits=head.hits,
            total=head.total,
        )
        return say(JOB_KEYS[head.relation]), hits
    rel = say(REL_KEYS[head.closest])
    return say("lesson.job.diffuse"), say(
        "lesson.job.closest", rel=rel, hits=head.hits, total=head.total
    )


def head_jobs(step: int | None, say: Say) -> list[dict]:
    """Per head of the trained model at a measured step: its job as measured, in words: name
    (a map's caption), hits (the counts) and label (both, where one line says it all)."""
    out = []
    heads = describe_heads(step)
    for h in heads:
        name, hits = job_words(h, say)
        label = say("lesson.job.full", job=name, hits=hits)
        clear = h.relation != "diffuse"
        best = best_head(heads, h.relation) if clear else None
        out.append(
            {
                "relation": h.relation,
                "label": label,
                "name": name,
                "measured": hits,
                "clear": clear,
                "hits": h.hits,
                "total": h.total,
                "heldout_hits": h.heldout_hits,
                "heldout_total": h.heldout_total,
                "read": best is not None and best.head == h.head,
            }
        )
    return out


@functools.lru_cache(maxsize=1)
def pronoun_sentences() -> int:
    """How many human-written test sentences carry a pronoun label (its labels are the pronoun
    head's total: 347 labels in 326 sentences); the files' lines, not tokenised."""
    rows = [row for path in evalset.ALL_SETS.values() for row in evalset.parse(path)]
    return sum(any(code == "P" for code, *_ in labels) for _, _, labels in rows)


def head_queries(lab: Lab, jobs: list[dict]) -> list[int | None]:
    """§6: per head, the first token of the sentence that asks the head's job (他 for the pronoun
    head, a verb for the verb head, a modifier for the modifier heads: relations.questions_of),
    or None when no token asks it (a head without a job, a sentence without a modifier)."""
    asks = [questions_of(lab.tokens, i) for i in range(len(lab.tokens))]
    return [next((i for i, q in enumerate(asks) if job["relation"] in q), None) for job in jobs]


def pronoun_quiz(lab: Lab, say: Say) -> dict | None:
    """§1's question "他 looks at which word?", judged by read_token: the measured pronoun head's
    pick is the answer only when its status is "answer"; otherwise the verdict says why not and
    still shows where the weight went. None without 他/她/它."""
    rows = [j for j, w in enumerate(lab.texts) if w in PRONOUNS]
    if not rows:
        return None
    i, weights = rows[0], lab.result.heads.weights  # (h, n, n)
    vocab = load_demo_model().vocab
    heads = describe_heads()
    reading = read_token(lab.tokens, i, weights, heads, vocab, relation="pronoun_antecedent")
    head = reading.head.head if reading.head else 0
    row = weights[head, i]  # (n,) where the weight went
    top = int(np.argmax(row))
    choices = quiz_choices(lab, i, top)
    return {
        "query": i,
        "head": head,
        "status": reading.status,
        "top": top,
        "choices": [
            {"i": j, "right": j == reading.answer, "why": s1_why(lab, reading, row, j, say)}
            for j in choices
        ],
        "judged": reading.answer is not None,
        "sentences": pronoun_sentences(),  # the human-written sentences its head's labels are in
    }


def s1_why(lab: Lab, reading, row: np.ndarray, j: int, say: Say) -> str:
    """Why choice j is right or wrong, or why nothing is judged (the reading is no answer)."""
    texts = lab.texts
    pct = lambda k: f"{row[k] * 100:.0f}%"  # noqa: E731
    top = int(np.argmax(row))
    q, head = texts[reading.query], reading.head
    n = head.head + 1 if head else 1
    if reading.status == ANSWER:
        fmt = {"q": q, "head": n, "hits": head.hits, "total": head.total}
        if j == top:
            return say("lesson.s1.right", k=texts[j], w=pct(j), **fmt)
        return say("lesson.s1.wrong", c=texts[j], wc=pct(j), k=texts[top], w=pct(top), **fmt)
    key = TOLD[reading.status].lesson
    if reading.rival is not None:  # AMBIGUOUS: who else fits, and why (the one gender rule)
        r = lab.tokens[reading.rival]
        key = "lesson.s1.ambiguous_name" if gender(r.text, r.tag) == "" else key
        return say(key, q=q, head=n, k=texts[top], w=pct(top), r=r.text)
    second = int(np.argsort(row, kind="stable")[-2]) if len(row) > 1 else top
    unknown = say("explorer.sep").join(texts[u] for u in reading.unknown)
    return say(
        key,
        q=q,
        head=n,
        k=texts[top],
        w=pct(top),
        b=texts[second],
        wb=pct(second),
        words=unknown,
        r=texts[second],
    )


def quiz_choices(lab: Lab, i: int, top: int | None, count: int = 3) -> list[int]:
    """The model's top key and the other nouns and names before the pronoun, in sentence order."""
    nouns = [
        j
        for j, tok in enumerate(lab.tokens)
        if j != i and tok.text not in PRONOUNS and tok.tag[:1] in ("n", "r") and j != top
    ]
    picked = ([top] if top is not None and top != i else []) + nouns[: count - 1]
    if len(picked) < count:  # a short sentence: any other word will do
        rest = [j for j in range(len(lab.tokens)) if j != i and j not in picked]
        picked += rest[: count - len(picked)]
    return sorted(picked)


def training_curve(head: int | None) -> dict | None:
    """§10: the pronoun head's hit rate on held-out sentences at every measured training step."""
    if head is None:
        return None
    history = load_demo_history()
    r = RELATIONS.index("pronoun_antecedent")
    return {
        "steps": [int(s) for s in history.eval_steps],
        "hits": [float(v) for v in history.relations[:, head, r, 0]],  # (E,)
        "onset": job_onsets()[head],
    }


def trained_part(
    lab: Lab, prefix: str, focus: str, sentence: str, say: Say, lang: str
) -> tuple[dict, dict[str, np.ndarray]]:
    """lab_part of the trained model, plus its heads' measured jobs before and after training,
    the step-0 scores (§6's switch), §1's quiz and §10's learning curve."""
    info, arrays = lab_part(lab, prefix, focus, lang)
    first = int(load_demo_history().steps[0])
    early = load_demo_model(step=first).run(sentence).attention
    start = early.heads.scores  # (h, n, n)
    if start.shape == arrays[f"{prefix}scores"].shape:
        arrays[f"{prefix}scores0"] = start
        arrays[f"{prefix}q0"], arrays[f"{prefix}k0"] = early.q, early.k  # §6's q–k map at step 0
    quiz = pronoun_quiz(lab, say)
    jobs = head_jobs(None, say)
    info.update(
        jobs=jobs,
        queries=head_queries(lab, jobs),
        jobs0=head_jobs(first, say),
        step=load_demo_model().step,
        step0=first,
        quiz=quiz,
        curve=training_curve(quiz["head"] if quiz and quiz["status"] != NO_HEAD else None),
    )
    return info, arrays


def scene_needs(lab_info: dict | None, trained_info: dict | None) -> dict[int, str]:
    """Per scene, the text key saying why this sentence cannot show it ("" = it can), from what
    each scene needs (ui/lesson/scenes.py)."""
    out = {}
    for scene in scenes.SCENES:
        need, k = scene.needs, scene.number
        info = trained_info if "trained" in need else lab_info
        out[k] = ""
        if info is None:
            out[k] = scenes.NEEDS["sentence"] if "sentence" in need else ""
        elif "two_tokens" in need and info["n"] < 2:
            out[k] = scenes.NEEDS["two_tokens"]
        elif "pronoun" in need and trained_info is not None and trained_info.get("quiz") is None:
            out[k] = scenes.NEEDS["pronoun"]  # (one token says so first: nothing to look at)
    return out


def order_part(d_model: int, heads: int, seed: int) -> tuple[dict, dict[str, np.ndarray]]:
    """§8: 我打你 and 你打我 through the same random weights, without and with positions: the
    maps of one head (ORDER_HEAD) and how far they differ, cell for cell, in that head."""
    a, b = (tokenize(s).texts for s in PAIR)
    perm = ex.match_perm(a, b)
    k = ORDER_HEAD
    info: dict = {
        "a": a,
        "b": b,
        "perm": perm,
        "d_model": d_model,
        "h": heads,
        "seed": seed,
        "head": k,
    }
    info["under"] = {x: under_gloss(x, "en") for x in a}  # English glosses under the map's words
    arrays = {}
    for pos in (False, True):
        demo = ex.permutation_demo(a, perm, d_model, heads, pos=pos, seed=seed)
        arrays[f"o.a{int(pos)}"] = demo["a"].heads.weights[k]  # (n, n) the head shown
        arrays[f"o.b{int(pos)}"] = demo["b"].heads.weights[k]  # (n, n)
        back = demo["b_back"][k] - demo["a"].heads.weights[k]  # (n, n) B's map in A's order − A's
        info[f"diff{int(pos)}"] = float(np.max(np.abs(back)))  # that head's, not every head's
    return info, arrays


def heads_cost(n: int, d_model: int, heads: int) -> dict:
    """§6: counted FLOPs of one layer with h heads and with one head of the same width, and at
    every h the width offers (its d_k, FLOPs and h·n² score cells)."""
    many, one = attention_cost(n, d_model, heads), attention_cost(n, d_model, 1)
    costs = [(k, attention_cost(n, d_model, k)) for k in head_options(d_model)]
    rows = [
        {"h": k, "d_k": d_model // k, "flops": int(c.total), "cells": int(c.score_elements)}
        for k, c in costs
    ]
    return {
        "many": int(many.total),
        "one": int(one.total),
        "h": heads,
        "d_model": d_model,
        "n": n,
        "rows": rows,
    }
