"""A joined phone's token (classroom/tokens.py): signed for one class, one phone, one time;
anything else, or a token past its age, is nobody's."""

from __future__ import annotations

import base64
import hashlib
import hmac

import pytest

from classroom import tokens
from tests.classroom.class_support import PHONES

KEY = bytes(range(32))
NOW = 1_800_000_000


def test_a_token_names_its_phone_for_its_class_and_matches_an_independent_hmac():
    token = tokens.sign(KEY, "K7MX2Q", PHONES[0], NOW)
    phone, issued, mac = token.split(".")
    want = hmac.new(KEY, f"K7MX2Q\n{PHONES[0]}\n{NOW}".encode(), hashlib.sha256).digest()
    assert (phone, int(issued)) == (PHONES[0], NOW)
    assert base64.urlsafe_b64decode(mac + "=") == want
    assert tokens.phone_of(KEY, "K7MX2Q", token, NOW + 60, 3600) == PHONES[0]


@pytest.mark.parametrize(
    ("code", "token", "now"),
    [
        ("ABCDEF", tokens.sign(KEY, "K7MX2Q", PHONES[0], NOW), NOW),  # another class
        ("K7MX2Q", tokens.sign(b"x" * 32, "K7MX2Q", PHONES[0], NOW), NOW),  # another key
        ("K7MX2Q", tokens.sign(KEY, "K7MX2Q", PHONES[0], NOW), NOW + 3601),  # too old
        ("K7MX2Q", tokens.sign(KEY, "K7MX2Q", PHONES[0], NOW + 3600), NOW),  # from the future
        ("K7MX2Q", tokens.sign(KEY, "K7MX2Q", PHONES[0], NOW).replace(PHONES[0], PHONES[1]), NOW),
        ("K7MX2Q", tokens.sign(KEY, "K7MX2Q", PHONES[0], NOW)[:-1] + "A", NOW),
        ("K7MX2Q", tokens.sign(KEY, "K7MX2Q", PHONES[0], NOW) + "=", NOW),
        ("K7MX2Q", PHONES[0], NOW),
        ("K7MX2Q", None, NOW),
        ("K7MX2Q", "x" * 10_000, NOW),
    ],
)
def test_anything_else_is_nobody_s(code, token, now):
    assert tokens.phone_of(KEY, code, token, now, 3600) is None


def test_a_token_from_a_clock_a_little_ahead_still_passes():
    token = tokens.sign(KEY, "K7MX2Q", PHONES[0], NOW + tokens.SKEW_S - 1)
    assert tokens.phone_of(KEY, "K7MX2Q", token, NOW, 3600) == PHONES[0]
    assert len(tokens.sign(KEY, "K7MX2Q", "p" * 64, 10**11)) <= tokens.TOKEN_CAP
