"""The tiny demo model trained in numpy, whose heads learn 他 → 小明: features, network, training,
reading rules, checkpoints; its corpus, word lists and evaluation sets live in data/.

It uses attention_core (the maths) and never the other way round: the app and the command line
hand DEMO to attention_core.pipeline.compute, which takes it as a TrainedWeights.
"""

from demo_model.demo import (
    DEMO,
    JOB_THRESHOLD,
    DemoHistory,
    DemoWeights,
    HeadSummary,
    describe_heads,
    job_onsets,
    load_demo_history,
    load_demo_model,
)

__all__ = [
    "DEMO",
    "JOB_THRESHOLD",
    "DemoHistory",
    "DemoWeights",
    "HeadSummary",
    "describe_heads",
    "job_onsets",
    "load_demo_history",
    "load_demo_model",
]
