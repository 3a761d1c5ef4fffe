"""Join codes, phone tokens, ids and the teacher's secret (classroom/codes.py)."""

from __future__ import annotations

import pytest

from classroom import codes


def test_codes_have_six_characters_without_0_o_1_i():
    made = {codes.new_code() for _ in range(2000)}
    assert len(made) > 1990  # random: 32**6 codes
    for code in made:
        assert len(code) == codes.CODE_LENGTH == 6
        assert set(code) <= set(codes.ALPHABET)
        assert not set(code) & set("0O1I")
        assert codes.normal_code(code) == code


@pytest.mark.parametrize(
    ("typed", "stored"),
    [(" k7mx2q ", "K7MX2Q"), ("ABCD", "ABCD"), ("abcdef", "ABCDEF"), ("K7MX2", "K7MX2")],
)
def test_a_code_is_read_in_any_case_with_spaces_around(typed, stored):
    assert codes.normal_code(typed) == stored


@pytest.mark.parametrize(
    "typed", ["K7O", "ABC", "ABCDEFG", "K7MX20", "K7MX2I", "K7-MX2", "", None, 7]
)
def test_malformed_codes_are_refused(typed):
    assert codes.normal_code(typed) is None


def test_phone_tokens_are_22_to_64_url_safe_characters():
    assert codes.is_phone("A" * 22) and codes.is_phone("a-b_" * 16)
    for bad in ("A" * 21, "A" * 65, "A" * 21 + "/", "Ä" * 22, None, 12345678901234567890123):
        assert not codes.is_phone(bad), bad


def test_ids_are_short_ascii_and_start_with_a_letter_or_digit():
    for good in ("s1", "s2.query", "q:who", "A_b-c.d", "x" * 64):
        assert codes.is_id(good), good
    for bad in ("", "-s1", ".x", "x" * 65, "他", "a b", "a/b", None, 3):
        assert not codes.is_id(bad), bad


def test_the_secret_is_kept_only_as_its_hash():
    secret = codes.new_secret()
    stored = codes.secret_hash(secret)
    assert len(secret) >= 43 and secret not in stored
    assert codes.secret_matches(secret, stored)
    assert not codes.secret_matches(codes.new_secret(), stored)
    assert not codes.secret_matches(None, stored)
    assert not codes.secret_matches(secret, None)
    assert not codes.secret_matches("x" * 101, stored)
