"""ui/bundles.py: the view's bundle at a URL named by its content, cached for good, and nothing
else under /_lab/ (the browser side: tests/browser/test_explorer.py)."""

from __future__ import annotations

import hashlib

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from ui import bundles
from ui.explorer import BUNDLE


@pytest.fixture
def client(monkeypatch):
    monkeypatch.setattr(bundles, "_routed", False)  # routes() marks this process: undone after
    app = Starlette(routes=bundles.routes())
    assert bundles.served()
    with TestClient(app) as c:
        yield c


def test_the_url_names_the_committed_bundles_sha256():
    digest = hashlib.sha256(BUNDLE.read_bytes()).hexdigest()
    assert bundles.url("view") == f"/_lab/view.{digest[:16]}.js"


def test_the_bundle_is_served_as_javascript_cached_for_good(client):
    got = client.get(bundles.url("view"))
    assert got.status_code == 200
    assert got.content == BUNDLE.read_bytes()
    assert got.headers["content-type"].startswith("text/javascript")
    assert "immutable" in got.headers["cache-control"]
    assert "max-age=31536000" in got.headers["cache-control"]


@pytest.mark.parametrize(
    "path",
    ["/_lab/view.0000000000000000.js", "/_lab/view.js", "/_lab/..%2Fbundles.py", "/_lab/deck.js"],
)
def test_anything_else_under_the_prefix_is_404(client, path):
    assert client.get(path).status_code == 404


def test_a_process_without_the_route_is_not_served(monkeypatch):
    monkeypatch.setattr(bundles, "_routed", False)
    assert not bundles.served()
