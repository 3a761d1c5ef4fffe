"""The class's names: join codes, phone ids, step and question ids, the teacher's secret and the
cookies that carry it."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

# Easy to read off a projector and type on a phone: no 0/O and no 1/I to confuse.
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 6  # 32**6 ≈ 1.07e9 codes; guessing is rate limited (classroom/limits.py)
CODE_RE = re.compile(rf"[{ALPHABET}]{{4,6}}")  # codes of 4–6 characters are well formed
# A phone's id: random, made by the phone (e.g. 128 bits as base64url: 22 characters); the server
# signs it into the phone's token when it joins (classroom/tokens.py).
PHONE_RE = re.compile(r"[A-Za-z0-9_-]{22,64}")
# Scene, step, question and choice ids: short, ASCII, safe in a key, a header and JSON.
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")
SECRET_BYTES = 32  # the teacher's secret: 256 random bits, stored only as its SHA-256
COOKIE_PREFIX = "al_lead_"  # the teacher's cookie of class CODE is al_lead_CODE
MAKER_COOKIE = "al_maker"  # a random id per teacher's browser: its own budget of new classes


def new_code() -> str:
    """A random join code of CODE_LENGTH characters from ALPHABET."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: object) -> str | None:
    """The code as typed (any case, spaces around) in its stored form, or None if malformed."""
    if not isinstance(text, str):
        return None
    code = text.strip().upper()
    return code if CODE_RE.fullmatch(code) else None


def is_phone(phone: object) -> bool:
    """True for a well-formed phone id."""
    return isinstance(phone, str) and PHONE_RE.fullmatch(phone) is not None


def is_id(text: object) -> bool:
    """True for a well-formed scene, step, question or choice id."""
    return isinstance(text, str) and ID_RE.fullmatch(text) is not None


def new_secret() -> str:
    """The teacher's secret: it goes into the teacher's cookie and nowhere else."""
    return secrets.token_urlsafe(SECRET_BYTES)


def secret_hash(secret: str) -> str:
    """What the store keeps of a secret (256 random bits need no slow hash)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_matches(secret: str | None, stored: str | None) -> bool:
    """True when `secret` is the one whose hash is `stored` (constant-time comparison)."""
    if not secret or not stored or len(secret) > 100:
        return False
    return hmac.compare_digest(secret_hash(secret), stored)


def cookie_name(code: str) -> str:
    """The name of the cookie that holds class CODE's teacher's secret."""
    return f"{COOKIE_PREFIX}{code}"
