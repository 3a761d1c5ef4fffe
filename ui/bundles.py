"""The browser code's committed bundles over HTTP, each at a URL named by its content hash.

Under `streamlit run launcher.py` (make run, make serve, the tests, make load) the attention
view's bundle (ui/explorer/dist/view.js, 84 KB) is not sent in a component element over every
new session's websocket: the view's loader imports it from `/_lab/view.<hash>.js`, which
launcher.py serves from this module's route with `Cache-Control: immutable`. A browser fetches
it once per bundle version and then takes it (and V8 its compiled code) from its cache; the
server no longer serialises, hashes and compresses it per session. A new build has a new hash,
so no browser keeps a stale copy. `streamlit run app.py` (no launcher, no route) keeps the
element (ui/explorer `mount_code`): `served()` says which.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

ROOT = Path(__file__).resolve().parent
PREFIX = "/_lab/"
BUNDLES = {"view": ROOT / "explorer" / "dist" / "view.js"}  # name → the committed build
CACHE = "public, max-age=31536000, immutable"  # the name changes with the content
_routed = False  # True once launcher.py added the route (process-wide, set once)


@cache
def code(name: str) -> bytes:
    """A bundle's bytes as committed (read once per process)."""
    return BUNDLES[name].read_bytes()


@cache
def file_name(name: str) -> str:
    """`view.<first 16 hex of its sha256>.js`."""
    return f"{name}.{hashlib.sha256(code(name)).hexdigest()[:16]}.js"


def url(name: str) -> str:
    """The path the page imports the bundle from: `/_lab/view.<hash>.js`."""
    return PREFIX + file_name(name)


async def serve(request: Request) -> Response:
    """GET /_lab/{file}: a bundle under its current name, else 404 (an old hash included)."""
    wanted = request.path_params["file"]
    for name in BUNDLES:
        if wanted == file_name(name):
            headers = {"Cache-Control": CACHE, "X-Content-Type-Options": "nosniff"}
            return Response(code(name), media_type="text/javascript", headers=headers)
    return PlainTextResponse("no such bundle", status_code=404)


def routes() -> list[Route]:
    """The bundles' route for st.App (launcher.py); from then on `served()` is True."""
    global _routed
    _routed = True
    return [Route(PREFIX + "{file}", serve, methods=["GET"])]


def served() -> bool:
    """True in a process whose server has the route (launcher.py), False under
    `streamlit run app.py` and AppTest."""
    return _routed
