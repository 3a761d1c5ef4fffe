"""Benchmark of the numpy core: multi-head attention against its GEMM floor and torch; tiled memory.

Run: .venv/bin/python bench/core.py [--sizes 256 1024 4096] [--repeats 3] [--no-memory]
Prints Markdown tables; nothing is asserted (the machine is shared, timings are noisy).
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attention_core import init_params, multi_head_attention, scaled_dot_product_attention
from attention_core.attention import merge_heads, split_heads
from attention_core.fast import chunked_attention
from attention_core.tiled import tiled_attention
from bench.common import options

D_MODEL, HEADS, MIB = 512, 8, 2**20
CLOCK = time.perf_counter  # wall time; --cpu-time switches to process CPU time, one thread

try:
    import torch
except ImportError:  # optional: only for the comparison column
    torch = None


def gemm_floor(x: np.ndarray, p) -> None:
    """The matrix products of multi_head_attention alone (same shapes, same allocations)."""
    h = p.num_heads
    q = split_heads(x @ p.w_q, h)  # (h, n, d_k)
    k = split_heads(x @ p.w_k, h)  # (h, n, d_k)
    v = split_heads(x @ p.w_v, h)  # (h, n, d_k)
    s = q @ np.swapaxes(k, -1, -2)  # (h, n, n)
    merge_heads(s @ v) @ p.w_o  # (n, d_model)


def torch_attention(x, w) -> None:
    """torch CPU: the same projections, F.scaled_dot_product_attention, W_O."""
    n = x.shape[0]
    with torch.no_grad():
        q, k, v = ((x @ w[i]).view(n, HEADS, -1).transpose(0, 1) for i in range(3))  # (h, n, d_k)
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v)  # (h, n, d_k)
        o.transpose(0, 1).reshape(n, D_MODEL) @ w[3]  # (n, d_model)


def best_times(fns: dict, repeats: int) -> dict:
    """Minimum wall time of each function over `repeats` rounds, interleaved to share the noise."""
    times = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = CLOCK()
            fn()
            times[name].append(CLOCK() - start)
    return {name: min(ts) for name, ts in times.items()}


def time_table(sizes: list[int], repeats: int) -> None:
    p = init_params(D_MODEL, HEADS, seed=0, dtype=np.float32)
    title = f"multi_head_attention (chunked), d_model {D_MODEL}, {HEADS} heads, float32"
    print(f"\n### {title} (best of {repeats} interleaved rounds)\n")
    print("| n | numpy MHA (ms) | GEMM floor (ms) | MHA / floor | torch SDPA (ms) | MHA / torch |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        x = np.random.default_rng(n).standard_normal((n, D_MODEL)).astype(np.float32)
        fast = lambda x=x: multi_head_attention(x, p, attend=chunked_attention)  # noqa: E731
        fns = {"mha": fast, "gemm": lambda x=x: gemm_floor(x, p)}
        if torch is not None:
            xt, wt = (
                torch.from_numpy(x),
                [torch.from_numpy(w) for w in (p.w_q, p.w_k, p.w_v, p.w_o)],
            )
            fns["torch"] = lambda xt=xt, wt=wt: torch_attention(xt, wt)
        fns["mha"]()  # warm-up: page faults, thread pools
        t = best_times(fns, repeats)
        tt = t.get("torch")
        torch_cols = f"{tt * 1e3:.1f} | {t['mha'] / tt:.2f}×" if tt else "– | –"
        print(f"| {n} | {t['mha'] * 1e3:.1f} | {t['gemm'] * 1e3:.1f} | "
              f"{t['mha'] / t['gemm']:.2f}× | {torch_cols} |", flush=True)  # fmt: skip


def traced_peak(fn) -> tuple[int, float]:
    """Peak bytes that numpy allocated (tracemalloc) while running fn, and its wall time."""
    tracemalloc.start()
    start = time.perf_counter()
    fn()
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, elapsed


def memory_table(n_big: int, plain_sizes: list[int], block: int) -> None:
    d_k = 64
    print(f"\n### peak memory beyond the inputs, d_k {d_k}, float32 (tracemalloc)\n")
    print("| variant | n | peak (MiB) | time (s) | how |")
    print("|---|---:|---:|---:|---|")
    for n in sorted({*plain_sizes, n_big}):
        rng = np.random.default_rng(n)
        q, k, v = (rng.standard_normal((n, d_k)).astype(np.float32) for _ in range(3))
        peak, secs = traced_peak(lambda q=q, k=k, v=v: tiled_attention(q, k, v, block=block))
        print(f"| tiled (block {block}) | {n} | {peak / MIB:.1f} | {secs:.2f} | measured |")
        if n in plain_sizes:
            peak, secs = traced_peak(lambda q=q, k=k, v=v: scaled_dot_product_attention(q, k, v))
            print(f"| plain | {n} | {peak / MIB:.1f} | {secs:.2f} | measured |", flush=True)
        else:
            need = 3 * n * n * 4 + n * d_k * 4  # scores, scaled, weights (n, n) + output
            print(f"| plain | {n} | {need / MIB:.0f} | – | computed: 3·n²·4 B + output |")
        del q, k, v


def openblas_kernel() -> str:
    """The core type numpy's bundled OpenBLAS chose at run time (what OPENBLAS_CORETYPE sets)."""
    libs = Path(np.__file__).parent.parent / "numpy.libs"
    for path in libs.glob("*openblas*"):
        lib = ctypes.CDLL(str(path))
        for name in ("scipy_openblas_get_corename64_", "openblas_get_corename"):
            if hasattr(lib, name):
                getattr(lib, name).restype = ctypes.c_char_p
                return getattr(lib, name)().decode()
    return "unknown"


def use_cpu_time() -> None:
    """Re-run with OpenBLAS on one thread (it reads the variable at load), then time CPU seconds.

    A shared machine's load inflates wall time but hardly CPU time (page faults count as system
    time); the ratios then compare the work each variant does on one core.
    """
    global CLOCK
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    import attention_core.fast as fast

    fast.WORKERS = 1  # the chunked softmax's own threads (bench only)
    if torch is not None:
        torch.set_num_threads(1)
    CLOCK = time.process_time
    print("timing: process CPU time, 1 thread (OpenBLAS, torch and the softmax)")


def describe_machine() -> None:
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    env = {k: os.environ.get(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    build = blas.get("openblas configuration", blas.get("name"))
    print(f"python {platform.python_version()}, numpy {np.__version__} ({build}), "
          f"OpenBLAS kernel {openblas_kernel()}, cpus {os.cpu_count()}, {env}")  # fmt: skip
    if torch is not None:
        print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average {load} (other processes share the {os.cpu_count()} cores)")


def main(argv: list[str] | None = None) -> None:
    args = options(
        __doc__,
        argv,
        sizes=([256, 1024, 4096], "n of the time table"),
        repeats=(3, "interleaved rounds (the best counts)"),
        memory_n=(16384, "n for the tiled memory row"),
        plain_n=([2048, 4096], "n where plain memory is measured"),
        block=(128, "the tiled block"),
        no_memory=(False, "no memory table"),
        cpu_time=(False, "1 thread, CPU seconds (steadier when busy)"),
    )
    if args.cpu_time:
        use_cpu_time()
    describe_machine()
    time_table(args.sizes, args.repeats)
    if not args.no_memory:
        memory_table(args.memory_n, args.plain_n, args.block)


if __name__ == "__main__":
    main()
