"""nginx's config for `make serve`: where nginx is, and deploy/nginx.conf.template filled in."""

from __future__ import annotations

import grp
import os
import re
from pathlib import Path

from deploy.children import find_binary

TEMPLATE = Path(__file__).with_name("nginx.conf.template")
NGINX_CANDIDATES = ("/usr/sbin/nginx", "nginx")
PLACEHOLDER = re.compile(r"@([A-Z_]+)@")


def find_nginx(explicit: str | None = None) -> str | None:
    """Path of the nginx binary (Debian puts it in /usr/sbin, often not on a user's PATH)."""
    return find_binary(NGINX_CANDIDATES, explicit)


def user_line() -> str:
    """nginx started as root drops its workers to nobody; as anyone else it stays who it is."""
    if os.geteuid() != 0:
        return ""
    try:
        grp.getgrnam("nogroup")
        return "user nobody nogroup;"
    except KeyError:
        return "user nobody;"


def render_config(values: dict[str, str]) -> str:
    """nginx.conf from the template: every @NAME@ outside comments must have a value."""
    lines = []
    for line in TEMPLATE.read_text(encoding="utf-8").splitlines():
        if not line.lstrip().startswith("#"):
            line = PLACEHOLDER.sub(lambda m: _value(values, m.group(1)), line)
        lines.append(line)
    return "\n".join(lines) + "\n"


def _value(values: dict[str, str], name: str) -> str:
    if name not in values:
        raise KeyError(f"nginx template placeholder @{name}@ has no value")
    return values[name]


def listen_address(host: str, port: int) -> str:
    """nginx's `listen` argument: IPv6 addresses go in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def server_lines(ports: list[int]) -> str:
    """The upstream's server lines: one per app process, passive health checks."""
    return "\n".join(
        f"        server 127.0.0.1:{port} max_fails=3 fail_timeout=10s;" for port in ports
    )
