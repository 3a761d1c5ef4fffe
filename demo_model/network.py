"""The demo model's training maths: the core's attention batched with padding, the read-out
questions and their loss, and the backward pass by hand (numpy, no autograd).

forward() computes the same attention as attention_core.multi_head_attention on each sentence
(tests/model/test_network.py checks it), and backward() its exact gradients (checked against
finite differences).
"""

from __future__ import annotations

import numpy as np

from attention_core.attention import merge_heads, softmax, split_heads
from demo_model.batch import Batch


def _entries(ids: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The non-zero entries of padded (B, N, K) rows and weights: flat token index (b·N + n),
    table row and weight, each (E,), in token order."""
    b, n, k = np.nonzero(w)
    return b * w.shape[1] + n, ids[b, n, k], w[b, n, k]


def _sum_into(index: np.ndarray, vals: np.ndarray, size: int) -> np.ndarray:
    """out[i] = Σ vals[e] over entries e with index[e] = i: (E,) and (E, d) → (size, d), summed
    in entry order (one bincount over i·d + column)."""
    d = vals.shape[1]
    flat = (index[:, None] * d + np.arange(d)).ravel()  # (E·d,)
    return np.bincount(flat, weights=vals.ravel(), minlength=size * d).reshape(size, d)


def _lookup(table: np.ndarray, ids: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Σ_k w[..., k] · table[ids[..., k]]: (B, N, K) rows and weights → (B, N, d)."""
    tok, rows, wt = _entries(ids, w)
    n_batch, n_max, _ = w.shape
    vals = wt[:, None] * table[rows]  # (E, d)
    return _sum_into(tok, vals, n_batch * n_max).reshape(n_batch, n_max, -1)


def _scatter(table: np.ndarray, ids: np.ndarray, w: np.ndarray, dx: np.ndarray) -> np.ndarray:
    """The gradient of a table used by _lookup: each row gets Σ w · dx of the tokens using it."""
    tok, rows, wt = _entries(ids, w)
    vals = wt[:, None] * dx.reshape(-1, dx.shape[-1])[tok]  # (E, d)
    return _sum_into(rows, vals, len(table))


def gates(theta: dict) -> np.ndarray:
    """(L, h): how much question type r reads from head h, softmax over heads (rows sum to 1)."""
    return softmax(theta["gates"], axis=1)


def forward(
    theta: dict, batch: Batch, num_heads: int, *, scale: bool = True, focus: float = 0.0
) -> dict:
    """Loss and every intermediate; the attention equals multi_head_attention per sentence.

    Question type r reads the asking token's heads through a learned gate g_r (a softmax over
    the heads: concat_i with head h's block scaled by h·g_rh, then W_O), then its own matrix
    R_r, and scores every token j of the sentence by (…·R_r)·word_j: softmax, cross-entropy.
    With even gates this is the token's output y_i = concat_i·W_O, exactly.

    `focus` adds that much of ½·Σ_h (Σ_r g_rh)² − Σ_rh g_rh²: two question types reading the
    same head pay, a question type spreading over heads pays. Which head each question comes
    to read, and what that head looks at, is learned; the answers are never in this term.
    """
    cls_e = _lookup(theta["classes"], batch.cls_ids, batch.cls_w)  # (B, N, d_embed)
    chr_e = _lookup(theta["chars"], batch.chr_ids, batch.chr_w)  # (B, N, d_embed)
    around = theta["before"][batch.before] + theta["after"][batch.after]  # (B, N, d)
    x = (
        theta["tags"][batch.tags]
        + batch.ctx[..., None] * around
        + batch.cl_w[..., None] * theta["clause"][batch.clause]
        + cls_e @ theta["class_proj"]
        + chr_e @ theta["char_proj"]
        + batch.gen_w[..., None] * theta["genders"][batch.gender]
        + batch.fixed
    )  # (B, N, d)
    q = split_heads(x @ theta["w_q"], num_heads)  # (B, h, N, d_k)
    k = split_heads(x @ theta["w_k"], num_heads)  # (B, h, N, d_k)
    v = split_heads(x @ theta["w_v"], num_heads)  # (B, h, N, d_k)
    c = 1 / np.sqrt(q.shape[-1]) if scale else 1.0
    keys = batch.valid[:, None, None, :]  # (B, 1, 1, N)
    a = softmax(np.where(keys, c * (q @ np.swapaxes(k, -1, -2)), -np.inf))  # (B, h, N, N)
    concat = merge_heads(a @ v)  # (B, N, d)
    g = gates(theta)  # (L, h)
    cols = num_heads * np.repeat(g, q.shape[-1], axis=1)  # (L, d) each head's block scaled
    gated = concat[batch.qb, batch.qi] * cols[batch.qr]  # (Q, d)
    asked = gated @ theta["w_o"]  # (Q, d)
    read = np.zeros_like(asked)  # (Q, d): asked · R_r, one matmul per question type
    for r, table in enumerate(theta["readout"]):
        read[batch.qr == r] = asked[batch.qr == r] @ table
    cand = batch.words[batch.qb]  # (Q, N, d)
    logits = (cand @ read[:, :, None])[..., 0]  # (Q, N)
    p = softmax(np.where(batch.valid[batch.qb], logits, -np.inf))  # (Q, N)
    picked = p[np.arange(len(p)), batch.qt]
    loss = -np.mean(np.log(np.maximum(picked, 1e-300)))
    spread = 0.5 * np.sum(g.sum(0) ** 2) - np.sum(g**2)
    out = dict(x=x, q=q, k=k, v=v, c=c, a=a, concat=concat, y=concat @ theta["w_o"])
    out |= dict(cls_e=cls_e, chr_e=chr_e, g=g, cols=cols, gated=gated, asked=asked, read=read)
    return {**out, "focus": focus, "cand": cand, "p": p, "ce": loss, "loss": loss + focus * spread}


def backward(theta: dict, batch: Batch, fw: dict) -> dict:
    """Gradients of the loss with respect to every parameter in theta."""
    nq = len(batch.qb)
    dlogits = fw["p"].copy()  # (Q, N)
    dlogits[np.arange(nq), batch.qt] -= 1.0
    dlogits /= nq
    dread = (dlogits[:, None, :] @ fw["cand"])[:, 0]  # (Q, d)
    grads = {"readout": np.zeros_like(theta["readout"])}  # (L, d, d)
    dasked = np.zeros_like(dread)  # (Q, d)
    for r, table in enumerate(theta["readout"]):
        mine = batch.qr == r
        grads["readout"][r] = fw["asked"][mine].T @ dread[mine]
        dasked[mine] = dread[mine] @ table.T
    grads["w_o"] = fw["gated"].T @ dasked  # (d, d)
    dgated = dasked @ theta["w_o"].T  # (Q, d)
    n_batch, n_max, d = fw["concat"].shape
    h = fw["q"].shape[1]
    asking = batch.qb * n_max + batch.qi  # (Q,) flat index of each asking token
    dcols = _sum_into(batch.qr, dgated * fw["concat"][batch.qb, batch.qi], len(fw["g"]))
    dg = h * dcols.reshape(len(fw["g"]), h, -1).sum(-1)  # (L, h)
    g = fw["g"]
    dg += fw["focus"] * (g.sum(0) - 2 * g)  # d/dg of ½Σ_h (Σ_r g)² − Σ g²
    grads["gates"] = g * (dg - np.sum(g * dg, axis=1, keepdims=True))  # softmax Jacobian
    dcat = _sum_into(asking, dgated * fw["cols"][batch.qr], n_batch * n_max)  # (B·N, d)
    do = split_heads(dcat.reshape(n_batch, n_max, d), h)  # (B, h, N, d_k)
    a = fw["a"]
    da = do @ np.swapaxes(fw["v"], -1, -2)  # (B, h, N, N)
    dv = np.swapaxes(a, -1, -2) @ do  # (B, h, N, d_k)
    ds = a * (da - np.sum(da * a, axis=-1, keepdims=True)) * fw["c"]  # softmax Jacobian
    dq = ds @ fw["k"]  # (B, h, N, d_k)
    dk = np.swapaxes(ds, -1, -2) @ fw["q"]  # (B, h, N, d_k)
    dx = np.zeros_like(fw["x"])  # (B, N, d)
    for name, d_part in (("w_q", dq), ("w_k", dk), ("w_v", dv)):
        d_full = merge_heads(d_part)  # (B, N, d)
        grads[name] = _flat(fw["x"]).T @ _flat(d_full)  # (d, d)
        dx += d_full @ theta[name].T
    return grads | _input_grads(theta, batch, fw, dx)


def _input_grads(theta: dict, batch: Batch, fw: dict, dx: np.ndarray) -> dict:
    """Gradients of the embedding tables and projections from dL/dX (B, N, d)."""
    grads = {"tags": _one_hot(batch.tags[batch.valid], len(theta["tags"])).T @ dx[batch.valid]}
    dctx = (batch.ctx[..., None] * dx)[batch.valid]  # (T, d)
    for side in ("before", "after"):
        grads[side] = _one_hot(getattr(batch, side)[batch.valid], len(theta[side])).T @ dctx
    dcl = (batch.cl_w[..., None] * dx)[batch.valid]  # (T, d)
    grads["clause"] = _one_hot(batch.clause[batch.valid], len(theta["clause"])).T @ dcl
    dgen = (batch.gen_w[..., None] * dx)[batch.valid]  # (T, d)
    grads["genders"] = _one_hot(batch.gender[batch.valid], len(theta["genders"])).T @ dgen
    for table, proj, ids, w, e in (
        ("classes", "class_proj", batch.cls_ids, batch.cls_w, fw["cls_e"]),
        ("chars", "char_proj", batch.chr_ids, batch.chr_w, fw["chr_e"]),
    ):
        grads[proj] = _flat(e).T @ _flat(dx)  # (d_embed, d)
        grads[table] = _scatter(theta[table], ids, w, dx @ theta[proj].T)  # (rows, d_embed)
    return grads


def _flat(a: np.ndarray) -> np.ndarray:
    """(B, N, d) → (B·N, d): sums over sentences and tokens become one matmul."""
    return a.reshape(-1, a.shape[-1])


def _one_hot(index: np.ndarray, size: int) -> np.ndarray:
    """(k,) integer indices → (k, size) float rows of zeros with one 1 (a scatter as a matmul)."""
    out = np.zeros((len(index), size))
    out[np.arange(len(index)), index] = 1.0
    return out
