"""Adam (Kingma & Ba, 2015), the optimiser that trains the demo model, over a dict of arrays."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Adam:
    """Adam over a dict of arrays: per name, running means of the gradient and its square."""

    lr: float  # step size (train.py sets it before every update: TrainConfig.lr_at)
    beta1: float = 0.9  # decay of the running mean of the gradient
    beta2: float = 0.999  # decay of the running mean of its square
    eps: float = 1e-8  # keeps the step finite where the gradient was always 0
    t: int = 0  # updates made so far
    m: dict = field(default_factory=dict)  # name -> running mean of the gradient
    v: dict = field(default_factory=dict)  # name -> running mean of its square

    def update(self, theta: dict, grads: dict) -> None:
        """One in-place step on theta: θ -= lr · m̂ / (√v̂ + eps), bias-corrected means."""
        self.t += 1
        for name, g in grads.items():
            m = self.m[name] = self.beta1 * self.m.get(name, 0.0) + (1 - self.beta1) * g
            v = self.v[name] = self.beta2 * self.v.get(name, 0.0) + (1 - self.beta2) * g * g
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            theta[name] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
