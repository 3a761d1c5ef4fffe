"""Command line: `python -m demo_model` trains the demo model and writes assets/demo_model.npz.

`OPENBLAS_NUM_THREADS=1 python -m demo_model` takes about a minute of CPU; the matrices are
small, so a second BLAS thread only spins (same weights bit for bit). `--no-classes`,
`--no-chars`, `--no-context`, `--no-gender` and `--no-clauses` train the ablations MODEL.md
reports; `--seed` another draw of corpus and weights.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from demo_model.features import ModelConfig
from demo_model.metrics import head_table, numbers
from demo_model.model import DEMO_PATH
from demo_model.train import TrainConfig, save, train


def main(argv: list | None = None) -> None:
    """Command line: train with the default config and write assets/demo_model.npz."""
    parser = argparse.ArgumentParser(prog="python -m demo_model", description=__doc__)
    parser.add_argument("--out", type=Path, default=DEMO_PATH, help="where to write the .npz")
    parser.add_argument("--steps", type=int, default=TrainConfig.steps, help="Adam updates")
    parser.add_argument("--seed", type=int, default=TrainConfig.seed, help="corpus and init seed")
    parser.add_argument("--no-classes", action="store_true", help="ablation: no Cilin classes")
    parser.add_argument("--no-chars", action="store_true", help="ablation: no characters")
    parser.add_argument("--no-context", action="store_true", help="ablation: no neighbours")
    parser.add_argument("--no-gender", action="store_true", help="ablation: no genders")
    parser.add_argument("--no-clauses", action="store_true", help="ablation: no clause numbers")
    args = parser.parse_args(argv)
    checkpoints = (*(s for s in TrainConfig.checkpoints if s < args.steps), args.steps)
    mc = ModelConfig(
        classes=not args.no_classes, chars=not args.no_chars, context=not args.no_context,
        gender=not args.no_gender, clauses=not args.no_clauses,
    )  # fmt: skip
    config = TrainConfig(model=mc, steps=args.steps, checkpoints=checkpoints, seed=args.seed)
    start, cpu = time.perf_counter(), time.process_time()
    result = train(config)
    save(args.out, config, result)
    print("held-out split\n" + head_table(result["evals"][-1]))
    print("human-written set\n" + head_table(result["human"][-1]))
    print(numbers(result))
    size = args.out.stat().st_size / 1024
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    print(f"wrote {args.out} ({size:.0f} KiB) in {wall:.1f} s wall, {used:.1f} s CPU")


if __name__ == "__main__":
    main()
