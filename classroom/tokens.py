"""A joined phone's token: what the server signs when a phone joins a class, and its check.

    token = PHONE "." ISSUED "." base64url(HMAC-SHA256(key, CODE "\\n" PHONE "\\n" ISSUED))

PHONE is the phone's own random id (classroom/codes.py PHONE_RE), ISSUED the join's Unix time,
CODE the class's (not in the token: the request's path names it, so a token opens one class
only). The key is the class store's (one per Redis, shared by every app process; one per
process for the memory store), 32 random bytes that leave the store only for this module.
A valid signature proves the server let this phone join this class: such a request never
touches a guessing budget (classroom/limits.py), and only such phones' answers count.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from classroom.codes import PHONE_RE

KEY_BYTES = 32
MAC_CHARS = 43  # 32 bytes of HMAC-SHA256 as unpadded base64url
SKEW_S = 300  # a token issued this far "in the future" still passes (another machine's clock)
TOKEN_RE = re.compile(rf"({PHONE_RE.pattern})\.([0-9]{{1,12}})\.([A-Za-z0-9_-]{{{MAC_CHARS}}})")
TOKEN_CAP = 64 + 1 + 12 + 1 + MAC_CHARS  # characters of the longest well-formed token


def _mac(key: bytes, code: str, phone: str, issued: int) -> str:
    digest = hmac.new(key, f"{code}\n{phone}\n{issued}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign(key: bytes, code: str, phone: str, issued: int) -> str:
    """The token of `phone` that joined class `code` at `issued` (Unix seconds)."""
    return f"{phone}.{issued}.{_mac(key, code, phone, issued)}"


def phone_of(key: bytes, code: str, token: object, now: float, max_age_s: float) -> str | None:
    """The phone id of a token the server signed for class `code` within `max_age_s` of `now`,
    or None (malformed, another class's, forged, too old). Constant-time comparison."""
    if not isinstance(token, str) or len(token) > TOKEN_CAP:
        return None
    found = TOKEN_RE.fullmatch(token)
    if found is None:
        return None
    phone, issued, mac = found.group(1), int(found.group(2)), found.group(3)
    if not now - max_age_s <= issued <= now + SKEW_S:
        return None
    return phone if hmac.compare_digest(mac, _mac(key, code, phone, issued)) else None
