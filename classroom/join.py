"""The join link phones open (/lesson?join=CODE on the public origin), whether phones can reach
it, and its QR code, drawn here by segno (no online service)."""

from __future__ import annotations

import io
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import segno

ALL_ADDRESSES = ("0.0.0.0", "::", "")
NO_ROUTE = "10.255.255.255"  # any non-local address: a UDP "connect" sends nothing


@dataclass(frozen=True)
class Join:
    """The join link and whether phones can open it."""

    url: str  # e.g. "http://192.168.1.20:8501/lesson?join=K7MX2Q"
    reachable: bool  # False: served on loopback (or no network found): phones cannot open it
    reason: str  # "public_url", "lan", "address", "loopback" or "no_lan"

    def body(self) -> dict:
        return {"url": self.url, "reachable": self.reachable, "reason": self.reason}


def is_loopback(host: str) -> bool:
    """True for an address only this machine reaches (127.x, ::1, localhost)."""
    host = host.strip("[]")
    return host.startswith("127.") or host in ("localhost", "::1")


def lan_address() -> str | None:
    """This machine's address on its network (the one its default route leaves from), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect((NO_ROUTE, 1))
            address = sock.getsockname()[0]
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def _origin(scheme: str, host: str, port: int | None) -> str:
    host = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" + ("" if port in (None, default) else f":{port}")


def public_origin(
    host_header: str, scheme: str, *, public_url: str = "", listen_host: str = "127.0.0.1"
) -> tuple[str, bool, str]:
    """(origin, reachable, reason) of the address phones must use.

    `public_url` (PUBLIC_URL: a proxy's address) wins. Otherwise the port is the one the teacher's
    browser used (its Host header) and the host follows what the server listens on: a specific
    address is used as it is, all addresses (HOST=0.0.0.0) mean this machine's LAN address, and
    loopback means no phone can reach it."""
    if public_url:
        parts = urlsplit(public_url)
        return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}", True, "public_url"
    port = urlsplit(f"//{host_header}").port if host_header else None
    if listen_host in ALL_ADDRESSES:
        lan = lan_address()
        if lan is None:
            return _origin(scheme, "127.0.0.1", port), False, "no_lan"
        return _origin(scheme, lan, port), True, "lan"
    if is_loopback(listen_host):
        seen = urlsplit(f"//{host_header}").hostname or "127.0.0.1"
        return _origin(scheme, seen, port), False, "loopback"
    return _origin(scheme, listen_host, port), True, "address"


def join_link(code: str, origin: tuple[str, bool, str]) -> Join:
    """The join link of a class on a public origin (as public_origin gives it)."""
    base, reachable, reason = origin
    return Join(f"{base}/lesson?join={code}", reachable, reason)


def qr_svg(url: str) -> str:
    """A QR code of `url` as a standalone SVG with a viewBox and no size (the page sizes it):
    black modules on white with the standard 4-module quiet zone."""
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(
        out, kind="svg", xmldecl=False, border=4, omitsize=True, dark="#000", light="#fff",
        nl=False, title="QR",
    )  # fmt: skip
    return out.getvalue().decode()
