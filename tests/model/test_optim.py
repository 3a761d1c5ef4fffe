"""demo_model.optim: Adam's update by hand (Kingma & Ba, algorithm 1) and on the model's loss."""

import numpy as np
import pytest

from demo_model.network import backward, forward
from demo_model.optim import Adam


def test_the_first_step_moves_each_weight_by_lr_against_its_gradients_sign():
    """After one step m̂ = g and v̂ = g², so θ moves by lr · g / (|g| + eps) ≈ lr · sign(g)."""
    theta = {"w": np.array([1.0, -2.0, 3.0])}
    adam = Adam(lr=0.1)
    adam.update(theta, {"w": np.array([0.5, -4.0, 0.0])})
    np.testing.assert_allclose(theta["w"], [1.0 - 0.1 * 0.5 / (0.5 + 1e-8),
                                            -2.0 + 0.1 * 4.0 / (4.0 + 1e-8), 3.0])  # fmt: skip
    assert adam.t == 1
    tiny = {"w": np.array([0.0])}  # a gradient the size of eps: eps halves the step
    Adam(lr=0.1).update(tiny, {"w": np.array([1e-8])})
    assert tiny["w"][0] == pytest.approx(-0.05)


def test_two_steps_by_hand():
    theta, adam = {"w": np.array([0.0])}, Adam(lr=0.01, beta1=0.9, beta2=0.99)
    g1, g2 = 1.0, -3.0
    adam.update(theta, {"w": np.array([g1])})
    adam.update(theta, {"w": np.array([g2])})
    m = 0.9 * (0.1 * g1) + 0.1 * g2
    v = 0.99 * (0.01 * g1**2) + 0.01 * g2**2
    m_hat, v_hat = m / (1 - 0.9**2), v / (1 - 0.99**2)
    first = -0.01 * 1.0 / (1.0 + 1e-8)
    assert theta["w"][0] == pytest.approx(first - 0.01 * m_hat / (np.sqrt(v_hat) + 1e-8))
    assert set(adam.m) == set(adam.v) == {"w"}


def test_a_few_adam_steps_lower_the_loss(small):
    _, _, batch, theta = small
    theta = {k: v.copy() for k, v in theta.items()}
    adam, before = Adam(lr=0.01), forward(theta, batch, 2)["loss"]
    for _ in range(30):
        adam.update(theta, backward(theta, batch, forward(theta, batch, 2)))
    assert forward(theta, batch, 2)["loss"] < 0.8 * before
